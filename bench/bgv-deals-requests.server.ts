// The server side of bench/bgv-deals-requests.ts, in its own process: the real app on a fresh PostgreSQL
// database with ROWS deals, ROWS service requests and ROWS background checks (with their six
// components each), spread over their stages, statuses and results. Reports {port, token} of the
// seeded admin over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';

const [databaseUrl] = process.argv.slice(2);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const OWNERS = 20;

async function main() {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-bgv-deals-requests-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl }));
  await app.db.execute(sql`insert into clients (name) select 'Client ' || c from generate_series(1, 200) c`);
  await app.db.execute(sql`insert into users (name, email, user_type, password)
    select 'Owner ' || o, 'owner' || o || '@bench.test', 'manager', 'x' from generate_series(1, ${OWNERS}) o`);
  await app.db.execute(sql`insert into deals (title, client_id, value, currency, stage, probability, expected_close_date, owner_id)
    select 'Deal ' || d, (select min(id) from clients) + d % 200, 1000 + (d % 997) * 100, (array['EUR', 'USD', 'INR'])[1 + d % 3],
      (array['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'])[1 + d % 6],
      (array[10, 25, 50, 75, 100, 0])[1 + d % 6], current_date + (d % 365), (select min(id) from users where user_type = 'manager') + d % ${OWNERS}
    from generate_series(1, ${ROWS}) d`);
  // Raised a minute apart, as a real list's are (one statement's now() would make every row a tie).
  await app.db.execute(sql`insert into requests (created_by, assign_to, title, status, euc_or_network, priority, labels, last_status_updated_at, created_at)
    select 1, null, 'Request ' || r, (array['Requested', 'Work in Progress', 'Completed'])[1 + r % 3], (array['EUC', 'Network', 'SHE', 'Others'])[1 + r % 4],
      (array['Low', 'Medium', 'High', 'Urgent'])[1 + r % 4], '[]'::jsonb, now() - make_interval(mins => r), now() - make_interval(mins => r)
    from generate_series(1, ${ROWS}) r`);
  await app.db.execute(sql`insert into bgv_checks (user_id, vendor, initiated_on, result, created_by)
    select 1, 'Vendor ' || (b % 10), current_date - (b % 365), (array['pending', 'in progress', 'clear', 'discrepancy'])[1 + b % 4], 1
    from generate_series(1, ${ROWS}) b`);
  await app.db.execute(sql`insert into bgv_check_components (bgv_check_id, component, status)
    select c.id, component, c.result from bgv_checks c
    cross join unnest(array['identity', 'address', 'education', 'previous employment', 'criminal record', 'references']) component`);
  await app.db.execute(sql`vacuum analyze`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN.email, password: ADMIN.password } });
  process.send!({ port: (app.server.address() as { port: number }).port, token: answer.json().access_token });
}

process.on('SIGTERM', () => process.exit(0));
main().catch((error) => { console.error(error); process.exit(1); });
