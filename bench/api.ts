// npm run bench:api — GET /api/user?search=&sort= (25 per page) at 50 connections on one node, on
// the embedded database and on PostgreSQL, beside a bare Fastify route, in one run.
// Also two ceilings on the PostgreSQL server (BENCH_CEILINGS=0 skips them).
// Method and results: docs/benchmarks.md "API list".
import autocannon from 'autocannon';
import { printResult } from './measure';
import { cpuPerRequest, createDatabase, withServer } from './served';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
// Requests sent after the timed runs on PostgreSQL to read Node's and PostgreSQL's CPU per request (/proc).
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 3000);
// A name as someone types it into the list's search box: 34 of the 100,000 seeded users match.
const LIST_PATH = '/api/user?search=priya%20patel&sort=email&direction=asc&per_page=25';

interface Served { port: number; token?: string; seedSeconds?: number }
interface Result { name: string; requests: number; rps: number; p50: number; p95: number; p99: number; p999: number; max: number; errors: number; seedSeconds?: number; cpu?: { nodeMicros: number; postgresMicros: number } }


/** autocannon reports fixed percentiles without p95, so every response time is kept and ranked here. */
async function measure(name: string, url: string, token?: string): Promise<Result> {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS, headers, timeout: 30 });
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, headers, timeout: 30 }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN;
  return {
    name, requests: result.requests.total, rps: result.requests.total / DURATION_SECONDS,
    p50: at(0.5), p95: at(0.95), p99: at(0.99), p999: at(0.999), max: times[times.length - 1] ?? NaN, errors: result.errors + result.non2xx + result.timeouts,
  };
}

/**
 * Ceilings, on the same PostgreSQL app server: what any route of this app costs before it does its
 * own work. A list can be no faster than the authenticated route that only reads the token.
 */
const CEILINGS = [
  ['/sanctum/csrf-cookie', "ceiling: the app's request pipeline, no database"],
  ['/api/get-laravel-permission-to-vue-js', 'ceiling: authenticated, the token round trip only'],
] as const;

async function run(kind: 'bare' | 'pglite' | 'postgres', databaseUrl?: string): Promise<Result[]> {
  const started = Date.now();
  const script = new URL(kind === 'bare' ? './bare.server.ts' : './api.server.ts', import.meta.url);
  return withServer<Served, Result[]>(script, kind === 'bare' ? [] : [kind, ...(databaseUrl ? [databaseUrl] : [])], async (served, pid) => {
    console.error(`${kind}: ready after ${((Date.now() - started) / 1000).toFixed(1)} s${served.seedSeconds ? ` (seeding ${served.seedSeconds.toFixed(1)} s)` : ''}`);
    const url = (path: string) => `http://127.0.0.1:${served.port}${path}`;
    if (kind === 'bare') return [await measure('bare Fastify route', url('/bare'))];
    const results: Result[] = [{ ...await measure(`GET ${LIST_PATH} (${kind})`, url(LIST_PATH), served.token), seedSeconds: served.seedSeconds }];
    if (kind === 'postgres' && process.env.BENCH_CEILINGS !== '0') {
      for (const [path, name] of CEILINGS) results.push(await measure(`${name} (${path})`, url(path), served.token));
    }
    if (kind === 'postgres') {
      const headers = { authorization: `Bearer ${served.token}` };
      const paths = [LIST_PATH, ...(results.length > 1 ? CEILINGS.map(([path]) => path) : [])];
      for (const [index, path] of paths.entries()) {
        results[index].cpu = await cpuPerRequest(pid, databaseUrl!, CPU_REQUESTS, () => autocannon({ url: url(path), connections: CONNECTIONS, amount: CPU_REQUESTS, headers, timeout: 30 }));
      }
    }
    return results;
  });
}

/** BENCH_TARGETS=bare,postgres runs a subset while iterating (the bare route is always measured). */
const TARGETS = (process.env.BENCH_TARGETS ?? 'bare,pglite,postgres').split(',');

async function main() {
  const results: Result[] = await run('bare');
  if (TARGETS.includes('pglite')) results.push(...await run('pglite'));
  if (TARGETS.includes('postgres')) {
    const database = await createDatabase('bench_api');
    try {
      results.push(...await run('postgres', database.url));
    } finally {
      await database.drop();
    }
  }
  const bare = results[0].rps;
  console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each (after ${WARMUP_SECONDS} s warm-up)\n`);
  console.log('| target | req/s | % of bare | p50 ms | p95 ms | p99 ms | p99.9 ms | max ms | errors | seed s | Node CPU µs/req | PostgreSQL CPU µs/req |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${((r.rps / bare) * 100).toFixed(1)}% | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.p999.toFixed(1)} | ${r.max.toFixed(1)} | ${r.errors} | ${r.seedSeconds?.toFixed(1) ?? ''} | ${r.cpu?.nodeMicros.toFixed(0) ?? ''} | ${r.cpu?.postgresMicros.toFixed(0) ?? ''} |`);
  }
  // Issue 27's figure: the people list (PostgreSQL) against the token-only route of the same server.
  const list = results.find((r) => r.name.endsWith('(postgres)'));
  const token = results.find((r) => r.name.startsWith('ceiling: authenticated'));
  if (list && token) printResult('people_list', (list.rps / token.rps) * 100, 'percent_of_token_route', 50);
  else printResult('people_list_vs_bare', ((results.at(-1)?.rps ?? 0) / bare) * 100, 'percent_of_bare', 0);
}

main().catch((error) => { console.error(error); process.exit(1); });
