// node --import tsx bench/plan-cache.ts <database url> [path] — custom against generic plans of each
// read one request sends (decision 055). Against a database seeded by
// `BENCH_KEEP=1 npm run bench:dashboard` (kept), the real app answers GET <path> (/api/dashboard) for
// the admin once; each statement it sent is then prepared on a connection of its own and run
// with the same values, five times under each plan_cache_mode: printed are the best round trip, the
// plan's estimated cost, its planning and its execution time. PostgreSQL keeps a generic plan only if
// its cost is no higher than the custom plans' average, so a generic plan priced far above is planned
// again on every call. PLANS=1 prints each plan too.
import { ADMIN } from '../tests/helpers/app';
import { bootApp, logIn, ownClient, perRequest, recorded, requester } from './profile';

const [databaseUrl, path = '/api/dashboard'] = process.argv.slice(2);
const app = await bootApp(databaseUrl);
const call = requester(app, await logIn(app, '/api/login', ADMIN));
const client = await ownClient(databaseUrl);
await perRequest(client, 1, () => call('GET', path));
await app.close();

const literal = (value: unknown) => (value === null ? 'null' : `'${String(value instanceof Date ? value.toISOString() : value).replace(/'/g, "''")}'`);
let index = 0;
// Reads only: a statement is run again ten times here, and the app's own (LISTEN, BEGIN) cannot be prepared.
for (const { text, values } of recorded().filter((statement) => /^\s*select\b/i.test(statement.text))) {
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
    if (process.env.PLANS) console.log(plan);
    console.log(`  ${mode.padEnd(19)} round trip ${best.toFixed(2)} ms, cost ${cost}, planning ${planning} ms, execution ${execution} ms`);
  }
}
await client.end();
