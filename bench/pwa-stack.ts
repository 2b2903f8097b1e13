// The production build served by the real server on a random port, and Debian's Chromium — shared by
// bench/bundle-size.ts and bench/lighthouse.ts. Run `npx vite build` first.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { buildApp } from '../src/server/app';
import { testConfig } from '../tests/helpers/app';

export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

export async function startServer() {
  if (!existsSync('dist/index.html')) throw new Error('No build in dist/: run "npx vite build" first.');
  // APP_ENV production: no Beta badge and no test hooks, as users get it.
  const app = await buildApp(testConfig({ clientDir: resolve('dist'), appEnv: 'production', appName: 'Staffing Back Office' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
