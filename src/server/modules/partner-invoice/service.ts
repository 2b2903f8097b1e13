// Partner invoices beyond the declared workflow: who of the staff sees which invoices, the checks
// against the pre-billing an invoice bills (the firm's, approved, not invoiced yet, same currency),
// the invoice number unique per firm, the computed flags (net differs, overdue), the payments (issue 21:
// in parts, paid when they reach the total), and the resubmission of a rejected invoice the partner corrected.
import type { BillablePreBilling } from '../../../shared/schemas/partner-invoice';
import { and, asc, eq, inArray, ne, notExists, type SQL, sql } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import type { Db } from '../../db/client';
import { partners } from '../../db/schema/accounts';
import { partnerInvoicePayments, partnerInvoices, preBillings } from '../../db/schema/partner-billing';
import { inTransaction } from '../../lib/transaction';
import { workflowHistory } from '../../db/schema/workflow';
import type { Account } from '../../plugins/auth';
import type { PartnerRow } from '../auth/accounts';
import { HttpError, validationError } from '../../plugins/errors';
import type { ResourceContext, WriteContext } from '../../resources/register';
import { writeHistory } from '../../resources/workflow';
import { notifyAbout } from '../../resources/workflow-notify';
import { hasPermission, isAdmin } from '../../../shared/permissions';
import { addMoney, compareMoney, formatMoney, subtractMoney } from '../../../shared/money';
import { workflowState } from '../../../shared/resources/define';
import {
  partnerInvoice, PARTNER_INVOICE_APPROVE_PERMISSION, PARTNER_INVOICE_PAY_PERMISSION, type PartnerInvoicePayment,
  paymentHistoryText, paymentReceivedText, PAYMENT_TRANSITION, type RecordPaymentInput,
} from '../../../shared/resources/partner-invoice';
import { today } from '../../../shared/dates';
import { firmTodaySql } from '../setting/time-zone';
import type { Row } from '../../resources/types';
import { chosenOneRefused, inSentence } from '../../../shared/words';

const invoice = sql.identifier('partner_invoices');
const column = (name: string) => sql`${invoice}.${sql.identifier(name)}`;
/** The payments recorded against the row's invoice, in SQL. */
const paidSql = () => sql<number>`coalesce((select sum(p.amount) from ${partnerInvoicePayments} p where p.invoice_id = ${column('id')}), 0)`;

/**
 * Read-only values selected with every row (and filterable / sortable by key). Columns are spelled
 * out as `"partner_invoices"."x"` because they sit inside subqueries over other tables.
 */
export const partnerInvoiceComputed: Record<string, SQL> = {
  // Flagged, never refused: a partner may add a late fee or round; the deciders see it. Like with like
  // (issue 21): the invoice's net against the statement's total, which never includes tax.
  is_net_mismatch: sql<boolean>`coalesce((select ${column('amount')} <> pb.total from ${preBillings} pb where pb.id = ${column('pre_billing_id')}), false)`,
  pre_billing_total: sql<number>`(select pb.total from ${preBillings} pb where pb.id = ${column('pre_billing_id')})`.mapWith(Number),
  // Summed as numeric (exact cents) in the database.
  amount_paid: paidSql().mapWith(Number),
  outstanding: sql<number>`(${column('total')} - ${paidSql()})`.mapWith(Number),
  // Due yesterday is overdue, due today is not. Paid ones are settled; a rejected one is not owed
  // until the partner corrects it.
  is_overdue: sql<boolean>`(${column('due_date')} < ${firmTodaySql} and ${column('status')} not in ('paid', 'rejected'))`,
  // The payments, oldest first, with who recorded them (PartnerInvoicePayment), in the row's own
  // query: a page is one round trip (issue 27). PostgreSQL evaluates this for the page's rows only.
  payments: sql<PartnerInvoicePayment[]>`coalesce((
    select json_agg(json_build_object('id', p.id, 'payment_date', p.payment_date, 'amount', p.amount, 'method', p.method, 'reference', p.reference,
      'recorded_by', case when p.recorded_by is null then null else json_build_object('id', p.recorded_by, 'name', coalesce(u.name, '')) end)
      order by p.payment_date, p.id)
    from ${partnerInvoicePayments} p left join ${users} u on u.id = p.recorded_by
    where p.invoice_id = ${column('id')}), '[]'::json)`,
  // The reason of the latest rejection or hold, while the invoice is in that state (the partner reads it in the list).
  status_reason: sql<string | null>`(case when ${column('status')} in ('rejected', 'on hold') then (
    select h.comment from ${workflowHistory} h
    where h.resource = ${partnerInvoice.name} and h.record_id = ${column('id')} and h.to_status = ${column('status')}
    order by h.id desc limit 1) end)`,
};


/** The partner firm a portal login belongs to. */
export const firmOf = (account: Account): number => (account.user as PartnerRow).partner_id;

/**
 * Which invoices staff see: admins and finance (can-pay-partner-invoice) all; whoever takes the
 * manager's step (can-approve-partner-invoice) those of the firms they are account manager of;
 * anyone else allowed to view them all. The portal is scoped to the caller's firm by the machinery.
 */
