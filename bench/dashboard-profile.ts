// node --import tsx bench/dashboard-profile.ts <database url> — where a dashboard request's time goes
// (issue 27). Against a database seeded by `BENCH_KEEP=1 npm run bench:dashboard` (kept), the real app
// (migrations applied) answers GET /api/dashboard for the admin N (5) times one after another; every
// statement sent through `pg` is timed from the client's side. Printed: the wall time and the Node
// process's CPU time per request, the PostgreSQL backends' CPU time per request (/proc, when the server
// is local), the statements per request, then each distinct statement's server
// execution time by EXPLAIN ANALYZE (run one at a time afterwards, so it is the statement's own time
// without queueing) and their sum. PLANS=<n> prints the plans of the n slowest.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [databaseUrl] = process.argv.slice(2);
const timings = new Map<string, number[]>();
const valuesOf = new Map<string, unknown[]>();
let on = false;
function wrap(proto: any) {
  const original = proto.query as (...args: unknown[]) => unknown;
  proto.query = function query(this: unknown, ...args: any[]) {
    const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    if (on && text && !valuesOf.has(text)) valuesOf.set(text, typeof args[0] === 'string' ? (Array.isArray(args[1]) ? args[1] : []) : (args[0]?.values ?? (Array.isArray(args[1]) ? args[1] : [])));
    const started = performance.now();
    const result = original.apply(this, args) as Promise<unknown>;
    if (on && result && typeof (result as any).then === 'function') {
      (result as Promise<unknown>).then(() => { const list = timings.get(text) ?? []; list.push(performance.now() - started); timings.set(text, list); }, () => {});
    }
    return result;
  };
}
wrap(pg.Client.prototype); wrap(pg.Pool.prototype);
const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'prof-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl, checkResponses: false }));
const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN.email, password: ADMIN.password } });
const token = answer.json().access_token;
const call = () => app.inject({ method: 'GET', url: '/api/dashboard', headers: { authorization: `Bearer ${token}` } });
for (let i = 0; i < 3; i++) await call();
// The database server's CPU too, when it runs on this machine: the backends connected to this database
// (the app's pool), their utime + stime from /proc before and after, like the Node process's.
const backends = new pg.Client({ connectionString: databaseUrl });
await backends.connect();
const backendCpu = async () => {
  const { rows } = await backends.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  let ticks = 0;
  for (const { pid } of rows) { try { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); ticks += Number(f[11]) + Number(f[12]); } catch { /* not local */ } }
  return ticks * 10;
};
on = true;
const N = Number(process.env.N ?? 5);
const pg0 = await backendCpu();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
for (let i = 0; i < N; i++) { const r = await call(); if (r.statusCode !== 200) throw new Error(r.body); }
const cpu = process.cpuUsage(cpu0);
const pgCpu = (await backendCpu() - pg0) / N;
await backends.end();
console.log(`per request: wall ${((performance.now() - t0) / N).toFixed(1)} ms, node cpu ${((cpu.user + cpu.system) / 1000 / N).toFixed(1)} ms, postgres cpu ${pgCpu.toFixed(1)} ms (its backends, from /proc; 10 ms ticks)`);
on = false;
const rows = [...timings].map(([text, list]) => ({ text, n: list.length / N, mean: list.reduce((a, b) => a + b, 0) / list.length }));
rows.sort((a, b) => b.mean * b.n - a.mean * a.n);
console.log(`statements per request: ${rows.reduce((s, r) => s + r.n, 0)}`);
for (const r of rows.slice(0, Number(process.env.TOP ?? 40))) console.log(`${r.mean.toFixed(1).padStart(8)} ms x${r.n}  ${r.text.replace(/\s+/g, ' ').slice(0, Number(process.env.W ?? 300))}`);
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
on = false;
const explained: { ms: number; text: string; plan: string }[] = [];
for (const [text, values] of valuesOf) {
  if (!/^\s*select/i.test(text)) continue;
  let res: any; try { res = await (client as any).query({ text: `explain (analyze, buffers) ${text}`, values }); } catch (e) { console.log('explain failed', String(e), text.slice(0, 100)); continue; }
  const lines = res.rows.map((r: any) => r['QUERY PLAN']);
  const ms = Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? 0);
  explained.push({ ms, text, plan: lines.join('\n') });
}
explained.sort((a, b) => b.ms - a.ms);
console.log(`\nserver execution time, sequential, sum ${explained.reduce((s, e) => s + e.ms, 0).toFixed(1)} ms`);
for (const e of explained) console.log(`${e.ms.toFixed(2).padStart(9)} ms  ${e.text.replace(/\s+/g, ' ').slice(0, 160)}`);
if (process.env.PLANS) for (const e of explained.slice(0, Number(process.env.PLANS))) console.log(`\n${e.text}\n${e.plan}`);
await client.end();
await app.close();
