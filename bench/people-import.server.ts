// The server side of bench/people-import.ts, in its own process: the real app on a fresh PostgreSQL
// database with the reference data a people file names (a country, 20 cities, 3 employee types,
// 100 managers). Reports {port, token} of the seeded admin over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [databaseUrl] = process.argv.slice(2);

async function main() {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-import-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl }));
  const run = (statement: ReturnType<typeof sql>) => app.db.execute(statement);
  await run(sql`insert into countries (name, code) values ('India', 'IN')`);
  await run(sql`insert into cities (name, country_id) select 'City ' || c, (select id from countries where code = 'IN') from generate_series(1, 20) c`);
  await run(sql`insert into employee_types (name) values ('Full-time'), ('Part-time'), ('Contractor')`);
  await run(sql`insert into users (name, email, password, user_type) select 'Manager ' || i, 'manager' || i || '@bench.test', 'x', 'manager' from generate_series(1, 100) i`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN.email, password: ADMIN.password } });
  process.send!({ port: (app.server.address() as { port: number }).port, token: answer.json().access_token });
}

main().catch((error) => { console.error(error); process.exit(1); });
