// The partner portal's dashboard (issue 11): what waits on the firm, this year's amounts by
// currency, the latest decisions; only the caller's firm's, and invoices only with can-view-invoice.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelHasRoles, roles } from '../../src/server/db/schema/accounts';
import { partnerInvoicePayments, partnerInvoices, preBillings } from '../../src/server/db/schema/partner-billing';
import { workflowHistory } from '../../src/server/db/schema/workflow';
import { today } from '../../src/shared/dates';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let firmA: { id: number; partnerId: number; token: () => Promise<string> };
const year = Number(today().slice(0, 4));

beforeAll(async () => {
  t = await createTestApp();
  firmA = await t.createPartner({ email: 'dash-a@example.com', name: 'Dash A' });
  const firmB = await t.createPartner({ email: 'dash-b@example.com', name: 'Dash B' });
  const { db } = t.app;
  const statement = (partnerId: number, month: string, status: string, total: number, currency = 'EUR') =>
    db.insert(preBillings).values({ partner_id: partnerId, month, currency, total, status: status as 'pending' }).returning().then(([row]) => row);
  const rejected = await statement(firmA.partnerId, `${year}-01-01`, 'rejected', 100);
  const approved = await statement(firmA.partnerId, `${year}-02-01`, 'approved', 1000);
  const taxedStatement = await statement(firmA.partnerId, `${year}-04-01`, 'approved', 7200);
  await statement(firmA.partnerId, `${year}-03-01`, 'pending', 50, 'INR');
  // Last year's and another firm's never count.
  await statement(firmA.partnerId, `${year - 1}-12-01`, 'approved', 7777);
  const theirs = await statement(firmB.partnerId, `${year}-02-01`, 'rejected', 9999);
  const [paid] = await db.insert(partnerInvoices).values({
    partner_id: firmA.partnerId, pre_billing_id: approved.id, invoice_number: 'A-1', invoice_date: `${year}-03-01`, due_date: `${year}-03-31`,
    amount: 1000, tax: 0, total: 1000, currency: 'EUR', status: 'paid', payment_date: `${year}-04-02`,
  }).returning();
  // Issue 21: net 7,200 + tax 1,440, half paid.
  const [taxed] = await db.insert(partnerInvoices).values({
    partner_id: firmA.partnerId, pre_billing_id: taxedStatement.id, invoice_number: 'A-2', invoice_date: `${year}-05-02`, due_date: `${year}-06-01`,
    amount: 7200, tax: 1440, total: 8640, currency: 'EUR', status: 'approved',
  }).returning();
  // Not in the invoices' order: a payment's id never happens to be its invoice's.
  await db.insert(partnerInvoicePayments).values([
    { invoice_id: taxed.id, payment_date: `${year}-06-01`, amount: 4320, method: 'bank transfer', reference: 'RT-2' },
    { invoice_id: paid.id, payment_date: `${year}-04-02`, amount: 1000, method: 'bank transfer', reference: 'RT-1' },
  ]);
  await db.insert(workflowHistory).values([
    { resource: 'pre-billing', record_id: rejected.id, transition: 'reject', from_status: 'pending', to_status: 'rejected', actor_type: 'app', actor_id: 1, actor_name: 'Fiona Finance', comment: 'Hours do not match' },
    { resource: 'pre-billing', record_id: theirs.id, transition: 'reject', from_status: 'pending', to_status: 'rejected', actor_type: 'app', actor_id: 1, actor_name: 'Fiona Finance', comment: 'Not yours' },
  ]);
});

afterAll(async () => { await t?.close(); });

describe('GET /api/partner/dashboard', () => {
  it('sums the firm\'s year by currency, each figure net or gross, and lists what waits on it and its latest decisions', async () => {
    const answer = await t.call('GET', '/api/partner/dashboard', { token: await firmA.token() });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      unread_notifications: 0,
      to_correct: { pre_billings: 1, invoices: 0 },
      year,
      // The approved statements' net is the invoices' net; what was paid is compared with the invoices' gross.
      amounts: [
        { currency: 'EUR', submitted_net: 8300, approved_net: 8200, invoiced_net: 8200, invoiced_gross: 9640, paid_gross: 5320, outstanding_gross: 4320 },
        { currency: 'INR', submitted_net: 50, approved_net: 0, invoiced_net: 0, invoiced_gross: 0, paid_gross: 0, outstanding_gross: 0 },
      ],
    });
    expect(answer.body.data.recent).toEqual([expect.objectContaining({ resource: 'pre-billing', title: `${year}-01-01`, transition: 'reject', to: 'rejected', actor: 'Fiona Finance', comment: 'Hours do not match' })]);
  });

  it('leaves invoices out for a login without can-view-invoice', async () => {
    const login = await t.createPartner({ email: 'dash-a-2@example.com', partner_id: firmA.partnerId });
    // A role holding no permission in place of the partner role.
    const [bare] = await t.app.db.insert(roles).values({ name: 'partner-bare', account_type: 'partner' }).returning();
    await t.app.db.update(modelHasRoles).set({ role_id: bare.id }).where(and(eq(modelHasRoles.account_type, 'partner'), eq(modelHasRoles.account_id, login.id)));
    const answer = await t.call('GET', '/api/partner/dashboard', { token: await login.token() });
    expect(answer.body.data.to_correct).toEqual({ pre_billings: 1, invoices: null });
    expect(answer.body.data.amounts[0]).toMatchObject({ currency: 'EUR', approved_net: 8200, invoiced_gross: 0, paid_gross: 0 });
  });
});
