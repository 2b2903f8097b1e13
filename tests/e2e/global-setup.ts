// Builds the production client once for the e2e suite (the server under test serves dist/).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function setup() {
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync('dist/index.html')) return;
  // vitest sets NODE_ENV=test, which would give a development build of React and of the service worker.
  execSync('npx vite build --logLevel warn', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
