// Reimbursement batches (issue 21): which approved claims are free to pay, a batch made from some
// of them (each claim in at most one live batch), its claims and sums per payee and currency, the
// bank's bulk-transfer file, paying it (claims Reimbursed, history, the claimants told) and
// cancelling it (its claims free again). Each route's service takes the context first (decision 040).
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { expenses, reimbursementBatchClaims, reimbursementBatches } from '../../db/schema/hr';
import { HttpError, validationError } from '../../plugins/errors';
import { resourceRow } from '../../resources/register';
import { recordUrl, writeHistory } from '../../resources/workflow';
import { notifyEach } from '../notification/notify';
import { csvCell } from '../../resources/csv';
import { dayOf, today } from '../../../shared/dates';
import { expense, formatMoney } from '../../../shared/resources/expense';
import { type PayBatchInput, reimbursementBatch } from '../../../shared/resources/reimbursement-batch';
import { bankDetailsOf, type StoredBankDetails } from './bank-details';
import { centsToDecimal, fromCents, toCents } from '../../../shared/money';
import { inWrite, type ResourceContext, type RowOf, type WriteContext } from '../../resources/types';

export interface BatchClaim {
  id: number; description: string; expense_date: string; amount: number; currency: string; status: string;
  user_id: number; claimant: string;
}

/** One line of the bank file: a payee's claims in one currency, summed. */
export interface PayeeTotal {
  user_id: number; payee: string; currency: string; claims_count: number; amount: number; amount_cents: number;
  has_bank_details: boolean;
}

const claimColumns = {
  id: expenses.id, description: expenses.description, expense_date: expenses.expense_date, amount: expenses.amount,
  currency: expenses.currency, status: expenses.status, user_id: expenses.user_id, claimant: users.name,
};

/** Approved claims in no live batch, oldest first, with whether their claimant can be paid yet. */
export async function claimableClaims({ db }: ResourceContext): Promise<(BatchClaim & { has_bank_details: boolean })[]> {
  const rows = await db.select({ ...claimColumns, has_bank_details: sql<boolean>`(${users.bank_account_number} is not null)` })
    .from(expenses).innerJoin(users, eq(users.id, expenses.user_id))
    .where(and(eq(expenses.status, 'approved'), sql`not exists (select 1 from ${reimbursementBatchClaims} where ${reimbursementBatchClaims.expense_id} = ${expenses.id} and ${reimbursementBatchClaims.is_released} = false)`))
    .orderBy(asc(users.name), asc(expenses.expense_date), asc(expenses.id));
  return rows;
}

/** The claims a batch holds (released ones too: a cancelled batch still shows what it held). */
export async function claimsOfBatch(db: Db, batchId: number): Promise<BatchClaim[]> {
  return db.select(claimColumns).from(reimbursementBatchClaims)
    .innerJoin(expenses, eq(expenses.id, reimbursementBatchClaims.expense_id))
    .innerJoin(users, eq(users.id, expenses.user_id))
    .where(eq(reimbursementBatchClaims.batch_id, batchId))
    .orderBy(asc(users.name), asc(expenses.currency), asc(expenses.expense_date), asc(expenses.id));
}

/** A batch's claims (404 for an unknown batch) with their sums per payee and currency and in all. */
export async function batchClaims(ctx: ResourceContext, id: number) {
  await resourceRow(reimbursementBatch.name, ctx, id);
  const claims = await claimsOfBatch(ctx.db, id);
  const payees = payeeTotals(claims, await bankDetailsOf(ctx.db, claims.map((c) => c.user_id)));
  return { claims, payees, totals: currencyTotals(payees) };
}

