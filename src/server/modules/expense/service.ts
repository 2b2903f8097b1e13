// Expenses beyond the declared workflow: who sees which claims, the receipt rule, the possible
// duplicate flag, who may resume or reject a claim on hold, the totals of a filtered list and the
// policy the form shows. The definition's hooks are the named functions here (decision 040).
import { decidedByQuery } from '../delegation/scope';
import { and, desc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { expenses } from '../../db/schema/hr';
import { workflowHistory } from '../../db/schema/workflow';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { resourceListWhere } from '../../resources/register';
import { OWNER_MANAGER } from '../../resources/workflow';
import { hasPermission, isAdmin } from '../../../shared/permissions';
import type { TransitionDefinition } from '../../../shared/resources/define';
import {
  expense, EXPENSE_APPROVE_PERMISSION, type ExpensePolicy, EXPENSE_REVIEW_PERMISSION, EXPENSE_STATUSES, FROM_HOLD_TRANSITIONS, holdStepOf,
} from '../../../shared/resources/expense';
import { addMoney } from '../../../shared/money';
import { getExpenseSetting } from '../setting/expense-setting';
import type { Input, ResourceContext, RowOf, WriteContext } from '../../resources/types';

/**
 * Who sees which claims: admins and finance (can-review-expense) all; whoever decides the manager's
 * step (can-approve-expense) their own and their reports' (parent_id); everyone else their own.
 * The scope of the list, the totals, every single-record route and the attachment downloads.
 */
export function expenseScope({ db, account }: ResourceContext): SQL | undefined {
  if (isAdmin(account) || hasPermission(account.permissions, EXPENSE_REVIEW_PERMISSION)) return undefined;
  const own = eq(expenses.user_id, account.id);
  if (!hasPermission(account.permissions, EXPENSE_APPROVE_PERMISSION)) return own;
  // Decision 036: and today, the reports of a manager who delegated their decisions to the caller.
  return or(own, inArray(expenses.user_id, decidedByQuery(db, account.id)));
}

/** A claim above the threshold (any currency) needs at least one receipt; 422 on `receipts` otherwise. */
export async function checkReceipts(db: Db, amount: number, receipts: readonly unknown[]) {
  const { receipt_threshold: threshold } = await getExpenseSetting(db);
  if (amount > threshold && receipts.length === 0) {
    throw validationError({ receipts: `Attach at least one receipt: claims above ${formatAmount(threshold)} need one.` });
  }
}

const formatAmount = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/**
 * Another claim of the same person on the same date for the same amount and currency that was not
 * rejected: flagged on the claim being saved, never refused (two taxis on one day happen).
 */
export async function isPossibleDuplicate(db: Db, claim: { id?: number; user_id: number; expense_date: string; amount: number; currency: string }): Promise<boolean> {
  const [found] = await db.select({ id: expenses.id }).from(expenses).where(and(
    eq(expenses.user_id, claim.user_id),
    eq(expenses.expense_date, claim.expense_date),
    eq(expenses.amount, claim.amount),
    eq(expenses.currency, claim.currency),
    ne(expenses.status, 'rejected'),
    claim.id ? ne(expenses.id, claim.id) : undefined,
  )).limit(1);
  return !!found;
}

/** A new claim: its claimant is whoever files it (the machinery sets the initial status), its receipts checked, a look-alike flagged. */
export async function prepareExpense(ctx: WriteContext, values: Input, input: Input): Promise<Input> {
  const claim = { ...values, user_id: ctx.account.id } as Input & { user_id: number; expense_date: string; amount: number; currency: string };
  await checkReceipts(ctx.db, claim.amount, (input.receipts as unknown[] | undefined) ?? []);
  return { ...claim, is_possible_duplicate: await isPossibleDuplicate(ctx.db, claim) };
}

/** A changed claim: the receipts it will have (those sent, else those it has) checked, and flagged again. */
export async function prepareExpenseUpdate(ctx: WriteContext, values: Input, existing: RowOf<typeof expenses>, input: Input): Promise<Input> {
  const claim = { ...existing, ...values };
  await checkReceipts(ctx.db, claim.amount, (input.receipts as unknown[] | undefined) ?? (existing.receipts as unknown[] | undefined) ?? []);
  return { ...values, is_possible_duplicate: await isPossibleDuplicate(ctx.db, claim) };
}

/** Only the claimant (or an admin) changes or deletes a claim; others decide it through the workflow. The refusal, or null (the rows' abilities read it too). */
export function claimantRefusal({ account }: ResourceContext, existing: RowOf<typeof expenses>, action: 'change' | 'delete'): HttpError | null {
  return existing.user_id !== account.id && !isAdmin(account) ? new HttpError(403, `Only the claimant can ${action} this expense.`) : null;
}

/**
 * Resuming or rejecting a claim on hold belongs to whoever decides the step it was held at: the
 * claimant's manager (or an admin) for a pending claim, finance for the later steps. The declared
 * permission lets either side try; the history says which step it was. Null when `account` decides it.
 */
export function holdDeciderRefusal(account: Account, heldFrom: string | null | undefined, ownerManagerId: unknown): string | null {
  if (holdStepOf(heldFrom) === 'finance') {
    return hasPermission(account.permissions, EXPENSE_REVIEW_PERMISSION) ? null : 'Finance put this expense on hold: only finance can decide it now.';
  }
  const isManager = isAdmin(account) || ownerManagerId === account.id;
  return hasPermission(account.permissions, EXPENSE_APPROVE_PERMISSION) && isManager
    ? null : 'The manager put this expense on hold: only the claimant\'s manager can decide it now.';
}

/** The state each claim on hold was put on hold from (its latest entry into 'on hold'), in one query. */
export async function heldFromStates(db: Db, ids: readonly number[]): Promise<Map<number, string | null>> {
  if (!ids.length) return new Map();
  const rows = await db.selectDistinctOn([workflowHistory.record_id], { id: workflowHistory.record_id, from: workflowHistory.from_status })
    .from(workflowHistory)
    .where(and(eq(workflowHistory.resource, expense.name), inArray(workflowHistory.record_id, [...ids]), eq(workflowHistory.to_status, 'on hold')))
    .orderBy(workflowHistory.record_id, desc(workflowHistory.id));
  return new Map(rows.map((row) => [row.id, row.from]));
}

const isFromHold = (name: string) => (FROM_HOLD_TRANSITIONS as readonly string[]).includes(name);

/**
 * Refuses (403) resuming or rejecting a claim on hold by someone who does not decide the step it was
 * held at; no columns of its own to set with the new status.
 */
export async function checkHoldDecider({ db, account }: WriteContext, transition: TransitionDefinition, existing: RowOf<typeof expenses>): Promise<Input> {
  if (!isFromHold(transition.name)) return {};
  const heldFrom = (await heldFromStates(db, [existing.id])).get(existing.id);
  const refusal = holdDeciderRefusal(account, heldFrom, existing[OWNER_MANAGER]);
  if (refusal) throw new HttpError(403, refusal);
  return {};
}

/** The rows' buttons follow the same rule: a claim on hold offers Resume / Reject only to its decider. */
export async function narrowHoldDecisions({ db, account }: ResourceContext, rows: RowOf<typeof expenses>[]) {
  const held = rows.filter((row) => row.status === 'on hold' && (row.available_transitions as { name: string }[] | undefined)?.some((t) => isFromHold(t.name)));
  if (!held.length) return;
  const heldFrom = await heldFromStates(db, held.map((row) => row.id));
  for (const row of held) {
    if (!holdDeciderRefusal(account, heldFrom.get(row.id), row[OWNER_MANAGER])) continue;
    row.available_transitions = (row.available_transitions as { name: string }[]).filter((t) => !isFromHold(t.name));
  }
}

/** The policy the form shows (the receipt threshold). */
export const expensePolicy = ({ db }: ResourceContext): Promise<ExpensePolicy> => getExpenseSetting(db);

export interface ExpenseTotals {
  /** Claims in the filtered list. */
  count: number;
  /** Per currency: how many claims and their sum. */
  by_currency: { currency: string; count: number; amount: number }[];
  /** Per status (workflow order): how many claims and their sum per currency (amounts of different currencies never add up). */
  by_status: { status: string; count: number; amounts: { currency: string; amount: number }[] }[];
}

/** Sums of the claims the list shows for the request's own query (its filters and the caller's scope) by currency and by status. */
export async function expenseTotals({ db, request }: ResourceContext): Promise<ExpenseTotals> {
  const where = resourceListWhere(expense.name, request);
  const rows = await db.select({
    currency: expenses.currency,
    status: expenses.status,
    count: sql<number>`count(*)`.mapWith(Number),
    // Summed as numeric (exact cents) and sent as a number, like the rows' amounts.
    amount: sql<number>`coalesce(sum(${expenses.amount}), 0)`.mapWith(Number),
  }).from(expenses).where(where).groupBy(expenses.currency, expenses.status);
  const byCurrency = new Map<string, { currency: string; count: number; amount: number }>();
  const byStatus = new Map<string, { status: string; count: number; amounts: { currency: string; amount: number }[] }>();
  for (const row of rows) {
    const currency = byCurrency.get(row.currency) ?? { currency: row.currency, count: 0, amount: 0 };
    currency.count += row.count;
    currency.amount = addMoney(currency.amount, row.amount);
    byCurrency.set(row.currency, currency);
    const status = byStatus.get(row.status) ?? { status: row.status, count: 0, amounts: [] };
    status.count += row.count;
    status.amounts.push({ currency: row.currency, amount: row.amount });
    byStatus.set(row.status, status);
  }
  const statusOrder = (status: string) => { const index = EXPENSE_STATUSES.indexOf(status as never); return index < 0 ? EXPENSE_STATUSES.length : index; };
  for (const status of byStatus.values()) status.amounts.sort((a, b) => a.currency.localeCompare(b.currency));
  return {
    count: rows.reduce((sum, row) => sum + row.count, 0),
    by_currency: [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    by_status: [...byStatus.values()].sort((a, b) => statusOrder(a.status) - statusOrder(b.status)),
  };
}

