// The server side of bench/document-assign.ts, in its own process: the real app on a fresh
// PostgreSQL database with PEOPLE active users of one employee type and RUNS + 1 library documents
// (the first for a warm-up run).
// Reports {port, token, userIds, employeeTypeId, documentIds, pusher} over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { testConfig, ADMIN } from '../tests/helpers/app';
import { users } from '../src/server/db/schema/accounts';
import { issueToken } from '../src/server/modules/auth/accounts';

const [databaseUrl] = process.argv.slice(2);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 6);

async function main() {
  const config = testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-assign-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl });
  const app = await buildApp(config);
  const rows = (result: unknown) => (result as { rows: Record<string, number>[] }).rows;
  const [{ id: employeeTypeId }] = rows(await app.db.execute(sql`insert into employee_types (name) values ('Bench Engineer') returning id`));
  // Their password is never used: the benchmark signs their channel subscriptions itself.
  const people = rows(await app.db.execute(sql`insert into users (name, email, password, user_type, employee_type_id, email_verified_at)
    select 'Engineer ' || i, 'engineer' || i || '@bench.test', 'x', 'user', ${employeeTypeId}, now() from generate_series(1, ${PEOPLE}) i
    returning id`));
  // Each holds the role of their type: a notification goes only to people who can open its link (issue 20).
  await app.db.execute(sql`insert into model_has_roles (role_id, account_type, account_id)
    select r.id, 'app', u.id from users u join roles r on r.name = u.user_type and r.account_type = 'app' where u.email like '%@bench.test'`);
  const documents = rows(await app.db.execute(sql`insert into library_documents (title, category, action, version)
    select 'Policy ' || i, 'compliance', 'acknowledge', 1 from generate_series(1, ${RUNS + 1}) i returning id`));
  await app.db.execute(sql`vacuum analyze`);
  const [admin] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email));
  const token = await issueToken(app.db, 'app', admin.id);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({
    port: (app.server.address() as { port: number }).port, token, employeeTypeId,
    userIds: people.map((p) => p.id), documentIds: documents.map((d) => d.id), pusher: config.pusher,
  });
}

process.on('SIGTERM', () => process.exit(0));
main().catch((error) => { console.error(error); process.exit(1); });