export function partnerInvoiceScope(ctx: ResourceContext): SQL | undefined {
  const { account } = ctx;
  if (ctx.area === 'partner' || isAdmin(account) || hasPermission(account.permissions, PARTNER_INVOICE_PAY_PERMISSION)) return undefined;
  if (!hasPermission(account.permissions, PARTNER_INVOICE_APPROVE_PERMISSION)) return undefined;
  return inArray(partnerInvoices.partner_id, ctx.db.select({ id: partners.id }).from(partners).where(eq(partners.account_manager_id, account.id)));
}

/** 'YYYY-MM-DD' plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

interface InvoiceInput {
  invoice_number: string;
  invoice_date: string;
  due_date?: string | null;
  pre_billing_id: number;
  amount: number;
  tax?: number | null;
  currency?: string | null;
}

/** The same answer for someone else's statement as for one that does not exist (nothing leaks). */
const INVALID_PRE_BILLING = chosenOneRefused('pre-billing');

/**
 * The checks that need the database, as one 422 (CONVENTIONS "Schemas"), and the values the server
 * decides: the due date from the firm's payment terms, the currency and the total. `self` is the
 * invoice being edited; its own pre-billing is not "already invoiced".
 */
export async function checkPartnerInvoice(db: Db, input: InvoiceInput, partnerId: number, self?: Row): Promise<Row> {
  const errors: Record<string, string> = {};
  const selfId = self?.id as number | undefined;
  const [firm] = await db.select({ terms: partners.payment_terms_days }).from(partners).where(eq(partners.id, partnerId));
  if (!firm) throw new HttpError(404, 'Partner not found.');

  const [preBilling] = await db.select({ id: preBillings.id, status: preBillings.status, currency: preBillings.currency })
    .from(preBillings).where(and(eq(preBillings.id, input.pre_billing_id), eq(preBillings.partner_id, partnerId)));
  if (!preBilling) errors.pre_billing_id = INVALID_PRE_BILLING;
  // A statement invoiced before its approval was withdrawn is not re-checked when only other fields change.
  else if (preBilling.status !== 'approved' && preBilling.id !== self?.pre_billing_id) {
    errors.pre_billing_id = 'The selected pre-billing is not approved yet: only an approved pre-billing can be invoiced.';
  } else {
    const [invoiced] = await db.select({ id: partnerInvoices.id }).from(partnerInvoices)
      .where(and(eq(partnerInvoices.pre_billing_id, preBilling.id), selfId ? ne(partnerInvoices.id, selfId) : undefined)).limit(1);
    if (invoiced) errors.pre_billing_id = 'The selected pre-billing has already been invoiced.';
  }

  // Unique per firm, case-insensitively (the index partner_invoices_number).
  const [taken] = await db.select({ id: partnerInvoices.id }).from(partnerInvoices).where(and(
    eq(partnerInvoices.partner_id, partnerId),
    sql`lower(${partnerInvoices.invoice_number}) = ${input.invoice_number.toLowerCase()}`,
    selfId ? ne(partnerInvoices.id, selfId) : undefined,
  )).limit(1);
  if (taken) errors.invoice_number = 'The invoice number has already been taken.';

  const dueDate = input.due_date ?? addDays(input.invoice_date, firm.terms);
  if (dueDate < input.invoice_date) errors.due_date = 'The due date cannot be before the invoice date.';

  const currency = input.currency ?? preBilling?.currency;
  if (preBilling && currency !== preBilling.currency) {
    errors.currency = `The currency must be the pre-billing's currency (${preBilling.currency}).`;
  }
  if (Object.keys(errors).length) throw validationError(errors);

  const tax = input.tax ?? 0;
  return { due_date: dueDate, currency, tax, total: addMoney(input.amount, tax) };
}

/** An invoice carries its PDF: one on create, and an edit may replace it but not remove it. */
export function checkInvoiceFile(input: Row) {
  const files = input.file as unknown[] | undefined;
  if (!files?.length) throw validationError({ file: 'The invoice PDF field is required.' });
}

/** Columns set with a decision: who and when. */
export function decisionValues(account: Account): Row {
  return { decided_by: account.id, decided_at: new Date() };
}


/**
 * A rejected invoice the partner corrected goes back to pending: written in the history (the
 * decision trail keeps the rejection and its reason) and told to those who decide the first step.
 */
export async function recordResubmission(row: Row, ctx: WriteContext) {
  await writeHistory(ctx.db, {
    resource: partnerInvoice.name, recordId: row.id as number, transition: 'resubmit', from: 'rejected', to: 'pending', account: ctx.account,
  });
  await notifyAbout(ctx.tx, partnerInvoice, row, partnerInvoice.workflow!.events.resubmit.notify, ctx.account, null, 'resubmitted', partnerInvoice.workflow!.isCreateMailed);
}


/**
 * The firm's approved statements no invoice bills yet (besides `invoiceId`, the one being edited):
 * what the invoice form offers, oldest month first.
 */
