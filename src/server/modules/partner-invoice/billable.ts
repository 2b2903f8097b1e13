// The statements an invoice may bill (the form's choices): the firm's approved pre-billings no other
// invoice bills yet. An invoice named must be one the caller may see, else 404 as for any record.
import { and, eq } from 'drizzle-orm';
import { partnerInvoices } from '../../db/schema/partner-billing';
import { HttpError } from '../../plugins/errors';
import type { ResourceContext } from '../../resources/types';
import { partnerInvoice } from '../../../shared/resources/partner-invoice';
import type { BillablePreBilling } from '../../../shared/schemas/partner-invoice';
import { billablePreBillings, firmOf, partnerInvoiceScope } from './service';

const notFound = () => new HttpError(404, `${partnerInvoice.label} not found.`);

/** GET /api/partner/invoice/billable: the partner's own firm; the invoice being edited must be the firm's own. */
export async function firmBillablePreBillings(ctx: ResourceContext, invoiceId?: number): Promise<BillablePreBilling[]> {
  const partnerId = firmOf(ctx.account);
  if (invoiceId) {
    const [found] = await ctx.db.select({ id: partnerInvoices.id }).from(partnerInvoices)
      .where(and(eq(partnerInvoices.id, invoiceId), eq(partnerInvoices.partner_id, partnerId)));
    if (!found) throw notFound();
  }
  return billablePreBillings(ctx.db, partnerId, invoiceId);
}

/** GET /api/partner-invoice/:id/billable: staff correcting a pending invoice pick among its firm's statements. */
export async function invoiceBillablePreBillings(ctx: ResourceContext, invoiceId: number): Promise<BillablePreBilling[]> {
  const [found] = await ctx.db.select({ partner_id: partnerInvoices.partner_id }).from(partnerInvoices)
    .where(and(eq(partnerInvoices.id, invoiceId), partnerInvoiceScope(ctx)));
  if (!found) throw notFound();
  return billablePreBillings(ctx.db, found.partner_id, invoiceId);
}
