// What the profile scripts (dashboard-profile, list-profile, transition-profile) share, on PostgreSQL
// (issue 27): every statement the app sends through `pg` recorded and timed from the client's side;
// the real app booted on a database URL (migrations applied) and a caller logged in; the CPU of the Node
// process and of the PostgreSQL backends (/proc, when the server runs on this machine) over N requests;
// then each distinct statement's server time, planning time and buffers by EXPLAIN (ANALYZE, BUFFERS),
// run one at a time on a connection of its own inside a transaction rolled back (a decision writes).
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import type { Config } from '../src/server/config';
import { testConfig } from '../tests/helpers/app';
import { cpuSeconds } from './served';

export interface Recorded { text: string; values: unknown[]; count: number; ms: number[] }

type Query = (...args: unknown[]) => unknown;

/** The profile's own connections (its EXPLAINs, its look at pg_stat_activity): not the app's, not recorded. */
const own = new WeakSet<object>();
const seen = new Map<string, Recorded>();
let isRecording = false;

// A statement sent on a checked-out client (a transaction's) or straight through the pool, each counted
// once: the pool hands its query to a client with a callback, where the client returns no promise.
const record = (original: Query): Query => function query(this: object, ...args: any[]) {
  const started = performance.now();
  const result = original.apply(this, args) as Promise<unknown> | undefined;
  const text: string | undefined = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  if (!isRecording || own.has(this) || !text || typeof result?.then !== 'function') return result;
  const entry: Recorded = seen.get(text) ?? { text, values: (typeof args[0] === 'string' ? args[1] : args[0]?.values ?? args[1]) ?? [], count: 0, ms: [] };
  seen.set(text, entry);
  entry.count++;
  result.then(() => entry.ms.push(performance.now() - started), () => {});
  return result;
};
pg.Client.prototype.query = record(pg.Client.prototype.query as Query) as never;
pg.Pool.prototype.query = record(pg.Pool.prototype.query as Query) as never;

/** The statements recorded, each once, in the order first sent. */
export const recorded = (): Recorded[] => [...seen.values()];

/** The app on `databaseUrl`, its data directory a fresh temporary one, its log silent. */
export const bootApp = (databaseUrl: string, config: Partial<Config> = {}) =>
  buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'profile-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl, checkResponses: false, ...config }));

type App = Awaited<ReturnType<typeof bootApp>>;

/** A bearer token from a login route (`/api/login`, `/api/partner/login`). */
export async function logIn(app: App, url: string, payload: { email: string; password: string }): Promise<string> {
  const answer = await app.inject({ method: 'POST', url, payload: { email: payload.email, password: payload.password } });
  if (answer.statusCode !== 200) throw new Error(`${url}: ${answer.statusCode} ${answer.body}`);
  return answer.json().access_token as string;
}

/** A request as `token`, through `inject` (no sockets); anything but a 200 ends the profile. */
export const requester = (app: App, token: string) => async (method: 'GET' | 'POST', url: string, payload?: object) => {
  const answer = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  if (answer.statusCode !== 200) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
  return answer;
};

/** A connection of the profile's own to `databaseUrl`, its statements not recorded. */
export async function ownClient(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  own.add(client);
  await client.connect();
  return client;
}

export interface PerRequest { wallMs: number; nodeMs: number; serverMs: number; statements: number }

/**
 * `request` run `n` times one after another, statements recorded meanwhile: per request, the wall time,
 * the Node process's CPU, the CPU of the backends connected to the database (a connection the pool
 * opened meanwhile counts from zero), and the statements sent.
 */
export async function perRequest(admin: pg.Client, n: number, request: (i: number) => Promise<unknown>): Promise<PerRequest> {
  const backends = async () => (await admin.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((row) => row.pid as number);
  const serverCpu = (pids: number[]) => pids.reduce((sum, pid) => { try { return sum + cpuSeconds(pid); } catch { return sum; } }, 0);
  const pids = await backends();
  const server0 = serverCpu(pids);
  const counted0 = recorded().reduce((sum, entry) => sum + entry.count, 0);
  isRecording = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    for (let i = 0; i < n; i++) await request(i);
  } finally {
    isRecording = false;
  }
  const wallMs = (performance.now() - t0) / n;
  const cpu = process.cpuUsage(cpu0);
  const server = serverCpu([...new Set([...pids, ...(await backends())])]) - server0;
  const statements = (recorded().reduce((sum, entry) => sum + entry.count, 0) - counted0) / n;
  return { wallMs, nodeMs: (cpu.user + cpu.system) / 1000 / n, serverMs: (server / n) * 1000, statements };
}

