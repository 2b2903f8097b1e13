// The server side of bench/dashboard.ts, in its own process: the real app on a fresh PostgreSQL
// database with ROWS records in every list the dashboard reads (leave applications, expenses, time
// sheets, pre-billings, partner invoices, document assignments, own documents, background checks,
// candidates, requests, deals, onboarding tasks, contracts), seeded set-based (INSERT ... SELECT
// generate_series) and spread over their states and dates. Reports {port, token} of the seeded
// admin (who sees every panel) over IPC.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { ADMIN, testConfig } from '../tests/helpers/app';
import { seedDashboard } from './dashboard-seed';

const [databaseUrl] = process.argv.slice(2);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

async function main() {
  const app = await buildApp(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'bench-dashboard-')), inMemoryDatabase: false, logLevel: 'silent', databaseUrl, checkResponses: false }));
  const started = Date.now();
  await seedDashboard(app, ROWS);
  const counts = (await app.db.execute(sql`select
    (select count(*) from leave_applications) leave, (select count(*) from expenses) expenses, (select count(*) from time_sheets) time_sheets,
    (select count(*) from pre_billings) pre_billings, (select count(*) from partner_invoices) invoices, (select count(*) from document_assignments) assignments,
    (select count(*) from own_documents) own_documents, (select count(*) from bgv_checks) checks, (select count(*) from candidates) candidates,
    (select count(*) from requests) requests, (select count(*) from deals) deals, (select count(*) from onboarding_tasks) tasks, (select count(*) from contracts) contracts`) as unknown as { rows: Record<string, string>[] }).rows[0];
  await app.listen({ port: 0, host: '127.0.0.1' });
  const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN.email, password: ADMIN.password } });
  process.send!({ port: (app.server.address() as { port: number }).port, token: answer.json().access_token, counts, seconds: (Date.now() - started) / 1000 });
}

process.on('SIGTERM', () => process.exit(0));
main().catch((error) => { console.error(error); process.exit(1); });
