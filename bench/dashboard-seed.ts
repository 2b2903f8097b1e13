// The records the dashboard reads, seeded set-based (INSERT ... SELECT generate_series) and spread over
// their states and dates: shared by bench/dashboard.server.ts (100,000 rows on PostgreSQL) and
// bench/lighthouse.ts (the dashboard "with data", a few hundred rows on the embedded database).
import { sql } from 'drizzle-orm';
import type { buildApp } from '../src/server/app';

type App = Awaited<ReturnType<typeof buildApp>>;

/** ROWS records in every list the dashboard reads (leave, expenses, time sheets, billing, compliance, operations, recruitment). */
export async function seedDashboard(app: App, ROWS: number) {
  const PEOPLE = Math.max(20, Math.ceil(ROWS / 200) * 10);
  const PARTNERS = Math.max(1, Math.ceil(ROWS / 100));
  const run = (statement: ReturnType<typeof sql>) => app.db.execute(statement);
  // People: one in ten a manager, each reporting to a manager; the admin (id 1) has documents and requests too.
  await run(sql`insert into users (name, email, password, user_type)
    select 'Manager ' || i, 'manager' || i || '@bench.test', 'x', 'manager' from generate_series(1, ${PEOPLE / 10}::int) i`);
  await run(sql`insert into users (name, email, password, user_type, parent_id)
    select 'Person ' || i, 'person' || i || '@bench.test', 'x', 'user', (select min(id) from users where email like 'manager%@bench.test') + i % ${PEOPLE / 10}::int
    from generate_series(1, ${PEOPLE - PEOPLE / 10}::int) i`);
  const person = (i: string) => sql.raw(`((select min(id) from users where email like '%@bench.test') + (${i}) % ${PEOPLE})`);
  await run(sql`insert into clients (name) select 'Client ' || c from generate_series(1, 200) c`);
  const client = (i: string) => sql.raw(`((select min(id) from clients) + (${i}) % 200)`);
  await run(sql`insert into positions (title, client_id, location, count) select 'Position ' || p, ${client('p')}, 'Pune', 3 from generate_series(1, 200) p`);
  await run(sql`insert into expense_categories (name, status) select 'Category ' || c, 'active' from generate_series(1, 10) c`);

  // HR: leave, expenses, time sheets, over a year, in every state.
  await run(sql`insert into leave_applications (user_id, leave_type_id, from_date, to_date, days, reason, status, created_by)
    select ${person('i')}, (select min(id) from leave_types), current_date - 200 + i % 365, current_date - 200 + i % 365, 1, 'Bench', (array[
      'Back fill arrangement is in progress', 'Leave approved Back fill not required', 'Leave approved Back fill arranged',
      'SBD request Leave taken Back fill not available/arranged', 'Rejected / Rescheduled'])[1 + i % 5], ${person('i')}
    from generate_series(1, ${ROWS}::int) i`);
  await run(sql`insert into expenses (user_id, expense_category_id, expense_date, amount, currency, description, status)
    select ${person('i')}, (select min(id) from expense_categories) + i % 10, current_date - i % 365, 10 + i % 500, 'EUR', 'Bench expense ' || i,
      (array['pending', 'approved by manager', 'reviewed by accounting', 'on hold', 'approved', 'rejected'])[1 + i % 6]
    from generate_series(1, ${ROWS}::int) i`);
  await run(sql`insert into time_sheets (user_id, client_id, period_type, period_start, period_end, hours, file_key, file_name, file_size, file_mime, status)
    select ${person('i')}, ${client('i')}, 'week', current_date - 7 * (i % 300), current_date - 7 * (i % 300) + 6, 40, 'bench/' || i, 'sheet.pdf', 1000, 'application/pdf',
      (array['pending', 'approved', 'rejected'])[1 + i % 3]
    from generate_series(1, ${ROWS}::int) i`);

  // Partner billing: ROWS statements (PARTNERS firms x 100 months), each invoiced once; firms managed by the managers.
  await run(sql`insert into partners (name, email, account_manager_id)
    select 'Partner ' || p, 'partner' || p || '@bench.test', (select min(id) from users where email like 'manager%@bench.test') + p % 50
    from generate_series(1, ${PARTNERS}::int) p`);
  await run(sql`insert into pre_billings (partner_id, month, currency, total, status)
    select p.id, date '2026-01-01' - make_interval(months => i), 'EUR', 1000 + i, (array['pending', 'reviewed by accounting', 'on hold', 'approved', 'rejected'])[1 + (p.id + i) % 5]
    from partners p cross join generate_series(1, ${Math.ceil(ROWS / PARTNERS)}::int) i`);
  await run(sql`insert into partner_invoices (partner_id, pre_billing_id, invoice_number, invoice_date, due_date, amount, tax, total, currency, status)
    select b.partner_id, b.id, 'INV-' || b.id, b.month + 31, b.month + 61, b.total, 0, b.total, 'EUR',
      (array['pending', 'approved by manager', 'approved', 'paid', 'on hold', 'rejected'])[1 + b.id % 6]
    from pre_billings b`);

  // Compliance: 100 library documents, ROWS assignments (each person a document once), ROWS own documents expiring from two years ago to a year ahead.
  await run(sql`insert into library_documents (title, category, action, status, version, expiry_date)
    select 'Policy ' || d, 'compliance', 'acknowledge', 'active', 1, current_date - 300 + d * 7 from generate_series(1, 100) d`);
  await run(sql`insert into document_assignments (document_id, user_id, due_date, status, version)
    select (select min(id) from library_documents) + i % 100, ${person('i / 100')}, current_date - 100 + i % 200,
      (array['pending', 'submitted', 'approved', 'rejected', 'expired'])[1 + (i / 7) % 5], 1
    from generate_series(0, ${ROWS - 1}::int) i`);
  await run(sql`insert into own_documents (user_id, title, document_type, expiry_date)
    select ${person('i')}, 'Document ' || i, (array['visa', 'passport', 'certification'])[1 + i % 3], current_date - 730 + i % 1095
    from generate_series(1, ${ROWS}::int) i`);

  // Operations: background checks, deals, requests (as bench/bgv-deals-requests.server.ts); the admin is assigned some requests.
  await run(sql`insert into bgv_checks (user_id, vendor, initiated_on, result, created_by)
    select ${person('b')}, 'Vendor ' || (b % 10), current_date - (b % 365), (array['pending', 'in progress', 'clear', 'discrepancy'])[1 + b % 4], 1
    from generate_series(1, ${ROWS}::int) b`);
  await run(sql`insert into deals (title, client_id, value, currency, stage, probability, expected_close_date, owner_id)
    select 'Deal ' || d, ${client('d')}, 1000 + (d % 997) * 100, (array['EUR', 'USD', 'INR'])[1 + d % 3],
      (array['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'])[1 + d % 6],
      (array[10, 25, 50, 75, 100, 0])[1 + d % 6], current_date + (d % 365), (select min(id) from users where email like 'manager%@bench.test') + d % 20
    from generate_series(1, ${ROWS}::int) d`);
  await run(sql`insert into requests (created_by, assign_to, title, status, euc_or_network, priority, labels, last_status_updated_at, created_at)
    select 1, case when r % 50 = 0 then 1 else ${person('r')} end, 'Request ' || r, (array['Requested', 'Work in Progress', 'Completed'])[1 + r % 3], (array['EUC', 'Network', 'SHE', 'Others'])[1 + r % 4],
      (array['Low', 'Medium', 'High', 'Urgent'])[1 + r % 4], '[]'::jsonb, now() - make_interval(mins => r), now() - make_interval(mins => r)
    from generate_series(1, ${ROWS}::int) r`);

  // Recruitment: ROWS candidates over the stages.
  await run(sql`insert into candidates (name, email, phone, position_id, stage)
    select 'Candidate ' || c, 'candidate' || c || '@bench.test', '+91 ' || (9000000000 + c), (select min(id) from positions) + c % 200,
      (array['Screening', 'Screening', 'Interview', 'Client Interview', 'Cost Negotiations', 'Background Check', 'Offer Letter Review', 'Onboarding', 'Rejected'])[1 + c % 9]
    from generate_series(1, ${ROWS}::int) c`);

  // Onboarding and contracts (as bench/operations.ts): one onboarding per 10 tasks, tasks due from 200 days ago to 100 ahead, a third done.
  await run(sql`insert into onboardings (person_name, manager_id, start_date, status)
    select 'Placed ' || i, ${person('i * 10')}, current_date - (i % 300), (array['Onboarding is in progress', 'Onboarded', 'Resigned', 'Offboarded'])[1 + i % 4]
    from generate_series(1, ${Math.ceil(ROWS / 10)}::int) i`);
  await run(sql`insert into onboarding_tasks (onboarding_id, phase, title, assignee_id, due_date, status, completion_date)
    select (select min(id) from onboardings) + (i % ${Math.ceil(ROWS / 10)}::int), 'onboarding', 'Task ' || i, ${person('i')},
      current_date - 200 + (i % 300), case when i % 3 = 0 then 'done' else 'pending' end, case when i % 3 = 0 then current_date - 200 + (i % 300) end
    from generate_series(1, ${ROWS}::int) i`);
  await run(sql`insert into contracts (po_number, client_id, owner_id, start_date, end_date, value, currency, status)
    select 'PO-' || i, ${client('i')}, ${person('i')}, current_date - 765 + (i % 1000), current_date - 365 + (i % 1000), 1000 + i, 'EUR',
      (array['Active', 'Active', 'Renewal in progress', 'Expired', 'Expired New PO Released'])[1 + i % 5]
    from generate_series(1, ${ROWS}::int) i`);
  // Vacuumed as autovacuum would leave settled tables: counts can then read the indexes alone.
  await run(sql`vacuum analyze`);
}