/** `label` per request: wall, Node CPU, PostgreSQL CPU, then each statement recorded, most time first. */
export function printPerRequest(label: string, figures: PerRequest, n: number) {
  console.log(`per ${label}: wall ${figures.wallMs.toFixed(2)} ms, node cpu ${figures.nodeMs.toFixed(2)} ms, postgres cpu ${figures.serverMs.toFixed(2)} ms (its backends, from /proc; load ${loadavg()[0].toFixed(1)})`);
  console.log(`statements per ${label}: ${figures.statements}`);
  const rows = recorded().map((entry) => ({ entry, n: entry.count / n, mean: entry.ms.reduce((a, b) => a + b, 0) / Math.max(1, entry.ms.length) }));
  rows.sort((a, b) => b.mean * b.n - a.mean * a.n);
  for (const { entry, n: times, mean } of rows.slice(0, Number(process.env.TOP ?? 40))) {
    console.log(`${mean.toFixed(2).padStart(8)} ms x${times} ${String(entry.text.length).padStart(6)} chars  ${oneLine(entry.text).slice(0, Number(process.env.W ?? 160))}`);
  }
}

export interface Explained { text: string; values: unknown[]; executionMs: number; planningMs: number; topBuffers: number; plan: string }

const isExplainable = (text: string) => /^\s*(select|with|insert|update|delete|values)\b/i.test(text);

/**
 * Each recorded statement's server time by EXPLAIN (ANALYZE, BUFFERS), on `client`, the third run's
 * figures (the first ones pay for a cold cache), inside a transaction rolled back: what a statement
 * writes is undone. A statement EXPLAIN refuses is reported and skipped.
 */
export async function explainEach(client: pg.Client, runs = 3): Promise<Explained[]> {
  const explained: Explained[] = [];
  await client.query('begin');
  for (const { text, values } of recorded()) {
    if (!isExplainable(text)) continue;
    await client.query('savepoint explained');
    try {
      let plan = '';
      for (let i = 0; i < runs; i++) plan = (await client.query({ text: `explain (analyze, buffers) ${text}`, values })).rows.map((row) => row['QUERY PLAN'] as string).join('\n');
      const hits = [...plan.matchAll(/shared hit=(\d+)/g)].map((m) => Number(m[1]));
      explained.push({ text, values, plan, executionMs: Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1]), planningMs: Number(/Planning Time: ([\d.]+)/.exec(plan)?.[1]), topBuffers: hits[0] ?? 0 });
      await client.query('release savepoint explained');
    } catch (error) {
      await client.query('rollback to savepoint explained');
      console.log(`explain failed: ${String(error)}: ${oneLine(text).slice(0, 100)}`);
    }
  }
  await client.query('rollback');
  return explained.sort((a, b) => b.executionMs - a.executionMs);
}

/** The EXPLAINed statements, slowest first, with their sum; PLANS=<n> prints the plans of the n slowest. */
export function printExplained(explained: Explained[]) {
  console.log(`\nserver execution time, sequential, sum ${explained.reduce((sum, e) => sum + e.executionMs, 0).toFixed(2)} ms`);
  for (const e of explained) {
    console.log(`${e.executionMs.toFixed(3).padStart(9)} ms execution, ${e.planningMs.toFixed(3)} ms planning, top buffers ${e.topBuffers}, ${e.text.length} chars: ${oneLine(e.text).slice(0, 100)}`);
  }
  for (const e of explained.slice(0, Number(process.env.PLANS ?? 0))) console.log(`\n${e.text}\n${JSON.stringify(e.values)}\n${e.plan}`);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');
