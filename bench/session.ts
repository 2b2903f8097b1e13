// npm run bench:session — the authenticated token-only route (GET /api/get-laravel-permission-to-vue-js)
// at 50 connections on PostgreSQL, with the session cache (issue 27) and without it, beside the app's
// pipeline with no database (GET /sanctum/csrf-cookie) and a bare Fastify route, in one run, one
// server process at a time. Target (issue 27): the token-only route reaches at least 50% of the
// no-database pipeline. Method and results: docs/benchmarks.md "Cached session".
import { printResult, printTable, warmAndMeasure } from './measure';
import { createDatabase, withServer } from './served';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const TOKEN_ROUTE = '/api/get-laravel-permission-to-vue-js';

interface Served { port: number; token?: string }

const run = (name: string, url: string, token?: string) =>
  warmAndMeasure(name, { url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers: token ? { authorization: `Bearer ${token}` } : {} });

async function main() {
  const database = await createDatabase('bench_session');
  const app = new URL('./session.server.ts', import.meta.url);
  try {
    const bare = await withServer<Served, Awaited<ReturnType<typeof run>>>(new URL('./bare.server.ts', import.meta.url), [], (s) => run('bare Fastify route', `http://127.0.0.1:${s.port}/bare`));
    const [pipeline, uncached] = await withServer<Served, Awaited<ReturnType<typeof run>>[]>(app, ['uncached', database.url], async (s) => [
      await run('no-database pipeline (GET /sanctum/csrf-cookie)', `http://127.0.0.1:${s.port}/sanctum/csrf-cookie`),
      await run(`token-only route, token read from the database (${TOKEN_ROUTE})`, `http://127.0.0.1:${s.port}${TOKEN_ROUTE}`, s.token),
    ]);
    const cached = await withServer<Served, Awaited<ReturnType<typeof run>>>(app, ['cached', database.url], (s) => run(`token-only route, session cache (${TOKEN_ROUTE})`, `http://127.0.0.1:${s.port}${TOKEN_ROUTE}`, s.token));
    printTable([bare, pipeline, uncached, cached]);
    const ratio = (cached.rps / pipeline.rps) * 100;
    console.log(`\ncached token-only route = ${ratio.toFixed(1)}% of the no-database pipeline (uncached ${((uncached.rps / pipeline.rps) * 100).toFixed(1)}%), ${((cached.rps / bare.rps) * 100).toFixed(1)}% of bare; ${(cached.rps / uncached.rps).toFixed(2)}x uncached`);
    printResult('session_token_route', ratio, 'percent_of_no_database_pipeline', 50);
  } finally {
    await database.drop();
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