/** Claims summed per payee and currency in whole cents: the bank file's lines, in its order. */
export function payeeTotals(claims: readonly BatchClaim[], details: Map<number, { details: StoredBankDetails | null }>): PayeeTotal[] {
  const lines = new Map<string, PayeeTotal>();
  for (const claim of claims) {
    const key = `${claim.user_id}:${claim.currency}`;
    const line = lines.get(key) ?? {
      user_id: claim.user_id, payee: claim.claimant, currency: claim.currency, claims_count: 0, amount: 0, amount_cents: 0,
      has_bank_details: !!details.get(claim.user_id)?.details,
    };
    line.claims_count += 1;
    line.amount_cents += toCents(claim.amount);
    line.amount = fromCents(line.amount_cents);
    lines.set(key, line);
  }
  return [...lines.values()].sort((a, b) => a.payee.localeCompare(b.payee) || a.user_id - b.user_id || a.currency.localeCompare(b.currency));
}

/** Sums per currency (amounts of different currencies never add up). */
export function currencyTotals(lines: readonly { currency: string; amount_cents: number }[]) {
  const sums = new Map<string, number>();
  for (const line of lines) sums.set(line.currency, (sums.get(line.currency) ?? 0) + line.amount_cents);
  return [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([currency, cents]) => ({ currency, amount: fromCents(cents) }));
}

/** "Asha Rao" / "Asha Rao and Ben Li" / "Asha Rao, Ben Li and Chen Wu". */
export function namesSentence(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** 422 naming every payee of the batch who has no bank details yet: nobody can be paid without them. */
function checkPayeesHaveDetails(lines: readonly PayeeTotal[], action: string) {
  const missing = [...new Set(lines.filter((line) => !line.has_bank_details).map((line) => line.payee))];
  if (!missing.length) return;
  const who = namesSentence(missing);
  throw new HttpError(422, `${who} ${missing.length === 1 ? 'has' : 'have'} no bank details yet, so this batch cannot be ${action}. Add them on ${missing.length === 1 ? 'their' : 'each'} record (or ask ${missing.length === 1 ? 'them' : 'each of them'} to add them in their profile) and try again.`, undefined, undefined, { missing_bank_details: missing });
}

async function lockBatch(db: Db, id: number) {
  const [batch] = await db.select().from(reimbursementBatches).where(eq(reimbursementBatches.id, id)).for('update');
  if (!batch) throw new HttpError(404, 'No such reimbursement batch.');
  return batch;
}

type Batch = typeof reimbursementBatches.$inferSelect;

function refuseUnlessOpen(batch: Batch, action: string) {
  if (batch.status === 'paid') throw new HttpError(409, `Batch ${batch.reference} was already paid on ${batch.paid_on} (reference ${batch.payment_reference}), so it cannot be ${action}.`);
  if (batch.status === 'cancelled') throw new HttpError(409, `Batch ${batch.reference} was cancelled, so it cannot be ${action}. Its claims are free for a new batch.`);
}

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';

const ALREADY_BATCHED = 'One of these claims was just put in another batch. Reload the list of approved claims and try again.';

const claimsWord = (count: number) => (count === 1 ? '1 claim' : `${count} claims`);

/** A batch of the given approved claims, as its row (read once it is committed) and the answer's sentence. */
export async function createBatch(ctx: ResourceContext, ids: readonly number[]) {
  const id = await inWrite(ctx, (write) => insertBatch(write, ids));
  const row = await resourceRow(reimbursementBatch.name, ctx, id);
  return { data: row, message: `Batch ${String(row.reference)} was made with ${claimsWord(Number(row.claims_count))} (${String(row.totals)}).` };
}

/**
 * Makes the batch under a lock on its claims: a second batch made at the same time waits, then finds
 * them taken (the partial unique index is the last word).
 */
async function insertBatch({ db, account }: WriteContext, ids: readonly number[]): Promise<number> {
  const unique = [...new Set(ids)];
  const found = await db.select({ id: expenses.id, status: expenses.status, user_id: expenses.user_id, description: expenses.description })
    .from(expenses).where(inArray(expenses.id, unique)).orderBy(asc(expenses.id)).for('update');
  if (found.length !== unique.length) throw validationError({ expense_ids: 'Some of the selected claims do not exist any more.' });
  const notApproved = found.filter((claim) => claim.status !== 'approved');
  if (notApproved.length) {
    throw validationError({ expense_ids: `Only approved claims are reimbursed: “${notApproved[0].description}” is ${notApproved[0].status}.` });
  }
  if (found.some((claim) => claim.user_id === account.id)) {
    throw validationError({ expense_ids: 'You cannot reimburse your own claim: another member of finance puts it in a batch.' });
  }
  const taken = await db.select({ description: expenses.description, reference: reimbursementBatches.reference })
    .from(reimbursementBatchClaims)
    .innerJoin(reimbursementBatches, eq(reimbursementBatches.id, reimbursementBatchClaims.batch_id))
    .innerJoin(expenses, eq(expenses.id, reimbursementBatchClaims.expense_id))
    .where(and(inArray(reimbursementBatchClaims.expense_id, unique), eq(reimbursementBatchClaims.is_released, false)));
  if (taken.length) {
    throw new HttpError(409, `The claim “${taken[0].description}” is already in batch ${taken[0].reference}; a claim is paid in one batch only.`);
  }
  // The reference needs the id: a temporary unique value first, then RB-<id>.
  const [batch] = await db.insert(reimbursementBatches).values({ reference: `new-${process.pid}-${Date.now() % 1e9}`.slice(0, 20), created_by: account.id })
    .returning({ id: reimbursementBatches.id });
  await db.update(reimbursementBatches).set({ reference: `RB-${batch.id}` }).where(eq(reimbursementBatches.id, batch.id));
  try {
    await db.insert(reimbursementBatchClaims).values(unique.map((expense_id) => ({ batch_id: batch.id, expense_id })));
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, ALREADY_BATCHED);
    throw error;
  }
  return batch.id;
}

