// Partner invoices beyond the declared workflow: who of the staff sees which invoices, the checks
// against the pre-billing an invoice bills (the firm's, approved, not invoiced yet, same currency),
// the invoice number unique per firm, the computed flags (total differs, overdue), the payment date,
// and the resubmission of a rejected invoice the partner corrected.
import { and, asc, eq, inArray, ne, notExists, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { partners } from '../../db/schema/accounts';
import { partnerInvoices, preBillings } from '../../db/schema/partner-billing';
import { workflowHistory } from '../../db/schema/workflow';
import type { Account } from '../../plugins/auth';
import type { PartnerRow } from '../auth/accounts';
import { HttpError, validationError } from '../../plugins/errors';
import type { ResourceContext } from '../../resources/register';
import { notifyAbout, writeHistory } from '../../resources/workflow';
import { hasPermission } from '../../../shared/permissions';
import { formatMoney } from '../../../shared/resources/expense';
import {
  describePartnerInvoice, partnerInvoice, PARTNER_INVOICE_APPROVE_PERMISSION, PARTNER_INVOICE_PAY_PERMISSION,
} from '../../../shared/resources/partner-invoice';
import { today } from '../../../shared/dates';
import { firmTodaySql } from '../setting/time-zone';

type Row = Record<string, unknown>;

const invoice = sql.identifier('partner_invoices');
const column = (name: string) => sql`${invoice}.${sql.identifier(name)}`;

/**
 * Read-only values selected with every row (and filterable / sortable by key). Columns are spelled
 * out as `"partner_invoices"."x"` because they sit inside subqueries over other tables.
 */
export const partnerInvoiceComputed: Record<string, SQL> = {
  // Flagged, never refused: a partner may add a late fee or round; the deciders see it.
  is_total_mismatch: sql<boolean>`coalesce((select ${column('total')} <> pb.total from ${preBillings} pb where pb.id = ${column('pre_billing_id')}), false)`,
  // Due yesterday is overdue, due today is not. Paid ones are settled; a rejected one is not owed
  // until the partner corrects it.
  is_overdue: sql<boolean>`(${column('due_date')} < ${firmTodaySql} and ${column('status')} not in ('paid', 'rejected'))`,
  // The reason of the latest rejection or hold, while the invoice is in that state (the partner reads it in the list).
  status_reason: sql<string | null>`(case when ${column('status')} in ('rejected', 'on hold') then (
    select h.comment from ${workflowHistory} h
    where h.resource = ${partnerInvoice.name} and h.record_id = ${column('id')} and h.to_status = ${column('status')}
    order by h.id desc limit 1) end)`,
};

const isAdmin = (account: Account) => (account.user as { user_type?: string }).user_type === 'admin';

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

const cents = (value: number) => Math.round(value * 100) / 100;

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
const INVALID_PRE_BILLING = 'The selected pre-billing is invalid.';

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
  if (dueDate < input.invoice_date) errors.due_date = 'The due date field must be a date after or equal to invoice date.';

  const currency = input.currency ?? preBilling?.currency;
  if (preBilling && currency !== preBilling.currency) {
    errors.currency = `The currency must be the pre-billing's currency (${preBilling.currency}).`;
  }
  if (Object.keys(errors).length) throw validationError(errors);

  const tax = input.tax ?? 0;
  return { due_date: dueDate, currency, tax, total: cents(input.amount + tax) };
}

/** An invoice carries its PDF: one on create, and an edit may replace it but not remove it. */
export function checkInvoiceFile(input: Row) {
  const files = input.file as unknown[] | undefined;
  if (!files?.length) throw validationError({ file: 'The invoice PDF field is required.' });
}

/** Columns set with a decision: who and when; paying records the day (in the firm's time zone). */
export function decisionValues(transition: string, account: Account): Row {
  return {
    decided_by: account.id,
    decided_at: new Date(),
    ...(transition === 'pay' ? { payment_date: today() } : {}),
  };
}

const actorName = (account: Account) => String((account.user as { name?: string }).name ?? 'The partner');

/**
 * A rejected invoice the partner corrected goes back to pending: written in the history (the
 * decision trail keeps the rejection and its reason) and told to those who decide the first step.
 */
export async function recordResubmission(row: Row, ctx: ResourceContext) {
  await writeHistory(ctx.db, {
    resource: partnerInvoice.name, recordId: row.id as number, transition: 'resubmit', from: 'rejected', to: 'pending', account: ctx.account,
  });
  await notifyAbout(ctx.tx!, partnerInvoice, row, partnerInvoice.workflow!.notifyOnCreate, ctx.account, {
    title: 'Invoice resubmitted',
    message: `${actorName(ctx.account)} corrected and resubmitted ${describePartnerInvoice(row)}.`,
  }, 'resubmitted', partnerInvoice.workflow!.isCreateMailed);
}

export interface BillablePreBilling { id: number; label: string; month: string; currency: string; total: number }

/**
 * The firm's approved statements no invoice bills yet (besides `invoiceId`, the one being edited):
 * what the invoice form offers, oldest month first.
 */
export async function billablePreBillings(db: Db, partnerId: number, invoiceId?: number): Promise<BillablePreBilling[]> {
  const rows = await db.select({ id: preBillings.id, month: preBillings.month, currency: preBillings.currency, total: preBillings.total })
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
  return rows.map((row) => ({ ...row, label: `${row.month.slice(0, 7)} · ${formatMoney(row.total, row.currency)}` }));
}

/** Staff may correct a pending invoice; a rejected one went back to the partner, who corrects and resubmits it. */
export function checkStaffEdit(existing: Row, ctx: ResourceContext) {
  if (ctx.area === 'app' && existing.status === 'rejected') {
    throw new HttpError(409, 'This invoice was returned to the partner, who corrects and resubmits it.');
  }
}
