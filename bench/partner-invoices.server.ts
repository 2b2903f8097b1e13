// The server side of bench/partner-invoices.ts, in its own process: the real app on a fresh
// PostgreSQL database with PARTNERS partner firms of INVOICES invoices each (every invoice bills an
// approved pre-billing statement of its own). Reports {port, token} of one firm's login over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { hash } from '@node-rs/argon2';
import { buildApp } from '../src/server/app';
import { assignRoles } from '../src/server/db/seed';
import { partnerAccounts } from '../src/server/db/schema/accounts';
import { testConfig } from '../tests/helpers/app';

const [databaseUrl] = process.argv.slice(2);
const PARTNERS = Number(process.env.BENCH_PARTNERS ?? 1000);
const INVOICES = Number(process.env.BENCH_INVOICES ?? 100);

async function main() {
  // checkResponses off, as production serves (decision 029: only the tests check each answer against its schema).
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-partner-invoices-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl, checkResponses: false }));
  await app.db.execute(sql`insert into partners (name, email) select 'Partner ' || p, 'partner' || p || '@bench.test' from generate_series(1, ${PARTNERS}) p`);
  // Statement i of a firm bills month i (counted back from 2026-01), each invoiced once.
  await app.db.execute(sql`insert into pre_billings (partner_id, month, currency, total, status)
    select p.id, date '2026-01-01' - make_interval(months => i), 'EUR', 1000 + i, 'approved'
    from partners p cross join generate_series(1, ${INVOICES}) i`);
  await app.db.execute(sql`insert into partner_invoices (partner_id, pre_billing_id, invoice_number, invoice_date, due_date, amount, tax, total, currency, status)
    select b.partner_id, b.id, 'INV-' || b.id, b.month + 31, b.month + 61, b.total, 0, b.total, 'EUR',
      (array['pending', 'approved by manager', 'approved', 'paid'])[1 + b.id % 4]
    from pre_billings b`);
  await app.db.execute(sql`vacuum analyze`);
  // The caller: a login of a firm in the middle of the id range.
  const [{ id: partnerId }] = ((await app.db.execute(sql`select id from partners order by id offset ${Math.floor(PARTNERS / 2)} limit 1`)) as unknown as { rows: { id: number }[] }).rows;
  const [login] = await app.db.insert(partnerAccounts).values({
    name: 'Bench Partner', email: 'login@bench.test', password: await hash('bench-password'), partner_id: partnerId, email_verified_at: new Date(),
  }).returning();
  await assignRoles(app.db, 'partner', login.id, ['partner']);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const answer = await app.inject({ method: 'POST', url: '/api/partner/login', payload: { email: 'login@bench.test', password: 'bench-password' } });
  process.send!({ port: (app.server.address() as { port: number }).port, token: answer.json().access_token });
}

process.on('SIGTERM', () => process.exit(0));
main().catch((error) => { console.error(error); process.exit(1); });
