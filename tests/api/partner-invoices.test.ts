// Partner invoices (issue 11): a partner firm invoices an approved pre-billing with its PDF through
// /api/partner/invoice; staff decide it at /api/partner-invoice (manager step, finance approval,
// payment); every decision reaches the firm's logins live and by mail; the refusals of the issue's
// "Bad input" store nothing; the total-mismatch and overdue flags; who sees and decides what.
// On the embedded database too: money as numeric, payments in cents, as the embedded driver returns them.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partners } from '../../src/server/db/schema/accounts';
import { notifications } from '../../src/server/db/schema/notifications';
import { partnerInvoices, preBillings } from '../../src/server/db/schema/partner-billing';
import { attachments } from '../../src/server/db/schema/workflow';
import { addDays } from '../../src/server/modules/partner-invoice/service';
import { today } from '../../src/shared/dates';
import { preBillingDifference } from '../../src/shared/resources/partner-invoice';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { PDF } from '../helpers/multipart';

let t: TestApp;
const staff: Record<string, { id: number; token: string }> = {};
const firms: Record<'A' | 'B', { partnerId: number; logins: { id: number; token: string }[] }> = {} as never;

interface Upload { name: string; type: string; content: Buffer | string }
const invoicePdf: Upload = { name: 'INV-001.pdf', type: 'application/pdf', content: PDF };
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(32)]);

/** multipart/form-data the way the generic form sends it: `partner-invoice[amount]`, `partner-invoice[file]`. */
function invoiceForm(fields: Record<string, string | number>, files: Upload[] = []) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="partner-invoice[${name}]"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="partner-invoice[file]"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let months = 0;
/** A pre-billing of the firm, written to the database (its own API is another suite's). */
async function statement(firm: 'A' | 'B', values: Partial<typeof preBillings.$inferInsert> = {}) {
  months += 1;
  const month = `20${String(10 + Math.floor(months / 12)).padStart(2, '0')}-${String((months % 12) + 1).padStart(2, '0')}-01`;
  const [row] = await t.app.db.insert(preBillings).values({
    partner_id: firms[firm].partnerId, month, currency: 'EUR', total: 1000, status: 'approved', ...values,
  }).returning();
  return row.id;
}

/** Submits an invoice as a login of `firm` (multipart with the PDF unless `files` says otherwise). */
async function submit(firm: 'A' | 'B', fields: Record<string, string | number>, files: Upload[] = [invoicePdf], login = 0) {
  const form = invoiceForm(fields, files);
  return t.call('POST', '/api/partner/invoice', { token: firms[firm].logins[login].token, body: form.body, headers: form.headers });
}

let numbers = 0;
async function submitted(firm: 'A' | 'B', fields: Record<string, string | number> = {}) {
  numbers += 1;
  const preBillingId = fields.pre_billing_id ?? await statement(firm);
  const res = await submit(firm, { invoice_number: `INV-${numbers}`, invoice_date: '2026-03-01', amount: 1000, tax: 0, ...fields, pre_billing_id: preBillingId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any> & { id: number };
}

const act = (who: string, id: number, transition: string, comment?: string) =>
  t.call('POST', `/api/partner-invoice/${id}/transitions/${transition}`, { token: staff[who].token, body: comment === undefined ? {} : { comment } });

/** Finance records a payment (today by bank transfer unless said otherwise). */
const pay = (who: string, id: number, body: Record<string, unknown>) =>
  t.call('POST', `/api/partner-invoice/${id}/payments`, { token: staff[who].token, body: { payment_date: today(), method: 'bank transfer', ...body } });

const staffView = async (who: string, id: number) => t.call('GET', `/api/partner-invoice/${id}`, { token: staff[who].token });
const partnerView = async (firm: 'A' | 'B', id: number) => t.call('GET', `/api/partner/invoice/${id}`, { token: firms[firm].logins[0].token });
const offered = async (who: string, id: number) =>
  ((await staffView(who, id)).body.data.available_transitions as { name: string }[]).map((a) => a.name).sort();

const stored = async () => ({
  invoices: (await t.app.db.select({ id: partnerInvoices.id }).from(partnerInvoices)).length,
  attachments: (await t.app.db.select({ id: attachments.id }).from(attachments).where(eq(attachments.resource, 'partner-invoice'))).length,
  files: (() => { try { return readdirSync(join(t.app.config.dataDir, 'files', 'attachments')).length; } catch { return 0; } })(),
});

const noticesOf = async (type: 'app' | 'partner', id: number) =>
  (await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, type), eq(notifications.notifiable_id, id))))
    .map((n) => ({ ...n.data, type: n.type }));

