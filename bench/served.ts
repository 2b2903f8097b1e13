// The scaffolding every PostgreSQL benchmark shares: a fresh database (BENCH_DATABASE_URL names the
// server), the benchmark's own server script forked on it, its "ready" message awaited, and both
// cleaned up whatever happens (BENCH_KEEP=1 keeps the database to look at).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `work` with what `serverScript` (forked on a new database) posts once it is ready. */
export async function withServedDatabase<Ready>(prefix: string, serverScript: URL, work: (ready: Ready, databaseUrl: string) => Promise<void>, execArgv: string[] = []): Promise<void> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  console.log(`database ${url}`);
  const child = fork(fileURLToPath(serverScript), [url.toString()], { execArgv: ['--import', 'tsx', ...execArgv] });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Ready));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    await work(ready, url.toString());
  } finally {
    child.kill();
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
