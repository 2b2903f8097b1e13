// What staff and the partner portal read of pre-billing statements (issues 11 and 20): each row's
// lines, the statements staff may see, and the versions kept by corrections.
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { partners, users } from '../../db/schema/accounts';
import { clients } from '../../db/schema/master-data';
import { partnerEngineers, preBillingLines, preBillings, preBillingVersions } from '../../db/schema/partner-billing';
import { HttpError } from '../../plugins/errors';
import { ownerIdOf } from '../../resources/workflow';
import { hasPermission, isAdminAccount } from '../../../shared/permissions';
import { PARTNER_INVOICE_APPROVE_PERMISSION } from '../../../shared/resources/partner-invoice';
import {
  PRE_BILLING_APPROVE_PERMISSION, PRE_BILLING_REVIEW_PERMISSION, type PreBillingLine, type PreBillingVersion,
} from '../../../shared/resources/pre-billing';
import type { ResourceContext, RowOf } from '../../resources/types';

/** Rows carry their lines with the engineer's and the client's names (one query for a page). */
export async function attachLines({ db }: ResourceContext, rows: RowOf<typeof preBillings>[]) {
  for (const row of rows) row.lines = [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = await db.select({
    id: preBillingLines.id, pre_billing_id: preBillingLines.pre_billing_id, engineer_id: preBillingLines.engineer_id, client_id: preBillingLines.client_id,
    quantity: preBillingLines.quantity, rate_type: preBillingLines.rate_type, rate: preBillingLines.rate, amount: preBillingLines.amount,
    user_id: partnerEngineers.user_id, engineer_name: users.name, client_name: clients.name,
  }).from(preBillingLines)
    .innerJoin(partnerEngineers, eq(partnerEngineers.id, preBillingLines.engineer_id))
    .innerJoin(users, eq(users.id, partnerEngineers.user_id))
    .innerJoin(clients, eq(clients.id, preBillingLines.client_id))
    .where(inArray(preBillingLines.pre_billing_id, [...byId.keys()]))
    .orderBy(asc(preBillingLines.id));
  for (const { pre_billing_id, user_id: _user, engineer_name, client_name, ...line } of found) {
    const lines = byId.get(pre_billing_id)?.lines as PreBillingLine[] | undefined;
    lines?.push({ ...line, engineer: { id: line.engineer_id, name: engineer_name }, client: { id: line.client_id, name: client_name } });
  }
}

/**
 * Which statements staff see (issue 20), as for the invoices that bill them: admins and finance (who
 * review or approve them) all; an account manager (who takes an invoice's manager step) those of the
 * firms they manage; anyone else allowed to view them all. The portal is scoped to the caller's firm.
 */
export function preBillingStaffScope({ db, account }: ResourceContext): SQL | undefined {
  if (account.type === 'partner' || isAdminAccount(account.user)) return undefined;
  if (hasPermission(account.permissions, `${PRE_BILLING_REVIEW_PERMISSION}|${PRE_BILLING_APPROVE_PERMISSION}`)) return undefined;
  if (!hasPermission(account.permissions, PARTNER_INVOICE_APPROVE_PERMISSION)) return undefined;
  return inArray(preBillings.partner_id, db.select({ id: partners.id }).from(partners).where(eq(partners.account_manager_id, account.id)));
}

/** The statement, fetched with its owner in the query on the partner portal (and staff's scope); 404 otherwise. */
export async function findStatement(ctx: ResourceContext, id: number) {
  const [row] = await ctx.db.select().from(preBillings)
    .where(and(eq(preBillings.id, id), ctx.account.type === 'partner' ? eq(preBillings.partner_id, ownerIdOf(ctx.account)) : preBillingStaffScope(ctx))).limit(1);
  if (!row) throw new HttpError(404, 'Pre-billing not found.');
  return row;
}

/** Earlier versions of a statement the caller may see (404 otherwise), newest first, as they were before each correction. */
export async function preBillingVersionsOf(ctx: ResourceContext, id: number): Promise<PreBillingVersion[]> {
  const statement = await findStatement(ctx, id);
  const rows = await ctx.db.select().from(preBillingVersions).where(eq(preBillingVersions.pre_billing_id, statement.id)).orderBy(desc(preBillingVersions.version));
  return rows.map((row) => {
    const kept = row.lines as { currency?: string; lines?: PreBillingVersion['lines'] };
    return { version: row.version, total: row.total, currency: kept.currency ?? statement.currency, lines: kept.lines ?? [], created_at: row.created_at.toISOString() };
  });
}