beforeAll(async () => {
  t = await createTestApp();
  const make = async (key: string, values: { user_type: 'admin' | 'manager' | 'user' }, roles?: string[]) => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, ...values }, roles);
    staff[key] = { id: created.id, token: await created.token() };
  };
  await make('accountManager', { user_type: 'manager' });
  await make('otherManager', { user_type: 'manager' });
  await make('finance', { user_type: 'user' }, ['finance']);
  await make('engineer', { user_type: 'user' });
  staff.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };

  for (const firm of ['A', 'B'] as const) {
    const first = await t.createPartner({ email: `billing-${firm.toLowerCase()}@example.com`, name: `Firm ${firm}` });
    const second = await t.createPartner({ email: `accounts-${firm.toLowerCase()}@example.com`, name: `Accounts ${firm}`, partner_id: first.partnerId });
    firms[firm] = { partnerId: first.partnerId, logins: [{ id: first.id, token: await first.token() }, { id: second.id, token: await second.token() }] };
  }
  // Firm A pays at 45 days and is managed by accountManager (who takes its invoices' first step).
  await t.app.db.update(partners).set({ payment_terms_days: 45, account_manager_id: staff.accountManager.id }).where(eq(partners.id, firms.A.partnerId));
});
afterAll(async () => { await t?.close(); });