export async function billablePreBillings(db: Db, partnerId: number, invoiceId?: number): Promise<BillablePreBilling[]> {
  const rows = await db.select({ id: preBillings.id, month: preBillings.month, currency: preBillings.currency, total: preBillings.total, supplements_id: preBillings.supplements_id })
    .from(preBillings)
    .where(and(
      eq(preBillings.partner_id, partnerId),
      eq(preBillings.status, 'approved'),
      notExists(db.select({ id: partnerInvoices.id }).from(partnerInvoices).where(and(
        eq(partnerInvoices.pre_billing_id, preBillings.id),
        invoiceId ? ne(partnerInvoices.id, invoiceId) : undefined,
      ))),
    ))
    .orderBy(asc(preBillings.month), asc(preBillings.id));
  return rows.map(({ supplements_id, ...row }) => ({
    ...row, is_supplementary: supplements_id !== null,
    label: `${row.month.slice(0, 7)}${supplements_id !== null ? ' (supplementary)' : ''} · ${formatMoney(row.total, row.currency)}`,
  }));
}

/** Staff may correct a pending invoice; a rejected one went back to the partner, who corrects and resubmits it. */
export function staffEditRefusal(existing: Row, ctx: ResourceContext): HttpError | null {
  return ctx.area === 'app' && existing.status === 'rejected'
    ? new HttpError(409, 'This invoice was returned to the partner, who corrects and resubmits it.') : null;
}


/**
 * Finance records a payment (issue 21). Refused: an invoice that is not approved (409, saying what
 * it is), a payment date in the future, and more than is outstanding (422 on the field). The payment
 * that brings the outstanding to zero makes the invoice paid on its date. Each payment is written in
 * the history as a sentence and the firm's logins are told live and by mail, with the reference.
 * Runs in one transaction with the invoice row locked: two payments at once cannot both take the
 * last outstanding amount.
 */
export async function recordPartnerInvoicePayment(ctx: ResourceContext, id: number, input: RecordPaymentInput): Promise<{ message: string }> {
  return inTransaction(ctx.app, async (tx) => {
    const scoped = { ...ctx, db: tx.db, tx };
    const [found] = await tx.db.select().from(partnerInvoices)
      .where(and(eq(partnerInvoices.id, id), partnerInvoiceScope(scoped))).for('update');
    if (!found) throw new HttpError(404, `${partnerInvoice.label} not found.`);
    const name = `Invoice ${found.invoice_number}`;
    if (found.status === 'paid') throw new HttpError(409, `${name} is already paid in full: there is nothing outstanding to pay.`);
    if (found.status !== 'approved') {
      // Where it stands in the workflow's own words ("Waiting for the manager"), not its state's label.
      const { step, label } = workflowState(partnerInvoice.workflow!, found.status);
      const where = step ? `${step.charAt(0).toLowerCase()}${step.slice(1)}` : inSentence(label);
      throw new HttpError(409, `Only an approved invoice can be paid. ${name} is not approved yet: ${where}.`);
    }
    const [{ paid }] = await tx.db.select({ paid: sql<number>`coalesce(sum(${partnerInvoicePayments.amount}), 0)`.mapWith(Number) })
      .from(partnerInvoicePayments).where(eq(partnerInvoicePayments.invoice_id, id));
    const outstanding = subtractMoney(found.total, paid);
    const errors: Record<string, string> = {};
    if (input.payment_date > today()) errors.payment_date = 'The payment date may not be in the future: record a payment once it is received.';
    if (compareMoney(input.amount, outstanding) > 0) {
      errors.amount = `The payment of ${formatMoney(input.amount, found.currency)} is more than the ${formatMoney(outstanding, found.currency)} outstanding on this invoice.`;
    }
    if (Object.keys(errors).length) throw validationError(errors);

    await tx.db.insert(partnerInvoicePayments).values({ invoice_id: id, ...input, recorded_by: ctx.account.id });
    const left = subtractMoney(outstanding, input.amount);
    const isPaid = compareMoney(left, 0) === 0;
    let row: Row = found;
    if (isPaid) {
      // Paid on the day the last payment was made, whenever it is recorded.
      const [updated] = await tx.db.update(partnerInvoices).set({ status: 'paid', payment_date: input.payment_date, ...decisionValues(ctx.account), updated_at: new Date() })
        .where(eq(partnerInvoices.id, id)).returning();
      row = updated;
    }
    const sentence = paymentReceivedText(found, input, left);
    await writeHistory(tx.db, {
      resource: partnerInvoice.name, recordId: id, transition: PAYMENT_TRANSITION, from: 'approved', to: isPaid ? 'paid' : 'approved', account: ctx.account,
      comment: paymentHistoryText(found, input, left),
    });
    await notifyAbout(tx, partnerInvoice, row, {
      owner: () => ({ title: isPaid ? 'Invoice paid in full' : 'Payment received', message: sentence }),
    }, ctx.account, null, PAYMENT_TRANSITION, true);
    return { message: isPaid
      ? `Payment of ${formatMoney(input.amount, found.currency)} recorded. ${name} is now paid in full.`
      : `Payment of ${formatMoney(input.amount, found.currency)} recorded. ${formatMoney(left, found.currency)} remains outstanding.` };
  });
}
