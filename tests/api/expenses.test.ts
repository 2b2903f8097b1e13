// Expenses (issue 9): claims with receipts through the generic multipart routes, the declared
// workflow (manager, then finance), the receipt threshold, possible duplicates and the totals.
// On the embedded database too: money as numeric and totals by SQL, as the embedded driver returns them.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { expenses } from '../../src/server/db/schema/hr';
import { clients, expenseCategories } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { attachments } from '../../src/server/db/schema/workflow';
import { expense } from '../../src/shared/resources/expense';
import { historyLine } from '../../src/shared/resources/define';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { PDF } from '../helpers/multipart';

let t: TestApp;
let categoryId: number;
let clientId: number;
const people: Record<string, { id: number; token: string }> = {};

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);

interface Upload { name: string; type: string; content: Buffer | string }

/** multipart/form-data the way the generic form sends it: `expense[amount]`, `expense[receipts][]`. */
function expenseForm(fields: Record<string, string | number | boolean>, files: Upload[] = []) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="expense[${name}]"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="expense[receipts][]"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const receipt: Upload = { name: 'taxi.pdf', type: 'application/pdf', content: PDF };

const claimFields = (overrides: Record<string, string | number | boolean> = {}) => ({
  description: 'Taxi to the client site', expense_category_id: categoryId, expense_date: '2026-03-02',
  amount: 120.5, currency: 'INR', client_id: clientId, is_rebillable: true, ...overrides,
});

/** Files a claim as `who` (multipart, one receipt by default). */
async function file(who: string, overrides: Record<string, string | number | boolean> = {}, files: Upload[] = [receipt]) {
  const form = expenseForm(claimFields(overrides), files);
  return t.call('POST', '/api/expense', { token: people[who].token, body: form.body, headers: form.headers });
}

async function filed(who: string, overrides: Record<string, string | number | boolean> = {}) {
  const res = await file(who, overrides);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; status: string; receipts: { id: number; name: string; size: number; mime: string }[] };
}

const act = (who: string, id: number, transition: string, comment?: string) =>
  t.call('POST', `/api/expense/${id}/transitions/${transition}`, { token: people[who].token, body: comment === undefined ? {} : { comment } });

/** The transitions the row offers `who`, by name. */
const offered = async (who: string, id: number) =>
  ((await t.call('GET', `/api/expense/${id}`, { token: people[who].token })).body.data.available_transitions as { name: string }[]).map((a) => a.name).sort();

const statusOf = async (id: number) => (await t.app.db.select({ status: expenses.status }).from(expenses).where(eq(expenses.id, id)))[0].status;

const noticesOf = async (who: string) =>
  (await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people[who].id))))
    .map((n) => ({ ...n.data, type: n.type }));

const storedFiles = () => {
  try { return readdirSync(join(t.app.config.dataDir, 'files', 'attachments')).length; } catch { return 0; }
};

beforeAll(async () => {
  t = await createTestApp();
  [{ id: categoryId }] = await t.app.db.insert(expenseCategories).values({ name: 'Travel' }).returning();
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  const make = async (key: string, values: Partial<typeof users.$inferInsert>, roles?: string[]) => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('managerA', { user_type: 'manager' });
  await make('managerB', { user_type: 'manager' });
  await make('engineerA', { user_type: 'user', parent_id: people.managerA.id });
  await make('engineerA2', { user_type: 'user', parent_id: people.managerA.id });
  await make('engineerB', { user_type: 'user', parent_id: people.managerB.id });
  await make('finance', { user_type: 'user', parent_id: people.managerB.id }, ['finance']);
  await make('finance2', { user_type: 'user', parent_id: people.managerB.id }, ['finance']);
  // Sees every claim (finance) and decides a manager's step, but manages nobody.
  await make('financeManager', { user_type: 'manager' }, ['manager', 'finance']);
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };
});
afterAll(async () => { await t?.close(); });

