// Reimbursement batches (issue 21): finance makes a batch of approved claims (each claim in one live
// batch only, even when two batches are made at once), downloads the bank's CSV (one row per payee
// and currency, summed in whole cents), marks it paid (claims Reimbursed, history, claimants told)
// or cancels it (claims free again); bank details seen only by the person and finance.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, roleHasPermissions, roles, users } from '../../src/server/db/schema/accounts';
import { expenses } from '../../src/server/db/schema/hr';
import { expenseCategories } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { workflowHistory } from '../../src/server/db/schema/workflow';
import { today } from '../../src/shared/dates';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let categoryId: number;
const people: Record<string, { id: number; token: string }> = {};

const IBAN = 'GB82 WEST 1234 5698 7654 32';
const IBAN_COMPACT = 'GB82WEST12345698765432';

/** Amounts are written with a no-break space between code and figure (formatMoney); compared as plain text. */
const plain = (text: unknown) => String(text).replace(/\u00a0/g, ' ');

const as = (who: string) => ({ token: people[who].token });

/** An approved claim of `who` (the workflow's own path is walked in the first test). */
async function approvedClaim(who: string, amount: number, currency = 'EUR', description = `Claim ${amount} ${currency}`) {
  const [row] = await t.app.db.insert(expenses).values({
    user_id: people[who].id, expense_category_id: categoryId, expense_date: '2026-11-02', amount, currency, description, status: 'approved',
  }).returning({ id: expenses.id });
  return row.id;
}

const statusOf = async (id: number) => (await t.app.db.select({ status: expenses.status }).from(expenses).where(eq(expenses.id, id)))[0].status;

const makeBatch = (ids: number[], who = 'finance') => t.call('POST', '/api/reimbursement-batch', { ...as(who), body: { expense_ids: ids } });

const setBank = (who: string, forWhom: string, body: Record<string, unknown>) =>
  t.call('PUT', `/api/bank-details/${people[forWhom].id}`, { ...as(who), body });