describe('submitting an invoice', () => {
  it('bills an approved pre-billing with its PDF; firm, status, total, currency and due date come from the server', async () => {
    const preBillingId = await statement('A', { total: 1000, currency: 'USD' });
    const res = await submit('A', {
      invoice_number: 'INV-001', invoice_date: '2026-03-31', pre_billing_id: preBillingId, amount: 1000, tax: 190,
      // Neither the owner nor the status is the partner's to say.
      partner_id: firms.B.partnerId, status: 'paid', total: 5,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Invoice submitted successfully.');
    expect(res.body.data).toMatchObject({
      partner_id: firms.A.partnerId, pre_billing_id: preBillingId, invoice_number: 'INV-001', invoice_date: '2026-03-31',
      // 2026-03-31 plus firm A's 45 days of payment terms.
      due_date: '2026-05-15', amount: 1000, tax: 190, total: 1190, currency: 'USD', status: 'pending', payment_date: null,
      submitted_by: firms.A.logins[0].id, is_net_mismatch: false, status_reason: null, available_transitions: [],
      amount_paid: 0, outstanding: 1190, payments: [],
    });
    expect(res.body.data.file).toEqual([{ id: expect.any(Number), name: 'INV-001.pdf', size: PDF.length, mime: 'application/pdf' }]);
    // The account manager (first step) and finance are told; nobody of the firm decides anything.
    const created = (n: { type: string }) => n.type === 'App\\Notifications\\PartnerInvoiceCreated';
    expect((await noticesOf('app', staff.accountManager.id)).filter(created)).toHaveLength(1);
    expect((await noticesOf('app', staff.finance.id)).filter(created)).toHaveLength(1);
    expect((await noticesOf('app', staff.otherManager.id)).filter(created)).toHaveLength(0);

    // The PDF downloads from the portal.
    const download = await t.call('GET', `/api/partner/invoice/${res.body.data.id}/attachments/${res.body.data.file[0].id}`, { token: firms.A.logins[1].token });
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
  });

  it('takes an explicit due date and tax 0 when none is given', async () => {
    const invoice = await submitted('A', { invoice_date: '2026-04-01', due_date: '2026-04-10', tax: '' as never });
    expect(invoice).toMatchObject({ due_date: '2026-04-10', tax: 0, total: 1000, currency: 'EUR' });
  });

  it('offers the form only the firm\'s approved statements no invoice bills yet', async () => {
    const open = await statement('A');
    const pending = await statement('A', { status: 'pending' });
    const theirs = await statement('B');
    const invoiced = (await submitted('A')).pre_billing_id as number;
    const res = await t.call('GET', '/api/partner/invoice/billable', { token: firms.A.logins[0].token });
    expect(res.status).toBe(200);
    const ids = (res.body.data as { id: number }[]).map((row) => row.id);
    expect(ids).toContain(open);
    expect(ids).not.toContain(pending);
    expect(ids).not.toContain(theirs);
    expect(ids).not.toContain(invoiced);
    expect(res.body.data.find((row: { id: number }) => row.id === open)).toMatchObject({ currency: 'EUR', total: 1000, label: expect.stringContaining('EUR') });
  });
});

describe('refusals store nothing', () => {
  const refused = async (res: { status: number; body: any }, field: string, message: RegExp | string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    if (typeof message === 'string') expect(res.body.errors[field]).toEqual([message]);
    else expect(res.body.errors[field][0]).toMatch(message);
  };
  const valid = async (overrides: Record<string, string | number> = {}) =>
    ({ invoice_number: `NEW-${randomBytes(3).toString('hex')}`, invoice_date: '2026-05-01', amount: 1000, pre_billing_id: await statement('A'), ...overrides });

  it('refuses an invoice number the firm already used, in any case, but not one another firm used', async () => {
    await submitted('A', { invoice_number: 'DUP-7' });
    const before = await stored();
    await refused(await submit('A', await valid({ invoice_number: 'dup-7' })), 'invoice_number', 'The invoice number has already been taken.');
    expect(await stored()).toEqual(before);
    // Another login of the same firm is the same firm.
    await refused(await submit('A', await valid({ invoice_number: 'DUP-7' }), [invoicePdf], 1), 'invoice_number', 'The invoice number has already been taken.');
    expect(await stored()).toEqual(before);
    const otherFirm = await submit('B', { invoice_number: 'DUP-7', invoice_date: '2026-05-01', amount: 1000, pre_billing_id: await statement('B') });
    expect(otherFirm.status, JSON.stringify(otherFirm.body)).toBe(201);
  });

  it('refuses someone else\'s pre-billing exactly like one that does not exist', async () => {
    const before = await stored();
    const theirs = await submit('A', await valid({ pre_billing_id: await statement('B') }));
    await refused(theirs, 'pre_billing_id', 'The pre-billing you chose has been removed or cannot be chosen here. Choose another.');
    const missing = await submit('A', await valid({ pre_billing_id: 999_999 }));
    await refused(missing, 'pre_billing_id', 'The pre-billing you chose has been removed or cannot be chosen here. Choose another.');
    expect(missing.body).toEqual(theirs.body);
    expect(await stored()).toEqual(before);
  });

  it('refuses a pre-billing that is not approved, or already invoiced', async () => {
    const before = await stored();
    for (const status of ['pending', 'reviewed by accounting', 'on hold', 'rejected'] as const) {
      await refused(await submit('A', await valid({ pre_billing_id: await statement('A', { status }) })), 'pre_billing_id', /not approved/);
    }
    const invoiced = (await submitted('A')).pre_billing_id as number;
    const afterOne = await stored();
    await refused(await submit('A', await valid({ pre_billing_id: invoiced })), 'pre_billing_id', 'The selected pre-billing has already been invoiced.');
    expect(await stored()).toEqual(afterOne);
    expect(afterOne.invoices).toBe(before.invoices + 1);
  });

  it('refuses a file of the wrong type, a disguised one and no file at all, leaving no row and no file', async () => {
    const before = await stored();
    await refused(await submit('A', await valid(), [{ name: 'invoice.png', type: 'image/png', content: PNG }]), 'file', 'invoice.png cannot be attached here: choose a PDF file.');
    await refused(await submit('A', await valid(), [{ name: 'invoice.pdf', type: 'application/pdf', content: '<html>not a pdf</html>' }]), 'file', /not a real PDF/);
    await refused(await submit('A', await valid(), [invoicePdf, { ...invoicePdf, name: 'copy.pdf' }]), 'file', 'Attach only one file here.');
    await refused(await submit('A', await valid(), []), 'file', 'The invoice PDF field is required.');
    const json = await t.call('POST', '/api/partner/invoice', { token: firms.A.logins[0].token, body: await valid() });
    await refused(json, 'file', 'The invoice PDF field is required.');
    expect(await stored()).toEqual(before);
  });

  it('refuses a due date before the invoice date, another currency than the statement\'s and a negative tax', async () => {
    const before = await stored();
    await refused(await submit('A', await valid({ due_date: '2026-04-30' })), 'due_date', 'The due date cannot be before the invoice date.');
    await refused(await submit('A', await valid({ currency: 'USD' })), 'currency', 'The currency must be the pre-billing\'s currency (EUR).');
    await refused(await submit('A', await valid({ tax: -1 })), 'tax', 'The tax must be at least 0.');
    await refused(await submit('A', await valid({ amount: 0 })), 'amount', 'The net amount must be greater than 0.');
    expect(await stored()).toEqual(before);
  });
});

describe('the decisions', () => {
  it('goes pending → approved by manager → approved → paid by a payment of the total, telling the firm each time live and by mail', async () => {
    const invoice = await submitted('A');
    expect(await offered('accountManager', invoice.id)).toEqual(['approve-manager', 'hold', 'reject']);
    // Finance waits for the manager's step.
    expect(await offered('finance', invoice.id)).toEqual(['hold', 'reject']);
    expect((await act('finance', invoice.id, 'approve-manager')).status).toBe(403);

    const first = await act('accountManager', invoice.id, 'approve-manager');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'approved by manager', decided_by: staff.accountManager.id });
    // The manager does not take finance's step.
    expect((await act('accountManager', invoice.id, 'approve')).status).toBe(403);
    expect(await offered('finance', invoice.id)).toEqual(['approve', 'hold', 'reject']);

    expect((await act('finance', invoice.id, 'approve')).body.data.status).toBe('approved');
    expect((await act('finance', invoice.id, 'reject', 'Too late')).status).toBe(409);
    // "Mark paid" is gone: paying is recording a payment.
    expect((await act('finance', invoice.id, 'pay')).status).toBe(404);
    const paid = await pay('finance', invoice.id, { amount: 1000, reference: `RT-${invoice.id}` });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data).toMatchObject({ status: 'paid', payment_date: today(), is_overdue: false, available_transitions: [], outstanding: 0 });

    const history = await t.call('GET', `/api/partner/invoice/${invoice.id}/history`, { token: firms.A.logins[1].token });
    expect(history.body.data.map((h: { transition: string; to: string }) => [h.transition, h.to])).toEqual([
      ['create', 'pending'], ['approve-manager', 'approved by manager'], ['approve', 'approved'], ['payment-received', 'paid'],
    ]);

    // Both logins of the firm are told of each decision, with a link into the portal, and mailed.
    for (const login of firms.A.logins) {
      const notices = (await noticesOf('partner', login.id)).filter((n) => String(n.message).includes(String(invoice.invoice_number)));
      // Issue 24: three steps within minutes are one notification per login, saying the latest.
      expect(notices.map((n) => n.title)).toEqual(['Invoice paid in full']);
      expect(notices.every((n) => n.url === `/partner/invoice/${invoice.id}`)).toBe(true);
    }
    const mail = await t.smtp.waitFor('accounts-a@example.com', /^Invoice paid in full$/);
    expect(mail.raw).toContain(`/partner/invoice/${invoice.id}`);
    // Finance learns that the manager's step is done.
    expect((await noticesOf('app', staff.finance.id)).some((n) => n.title === 'An invoice waits for your approval' && String(n.message).includes(String(invoice.invoice_number)))).toBe(true);
  });

  it('puts an invoice on hold with a reason the partner reads, and resumes it where it was', async () => {
    const invoice = await submitted('A');
    await act('accountManager', invoice.id, 'approve-manager');
    const silent = await act('finance', invoice.id, 'hold');
    expect(silent.status).toBe(422);
    expect(silent.body.errors.comment).toEqual(['The comment field is required.']);
    const held = await act('finance', invoice.id, 'hold', 'The bank details on the PDF are missing.');
    expect(held.body.data).toMatchObject({ status: 'on hold', status_reason: 'The bank details on the PDF are missing.' });
    // Decision 063: the page says who held it and why; the partner's page too.
    expect(held.body.data.status_note).toBe('Put on hold by finance: The bank details on the PDF are missing.');
    expect((await partnerView('A', invoice.id)).body.data).toMatchObject({
      status: 'on hold', status_reason: 'The bank details on the PDF are missing.', status_note: 'Put on hold by finance: The bank details on the PDF are missing.',
    });
    // On hold is not the partner's to edit: only pending or rejected are.
    expect((await t.call('PATCH', `/api/partner/invoice/${invoice.id}`, { token: firms.A.logins[0].token, body: { amount: 999 } })).status).toBe(409);

    const resumed = await act('finance', invoice.id, 'resume');
    expect(resumed.body.data).toMatchObject({ status: 'approved by manager', status_reason: null, status_note: null });
  });

  it('rejects with a reason; the partner corrects it and it is pending again, in the history and told to the deciders', async () => {
    const invoice = await submitted('A', { amount: 1200 });
    expect(invoice.is_net_mismatch).toBe(true);
    const rejected = await act('accountManager', invoice.id, 'reject', 'The amount is not the approved 1,000.');
    expect(rejected.body.data.status).toBe('rejected');
    expect((await partnerView('A', invoice.id)).body.data.status_reason).toBe('The amount is not the approved 1,000.');
    const mail = await t.smtp.waitFor('billing-a@example.com', /^Your invoice was returned: please correct it$/);
    // Quoted-printable folds long lines: read the body unfolded.
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain('The amount is not the approved 1,000.');

    // Staff do not correct it for the partner.
    expect((await t.call('PATCH', `/api/partner-invoice/${invoice.id}`, { token: staff.admin.token, body: { amount: 1000 } })).status).toBe(409);

    const corrected = await t.call('PATCH', `/api/partner/invoice/${invoice.id}`, { token: firms.A.logins[1].token, body: { amount: 1000 } });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body.data).toMatchObject({ status: 'pending', amount: 1000, total: 1000, is_net_mismatch: false, status_reason: null, decided_by: null });
    const history = await t.call('GET', `/api/partner-invoice/${invoice.id}/history`, { token: staff.finance.token });
    expect(history.body.data.map((h: { transition: string; from: string | null; to: string; comment: string | null }) => [h.transition, h.from, h.to, h.comment])).toEqual([
      ['create', null, 'pending', null],
      ['reject', 'pending', 'rejected', 'The amount is not the approved 1,000.'],
      ['resubmit', 'rejected', 'pending', null],
    ]);
    // The account manager's unread notification of the invoice now says it was resubmitted (issue 24: one per record).
    const notices = (await noticesOf('app', staff.accountManager.id)).filter((n) => n.url === `/ikk-partner/invoice/${invoice.id}`);
    expect(notices.map((n) => [n.type, n.title])).toEqual([['App\\Notifications\\PartnerInvoiceResubmitted', 'Partner invoice resubmitted']]);
    // It goes through the steps again.
    expect((await act('accountManager', invoice.id, 'approve-manager')).body.data.status).toBe('approved by manager');
  });

  it('lets the partner correct a pending invoice without resubmitting it, keeping the PDF, and not a decided one', async () => {
    const invoice = await submitted('A');
    const edited = await t.call('PATCH', `/api/partner/invoice/${invoice.id}`, { token: firms.A.logins[0].token, body: { invoice_number: 'INV-EDITED', amount: 1010 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ invoice_number: 'INV-EDITED', total: 1010, status: 'pending', is_net_mismatch: true });
    expect(edited.body.data.file).toHaveLength(1);
    const history = await t.call('GET', `/api/partner/invoice/${invoice.id}/history`, { token: firms.A.logins[0].token });
    expect(history.body.data).toHaveLength(1);
    // The PDF cannot be taken away.
    const empty = invoiceForm({ file: '' });
    const removed = await t.call('PATCH', `/api/partner/invoice/${invoice.id}`, { token: firms.A.logins[0].token, body: empty.body, headers: empty.headers });
    expect(removed.status).toBe(422);
    expect(removed.body.errors.file).toEqual(['The invoice PDF field is required.']);

    await act('accountManager', invoice.id, 'approve-manager');
    const late = await t.call('PATCH', `/api/partner/invoice/${invoice.id}`, { token: firms.A.logins[0].token, body: { tax: 0 } });
    expect(late.status).toBe(409);
  });

  it('refuses decisions to the partner and to staff without the permission', async () => {
    const invoice = await submitted('A');
    const byPartner = await t.call('POST', `/api/partner/invoice/${invoice.id}/transitions/approve-manager`, { token: firms.A.logins[0].token, body: {} });
    expect(byPartner.status).toBe(403);
    expect((await t.call('GET', '/api/partner-invoice', { token: staff.engineer.token })).status).toBe(403);
    expect((await act('engineer', invoice.id, 'approve-manager')).status).toBe(403);
    expect((await t.call('GET', '/api/partner-invoice', { token: firms.A.logins[0].token })).status).toBe(401);
    expect((await t.call('GET', '/api/partner/invoice', { token: staff.admin.token })).status).toBe(401);
    expect((await t.call('GET', '/api/partner/invoice/billable', { token: staff.admin.token })).status).toBe(401);
    // Staff do not submit invoices: the staff definition has no create route.
    expect((await t.call('POST', '/api/partner-invoice', { token: staff.admin.token, body: {} })).status).toBe(404);
    expect(await statusOf(invoice.id)).toBe('pending');
  });
});