/** Marks an open batch paid: each claim Reimbursed, its history as a sentence, its claimant told. */
export async function payBatch(ctx: ResourceContext, id: number, input: PayBatchInput) {
  const { batch, claims } = await inWrite(ctx, (write) => markPaid(write, id, input));
  const people = new Set(claims.map((c) => c.user_id)).size;
  const told = people === 1 ? 'the claimant has been told' : `each of the ${people} claimants has been told`;
  return {
    data: await resourceRow(reimbursementBatch.name, ctx, id),
    message: `Batch ${batch.reference} is marked paid: ${claimsWord(claims.length)} reimbursed, and ${told}.`,
  };
}

async function markPaid({ db, tx, account }: WriteContext, id: number, input: PayBatchInput) {
  const batch = await lockBatch(db, id);
  refuseUnlessOpen(batch, 'marked paid');
  if (input.paid_on > today()) throw validationError({ paid_on: 'The payment date cannot be in the future: enter the day the bank paid.' });
  if (input.paid_on < dayOf(batch.created_at)) {
    throw validationError({ paid_on: `The payment date cannot be before the batch was made (${dayOf(batch.created_at)}).` });
  }
  const claims = (await claimsOfBatch(db, id));
  if (claims.some((claim) => claim.user_id === account.id)) {
    throw new HttpError(403, 'This batch holds your own claim: another member of finance marks it paid.');
  }
  checkPayeesHaveDetails(payeeTotals(claims, await bankDetailsOf(db, claims.map((c) => c.user_id))), 'marked paid');

  await db.update(reimbursementBatches).set({
    status: 'paid', paid_on: input.paid_on, payment_reference: input.payment_reference, decided_by: account.id, decided_at: new Date(), updated_at: new Date(),
  }).where(eq(reimbursementBatches.id, id));
  await db.update(expenses).set({ status: 'reimbursed', updated_at: new Date() })
    .where(and(inArray(expenses.id, claims.map((c) => c.id)), eq(expenses.status, 'approved')));
  for (const claim of claims) {
    await writeHistory(db, {
      resource: expense.name, recordId: claim.id, transition: 'reimburse', from: 'approved', to: 'reimbursed', account,
      comment: `Reimbursed in batch ${batch.reference}, paid on ${input.paid_on} with the bank's reference ${input.payment_reference}.`,
    });
  }
  await notifyEach(tx, claims.map((claim) => ({
    recipients: [{ type: 'app' as const, id: claim.user_id }],
    content: {
      title: 'Expense reimbursed',
      message: `Your claim “${claim.description}” of ${formatMoney(claim.amount, claim.currency)} was reimbursed on ${input.paid_on}, reference ${input.payment_reference}.`,
      url: recordUrl(expense, claim.id),
    },
  })), { type: 'App\\Notifications\\ExpenseReimbursed', kind: 'expense', isMailed: true });
  return { batch, claims };
}

