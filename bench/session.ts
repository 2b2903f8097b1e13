// npm run bench:session — the authenticated token-only route (GET /api/get-laravel-permission-to-vue-js)
// at 50 connections on PostgreSQL, with the session cache (issue 27) and without it, beside the app's
// pipeline with no database (GET /sanctum/csrf-cookie) and a bare Fastify route, in one run, one
// server process at a time. Target (issue 27): the token-only route reaches at least 50% of the
// no-database pipeline. Method and results: docs/benchmarks.md "Cached session".
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { type Measured, measure, printTable } from './measure';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = 3;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TOKEN_ROUTE = '/api/get-laravel-permission-to-vue-js';

interface Served { port: number; token?: string }

async function withServer<T>(kind: string, databaseUrl: string, run: (served: Served) => Promise<T>): Promise<T> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./session.server.ts', import.meta.url)), [kind, databaseUrl], { execArgv: ['--import', 'tsx'] });
  try {
    const served = await new Promise<Served>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Served));
      child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
    });
    return await run(served);
  } finally {
    child.kill('SIGTERM');
  }
}

async function run(name: string, url: string, token?: string): Promise<Measured> {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers, timeout: 30 });
  return measure(name, { url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers });
}

async function main() {
  const name = `bench_session_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  try {
    const bare = await withServer('bare', databaseUrl, (s) => run('bare Fastify route', `http://127.0.0.1:${s.port}/bare`));
    const [pipeline, uncached] = await withServer('uncached', databaseUrl, async (s) => [
      await run('no-database pipeline (GET /sanctum/csrf-cookie)', `http://127.0.0.1:${s.port}/sanctum/csrf-cookie`),
      await run(`token-only route, token read from the database (${TOKEN_ROUTE})`, `http://127.0.0.1:${s.port}${TOKEN_ROUTE}`, s.token),
    ]);
    const cached = await withServer('cached', databaseUrl, (s) => run(`token-only route, session cache (${TOKEN_ROUTE})`, `http://127.0.0.1:${s.port}${TOKEN_ROUTE}`, s.token));
    printTable([bare, pipeline, uncached, cached]);
    const ratio = (cached.rps / pipeline.rps) * 100;
    console.log(`\ncached token-only route = ${ratio.toFixed(1)}% of the no-database pipeline (uncached ${((uncached.rps / pipeline.rps) * 100).toFixed(1)}%), ${((cached.rps / bare.rps) * 100).toFixed(1)}% of bare; ${(cached.rps / uncached.rps).toFixed(2)}x uncached`);
    console.log(`RESULT session_token_route value=${ratio.toFixed(1)} unit=percent_of_no_database_pipeline target=50 met=${ratio >= 50 ? 'yes' : 'no'}`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
