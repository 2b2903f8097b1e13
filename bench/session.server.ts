// The server side of bench/session.ts and bench/pipeline.ts, in its own process: the real app on the
// given PostgreSQL database, signed in as the seeded admin. `uncached` turns the session cache off
// (every request reads its token from the database, as before issue 27). Reports {port, token} over IPC.
// BENCH_LOG=info keeps request logging on (to /dev/null), as a production node runs.
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [kind, databaseUrl] = process.argv.slice(2);
const logLevel = process.env.BENCH_LOG === 'info' ? 'info' : 'silent';

async function main() {
  const app = await buildApp(
    // As production answers: the tests' check of every answer against its schema (decision 029) stays off.
    testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-session-')), inMemoryDatabase: false, logLevel, databaseUrl, checkResponses: false }),
    logLevel === 'info' ? { logStream: createWriteStream('/dev/null') } : {},
  );
  if (kind === 'uncached') app.sessions.cache.get = () => undefined;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: ADMIN });
  process.send!({ port: (app.server.address() as { port: number }).port, token: login.json().access_token });
}

process.on('SIGTERM', () => process.exit(0));
main().catch((error) => { console.error(error); process.exit(1); });
