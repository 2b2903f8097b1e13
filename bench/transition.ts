// npm run bench:transition — a workflow transition (POST /api/time-sheet/{id}/transitions/approve,
// a different pending sheet each request) at 50 connections on PostgreSQL, beside the token-only
// route (GET /api/get-laravel-permission-to-vue-js) of the same server in the same run.
// Target (issue 9): the transition reaches at least 50% of the token-only route's throughput.
// Also each phase's CPU per request, of the app's process and of the database's backends (from /proc):
// load-independent where req/s is not. bench/transition-profile.ts takes one approval apart.
// Method and results: docs/benchmarks.md "Workflow transition" and its third step at the end.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { measure, printRatioResult, printTable } from './measure';
import { cpuSeconds } from './served';
import pg from 'pg';

const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Served { port: number; token: string; firstId: number; count: number }

async function main() {
  const name = `bench_transition_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  // BENCH_SYNC_COMMIT=off takes the disk's fsync out of each commit: what the app itself costs.
  if (process.env.BENCH_SYNC_COMMIT === 'off') await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const child = fork(fileURLToPath(new URL('./transition.server.ts', import.meta.url)), [url.toString()], { execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [])] });
  try {
    const served = await new Promise<Served>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Served));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${served.port}`;
    const headers = { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' };
    // Warm-up on the token route only: every transition consumes a pending sheet.
    await autocannon({ url: `${base}/api/get-laravel-permission-to-vue-js`, connections: CONNECTIONS, duration: 3, headers });
    // CPU per request (load-independent): the app's process and the database's backends, from /proc.
    const backends = async () => (await admin.query('select pid from pg_stat_activity where datname = $1', [name])).rows.map((row) => row.pid as number);
    // Per backend, so a connection that closed meanwhile is left out and one that opened counts from zero.
    type Used = { node: number; postgres: Map<number, number> };
    const used = async (): Promise<Used> => {
      const postgres = new Map<number, number>();
      for (const pid of await backends()) { try { postgres.set(pid, cpuSeconds(pid)); } catch { /* it just closed */ } }
      return { node: cpuSeconds(child.pid!), postgres };
    };
    const perRequest = (before: Used, after: Used, requests: number) => {
      let postgres = 0;
      for (const [pid, seconds] of after.postgres) postgres += seconds - (before.postgres.get(pid) ?? 0);
      return `app ${(((after.node - before.node) / requests) * 1e3).toFixed(2)} ms, PostgreSQL ${((postgres / requests) * 1e3).toFixed(2)} ms`;
    };
    const cpu0 = await used();
    const token = await measure('token-only route (GET /api/get-laravel-permission-to-vue-js)', { connections: CONNECTIONS, duration: DURATION_SECONDS, url: `${base}/api/get-laravel-permission-to-vue-js`, headers });
    const cpu1 = await used();
    let next = served.firstId;
    const transition = await measure('transition (POST /api/time-sheet/{id}/transitions/approve)', { connections: CONNECTIONS, duration: DURATION_SECONDS,
      url: base, method: 'POST', headers, body: '{}',
      requests: [{ setupRequest: (request) => ({ ...request, path: `/api/time-sheet/${next++}/transitions/approve` }) }],
    });
    const cpu2 = await used();
    if (next - served.firstId > served.count) console.error(`warning: ran out of pending sheets (${served.count}); raise BENCH_SHEETS`);
    console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each, PostgreSQL (synchronous_commit ${process.env.BENCH_SYNC_COMMIT === 'off' ? 'off' : 'on'}), one node\n`);
    printTable([token, transition]);
    console.log(`\nCPU per request: token-only route ${perRequest(cpu0, cpu1, token.ok)}; transition ${perRequest(cpu1, cpu2, transition.ok)}`);
    console.log(`\ntransition throughput = ${((transition.rps / token.rps) * 100).toFixed(1)}% of the token-only route (target >= 50%)`);
    printRatioResult('transition', transition, token, 50, 'percent_of_token_route');
  } finally {
    child.kill();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
