// The partner portal's dashboard (issue 11): what waits on the firm (statements and invoices sent
// back to correct), what it billed this year by currency, and the latest decisions on its records.
import { and, count, desc, eq, gte, inArray, isNull, lt, or, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema/notifications';
import { partnerInvoicePayments, partnerInvoices, preBillings } from '../../db/schema/partner-billing';
import { workflowHistory } from '../../db/schema/workflow';
import type { Account } from '../../plugins/auth';
import { hasPermission } from '../../../shared/permissions';
import { today } from '../../../shared/dates';
import { ownerIdOf } from '../../resources/workflow';

/**
 * Amounts of one currency this calendar year, each named net (before tax) or gross (tax included) so
 * that only like is compared with like (issue 21): statements (net, by their month) with the invoices'
 * net; the invoices' gross (by their date) with what was paid of them and what is still owed.
 */
export interface PartnerYearAmounts {
  currency: string;
  submitted_net: number;
  approved_net: number;
  /** Invoices not returned to correct. */
  invoiced_net: number;
  invoiced_gross: number;
  /** Payments recorded against those invoices. */
  paid_gross: number;
  /** Of the approved invoices, what their payments have not covered yet. */
  outstanding_gross: number;
}

export interface PartnerDashboard {
  unread_notifications: number;
  /** Sent back to the partner: rejected, to correct and resubmit. */
  to_correct: { pre_billings: number; invoices: number | null };
  year: number;
  amounts: PartnerYearAmounts[];
  /** `title`: the statement's month (YYYY-MM-DD) or the invoice's number, as the partner knows them. */
  recent: { resource: 'pre-billing' | 'partner-invoice'; record_id: number; title: string | null; transition: string; to: string; actor: string | null; comment: string | null; created_at: string }[];
}

const RECENT = 8;

export async function partnerDashboard(db: Db, account: Account): Promise<PartnerDashboard> {
  const partnerId = ownerIdOf(account);
  const canInvoice = hasPermission(account.permissions, 'can-view-invoice');
  const year = Number(today().slice(0, 4));
  const yearStart = `${year}-01-01`;
  const nextYear = `${year + 1}-01-01`;
  const ownStatements = eq(preBillings.partner_id, partnerId);
  const ownInvoices = eq(partnerInvoices.partner_id, partnerId);

  // Spelled out: drizzle leaves a column of a one-table select unqualified, and inside the subquery a bare "id" is the payment's.
  const paid = sql`coalesce((select sum(p.amount) from ${partnerInvoicePayments} p where p.invoice_id = "partner_invoices"."id"), 0)`;
  const isBilled = sql`${partnerInvoices.status} <> 'rejected'`;
  // Summed as numeric (exact cents) in the database.
  const numeric = (expression: ReturnType<typeof sql>) => sql<number>`coalesce(${expression}, 0)`.mapWith(Number);
  const [[unread], [rejectedStatements], [rejectedInvoices], statementAmounts, invoiceAmounts] = await Promise.all([
    db.select({ value: count() }).from(notifications).where(and(
      eq(notifications.notifiable_type, 'partner'), eq(notifications.notifiable_id, account.id), isNull(notifications.read_at))),
    db.select({ value: count() }).from(preBillings).where(and(ownStatements, eq(preBillings.status, 'rejected'))),
    canInvoice ? db.select({ value: count() }).from(partnerInvoices).where(and(ownInvoices, eq(partnerInvoices.status, 'rejected'))) : Promise.resolve([null]),
    db.select({
      currency: preBillings.currency,
      submitted: sum(preBillings.total).mapWith(Number),
      approved: sql<number>`coalesce(sum(${preBillings.total}) filter (where ${preBillings.status} = 'approved'), 0)`.mapWith(Number),
    }).from(preBillings).where(and(ownStatements, gte(preBillings.month, yearStart), lt(preBillings.month, nextYear))).groupBy(preBillings.currency),
    canInvoice
      ? db.select({
        currency: partnerInvoices.currency,
        invoiced_net: numeric(sql`sum(${partnerInvoices.amount}) filter (where ${isBilled})`),
        invoiced_gross: numeric(sql`sum(${partnerInvoices.total}) filter (where ${isBilled})`),
        paid_gross: numeric(sql`sum(${paid}) filter (where ${isBilled})`),
        outstanding_gross: numeric(sql`sum(${partnerInvoices.total} - ${paid}) filter (where ${partnerInvoices.status} = 'approved')`),
      }).from(partnerInvoices)
        .where(and(ownInvoices, gte(partnerInvoices.invoice_date, yearStart), lt(partnerInvoices.invoice_date, nextYear)))
        .groupBy(partnerInvoices.currency)
      : Promise.resolve([]),
  ]);

  const amounts = new Map<string, PartnerYearAmounts>();
  const of = (currency: string) => amounts.get(currency) ?? amounts.set(currency, {
    currency, submitted_net: 0, approved_net: 0, invoiced_net: 0, invoiced_gross: 0, paid_gross: 0, outstanding_gross: 0,
  }).get(currency)!;
  for (const row of statementAmounts) Object.assign(of(row.currency), { submitted_net: row.submitted ?? 0, approved_net: row.approved ?? 0 });
  for (const { currency, ...row } of invoiceAmounts) Object.assign(of(currency), row);

  // The firm's records' latest steps, the creation included (a partner sees who decided what).
  const statementIds = db.select({ id: preBillings.id }).from(preBillings).where(ownStatements);
  const invoiceIds = db.select({ id: partnerInvoices.id }).from(partnerInvoices).where(ownInvoices);
  const title = sql<string | null>`case ${workflowHistory.resource}
    when 'pre-billing' then (select ${preBillings.month}::text from ${preBillings} where ${preBillings.id} = ${workflowHistory.record_id})
    else (select ${partnerInvoices.invoice_number} from ${partnerInvoices} where ${partnerInvoices.id} = ${workflowHistory.record_id}) end`;
  const recent = await db.select({ entry: workflowHistory, title }).from(workflowHistory).where(or(
    and(eq(workflowHistory.resource, 'pre-billing'), inArray(workflowHistory.record_id, statementIds)),
    canInvoice ? and(eq(workflowHistory.resource, 'partner-invoice'), inArray(workflowHistory.record_id, invoiceIds)) : undefined,
  )).orderBy(desc(workflowHistory.id)).limit(RECENT);

  return {
    unread_notifications: unread.value,
    to_correct: { pre_billings: rejectedStatements.value, invoices: rejectedInvoices?.value ?? null },
    year,
    amounts: [...amounts.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    recent: recent.map(({ entry, title: recordTitle }) => ({
      resource: entry.resource as 'pre-billing' | 'partner-invoice', record_id: entry.record_id, title: recordTitle, transition: entry.transition,
      to: entry.to_status, actor: entry.actor_name, comment: entry.comment, created_at: entry.created_at.toISOString(),
    })),
  };
}
