// node --import tsx bench/plan-cache.ts <database url> [path] — custom against generic plans of each
// named statement one request sends (decision 055). Against a database seeded by
// `BENCH_KEEP=1 npm run bench:dashboard` (kept), the real app answers GET <path> (/api/dashboard) for
// the admin once; each named statement it sent is then prepared on a connection of its own and run
// with the same values, five times under each plan_cache_mode: printed are the best round trip, the
// plan's estimated cost, its planning and its execution time. PostgreSQL keeps a generic plan only if
// its cost is no higher than the custom plans' average, so a generic plan priced far above is planned
// again on every call.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [databaseUrl, path = '/api/dashboard'] = process.argv.slice(2);
const sent = new Map<string, unknown[]>();
let recording = false;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: typeof query }).query = function (this: pg.Client, ...args: unknown[]) {
  const config = args[0] as { name?: string; text?: string; values?: unknown[] } | string;
  if (recording && typeof config === 'object' && config.name && config.text && !sent.has(config.text)) sent.set(config.text, config.values ?? (args[1] as unknown[]) ?? []);
  return query.apply(this, args);
};

const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'plans-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl, checkResponses: false }));
const token = (await app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN.email, password: ADMIN.password } })).json().access_token;
recording = true;
await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
recording = false;
await app.close();

const literal = (value: unknown) => (value === null ? 'null' : `'${String(value instanceof Date ? value.toISOString() : value).replace(/'/g, "''")}'`);
const client = new pg.Client(databaseUrl);
await client.connect();
let index = 0;
for (const [text, values] of sent) {
  const name = `plan_cache_${index++}`;
  await client.query(`prepare ${name} as ${text}`);
  const execute = values.length ? `execute ${name}(${values.map(literal).join(', ')})` : `execute ${name}`;
  console.log(text.slice(0, 100).replace(/\s+/g, ' '));
  for (const mode of ['force_custom_plan', 'force_generic_plan']) {
    await client.query(`set plan_cache_mode = ${mode}`);
    let best = Infinity;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      await client.query(execute);
      best = Math.min(best, performance.now() - started);
    }
    const plan = (await client.query(`explain (analyze, summary) ${execute}`)).rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
    const cost = /cost=[\d.]+\.\.([\d.]+)/.exec(plan)?.[1];
    const planning = /Planning Time: ([\d.]+)/.exec(plan)?.[1];
    const execution = /Execution Time: ([\d.]+)/.exec(plan)?.[1];
    console.log(`  ${mode.padEnd(19)} round trip ${best.toFixed(2)} ms, cost ${cost}, planning ${planning} ms, execution ${execution} ms`);
  }
}
await client.end();