beforeAll(async () => {
  t = await createTestApp();
  [{ id: categoryId }] = await t.app.db.insert(expenseCategories).values({ name: 'Travel' }).returning();
  const make = async (key: string, name: string, values: Partial<typeof users.$inferInsert>, roles?: string[]) => {
    const created = await t.createUser({ email: `${key}@example.com`, name, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('manager', 'Mira Manager', { user_type: 'manager' });
  await make('asha', 'Asha Rao', { user_type: 'user', parent_id: people.manager.id });
  await make('ben', 'Ben Li', { user_type: 'user', parent_id: people.manager.id });
  await make('chen', 'Chen Wu', { user_type: 'user', parent_id: people.manager.id });
  await make('finance', 'Fay Finance', { user_type: 'user', parent_id: people.manager.id }, ['finance']);
  await make('finance2', 'Finn Finance', { user_type: 'user', parent_id: people.manager.id }, ['finance']);
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };
});
afterAll(async () => { await t?.close(); });

describe('bank details on the person\'s record', () => {
  it('are kept by the person themself and checked: an IBAN by its checksum, an account number with its bank code', async () => {
    const wrongIban = await setBank('asha', 'asha', { account_holder: 'Asha Rao', account_number: 'GB82 WEST 1234 5698 7654 33' });
    expect(wrongIban.status).toBe(422);
    expect(wrongIban.body.errors.account_number[0]).toBe('This IBAN is not valid: check it for a mistyped character.');
    const noCode = await setBank('asha', 'asha', { account_holder: 'Asha Rao', account_number: '12345678' });
    expect(noCode.status).toBe(422);
    expect(noCode.body.errors.bank_code[0]).toMatch(/needs its bank code/);
    const badCode = await setBank('asha', 'asha', { account_holder: 'Asha Rao', account_number: '12345678', bank_code: 'XYZ' });
    expect(badCode.body.errors.bank_code[0]).toMatch(/^Enter a BIC/);

    const saved = await setBank('asha', 'asha', { account_holder: 'Asha Rao', account_number: IBAN, bank_code: 'westgb2l' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ account_holder: 'Asha Rao', account_number: IBAN_COMPACT, bank_code: 'WESTGB2L' });
    expect(saved.body.message).toBe('Your bank details were saved. Reimbursed claims are paid to this account from now on.');
    expect((await t.call('GET', `/api/bank-details/${people.asha.id}`, as('asha'))).body.data.account_number).toBe(IBAN_COMPACT);
  });

  it('are seen and changed by finance, and refused to anyone else (their manager, a colleague)', async () => {
    const read = await t.call('GET', `/api/bank-details/${people.asha.id}`, as('finance'));
    expect(read.status).toBe(200);
    expect(read.body.data.account_number).toBe(IBAN_COMPACT);
    const byFinance = await setBank('finance', 'ben', { account_holder: 'Ben Li', account_number: '31926819', bank_code: '60-16-13' });
    expect(byFinance.status).toBe(200);
    expect(byFinance.body.message).toMatch(/^Ben Li's bank details were saved\./);
    expect(byFinance.body.data).toMatchObject({ account_number: '31926819', bank_code: '601613' });

    for (const who of ['manager', 'ben']) {
      const refused = await t.call('GET', `/api/bank-details/${people.asha.id}`, as(who));
      expect(refused.status, who).toBe(403);
      expect(refused.body.message).toBe('Only the person themself and finance can see or change bank details.');
      expect(JSON.stringify(refused.body)).not.toContain('WEST');
      expect((await setBank(who, 'asha', { account_holder: 'Mallory', account_number: IBAN })).status, who).toBe(403);
    }
    const [stored] = await t.app.db.select({ holder: users.bank_account_holder }).from(users).where(eq(users.id, people.asha.id));
    expect(stored.holder).toBe('Asha Rao');
  });

  it('never appear in people lists, records, exports or options', async () => {
    const reads = [
      await t.call('GET', '/api/user?per_page=100', as('admin')),
      await t.call('GET', `/api/user/${people.asha.id}`, as('admin')),
      await t.call('GET', '/api/user/export', as('admin')),
      await t.call('GET', '/api/user/options?search=Asha', as('admin')),
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      const text = typeof read.body === 'string' ? read.body : JSON.stringify(read.body);
      expect(text).toContain('Asha');
      expect(text).not.toContain(IBAN_COMPACT);
      expect(text).not.toContain('bank_');
    }
  });
});

describe('a reimbursement batch', () => {
  it('takes a claim the whole way: approved by the manager and finance, batched, downloaded, paid, Reimbursed and told', async () => {
    const filed = await t.call('POST', '/api/expense', {
      ...as('asha'), body: { description: 'Taxi to the client site', expense_category_id: categoryId, expense_date: '2026-11-03', amount: 40.5, currency: 'GBP' },
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const id = filed.body.data.id as number;
    for (const [who, transition] of [['manager', 'approve-manager'], ['finance', 'review'], ['finance', 'approve']]) {
      const res = await t.call('POST', `/api/expense/${id}/transitions/${transition}`, { ...as(who), body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const second = await approvedClaim('asha', 24, 'GBP', 'Train ticket');

    const claimable = await t.call('GET', '/api/reimbursement-batch/claimable', as('finance'));
    expect(claimable.body.data.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([id, second]));

    const made = await makeBatch([id, second]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const batch = made.body.data;
    expect(batch).toMatchObject({ reference: `RB-${batch.id}`, status: 'open', claims_count: 2, paid_on: null });
    expect(plain(batch.totals)).toBe('GBP 64.50');
    expect(plain(made.body.message)).toBe(`Batch RB-${batch.id} was made with 2 claims (GBP 64.50).`);
    // Batched claims are no longer offered for another batch.
    const after = await t.call('GET', '/api/reimbursement-batch/claimable', as('finance'));
    expect(after.body.data.map((c: { id: number }) => c.id)).not.toContain(id);

    const csv = await t.call('GET', `/api/reimbursement-batch/${batch.id}/bank-file`, as('finance'));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="reimbursement-RB-${batch.id}.csv"`);
    expect(csv.body).toBe([
      'Payee name,Account holder,IBAN or account number,BIC or sort code,Amount,Currency,Reference,Batch date,Claims',
      `Asha Rao,Asha Rao,${IBAN_COMPACT},WESTGB2L,64.50,GBP,RB-${batch.id}-${people.asha.id}-GBP,${today()},2`,
      '',
    ].join('\r\n'));

    const paid = await t.call('POST', `/api/reimbursement-batch/${batch.id}/pay`, { ...as('finance'), body: { paid_on: today(), payment_reference: 'BATCH-12' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'paid', paid_on: today(), payment_reference: 'BATCH-12' });
    expect(paid.body.message).toBe(`Batch RB-${batch.id} is marked paid: 2 claims reimbursed, and the claimant has been told.`);
    expect(await statusOf(id)).toBe('reimbursed');
    expect(await statusOf(second)).toBe('reimbursed');

    const show = await t.call('GET', `/api/expense/${id}`, as('asha'));
    expect(show.body.data.status).toBe('reimbursed');
    expect(show.body.data.available_transitions).toEqual([]);
    const [history] = await t.app.db.select().from(workflowHistory)
      .where(and(eq(workflowHistory.record_id, id), eq(workflowHistory.resource, 'expense'), eq(workflowHistory.to_status, 'reimbursed')));
    expect(history).toMatchObject({ transition: 'reimburse', from_status: 'approved', actor_name: 'Fay Finance' });
    expect(history.comment).toBe(`Reimbursed in batch RB-${batch.id}, paid on ${today()} with the bank's reference BATCH-12.`);
    const told = await t.app.db.select().from(notifications)
      .where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people.asha.id), eq(notifications.type, 'App\\Notifications\\ExpenseReimbursed')));
    expect(told.map((n) => plain(n.data.message)).sort()).toEqual([
      `Your claim “Taxi to the client site” of GBP 40.50 was reimbursed on ${today()}, reference BATCH-12.`,
      `Your claim “Train ticket” of GBP 24.00 was reimbursed on ${today()}, reference BATCH-12.`,
    ]);
    expect(told[0].data.url).toMatch(/^\/expense\/\d+$/);

    // Paid is the end: neither paid again nor cancelled; a reimbursed claim is never deleted.
    const again = await t.call('POST', `/api/reimbursement-batch/${batch.id}/pay`, { ...as('finance2'), body: { paid_on: today(), payment_reference: 'X' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Batch RB-${batch.id} was already paid on ${today()} (reference BATCH-12), so it cannot be marked paid.`);
    expect((await t.call('POST', `/api/reimbursement-batch/${batch.id}/cancel`, as('finance'))).status).toBe(409);
    const deleted = await t.call('DELETE', `/api/expense/${id}`, as('admin'));
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe('An expense approved by the manager cannot be deleted.');
  });

  it('sums one row per payee and currency in whole cents, and names who has no bank details before download or payment', async () => {
    const ids = [
      await approvedClaim('ben', 0.1, 'EUR'), await approvedClaim('ben', 0.2, 'EUR'), await approvedClaim('ben', 1000.7, 'INR'),
      await approvedClaim('chen', 12.34, 'EUR'), await approvedClaim('asha', 5, 'EUR'),
    ];
    const made = await makeBatch(ids);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const batchId = made.body.data.id as number;
    expect(plain(made.body.data.totals)).toBe('EUR 17.64 + INR 1,000.70');

    const claims = await t.call('GET', `/api/reimbursement-batch/${batchId}/claims`, as('finance'));
    expect(claims.body.data.payees.map((p: Record<string, unknown>) => [p.payee, p.currency, p.claims_count, p.amount, p.has_bank_details])).toEqual([
      ['Asha Rao', 'EUR', 1, 5, true], ['Ben Li', 'EUR', 2, 0.3, true], ['Ben Li', 'INR', 1, 1000.7, true], ['Chen Wu', 'EUR', 1, 12.34, false],
    ]);
    expect(claims.body.data.totals).toEqual([{ currency: 'EUR', amount: 17.64 }, { currency: 'INR', amount: 1000.7 }]);

    const blocked = await t.call('GET', `/api/reimbursement-batch/${batchId}/bank-file`, as('finance'));
    expect(blocked.status).toBe(422);
    expect(blocked.body.message).toBe('Chen Wu has no bank details yet, so this batch cannot be downloaded. Add them on their record (or ask them to add them in their profile) and try again.');
    const payBlocked = await t.call('POST', `/api/reimbursement-batch/${batchId}/pay`, { ...as('finance'), body: { paid_on: today(), payment_reference: 'B-2' } });
    expect(payBlocked.status).toBe(422);
    expect(payBlocked.body.message).toMatch(/^Chen Wu has no bank details yet, so this batch cannot be marked paid\./);
    expect(await statusOf(ids[3])).toBe('approved');

    await setBank('chen', 'chen', { account_holder: 'Chen Wu', account_number: 'DE89 3704 0044 0532 0130 00' });
    const csv = await t.call('GET', `/api/reimbursement-batch/${batchId}/bank-file`, as('finance'));
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    expect((csv.body as string).trim().split('\r\n').slice(1)).toEqual([
      `Asha Rao,Asha Rao,${IBAN_COMPACT},WESTGB2L,5.00,EUR,RB-${batchId}-${people.asha.id}-EUR,${today()},1`,
      `Ben Li,Ben Li,31926819,601613,0.30,EUR,RB-${batchId}-${people.ben.id}-EUR,${today()},2`,
      `Ben Li,Ben Li,31926819,601613,1000.70,INR,RB-${batchId}-${people.ben.id}-INR,${today()},1`,
      `Chen Wu,Chen Wu,DE89370400440532013000,,12.34,EUR,RB-${batchId}-${people.chen.id}-EUR,${today()},1`,
    ]);

    const future = await t.call('POST', `/api/reimbursement-batch/${batchId}/pay`, { ...as('finance'), body: { paid_on: '2999-01-01', payment_reference: 'B-2' } });
    expect(future.status).toBe(422);
    expect(future.body.errors.paid_on[0]).toBe('The payment date cannot be in the future: enter the day the bank paid.');
    const noReference = await t.call('POST', `/api/reimbursement-batch/${batchId}/pay`, { ...as('finance'), body: { paid_on: today(), payment_reference: ' ' } });
    expect(noReference.status).toBe(422);
    expect(noReference.body.errors.payment_reference[0]).toBe('The payment reference field is required.');
    const paid = await t.call('POST', `/api/reimbursement-batch/${batchId}/pay`, { ...as('finance'), body: { paid_on: today(), payment_reference: 'B-2' } });
    expect(paid.body.message).toBe(`Batch RB-${batchId} is marked paid: 5 claims reimbursed, and each of the 3 claimants has been told.`);
  });

  it('holds only approved claims of others, and each claim in one live batch even when two batches are made at once', async () => {
    const [{ id: pending }] = await t.app.db.insert(expenses).values({
      user_id: people.ben.id, expense_category_id: categoryId, expense_date: '2026-11-04', amount: 10, currency: 'EUR', description: 'Lunch', status: 'pending',
    }).returning({ id: expenses.id });
    const notApproved = await makeBatch([pending]);
    expect(notApproved.status).toBe(422);
    expect(notApproved.body.errors.expense_ids[0]).toBe('Only approved claims are reimbursed: “Lunch” is pending.');
    const own = await makeBatch([await approvedClaim('finance', 9, 'EUR')]);
    expect(own.status).toBe(422);
    expect(own.body.errors.expense_ids[0]).toBe('You cannot reimburse your own claim: another member of finance puts it in a batch.');
    expect((await makeBatch([])).status).toBe(422);

    const shared = await approvedClaim('ben', 33, 'EUR', 'Hotel');
    const [one, two] = await Promise.all([makeBatch([shared], 'finance'), makeBatch([shared], 'finance2')]);
    expect([one.status, two.status].sort()).toEqual([201, 409]);
    const refused = one.status === 409 ? one : two;
    expect(refused.body.message).toMatch(/^(The claim “Hotel” is already in batch RB-\d+; a claim is paid in one batch only\.|One of these claims was just put in another batch\.)/);
    const made = one.status === 201 ? one : two;

    // Cancelling frees the claim for a new batch; the cancelled batch keeps what it held, but has no bank file.
    const cancelled = await t.call('POST', `/api/reimbursement-batch/${made.body.data.id}/cancel`, as('finance'));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', claims_count: 1 });
    expect(cancelled.body.message).toBe(`Batch ${made.body.data.reference} is cancelled; its claims can go in a new batch.`);
    expect(await statusOf(shared)).toBe('approved');
    expect((await t.call('GET', `/api/reimbursement-batch/${made.body.data.id}/bank-file`, as('finance'))).status).toBe(409);
    expect((await t.call('POST', `/api/reimbursement-batch/${made.body.data.id}/pay`, { ...as('finance'), body: { paid_on: today(), payment_reference: 'Z' } })).status).toBe(409);
    const remade = await makeBatch([shared], 'finance2');
    expect(remade.status, JSON.stringify(remade.body)).toBe(201);
  });

  it('is finance\'s alone: others may neither list, make, pay nor download one', async () => {
    const list = await t.call('GET', '/api/reimbursement-batch?status=paid', as('finance'));
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThanOrEqual(2);
    expect(list.body.data[0]).toHaveProperty('totals');
    const claim = await approvedClaim('asha', 7, 'EUR');
    for (const who of ['manager', 'asha']) {
      expect((await t.call('GET', '/api/reimbursement-batch', as(who))).status, who).toBe(403);
      expect((await t.call('GET', '/api/reimbursement-batch/claimable', as(who))).status, who).toBe(403);
      expect((await makeBatch([claim], who)).status, who).toBe(403);
      expect((await t.call('GET', `/api/reimbursement-batch/${list.body.data[0].id}/bank-file`, as(who))).status, who).toBe(403);
      expect((await t.call('POST', `/api/reimbursement-batch/${list.body.data[0].id}/cancel`, as(who))).status, who).toBe(403);
    }
  });
});

describe('the finance permission on an existing database', () => {
  it('is added and granted to finance (and admin) by the migration, once', async () => {
    // A database seeded before issue 21: no such permission, so no role holds it.
    await t.app.db.delete(permissions).where(eq(permissions.name, 'can-reimburse-expense'));
    const dir = join(__dirname, '../../src/server/db/migrations');
    // Found by name, not number: the lead renumbers migrations at merge.
    const file = readdirSync(dir).find((name) => name.endsWith('_reimbursement_batches.sql'))!;
    // Only its data statements: the tables exist already.
    const inserts = readFileSync(join(dir, file), 'utf8').split('--> statement-breakpoint').map((part) => part.trim())
      .map((part) => part.split('\n').filter((line) => !line.startsWith('--')).join('\n').trim()).filter((part) => part.startsWith('INSERT'));
    expect(inserts).toHaveLength(2);
    for (let run = 0; run < 2; run += 1) for (const statement of inserts) await t.app.db.execute(sql.raw(statement));
    const holders = await t.app.db.select({ role: roles.name }).from(roleHasPermissions)
      .innerJoin(roles, eq(roles.id, roleHasPermissions.role_id)).innerJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
      .where(eq(permissions.name, 'can-reimburse-expense'));
    expect(holders.map((h) => h.role).sort()).toEqual(['admin', 'finance']);
  });
});
