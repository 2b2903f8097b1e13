// The server side of bench/api.ts, in its own process so the load generator does not share its
// event loop (the bare route is bench/bare.server.ts). `pglite` / `postgres`: the real app
// (buildApp) on a fresh database seeded with 100,000 users. Reports {port, token, seedSeconds} over IPC.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { seedUsers } from '../tests/helpers/seed-resources';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [kind, databaseUrl] = process.argv.slice(2);
const USERS = Number(process.env.BENCH_USERS ?? 100_000);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  // The parent ends this process with SIGTERM: the seeded database (330 MB on PGlite) goes with it.
  process.once('SIGTERM', () => { rmSync(dataDir, { recursive: true, force: true }); process.exit(0); });
  const app = await buildApp(testConfig({
    // As production serves: answers are written as they are, not first checked against their schema
    // as in the tests (decision 029), which cost the list more than its query.
    dataDir, inMemoryDatabase: false, logLevel: 'silent', checkResponses: false,
    ...(kind === 'postgres' ? { databaseUrl } : {}),
  }));
  const started = Date.now();
  const passwordHash = await hash('bench-password');
  // What a list row refers to in a real firm: an employee type, a manager, a country and one of its
  // cities (each shown by name, so each costs the list work), and the `user` role.
  await app.db.execute(sql`insert into employee_types (name) select 'Type ' || i from generate_series(1, 5) i`);
  await app.db.execute(sql`insert into countries (name, code) select 'Country ' || i, chr(64 + i) || chr(64 + i) from generate_series(1, 10) i`);
  await app.db.execute(sql`insert into cities (name, country_id) select 'City ' || c.id || '-' || i, c.id from countries c, generate_series(1, 5) i`);
  await seedUsers(app.db, 50, { userType: 'manager', passwordHash, offset: USERS });
  const ids = async (query: ReturnType<typeof sql>) => ((await app.db.execute(query)) as unknown as { rows: Record<string, number>[] }).rows;
  const references = {
    employeeTypeIds: (await ids(sql`select id from employee_types order by id`)).map((row) => row.id),
    managerIds: (await ids(sql`select id from users where user_type = 'manager' order by id`)).map((row) => row.id),
    places: (await ids(sql`select id as city_id, country_id from cities order by id`)).map((row) => ({ country_id: row.country_id, city_id: row.city_id })),
  };
  await seedUsers(app.db, USERS, { passwordHash, batch: 2000, references });
  await app.db.execute(sql`insert into model_has_roles (role_id, account_type, account_id)
    select r.id, 'app', u.id from users u join roles r on r.name = u.user_type and r.account_type = 'app' on conflict do nothing`);
  // Planner statistics and the visibility map, as autovacuum would leave them on a settled database.
  await app.db.execute(sql`vacuum analyze`);
  const seedSeconds = (Date.now() - started) / 1000;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: ADMIN });
  process.send!({ port: (app.server.address() as { port: number }).port, token: login.json().access_token, seedSeconds });
}

main().catch((error) => { console.error(error); process.exit(1); });