/**
 * A plain user (role `user`, the admin's password) with leave, claims and requests of their own in
 * waiting states, for the engineer's home. Returns the email to sign in with.
 */
export async function seedEngineer(app: App): Promise<string> {
  const email = 'engineer@bench.test';
  const run = (statement: ReturnType<typeof sql>) => app.db.execute(statement);
  await run(sql`insert into users (name, email, password, user_type, email_verified_at, parent_id)
    select 'Priya Engineer', ${email}, password, 'user', now(), (select min(id) from users where user_type = 'manager') from users where id = 1`);
  const me = sql.raw(`(select id from users where email = '${email}')`);
  await run(sql`insert into model_has_roles (role_id, account_type, account_id) select id, 'app', ${me} from roles where name = 'user' and account_type = 'app'`);
  await run(sql`insert into leave_applications (user_id, leave_type_id, from_date, to_date, days, reason, status, created_by)
    select ${me}, (select min(id) from leave_types), current_date + i * 7, current_date + i * 7, 1, 'Family visit', 'Back fill arrangement is in progress', ${me}
    from generate_series(1, 3) i`);
  await run(sql`insert into expenses (user_id, expense_category_id, expense_date, amount, currency, description, status)
    select ${me}, (select min(id) from expense_categories), current_date - i, 40 + i, 'EUR', 'Train ticket ' || i, 'pending' from generate_series(1, 3) i`);
  return email;
}
