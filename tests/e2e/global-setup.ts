// Builds the production client for the e2e suite (the server under test serves dist/), beside the
// other tests rather than before them: the build keeps one core busy for most of a minute, while the
// other worker runs the unit and API files; a journey waits for it in startStack (clientBuilt below).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written into the build's folder when the build has ended: "ok", or why it failed. */
const MARKER = '.e2e-build';

export const clientDir = () => process.env.E2E_DIST || 'dist';

export default function setup() {
  // E2E_DIST builds elsewhere, so several checkouts' suites (or a running app) keep their own build.
  const outDir = clientDir();
  const marker = join(outDir, MARKER);
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(`${outDir}/index.html`)) {
    writeFileSync(marker, 'ok');
    return undefined;
  }
  rmSync(marker, { force: true });
  // vitest sets NODE_ENV=test, which would give a development build of React and of the service worker.
  const build = spawn('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, NODE_ENV: 'production' },
  });
  let errors = '';
  build.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); process.stderr.write(chunk); });
  build.on('exit', (code) => writeFileSync(marker, code === 0 ? 'ok' : `the client's build failed (exit ${code}):\n${errors}`));
  return () => { if (build.exitCode === null) build.kill(); };
}

/** Resolves once the build has ended; throws its errors if it failed. */
export async function clientBuilt(outDir = clientDir()): Promise<void> {
  const marker = join(outDir, MARKER);
  while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 250));
  const outcome = readFileSync(marker, 'utf8');
  if (outcome !== 'ok') throw new Error(outcome);
}
