// The server side of bench/transition.ts, in its own process: the real app on a fresh PostgreSQL
// database with SHEETS pending time sheets of engineers whose manager is the benchmark's caller.
// Reports {port, token, firstId} over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { testConfig } from '../tests/helpers/app';
import { assignRoles } from '../src/server/db/seed';
import { users } from '../src/server/db/schema/accounts';
import { hash } from '@node-rs/argon2';

const [databaseUrl] = process.argv.slice(2);
const SHEETS = Number(process.env.BENCH_SHEETS ?? 60_000);

/** The benchmark's data on `app`'s database: a manager, 100 engineers of theirs, `sheets` pending sheets; the manager's token. */
export async function seedTransitionBench(app: Awaited<ReturnType<typeof buildApp>>, sheets: number) {
  const password = await hash('bench-password');
  const [manager] = await app.db.insert(users).values({ name: 'Bench Manager', email: 'manager@bench.test', password, user_type: 'manager', email_verified_at: new Date() }).returning();
  await assignRoles(app.db, 'app', manager.id, ['manager']);
  await app.db.execute(sql`insert into users (name, email, password, user_type, parent_id, email_verified_at)
    select 'Engineer ' || i, 'engineer' || i || '@bench.test', ${password}, 'user', ${manager.id}, now() from generate_series(1, 100) i`);
  await app.db.execute(sql`insert into clients (name) values ('Bench Client')`);
  await app.db.execute(sql`insert into time_sheets (user_id, client_id, period_type, period_start, period_end, hours, file_key, file_name, file_size, file_mime)
    select (select id from users where email = 'engineer' || (1 + i % 100) || '@bench.test'), (select id from clients limit 1), 'week',
      date '2020-01-06' + (i / 100) * 7, date '2020-01-12' + (i / 100) * 7, 40, 'time-sheets/00000000-0000-0000-0000-000000000000', 'week.pdf', 100, 'application/pdf'
    from generate_series(1, ${sheets}) i`);
  await app.db.execute(sql`vacuum analyze`);
  const [{ id: firstId }] = ((await app.db.execute(sql`select min(id)::int as id from time_sheets`)) as unknown as { rows: { id: number }[] }).rows;
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'manager@bench.test', password: 'bench-password' } });
  return { token: login.json().access_token as string, firstId };
}

async function main() {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-transition-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl }));
  const { token, firstId } = await seedTransitionBench(app, SHEETS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port, token, firstId, count: SHEETS });
}

// Run as the benchmark's server only, not when bench/transition-profile.ts imports the seeding.
if (process.send) {
  process.on('SIGTERM', () => process.exit(0));
  main().catch((error) => { console.error(error); process.exit(1); });
}
