// Builds the production client once for the e2e suite (the server under test serves dist/).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function setup() {
  // E2E_DIST builds elsewhere, so several checkouts' suites (or a running app) keep their own build.
  const outDir = process.env.E2E_DIST || 'dist';
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(`${outDir}/index.html`)) return;
  // vitest sets NODE_ENV=test, which would give a development build of React and of the service worker.
  execSync(`npx vite build --logLevel warn --outDir ${outDir} --emptyOutDir`, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