/** Cancels an open batch; its claims are free for another batch. */
export async function cancelBatch(ctx: ResourceContext, id: number) {
  const batch = await inWrite(ctx, async ({ db, account }) => {
    const locked = await lockBatch(db, id);
    refuseUnlessOpen(locked, 'cancelled');
    await db.update(reimbursementBatches).set({ status: 'cancelled', decided_by: account.id, decided_at: new Date(), updated_at: new Date() })
      .where(eq(reimbursementBatches.id, id));
    await db.update(reimbursementBatchClaims).set({ is_released: true }).where(eq(reimbursementBatchClaims.batch_id, id));
    return locked;
  });
  return {
    data: await resourceRow(reimbursementBatch.name, ctx, id),
    message: `Batch ${batch.reference} is cancelled; its claims can go in a new batch.`,
  };
}

export const CSV_HEADER = ['Payee name', 'Account holder', 'IBAN or account number', 'BIC or sort code', 'Amount', 'Currency', 'Reference', 'Batch date', 'Claims'];

/**
 * The bank's bulk-transfer file: one row per payee and currency, the claims summed in whole cents
 * and written with two decimals beside the currency code, a reference per row (RB-<batch>-<payee>-<currency>).
 */
export async function bankFile({ db }: ResourceContext, id: number): Promise<{ filename: string; csv: string }> {
  const [batch] = await db.select().from(reimbursementBatches).where(eq(reimbursementBatches.id, id));
  if (!batch) throw new HttpError(404, 'No such reimbursement batch.');
  if (batch.status === 'cancelled') throw new HttpError(409, `Batch ${batch.reference} was cancelled, so it has no bank file. Make a new batch of its claims.`);
  const claims = await claimsOfBatch(db, id);
  const details = await bankDetailsOf(db, claims.map((c) => c.user_id));
  const lines = payeeTotals(claims, details);
  checkPayeesHaveDetails(lines, 'downloaded');
  const batchDate = dayOf(batch.created_at);
  const rows = lines.map((line) => {
    const bank = details.get(line.user_id)!.details!;
    return [line.payee, bank.account_holder, bank.account_number, bank.bank_code ?? '', centsToDecimal(line.amount_cents), line.currency,
      `${batch.reference}-${line.user_id}-${line.currency}`, batchDate, line.claims_count];
  });
  const csv = [CSV_HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
  return { filename: `reimbursement-${batch.reference}.csv`, csv: `${csv}\r\n` };
}

/** Each listed batch's claim count and sums per currency, in one query. */
export async function decorateBatches({ db }: ResourceContext, rows: RowOf<typeof reimbursementBatches>[]) {
  if (!rows.length) return;
  const sums = await db.select({
    batch_id: reimbursementBatchClaims.batch_id, currency: expenses.currency,
    count: sql<number>`count(*)`.mapWith(Number),
    // Summed as numeric (exact) and turned into whole cents.
    cents: sql<number>`(sum(${expenses.amount}) * 100)::bigint`.mapWith(Number),
  }).from(reimbursementBatchClaims).innerJoin(expenses, eq(expenses.id, reimbursementBatchClaims.expense_id))
    .where(inArray(reimbursementBatchClaims.batch_id, rows.map((row) => row.id)))
    .groupBy(reimbursementBatchClaims.batch_id, expenses.currency);
  for (const row of rows) {
    const mine = sums.filter((sum) => sum.batch_id === row.id);
    const totals = currencyTotals(mine.map((sum) => ({ currency: sum.currency, amount_cents: sum.cents })));
    row.claims_count = mine.reduce((count, sum) => count + sum.count, 0);
    row.totals = totals.map((total) => formatMoney(total.amount, total.currency)).join(' + ');
    row.totals_by_currency = totals;
  }
}