describe('filing a claim', () => {
  it('takes multipart with bracketed keys and receipts; the claimant is the caller, the status pending', async () => {
    const form = expenseForm({ ...claimFields({ amount: '99.90' }), user_id: people.engineerB.id, status: 'approved' }, [receipt, { name: 'hotel.png', type: 'image/png', content: PNG }]);
    const res = await t.call('POST', '/api/expense', { token: people.engineerA.token, body: form.body, headers: form.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      user_id: people.engineerA.id, status: 'pending', amount: 99.9, currency: 'INR', is_rebillable: true, client_id: clientId,
      expense_category_id: categoryId, is_possible_duplicate: false, user: { id: people.engineerA.id, name: 'engineerA' },
    });
    expect(res.body.data.receipts).toEqual([
      { id: expect.any(Number), name: 'taxi.pdf', size: PDF.length, mime: 'application/pdf' },
      { id: expect.any(Number), name: 'hotel.png', size: PNG.length, mime: 'image/png' },
    ]);
    // The claimant decides nothing about their own claim.
    expect(res.body.data.available_transitions).toEqual([]);
    expect(res.body.message).toBe('Expense created successfully.');
  });

  it('replays a retried multipart claim with the same Idempotency-Key (issue 26): one claim, one stored receipt', async () => {
    const key = { 'idempotency-key': 'outbox-expense-1' };
    const post = (fields: Record<string, string | number | boolean>, files: Upload[] = [receipt]) => {
      const form = expenseForm(claimFields(fields), files);
      return t.call('POST', '/api/expense', { token: people.engineerA.token, body: form.body, headers: { ...form.headers, ...key } });
    };
    const before = (await t.call('GET', '/api/expense', { token: people.engineerA.token })).body.meta.total;
    const first = await post({ description: 'Outbox taxi', expense_date: '2026-02-11' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // The browser picks a new boundary on every attempt: the parts, not the bytes, make it a retry.
    const again = await post({ description: 'Outbox taxi', expense_date: '2026-02-11' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    // The same key with another receipt is another request: refused, not written.
    const other = await post({ description: 'Outbox taxi', expense_date: '2026-02-11' }, [{ ...receipt, content: Buffer.from(PDF.toString().replace('1.4', '1.5')) }]);
    expect(other.status).toBe(422);
    expect(other.body.errors['Idempotency-Key']).toBeDefined();
    expect((await t.call('GET', '/api/expense', { token: people.engineerA.token })).body.meta.total).toBe(before + 1);
  });

  it('takes JSON without receipts below the threshold', async () => {
    const res = await t.call('POST', '/api/expense', { token: people.engineerA.token, body: { ...claimFields({ amount: 20, expense_date: '2026-01-05' }) } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.receipts).toEqual([]);
  });

  it('refuses receipts by type, by size and by disguised content, leaving no row and no file', async () => {
    const rowsBefore = (await t.app.db.select().from(expenses)).length;
    const filesBefore = storedFiles();
    const attachmentsBefore = (await t.app.db.select().from(attachments)).length;

    const wrongType = await file('engineerA', {}, [{ name: 'receipt.exe', type: 'application/octet-stream', content: 'MZ' }]);
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors.receipts[0]).toBe('receipt.exe cannot be attached here: choose a PDF, PNG, JPG, JPEG or WEBP file.');

    const big = await file('engineerA', {}, [{ name: 'scan.pdf', type: 'application/pdf', content: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 10)]) }]);
    expect(big.status).toBe(422);
    expect(big.body.errors.receipts[0]).toMatch(/10 MB/);

    const disguised = await file('engineerA', {}, [receipt, { name: 'invoice.pdf', type: 'application/pdf', content: '<html>not a pdf</html>' }]);
    expect(disguised.status).toBe(422);
    expect(disguised.body.errors.receipts).toEqual(['invoice.pdf is not a real PDF file. Choose the original file and try again.']);

    const tooMany = await file('engineerA', {}, Array.from({ length: 11 }, (_, i) => ({ ...receipt, name: `r${i}.pdf` })));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.receipts[0]).toMatch(/at most 10/);

    expect((await t.app.db.select().from(expenses)).length).toBe(rowsBefore);
    expect((await t.app.db.select().from(attachments)).length).toBe(attachmentsBefore);
    expect(storedFiles()).toBe(filesBefore);
  });

  it('refuses a claim above the threshold without a receipt (422 on receipts), and leaves no file on a refusal after the upload', async () => {
    const none = await file('engineerA', { amount: 50.01 }, []);
    expect(none.status).toBe(422);
    expect(none.body.errors.receipts).toEqual(['Attach at least one receipt: claims above 50 need one.']);
    expect((await file('engineerA', { amount: 50, expense_date: '2026-01-06' }, [])).status).toBe(201);

    // The file was fine, the values were not: the stored receipt goes again.
    const filesBefore = storedFiles();
    const bad = await file('engineerA', { amount: -3, currency: 'XYZ' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['amount', 'currency']);
    expect(storedFiles()).toBe(filesBefore);
  });

  it('reads the threshold from the settings, which only can-edit-setting changes', async () => {
    expect((await t.call('GET', '/api/expense/policy', { token: people.engineerA.token })).body.data).toEqual({ receipt_threshold: 50 });
    expect((await t.call('PUT', '/api/setting/expense', { token: people.engineerA.token, body: { receipt_threshold: 500 } })).status).toBe(403);
    const invalid = await t.call('PUT', '/api/setting/expense', { token: people.admin.token, body: { receipt_threshold: -1 } });
    expect(invalid.status).toBe(422);
    const saved = await t.call('PUT', '/api/setting/expense', { token: people.admin.token, body: { receipt_threshold: 500 } });
    expect(saved.status).toBe(200);
    expect((await t.call('GET', '/api/setting/expense', { token: people.admin.token })).body.data).toEqual({ receipt_threshold: 500 });
    expect((await t.call('GET', '/api/expense/policy', { token: people.engineerA.token })).body.data).toEqual({ receipt_threshold: 500 });
    expect((await file('engineerA', { amount: 400, expense_date: '2026-01-07' }, [])).status).toBe(201);
    await t.call('PUT', '/api/setting/expense', { token: people.admin.token, body: { receipt_threshold: 50 } });
    expect((await file('engineerA', { amount: 400, expense_date: '2026-01-08' }, [])).status).toBe(422);
  });
});

describe('who sees what', () => {
  it('shows claimants their own, managers their reports\', finance and admins all', async () => {
    await filed('engineerB', { expense_date: '2026-02-10' });
    await filed('engineerA2', { expense_date: '2026-02-11' });
    const owners = async (who: string) => new Set((await t.call('GET', '/api/expense?per_page=100', { token: people[who].token })).body.data.map((r: { user_id: number }) => r.user_id));
    expect(await owners('engineerA')).toEqual(new Set([people.engineerA.id]));
    expect(await owners('managerA')).toEqual(new Set([people.engineerA.id, people.engineerA2.id]));
    expect(await owners('managerB')).toEqual(new Set([people.engineerB.id]));
    const all = new Set([people.engineerA.id, people.engineerA2.id, people.engineerB.id]);
    expect(await owners('finance')).toEqual(all);
    expect(await owners('admin')).toEqual(all);
  });

  it('serves receipts to the claimant, their manager and finance, and 404 to anyone else', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-02-12' });
    const url = `/api/expense/${claim.id}/attachments/${claim.receipts[0].id}`;
    for (const who of ['engineerA', 'managerA', 'finance', 'admin']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${people[who].token}` } });
      expect(res.statusCode, who).toBe(200);
      expect(res.rawPayload.equals(PDF), who).toBe(true);
      expect(res.headers['content-type']).toMatch(/^application\/pdf/);
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
    }
    const inline = await t.app.inject({ method: 'GET', url: `${url}?disposition=inline`, headers: { authorization: `Bearer ${people.engineerA.token}` } });
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
    for (const who of ['engineerA2', 'engineerB', 'managerB']) {
      expect((await t.call('GET', url, { token: people[who].token })).status, who).toBe(404);
      expect((await t.call('GET', `/api/expense/${claim.id}`, { token: people[who].token })).status, who).toBe(404);
    }
    // An attachment of another claim is not served through this one.
    const other = await filed('engineerA2', { expense_date: '2026-02-13' });
    expect((await t.call('GET', `/api/expense/${claim.id}/attachments/${other.receipts[0].id}`, { token: people.engineerA.token })).status).toBe(404);
  });
});

describe('the workflow', () => {
  it('goes pending -> approved by manager -> reviewed by accounting -> approved, telling the right people', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-03-10', amount: 310 });
    expect((await noticesOf('managerA')).some((n) => n.url === `/expense/${claim.id}`)).toBe(true);

    const forManager = (await t.call('GET', `/api/expense/${claim.id}`, { token: people.managerA.token })).body.data;
    expect(forManager.available_transitions.map((a: { name: string }) => a.name).sort()).toEqual(['approve-manager', 'hold-manager', 'reject-manager']);
    expect(forManager.available_transitions.find((a: { name: string }) => a.name === 'reject-manager')).toMatchObject({ requires_comment: true, tone: 'danger' });
    // Finance has nothing to do yet.
    expect((await t.call('GET', `/api/expense/${claim.id}`, { token: people.finance.token })).body.data.available_transitions).toEqual([]);

    const approved = await act('managerA', claim.id, 'approve-manager', 'Fine by me');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.status).toBe('approved by manager');
    for (const who of ['finance', 'finance2']) expect((await noticesOf(who)).some((n) => n.url === `/expense/${claim.id}`), who).toBe(true);
    const forFinance = (await t.call('GET', `/api/expense/${claim.id}`, { token: people.finance.token })).body.data;
    expect(forFinance.available_transitions.map((a: { name: string }) => a.name).sort()).toEqual(['hold-finance', 'reject-finance', 'review']);

    expect((await act('finance', claim.id, 'review')).body.data.status).toBe('reviewed by accounting');
    expect((await act('finance2', claim.id, 'approve', 'Paid with the March run')).body.data.status).toBe('approved');
    const final = (await t.call('GET', `/api/expense/${claim.id}`, { token: people.engineerA.token })).body.data;
    expect(final.status).toBe('approved');
    expect(final.available_transitions).toEqual([]);

    // Issue 24: three decisions within minutes are one notification, which says the latest.
    const toClaimant = (await noticesOf('engineerA')).filter((n) => n.url === `/expense/${claim.id}`);
    expect(toClaimant).toHaveLength(1);
    expect(toClaimant[0]).toMatchObject({ title: 'Your claim was approved for reimbursement' });

    const history = await t.call('GET', `/api/expense/${claim.id}/history`, { token: people.engineerA.token });
    expect(history.status).toBe(200);
    expect(history.body.data.map((h: { transition: string; from: string | null; to: string; actor: { id: number } | null; comment: string | null }) =>
      [h.transition, h.from, h.to, h.actor?.id, h.comment])).toEqual([
      ['create', null, 'pending', people.engineerA.id, null],
      ['approve-manager', 'pending', 'approved by manager', people.managerA.id, 'Fine by me'],
      ['review', 'approved by manager', 'reviewed by accounting', people.finance.id, null],
      ['approve', 'reviewed by accounting', 'approved', people.finance2.id, 'Paid with the March run'],
    ]);
    expect((await t.call('GET', `/api/expense/${claim.id}/history`, { token: people.engineerB.token })).status).toBe(404);
  });

  it('refuses a transition from the wrong state with 409', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-03-11' });
    expect((await act('finance', claim.id, 'review')).status).toBe(409);
    expect((await act('managerA', claim.id, 'approve-manager')).status).toBe(200);
    const again = await act('managerA', claim.id, 'approve-manager');
    expect(again.status).toBe(409);
    // Decision 060: the state's label quoted as its name, not read as an adjective ("is approved by manager now").
    expect(again.body.message).toBe('The status of this expense is “Approved by manager”, so this step no longer applies.');
    expect((await act('managerA', claim.id, 'hold-manager', 'Wait')).status).toBe(409);
    expect((await act('finance', claim.id, 'approve')).status).toBe(409);
    expect((await act('finance', claim.id, 'resume')).status).toBe(409);
    expect(await statusOf(claim.id)).toBe('approved by manager');
    const unknown = await act('finance', claim.id, 'no-such-step');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('There is no step called “no-such-step” for expenses.');
  });

  it('refuses with 403 a decision on one\'s own claim, by the wrong manager, or without the permission', async () => {
    // A manager's own claim: in their scope, but never theirs to decide.
    const own = await filed('managerA', { expense_date: '2026-03-12' });
    const self = await act('managerA', own.id, 'approve-manager');
    expect(self.status).toBe(403);
    expect(self.body.message).toMatch(/your own/);

    const claim = await filed('engineerA', { expense_date: '2026-03-13' });
    // Sees every claim (finance), holds can-approve-expense, but is not engineerA's manager.
    const wrongManager = await act('financeManager', claim.id, 'approve-manager');
    expect(wrongManager.status).toBe(403);
    expect(wrongManager.body.message).toMatch(/manager/);
    // Finance has no say in the manager's step; a colleague none at all.
    expect((await act('finance', claim.id, 'approve-manager')).status).toBe(403);
    const colleague = await act('engineerA', claim.id, 'approve-manager');
    expect(colleague.status).toBe(403);
    // Not the button's words glued in ("You may not approve this expense." read "You may not put on hold this expense.").
    expect(colleague.body.message).toBe('You do not have permission to take this step on this expense.');
    // Another manager does not even see it.
    expect((await act('managerB', claim.id, 'approve-manager')).status).toBe(404);
    expect(await statusOf(claim.id)).toBe('pending');

    // Finance filing their own claim: their manager approves, another person of finance reviews.
    const financeOwn = await filed('finance', { expense_date: '2026-03-14' });
    expect((await act('managerB', financeOwn.id, 'approve-manager')).status).toBe(200);
    expect((await act('finance', financeOwn.id, 'review')).status).toBe(403);
    expect((await act('finance2', financeOwn.id, 'review')).status).toBe(200);
  });

  it('asks for a reason to hold or reject (422) and accepts an optional one to approve', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-03-15' });
    for (const name of ['hold-manager', 'reject-manager']) {
      const res = await act('managerA', claim.id, name);
      expect(res.status, name).toBe(422);
      expect(res.body.errors.comment).toBeDefined();
      expect((await act('managerA', claim.id, name, '   ')).status, `${name} blank`).toBe(422);
    }
    expect((await act('managerA', claim.id, 'approve-manager')).status).toBe(200);
    for (const name of ['hold-finance', 'reject-finance']) expect((await act('finance', claim.id, name)).status, name).toBe(422);
    expect(await statusOf(claim.id)).toBe('approved by manager');
  });

  it('puts a claim on hold and resumes it to the state it left, by whoever decides that step', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-03-16' });
    const held = await act('managerA', claim.id, 'hold-manager', 'Which client was this for?');
    expect(held.body.data.status).toBe('on hold');
    // Held at the manager's step: finance may neither resume nor reject it, and is offered neither.
    expect(await offered('managerA', claim.id)).toEqual(['reject-on-hold', 'resume']);
    expect(await offered('finance', claim.id)).toEqual([]);
    expect((await act('finance', claim.id, 'resume')).status).toBe(403);
    expect((await act('finance', claim.id, 'reject-on-hold', 'No')).status).toBe(403);
    expect((await act('managerA', claim.id, 'resume')).body.data.status).toBe('pending');

    expect((await act('managerA', claim.id, 'approve-manager')).status).toBe(200);
    expect((await act('finance', claim.id, 'hold-finance', 'Receipt unreadable')).body.data.status).toBe('on hold');
    // Held at finance's step: the manager may not resume it.
    expect(await offered('managerA', claim.id)).toEqual([]);
    expect(await offered('finance2', claim.id)).toEqual(['reject-on-hold', 'resume']);
    expect((await t.call('GET', '/api/expense?status=on%20hold', { token: people.finance.token })).body.data
      .find((r: { id: number }) => r.id === claim.id).available_transitions.map((a: { name: string }) => a.name).sort()).toEqual(['reject-on-hold', 'resume']);
    expect((await act('managerA', claim.id, 'resume')).status).toBe(403);
    expect((await act('finance2', claim.id, 'resume')).body.data.status).toBe('approved by manager');

    expect((await act('finance', claim.id, 'review')).status).toBe(200);
    expect((await act('finance', claim.id, 'hold-finance', 'Checking with the client')).status).toBe(200);
    expect((await act('finance', claim.id, 'resume')).body.data.status).toBe('reviewed by accounting');

    // Issue 24: eight steps within minutes are one notification to the claimant, saying the latest.
    const toClaimant = (await noticesOf('engineerA')).filter((n) => n.url === `/expense/${claim.id}`);
    expect(toClaimant.length).toBe(1);
    expect(toClaimant[0]).toMatchObject({ title: 'Your claim was resumed' });
    expect(toClaimant[0].message).toMatch(/^finance resumed your claim of .*: it is back where it was put on hold\.$/);
  });

  it('rejects from on hold with a reason, and nothing moves a rejected claim', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-03-17' });
    expect((await act('managerA', claim.id, 'hold-manager', 'Missing details')).status).toBe(200);
    expect((await act('managerA', claim.id, 'reject-on-hold')).status).toBe(422);
    expect((await act('managerA', claim.id, 'reject-on-hold', 'Not a business expense')).body.data.status).toBe('rejected');
    for (const name of ['resume', 'approve-manager', 'reject-manager', 'hold-manager']) expect((await act('managerA', claim.id, name, 'x')).status, name).toBe(409);
    const rejected = (await t.call('GET', `/api/expense/${claim.id}`, { token: people.engineerA.token })).body.data;
    expect(rejected.available_transitions).toEqual([]);
  });

  it('lets exactly one of two concurrent decisions win', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-03-18' });
    const [approve, reject] = await Promise.all([
      act('managerA', claim.id, 'approve-manager'),
      act('admin', claim.id, 'reject-manager', 'Duplicate of last week'),
    ]);
    expect([approve.status, reject.status].sort()).toEqual([200, 409]);
    const winner = approve.status === 200 ? 'approved by manager' : 'rejected';
    expect(await statusOf(claim.id)).toBe(winner);
    const history = (await t.call('GET', `/api/expense/${claim.id}/history`, { token: people.admin.token })).body.data;
    expect(history.map((h: { to: string }) => h.to)).toEqual(['pending', winner]);
  });

  it('decides many claims at once with a result per claim', async () => {
    const first = await filed('engineerA', { expense_date: '2026-03-19' });
    const second = await filed('engineerA2', { expense_date: '2026-03-19' });
    const elsewhere = await filed('engineerB', { expense_date: '2026-03-19' });
    const res = await t.call('POST', '/api/expense/transitions/approve-manager', { token: people.managerA.token, body: { ids: [first.id, second.id, elsewhere.id] } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: number; status: number }) => [r.id, r.status])).toEqual([[first.id, 200], [second.id, 200], [elsewhere.id, 404]]);
    expect(await statusOf(elsewhere.id)).toBe('pending');
  });
});

describe('editing', () => {
  it('lets the claimant edit while pending or on hold, and refuses (409) once the manager approved', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-04-01' });
    const edited = await t.call('PATCH', `/api/expense/${claim.id}`, { token: people.engineerA.token, body: { description: 'Taxi and parking', amount: 130 } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ description: 'Taxi and parking', amount: 130, status: 'pending', user_id: people.engineerA.id });
    expect(edited.body.data.receipts).toHaveLength(1);
    // Only the claimant changes a claim; others decide it.
    expect((await t.call('PATCH', `/api/expense/${claim.id}`, { token: people.managerA.token, body: { amount: 1 } })).status).toBe(403);

    expect((await act('managerA', claim.id, 'hold-manager', 'Add the parking receipt')).status).toBe(200);
    // The receipt already attached is kept by naming it; a new one is added.
    const withParking = expenseForm({ ...claimFields({ expense_date: '2026-04-01', amount: 130 }), receipts: claim.receipts[0].id }, [{ name: 'parking.png', type: 'image/png', content: PNG }]);
    const saved = await t.call('PUT', `/api/expense/${claim.id}`, { token: people.engineerA.token, body: withParking.body, headers: withParking.headers });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.receipts.map((r: { name: string }) => r.name)).toEqual(['taxi.pdf', 'parking.png']);
    // Issue 20: the edit after the hold sends it back to the manager's step.
    expect(saved.body.data.status).toBe('pending');

    // Dropping every receipt of a claim above the threshold is refused.
    const dropAll = expenseForm({ receipts: '' });
    const refused = await t.call('PATCH', `/api/expense/${claim.id}`, { token: people.engineerA.token, body: dropAll.body, headers: dropAll.headers });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.receipts).toBeDefined();

    expect((await act('managerA', claim.id, 'approve-manager')).status).toBe(200);
    const late = await t.call('PATCH', `/api/expense/${claim.id}`, { token: people.engineerA.token, body: { amount: 999 } });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('The status of this expense is “Approved by manager”, so it can no longer be edited.');
    expect((await t.app.db.select().from(expenses).where(eq(expenses.id, claim.id)))[0].amount).toBe(130);
  });
});

describe('a decision is never changed behind the decider\'s back (issue 20)', () => {
  it('sends a claim edited while on hold after the manager\'s approval back to the manager, and the history says so', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-04-02', amount: 20, currency: 'EUR', description: 'Lunch with the client' });
    expect((await act('managerA', claim.id, 'approve-manager')).status).toBe(200);
    expect((await act('finance', claim.id, 'hold-finance', 'Which client?')).status).toBe(200);

    // EUR 20 becomes 9,000 with a new receipt.
    const form = expenseForm({ ...claimFields({ expense_date: '2026-04-02', amount: 9000, currency: 'EUR', description: 'Lunch with the client' }) },
      [{ name: 'new.png', type: 'image/png', content: PNG }]);
    const edited = await t.call('PUT', `/api/expense/${claim.id}`, { token: people.engineerA.token, body: form.body, headers: form.headers });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ amount: 9000, status: 'pending' });

    // Finance can no longer resume it to "approved by manager"; the manager decides again.
    const resumed = await act('finance', claim.id, 'resume');
    expect(resumed.status).toBe(409);
    expect(await statusOf(claim.id)).toBe('pending');
    expect(await offered('finance', claim.id)).toEqual([]);
    expect(await offered('managerA', claim.id)).toEqual(['approve-manager', 'hold-manager', 'reject-manager']);

    const history = (await t.call('GET', `/api/expense/${claim.id}/history`, { token: people.admin.token })).body.data;
    expect(history.map((h: { transition: string; from: string | null; to: string }) => [h.transition, h.from, h.to])).toEqual([
      ['create', null, 'pending'], ['approve-manager', 'pending', 'approved by manager'], ['hold-finance', 'approved by manager', 'on hold'], ['edit', 'on hold', 'pending'],
    ]);
    expect(history[3]).toMatchObject({ actor: { id: people.engineerA.id, name: 'engineerA' }, comment: null });
    expect(historyLine(expense.workflow!, history[3])).toBe('engineerA edited the claim, so it goes back to the manager');

    // The manager is told it is theirs to decide again.
    const told = (await noticesOf('managerA')).filter((n) => n.url === `/expense/${claim.id}` && n.type.endsWith('ExpenseEdited'));
    expect(told).toHaveLength(1);
    expect(told[0].title).toBe('An edited claim waits for your approval');
    expect(told[0].message).toMatch(/^engineerA edited their claim of EUR\s9,000\.00 \(Lunch with the client\) after it was decided, so it comes back to you to decide again\.$/);

    expect((await act('managerA', claim.id, 'approve-manager')).body.data.status).toBe('approved by manager');
  });

  it('keeps a pending claim where it is when edited: nobody has decided it yet', async () => {
    const claim = await filed('engineerA', { expense_date: '2026-04-03' });
    expect((await t.call('PATCH', `/api/expense/${claim.id}`, { token: people.engineerA.token, body: { amount: 121 } })).body.data.status).toBe('pending');
    const history = (await t.call('GET', `/api/expense/${claim.id}/history`, { token: people.admin.token })).body.data;
    expect(history.map((h: { transition: string }) => h.transition)).toEqual(['create']);
  });
});

describe('possible duplicates', () => {
  it('flags a claim with the same person, date, amount and currency, says so, and never refuses it', async () => {
    const first = await file('engineerB', { expense_date: '2026-05-04', amount: 75 });
    expect(first.body.data.is_possible_duplicate).toBe(false);
    const second = await file('engineerB', { expense_date: '2026-05-04', amount: 75, description: 'Taxi again' });
    expect(second.status).toBe(201);
    expect(second.body.data.is_possible_duplicate).toBe(true);
    expect(second.body.message).toMatch(/possible duplicate/);
    // Another currency, another person or another day is not a duplicate.
    expect((await file('engineerB', { expense_date: '2026-05-04', amount: 75, currency: 'USD' })).body.data.is_possible_duplicate).toBe(false);
    expect((await file('engineerA2', { expense_date: '2026-05-04', amount: 75 })).body.data.is_possible_duplicate).toBe(false);
    expect((await file('engineerB', { expense_date: '2026-05-05', amount: 75 })).body.data.is_possible_duplicate).toBe(false);

    // Flagged in the list (and filterable), on the detail page too.
    const flagged = await t.call('GET', '/api/expense?is_possible_duplicate=true&per_page=100', { token: people.engineerB.token });
    expect(flagged.body.data.map((r: { id: number }) => r.id)).toEqual([second.body.data.id]);

    // Moving it to another day clears the flag, and the update's message no longer mentions it.
    const moved = await t.call('PATCH', `/api/expense/${second.body.data.id}`, { token: people.engineerB.token, body: { expense_date: '2026-05-06' } });
    expect(moved.body.data.is_possible_duplicate).toBe(false);
    expect(moved.body.message).toBe('Expense updated successfully.');

    // A rejected claim is no longer a duplicate of anything.
    expect((await act('managerB', first.body.data.id, 'reject-manager', 'Wrong category')).status).toBe(200);
    expect((await file('engineerB', { expense_date: '2026-05-04', amount: 75 })).body.data.is_possible_duplicate).toBe(false);
  });
});

describe('totals', () => {
  it('sums the filtered list per currency and per status, within the caller\'s scope', async () => {
    const date = { expense_date_from: '2026-07-01', expense_date_to: '2026-07-31' };
    const a1 = await filed('engineerA', { expense_date: '2026-07-01', amount: 100.1, currency: 'INR' });
    await filed('engineerA', { expense_date: '2026-07-02', amount: 200.2, currency: 'INR' });
    await filed('engineerA', { expense_date: '2026-07-03', amount: 60, currency: 'USD' });
    await filed('engineerB', { expense_date: '2026-07-04', amount: 1000, currency: 'INR' });
    expect((await act('managerA', a1.id, 'approve-manager')).status).toBe(200);

    const totals = async (who: string, query: Record<string, string>) => {
      const res = await t.call('GET', `/api/expense/totals?${new URLSearchParams(query)}`, { token: people[who].token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };

    const mine = await totals('engineerA', date);
    expect(mine.count).toBe(3);
    expect(mine.by_currency).toEqual([{ currency: 'INR', count: 2, amount: 300.3 }, { currency: 'USD', count: 1, amount: 60 }]);
    expect(mine.by_status).toEqual([
      { status: 'pending', count: 2, amounts: [{ currency: 'INR', amount: 200.2 }, { currency: 'USD', amount: 60 }] },
      { status: 'approved by manager', count: 1, amounts: [{ currency: 'INR', amount: 100.1 }] },
    ]);

    const all = await totals('finance', date);
    expect(all.by_currency).toEqual([{ currency: 'INR', count: 3, amount: 1300.3 }, { currency: 'USD', count: 1, amount: 60 }]);

    // The list's own filters apply: status, claimant, currency, search.
    expect((await totals('finance', { ...date, status: 'pending', currency: 'INR' })).by_currency).toEqual([{ currency: 'INR', count: 2, amount: 1200.2 }]);
    expect((await totals('finance', { ...date, user_id: String(people.engineerB.id) })).count).toBe(1);
    expect((await totals('managerB', date)).by_currency).toEqual([{ currency: 'INR', count: 1, amount: 1000 }]);
    expect((await totals('finance', { ...date, search: 'nothing like this' }))).toEqual({ count: 0, by_currency: [], by_status: [] });

    // The same numbers as the list itself.
    const list = (await t.call('GET', `/api/expense?${new URLSearchParams({ ...date, per_page: '100' })}`, { token: people.finance.token })).body.data as { amount: number; currency: string }[];
    const inr = list.filter((r) => r.currency === 'INR').reduce((sum, r) => sum + r.amount, 0);
    expect(Math.round(inr * 100) / 100).toBe(1300.3);

    expect((await t.call('GET', '/api/expense/totals?status=unknown', { token: people.finance.token })).status).toBe(422);
  });
});
