// node --import tsx bench/transition-profile.ts — where a time-sheet approval's time goes (issue 27,
// third step). On a fresh database seeded as bench/transition.server.ts seeds it (BENCH_SHEETS, 2,000
// here), the real app approves N (200) sheets one after another through `inject` (no sockets), and
// every statement sent through `pg` is recorded. Printed: the Node process's CPU per approval, the
// statements per approval with their text's size and client-side time, then each statement's server
// time and buffers by EXPLAIN (ANALYZE, BUFFERS) inside a rolled-back transaction.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { testConfig } from '../tests/helpers/app';
import { cpuSeconds } from './served';
import { seedTransitionBench } from './transition.server';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = Number(process.env.N ?? 200);
const seen = new Map<string, { values: unknown[]; ms: number[] }>();
let on = false;
// A statement sent on a checked-out client (a transaction's) or straight through the pool (a decision
// sent alone, decision 050), each counted once: the pool's hands its query to a client by callback.
const record = (original: (...args: unknown[]) => unknown) => function query(this: unknown, ...args: any[]) {
  const text: string | undefined = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  const started = performance.now();
  const result = original.apply(this, args) as Promise<unknown>;
  if (on && text && result && typeof (result as any).then === 'function') {
    const entry = seen.get(text) ?? { values: (typeof args[0] === 'string' ? args[1] : args[0]?.values ?? args[1]) ?? [], ms: [] as number[] };
    seen.set(text, entry);
    (result as Promise<unknown>).then(() => entry.ms.push(performance.now() - started), () => {});
  }
  return result;
} as never;
pg.Client.prototype.query = record(pg.Client.prototype.query as (...args: unknown[]) => unknown);
pg.Pool.prototype.query = record(pg.Pool.prototype.query as (...args: unknown[]) => unknown);

const name = `bench_transition_profile_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
try {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'prof-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl: url.toString() }));
  const { token, firstId } = await seedTransitionBench(app, Number(process.env.BENCH_SHEETS ?? 2_000));
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let next = firstId;
  const approve = async () => {
    const answer = await app.inject({ method: 'POST', url: `/api/time-sheet/${next++}/transitions/approve`, headers, payload: {} });
    if (answer.statusCode !== 200) throw new Error(answer.body);
  };
  for (let i = 0; i < 50; i++) await approve();
  // The database's side: its backends' CPU (from /proc) over the same approvals.
  const backends = async () => (await admin.query('select pid from pg_stat_activity where datname = $1', [name])).rows.map((row) => row.pid as number);
  const serverCpu = (pids: number[]) => pids.reduce((sum, pid) => { try { return sum + cpuSeconds(pid); } catch { return sum; } }, 0);
  const pids = await backends();
  const server0 = serverCpu(pids);
  on = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await approve();
  const cpu = process.cpuUsage(cpu0);
  on = false;
  // A connection the pool opened meanwhile counts from zero.
  const server = serverCpu([...new Set([...pids, ...(await backends())])]) - server0;
  console.log(`per approval: wall ${((performance.now() - t0) / N).toFixed(2)} ms, node cpu ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms, PostgreSQL cpu ${((server / N) * 1e3).toFixed(2)} ms`);
  const rows = [...seen].map(([text, { values, ms }]) => ({ text, values, n: ms.length / N, mean: ms.reduce((a, b) => a + b, 0) / ms.length }));
  console.log(`statements per approval: ${rows.reduce((s, r) => s + r.n, 0)}`);
  for (const r of rows) console.log(`${r.mean.toFixed(2).padStart(7)} ms x${r.n} ${String(r.text.length).padStart(6)} chars  ${r.text.replace(/\s+/g, ' ').slice(0, Number(process.env.W ?? 140))}`);
  // Each statement's own server time and buffers, on a sheet still pending, rolled back.
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query('begin');
  for (const r of rows) {
    if (/^(begin|commit|rollback)/i.test(r.text.trim())) continue;
    // The third run's figures: the first ones pay for a cold catalog cache.
    let plan: string[] = [];
    for (let i = 0; i < 3; i++) plan = (await client.query({ text: `explain (analyze, buffers) ${r.text}`, values: r.values as unknown[] })).rows.map((row) => row['QUERY PLAN'] as string);
    const total = plan.join('\n');
    const hits = [...total.matchAll(/shared hit=(\d+)/g)].map((m) => Number(m[1]));
    console.log(`\n${Number(/Execution Time: ([\d.]+)/.exec(total)?.[1]).toFixed(3)} ms server, ${/Planning Time: ([\d.]+)/.exec(total)?.[1]} ms planning, top buffers ${hits[0] ?? 0}: ${r.text.replace(/\s+/g, ' ').slice(0, 100)}`);
    if (process.env.PLANS) console.log(`${r.text}\n${JSON.stringify(r.values)}\n${total}`);
  }
  await client.query('rollback');
  // The server's CPU per statement (its backend's, from /proc), sent as it is now (parsed and planned each
  // time) and as a named statement (parsed once per connection, its plan cached): R (300) times each.
  const R = Number(process.env.R ?? 300);
  const backend = (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
  for (const r of rows) {
    if (/^(begin|commit|rollback)/i.test(r.text.trim())) continue;
    const cost = async (named: boolean) => {
      await client.query('begin');
      const before = cpuSeconds(backend);
      for (let i = 0; i < R; i++) await client.query({ ...(named ? { name: `profile_${r.text.length}` } : {}), text: r.text, values: r.values as unknown[] });
      const used = cpuSeconds(backend) - before;
      await client.query('rollback');
      return ((used / R) * 1e3).toFixed(3);
    };
    console.log(`backend CPU per execution: unnamed ${await cost(false)} ms, named ${await cost(true)} ms: ${r.text.replace(/\s+/g, ' ').slice(0, 80)}`);
  }
  await client.end();
  await app.db.execute(sql`select 1`);
  await app.close();
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
