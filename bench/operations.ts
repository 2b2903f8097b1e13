// Issue 13's dashboard figures of onboarding and contracts at scale: with 100,000 onboarding tasks
// and 100,000 contracts on PostgreSQL, the two service functions the dashboard calls
// (overdueOnboardingTasks, expiringContracts) answer at 10 concurrent callers; the p95 of each is
// compared with the 100 ms target for the whole dashboard. Also times the daily overdue job
// over those tasks (reminders, then a second run that finds nothing) and the contract expiry job.
// Run: node --import tsx bench/operations.ts [--records=100000] [--seconds=10]   (npm run bench:operations)
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; the benchmark works
// in a database of its own, created and dropped here.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { expireContracts, expiringContracts } from '../src/server/modules/contract/service';
import { overdueOnboardingTasks, sendOverdueTaskReminders } from '../src/server/modules/onboarding/service';
import { today } from '../src/shared/dates';
import { testConfig } from '../tests/helpers/app';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const RECORDS = arg('records', 100_000);
const SECONDS = arg('seconds', 10);
const CONNECTIONS = 10;
const PEOPLE = Math.max(1, Math.ceil(RECORDS / 20));
const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try { return await work(client); } finally { await client.end(); }
}

/** `work` called back to back by CONNECTIONS callers for SECONDS: calls per second and latency percentiles. */
async function load(name: string, work: () => Promise<unknown>) {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const [before] = loadavg();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < until) {
      const started = performance.now();
      await work();
      latencies.push(performance.now() - started);
    }
  }));
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))].toFixed(1);
  return { name, calls: latencies.length, perSecond: Math.round(latencies.length / SECONDS), p50: at(0.5), p95: at(0.95), p99: at(0.99), load: before.toFixed(1) };
}

const name = `bo_bench_operations_${randomBytes(4).toString('hex')}`;
await admin((client) => client.query(`CREATE DATABASE ${name}`));
const url = new URL(serverUrl);
url.pathname = `/${name}`;
let app: FastifyInstance | undefined;
try {
  app = await buildApp(testConfig({ databaseUrl: url.toString(), inMemoryDatabase: false }));
  await app.ready();
  const db = app.db;
  const seeding = Date.now();
  await db.execute(sql`insert into users (name, email, password, user_type)
    select 'Person ' || i, 'person' || i || '@bench.test', 'x', case when i % 10 = 0 then 'manager' else 'user' end from generate_series(1, ${PEOPLE}::int) i`);
  // Each holds the role of their type: a notification goes only to people who can open its link (issue 20).
  await db.execute(sql`insert into model_has_roles (role_id, account_type, account_id)
    select r.id, 'app', u.id from users u join roles r on r.name = u.user_type and r.account_type = 'app' where u.email like '%@bench.test'`);
  await db.execute(sql`insert into clients (name) select 'Client ' || i from generate_series(1, 200) i`);
  const first = sql`(select min(id) from users where email like '%@bench.test')`;
  // One onboarding per 10 tasks; tasks due from 200 days ago to 100 days ahead, a third of them done.
  await db.execute(sql`insert into onboardings (person_name, manager_id, start_date, status)
    select 'Placed ' || i, ${first} + (i % ${PEOPLE}::int), current_date - (i % 300), 'Onboarding is in progress'
    from generate_series(1, ${Math.ceil(RECORDS / 10)}::int) i`);
  await db.execute(sql`insert into onboarding_tasks (onboarding_id, phase, title, assignee_id, due_date, status, completion_date)
    select (select min(id) from onboardings) + (i % ${Math.ceil(RECORDS / 10)}::int), 'onboarding', 'Task ' || i, ${first} + (i % ${PEOPLE}::int),
      current_date - 200 + (i % 300), case when i % 3 = 0 then 'done' else 'pending' end, case when i % 3 = 0 then current_date - 200 + (i % 300) end
    from generate_series(1, ${RECORDS}::int) i`);
  // Contracts ending from a year ago to two years ahead, in every status.
  await db.execute(sql`insert into contracts (po_number, client_id, owner_id, start_date, end_date, value, currency, status)
    select 'PO-' || i, (select min(id) from clients) + (i % 200), ${first} + (i % ${PEOPLE}::int), current_date - 400 + (i % 1000) - 365,
      current_date - 365 + (i % 1000), 1000 + i, 'EUR',
      (array['Active', 'Active', 'Renewal in progress', 'Expired', 'Expired New PO Released'])[1 + i % 5]
    from generate_series(1, ${RECORDS}::int) i`);
  // Vacuumed as autovacuum would leave a settled table: the counts can then read the indexes alone.
  await db.execute(sql`vacuum analyze`);
  console.log(`seeded ${PEOPLE} people, ${RECORDS} onboarding tasks (${Math.ceil(RECORDS / 10)} onboardings) and ${RECORDS} contracts in ${Date.now() - seeding} ms`);

  const on = today();
  const sample = await overdueOnboardingTasks(db, { on });
  const expiring = await expiringContracts(db, { on });
  console.log(`overdue tasks: ${sample.total}; contracts ending within 30 days: ${expiring.total}`);
  const results = [
    await load('overdueOnboardingTasks (all)', () => overdueOnboardingTasks(db, { on })),
    await load('overdueOnboardingTasks (one assignee)', () => overdueOnboardingTasks(db, { on, assigneeId: sample.items[0]?.assignee.id ?? 1 })),
    await load('expiringContracts (30 days)', () => expiringContracts(db, { on })),
  ];
  console.table(results);

  const timed = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    const value = await work();
    console.log(`${label}: ${(performance.now() - started).toFixed(0)} ms -> ${JSON.stringify(value)}`);
  };
  await timed('sendOverdueTaskReminders, first run', () => sendOverdueTaskReminders(app!, on));
  await timed('sendOverdueTaskReminders, same day again', () => sendOverdueTaskReminders(app!, on));
  await timed('expireContracts', () => expireContracts(app!, on));
  await timed('expireContracts, again', () => expireContracts(app!, on));
} finally {
  await app?.close();
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
