// The server side of bench/audit-log.ts, in its own process: the real app on a fresh PostgreSQL
// database with ENTRIES audit entries (INSERT ... SELECT generate_series), one every ~30 s over a
// year, by 500 people, over ten resources and 20,000 records each. Reports {port, token} of the
// seeded admin and the figures the filters are chosen from over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [databaseUrl] = process.argv.slice(2);
const ENTRIES = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RESOURCES = ['country', 'city', 'client', 'expense', 'leave-application', 'candidate', 'position', 'contract', 'request', 'deal-tracking'];

async function main() {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-audit-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl }));
  const run = (statement: ReturnType<typeof sql>) => app.db.execute(statement);
  const started = Date.now();
  const year = 365 * 24 * 3600;
  await run(sql`insert into audit_log (created_at, actor_type, actor_id, actor_name, action, resource, record_id, record_title, changes)
    select now() - make_interval(secs => i * ${year / ENTRIES}::float8), 'app', 2 + i % 500, 'Person ' || (i % 500),
      (array['create', 'update', 'update', 'transition', 'delete'])[1 + i % 5],
      (${sql.raw(`array[${RESOURCES.map((r) => `'${r}'`).join(', ')}]`)})[1 + i % 10], 1 + (i / 10) % 20000, 'Record ' || (1 + (i / 10) % 20000),
      jsonb_build_array(jsonb_build_object('field', 'name', 'old', 'Name ' || i, 'new', 'Name ' || (i + 1), 'old_text', 'Name ' || i, 'new_text', 'Name ' || (i + 1)))
    from generate_series(1, ${ENTRIES}::int) i`);
  const seeded = (Date.now() - started) / 1000;
  // Vacuumed as autovacuum would leave a settled table: the counts can then read the indexes alone.
  await run(sql`vacuum analyze audit_log`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN.email, password: ADMIN.password } });
  process.send!({ port: (app.server.address() as { port: number }).port, token: answer.json().access_token, seconds: seeded, vacuumed: (Date.now() - started) / 1000 - seeded });
}

main().catch((error) => { console.error(error); process.exit(1); });
