// node --import tsx bench/list-profile.ts <database url> [people|partner] — where a list request's time
// goes (issue 27, fourth step). On a database a list benchmark kept (BENCH_KEEP=1 npm run bench:api or
// bench:partner-invoices), the real app answers N (500) list requests one after another through
// `inject` (no sockets), and every statement sent through `pg` is recorded. Printed: the Node process's
// and PostgreSQL's CPU per request, the statements per request, then each statement's server time and
// buffers by EXPLAIN (ANALYZE, BUFFERS) (PLANS=1 prints the plans). Add --cpu-prof to node's options for
// a profile of the Node side.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';
import { cpuSeconds } from './served';

const [databaseUrl, kind = 'people'] = process.argv.slice(2);
const N = Number(process.env.N ?? 500);
const PATHS = { people: '/api/user?search=priya%20patel&sort=email&direction=asc&per_page=25', partner: '/api/partner/invoice' } as const;
const LOGINS = { people: { url: '/api/login', payload: ADMIN }, partner: { url: '/api/partner/login', payload: { email: 'login@bench.test', password: 'bench-password' } } } as const;
const path = process.env.LIST_PATH ?? PATHS[kind as keyof typeof PATHS];

const seen = new Map<string, { values: unknown[]; count: number }>();
let isRecording = false;
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function query(this: unknown, ...args: any[]) {
  const text: string | undefined = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  if (isRecording && text) {
    const entry = seen.get(text) ?? { values: (typeof args[0] === 'string' ? args[1] : args[0]?.values ?? args[1]) ?? [], count: 0 };
    entry.count++;
    seen.set(text, entry);
  }
  return original.apply(this, args);
} as never;

const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'list-profile-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl, checkResponses: false }));
const login = LOGINS[kind as keyof typeof LOGINS];
const token = (await app.inject({ method: 'POST', url: login.url, payload: login.payload })).json().access_token as string;
const list = async () => {
  const answer = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
  if (answer.statusCode !== 200) throw new Error(answer.body);
  return answer;
};
for (let i = 0; i < 100; i++) await list();
const admin = new pg.Client({ connectionString: databaseUrl });
await admin.connect();
const backends = async () => (await admin.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((row) => row.pid as number);
const serverCpu = (pids: number[]) => pids.reduce((sum, pid) => { try { return sum + cpuSeconds(pid); } catch { return sum; } }, 0);
const pids = await backends();
const server0 = serverCpu(pids);
isRecording = true;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) await list();
const cpu = process.cpuUsage(cpu0);
isRecording = false;
const server = serverCpu([...new Set([...pids, ...(await backends())])]) - server0;
console.log(`${path}: wall ${((performance.now() - t0) / N).toFixed(2)} ms, Node CPU ${((cpu.user + cpu.system) / N).toFixed(0)} µs, PostgreSQL CPU ${((server / N) * 1e6).toFixed(0)} µs per request (load ${(await import('node:os')).loadavg()[0].toFixed(1)})`);
console.log(`statements per request: ${[...seen.values()].reduce((sum, entry) => sum + entry.count, 0) / N}`);
for (const [text, { values }] of seen) {
  let plan = '';
  // The third run's figures: the first ones pay for a cold cache.
  for (let i = 0; i < 3; i++) plan = (await admin.query({ text: `explain (analyze, buffers) ${text}`, values: values as unknown[] })).rows.map((row) => row['QUERY PLAN'] as string).join('\n');
  const hits = [...plan.matchAll(/shared hit=(\d+)/g)].map((m) => Number(m[1]));
  console.log(`\n${/Execution Time: ([\d.]+)/.exec(plan)?.[1]} ms execution, ${/Planning Time: ([\d.]+)/.exec(plan)?.[1]} ms planning, top buffers ${hits[0] ?? 0}, ${text.length} chars`);
  if (process.env.PLANS) console.log(`${text}\n${JSON.stringify(values)}\n${plan}`);
}
await admin.end();
await app.close();