describe('payments', () => {
  /** An invoice of firm A taken through both approvals: net 7,200 + tax 1,440 = 8,640. */
  const approvedInvoice = async () => {
    const invoice = await submitted('A', { pre_billing_id: await statement('A', { total: 7200 }), amount: 7200, tax: 1440 });
    await act('accountManager', invoice.id, 'approve-manager');
    await act('finance', invoice.id, 'approve');
    return invoice;
  };

  it('takes a taxed invoice paid in two parts to paid, with what is outstanding, the history in sentences and the partner told the reference', async () => {
    const invoice = await approvedInvoice();
    const first = await pay('finance', invoice.id, { amount: 4320, reference: 'RT-5521', payment_date: addDays(today(), -3) });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.message).toBe('Payment of EUR\u00a04,320.00 recorded. EUR\u00a04,320.00 remains outstanding.');
    expect(first.body.data).toMatchObject({ status: 'approved', amount_paid: 4320, outstanding: 4320, payment_date: null });

    // The partner sees the payment on the invoice and is told, with the reference, live and by mail.
    const seen = (await partnerView('A', invoice.id)).body.data;
    expect(seen).toMatchObject({ outstanding: 4320, amount_paid: 4320, status_note: 'Partly paid: EUR\u00a04,320.00 received, EUR\u00a04,320.00 outstanding.' });
    expect(seen.payments).toEqual([{
      id: expect.any(Number), payment_date: addDays(today(), -3), amount: 4320, method: 'bank transfer', reference: 'RT-5521',
      recorded_by: { id: staff.finance.id, name: 'finance' },
    }]);
    for (const login of firms.A.logins) {
      const notice = (await noticesOf('partner', login.id)).find((n) => n.title === 'Payment received' && String(n.message).includes(invoice.invoice_number));
      expect(notice).toMatchObject({
        type: 'App\\Notifications\\PartnerInvoicePaymentReceived', url: `/partner/invoice/${invoice.id}`,
        message: `Payment of EUR\u00a04,320.00 received for invoice ${invoice.invoice_number}, reference RT-5521. EUR\u00a04,320.00 remains outstanding.`,
      });
    }
    await t.smtp.waitFor('billing-a@example.com', /^Payment received$/);

    // More than is outstanding is refused and stores nothing.
    const over = await pay('finance', invoice.id, { amount: 4320.01, reference: 'RT-5522' });
    expect(over.status).toBe(422);
    expect(over.body.errors.amount).toEqual(['The payment of EUR\u00a04,320.01 is more than the EUR\u00a04,320.00 outstanding on this invoice.']);

    const last = await pay('finance', invoice.id, { amount: 4320, reference: 'RT-5522', method: 'cheque' });
    expect(last.status, JSON.stringify(last.body)).toBe(201);
    expect(last.body.message).toBe(`Payment of EUR\u00a04,320.00 recorded. Invoice ${invoice.invoice_number} is now paid in full.`);
    expect(last.body.data).toMatchObject({ status: 'paid', payment_date: today(), amount_paid: 8640, outstanding: 0 });
    expect(last.body.data.payments.map((p: { reference: string }) => p.reference)).toEqual(['RT-5521', 'RT-5522']);

    const history = (await t.call('GET', `/api/partner-invoice/${invoice.id}/history`, { token: staff.finance.token })).body.data as { transition: string; from: string; to: string; comment: string }[];
    expect(history.slice(-2).map((h) => [h.transition, h.from, h.to, h.comment])).toEqual([
      ['payment-received', 'approved', 'approved', `EUR\u00a04,320.00 by bank transfer on ${addDays(today(), -3)}, reference RT-5521. EUR\u00a04,320.00 remains outstanding.`],
      ['payment-received', 'approved', 'paid', `EUR\u00a04,320.00 by cheque on ${today()}, reference RT-5522. The invoice is now paid in full.`],
    ]);
    const told = (await noticesOf('partner', firms.A.logins[0].id)).filter((n) => String(n.message).includes('RT-5522'));
    expect(told.map((n) => n.title)).toEqual(['Invoice paid in full']);

    // Nothing more can be paid.
    const again = await pay('finance', invoice.id, { amount: 1, reference: 'RT-5523' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Invoice ${invoice.invoice_number} is already paid in full: there is nothing outstanding to pay.`);
  });

  it('refuses a payment on an invoice not approved yet, saying where it stands, and stores nothing', async () => {
    const invoice = await submitted('A');
    const early = await pay('finance', invoice.id, { amount: 100, reference: 'EARLY' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(`Only an approved invoice can be paid. Invoice ${invoice.invoice_number} is not approved yet: waiting for the manager.`);
    await act('accountManager', invoice.id, 'approve-manager');
    expect((await pay('finance', invoice.id, { amount: 100, reference: 'EARLY' })).body.message).toMatch(/not approved yet: waiting for finance to approve\./);
    expect((await staffView('finance', invoice.id)).body.data).toMatchObject({ amount_paid: 0, outstanding: 1000, payments: [] });
  });

  it('refuses a payment dated in the future, a method not on the list, a missing reference and a third decimal', async () => {
    const invoice = await approvedInvoice();
    const future = await pay('finance', invoice.id, { amount: 100, reference: 'X', payment_date: addDays(today(), 1) });
    expect(future.status).toBe(422);
    expect(future.body.errors.payment_date).toEqual(['The payment date may not be in the future: record a payment once it is received.']);
    const bad = await pay('finance', invoice.id, { amount: 10.005, method: 'bitcoin', reference: '' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['amount', 'method', 'reference']);
    expect((await staffView('finance', invoice.id)).body.data.payments).toEqual([]);
  });

  it('lists a firm only its own invoices, each with its payments, and counts only them, past the last page too', async () => {
    const paid = await approvedInvoice();
    expect((await pay('finance', paid.id, { amount: 1000, reference: 'RT-LIST-1' })).status).toBe(201);
    // Another firm's invoice the same search finds.
    const other = await submitted('B', { invoice_number: `${paid.invoice_number}-B` });
    const list = async (query: string) => (await t.call('GET', `/api/partner/invoice?${query}`, { token: firms.A.logins[0].token })).body;

    const found = await list(`search=${paid.invoice_number}&per_page=1`);
    expect(found.data.map((r: { id: number }) => r.id)).toEqual([paid.id]);
    expect(found.meta).toMatchObject({ total: 1, last_page: 1 });
    // The row carries the payments the record's own page shows.
    expect(found.data[0].payments.map((p: { reference: string }) => p.reference)).toEqual(['RT-LIST-1']);
    expect(found.data[0].payments).toEqual((await partnerView('A', paid.id)).body.data.payments);
    const past = await list(`search=${paid.invoice_number}&per_page=1&page=3`);
    expect(past.data).toEqual([]);
    expect(past.meta.total).toBe(1);

    // Page by page, the firm's invoices: each once, as many as the total says, none of another firm's.
    const own = (await t.app.db.select({ id: partnerInvoices.id }).from(partnerInvoices).where(eq(partnerInvoices.partner_id, firms.A.partnerId))).map((r) => r.id);
    const first = await list('per_page=2');
    expect(first.meta.total).toBe(own.length);
    const seen: number[] = [];
    for (let page = 1; page <= first.meta.last_page; page++) seen.push(...(await list(`per_page=2&page=${page}`)).data.map((r: { id: number }) => r.id));
    expect(seen.sort((a, b) => a - b)).toEqual(own.sort((a, b) => a - b));
    expect(seen).not.toContain(other.id);
    expect((await list(`per_page=2&page=${first.meta.last_page + 1}`)).meta.total).toBe(own.length);
  });

  it('lets only finance record payments, and the partner only read them', async () => {
    const invoice = await approvedInvoice();
    expect((await pay('accountManager', invoice.id, { amount: 1, reference: 'R' })).status).toBe(403);
    expect((await t.call('POST', `/api/partner-invoice/${invoice.id}/payments`, { token: firms.A.logins[0].token, body: { amount: 1, reference: 'R', method: 'card', payment_date: today() } })).status).toBe(401);
    expect((await t.call('POST', `/api/partner/invoice/${invoice.id}/payments`, { token: firms.A.logins[0].token, body: { amount: 1, reference: 'R', method: 'card', payment_date: today() } })).status).toBe(404);
    expect((await pay('finance', 999_999, { amount: 1, reference: 'R' })).status).toBe(404);
    expect((await staffView('finance', invoice.id)).body.data.payments).toEqual([]);
  });
});

const statusOf = async (id: number) => (await t.app.db.select({ status: partnerInvoices.status }).from(partnerInvoices).where(eq(partnerInvoices.id, id)))[0].status;

describe('who sees which invoices', () => {
  it('shows a manager only the invoices of the firms they manage; finance and admins all; a firm only its own', async () => {
    const ofA = await submitted('A');
    const ofB = await submitted('B');
    const ids = async (token: string, url = '/api/partner-invoice?per_page=100') => ((await t.call('GET', url, { token })).body.data as { id: number }[]).map((r) => r.id);

    expect(await ids(staff.accountManager.token)).toContain(ofA.id);
    expect(await ids(staff.accountManager.token)).not.toContain(ofB.id);
    expect(await ids(staff.otherManager.token)).toEqual([]);
    expect((await staffView('otherManager', ofA.id)).status).toBe(404);
    expect((await act('otherManager', ofA.id, 'approve-manager')).status).toBe(404);
    for (const who of ['finance', 'admin']) expect(await ids(staff[who].token)).toEqual(expect.arrayContaining([ofA.id, ofB.id]));

    const portal = await ids(firms.B.logins[0].token, '/api/partner/invoice?per_page=100');
    expect(portal).toContain(ofB.id);
    expect(portal).not.toContain(ofA.id);
    expect((await partnerView('B', ofA.id)).status).toBe(404);
  });
});

describe('flags and the list', () => {
  it('compares the invoice\'s net with the statement\'s total, tax apart, and says by how much it differs, without refusing it', async () => {
    // Issue 21: net 7,200 + tax 1,440 = 8,640 against a 7,200 statement is not a difference.
    const taxed = await submitted('A', { pre_billing_id: await statement('A', { total: 7200 }), amount: 7200, tax: 1440 });
    expect(taxed).toMatchObject({ is_net_mismatch: false, pre_billing_total: 7200, total: 8640 });
    expect(preBillingDifference(taxed)).toBeNull();
    const over = await submitted('A', { pre_billing_id: await statement('A', { total: 7200 }), amount: 7250, tax: 1450 });
    expect(over.is_net_mismatch).toBe(true);
    expect(preBillingDifference((await staffView('finance', over.id)).body.data))
      .toBe('The invoice\'s net is EUR\u00a07,250.00, EUR\u00a050.00 more than the approved statement of EUR\u00a07,200.00.');
    const under = await submitted('A', { amount: 999.99, tax: 0 });
    expect(preBillingDifference(under)).toBe('The invoice\'s net is EUR\u00a0999.99, EUR\u00a00.01 less than the approved statement of EUR\u00a01,000.00.');
    // The filter finds exactly the ones that differ.
    const listed = ((await t.call('GET', `/api/partner-invoice?is_net_mismatch=true&partner_id=${firms.A.partnerId}&per_page=100`, { token: staff.finance.token })).body.data as { id: number }[]).map((r) => r.id);
    expect(listed).toEqual(expect.arrayContaining([over.id, under.id]));
    expect(listed).not.toContain(taxed.id);
  });

  it('marks an invoice overdue the day after its due date (firm\'s today), until it is paid', async () => {
    const insert = async (number: string, dueDate: string, status: 'pending' | 'approved' | 'paid' | 'rejected' = 'pending') => {
      const [row] = await t.app.db.insert(partnerInvoices).values({
        partner_id: firms.B.partnerId, pre_billing_id: await statement('B'), invoice_number: number, invoice_date: addDays(today(), -40),
        due_date: dueDate, amount: 1000, tax: 0, total: 1000, currency: 'EUR', status,
      }).returning();
      return row.id;
    };
    const dueToday = await insert('DUE-TODAY', today());
    const dueYesterday = await insert('DUE-YESTERDAY', addDays(today(), -1), 'approved');
    const paidLate = await insert('PAID-LATE', addDays(today(), -1), 'paid');
    const rejectedLate = await insert('REJECTED-LATE', addDays(today(), -1), 'rejected');
    const overdue = async (id: number) => (await staffView('finance', id)).body.data.is_overdue;
    expect(await overdue(dueToday)).toBe(false);
    expect(await overdue(dueYesterday)).toBe(true);
    expect(await overdue(paidLate)).toBe(false);
    expect(await overdue(rejectedLate)).toBe(false);

    // The filter lists exactly the overdue ones (firm B's earlier invoices of 2026 may be among them).
    for (const [url, token] of [
      [`/api/partner-invoice?is_overdue=true&partner_id=${firms.B.partnerId}&per_page=100`, staff.finance.token],
      ['/api/partner/invoice?is_overdue=1&per_page=100', firms.B.logins[0].token],
    ] as const) {
      const listed = await t.call('GET', url, { token });
      expect(listed.status).toBe(200);
      const ids = listed.body.data.map((r: { id: number }) => r.id);
      expect(ids).toContain(dueYesterday);
      for (const id of [dueToday, paidLate, rejectedLate]) expect(ids).not.toContain(id);
      expect(listed.body.data.every((r: { is_overdue: boolean; partner_id: number }) => r.is_overdue && r.partner_id === firms.B.partnerId)).toBe(true);
    }
    const notOverdue = await t.call('GET', `/api/partner-invoice?is_overdue=false&partner_id=${firms.B.partnerId}&per_page=100`, { token: staff.finance.token });
    expect(notOverdue.body.data.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([dueToday, paidLate, rejectedLate]));
  });

  it('searches by invoice number and filters by partner, status and due date', async () => {
    const match = await submitted('A', { invoice_number: 'FIND-ME-42', invoice_date: '2027-01-10', due_date: '2027-02-10' });
    const list = async (query: string) =>
      ((await t.call('GET', `/api/partner-invoice?${query}&per_page=100`, { token: staff.finance.token })).body.data as { id: number }[]).map((r) => r.id);
    expect(await list('search=find-me')).toEqual([match.id]);
    expect(await list(`partner_id=${firms.B.partnerId}`)).not.toContain(match.id);
    expect(await list(`partner_id=${firms.A.partnerId}&status=pending`)).toContain(match.id);
    expect(await list('status=paid')).not.toContain(match.id);
    expect(await list('due_date_from=2027-02-10&due_date_to=2027-02-10')).toEqual([match.id]);
    expect(await list('due_date_from=2027-02-11')).not.toContain(match.id);
    const row = (await staffView('finance', match.id)).body.data;
    expect(row.partner).toEqual({ id: firms.A.partnerId, name: expect.stringContaining('Firm A') });
  });
});
