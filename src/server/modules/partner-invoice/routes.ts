// Partner invoices: the generic routes of the shared definition, for staff at /api/partner-invoice
// and for the partner firm's logins at /api/partner/invoice (owner; scoped to the firm by the
// machinery), with the PDF, the workflow, the flags, and the statements an invoice may bill.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { billablePreBillingSchema } from '../../../shared/schemas/partner-invoice';
import { resourceResponses } from '../../../shared/schemas/resource';
import { dataResponse } from '../../../shared/schemas/responses';
import { partnerInvoices } from '../../db/schema/partner-billing';
import { registerResource, resourceRow } from '../../resources/register';
import { idQuery } from '../../../shared/resources/define';
import {
  partlyPaidNote, partnerInvoice, PARTNER_INVOICE_PAY_PERMISSION, recordPaymentSchema,
} from '../../../shared/resources/partner-invoice';
import {
  checkInvoiceFile, checkPartnerInvoice, staffEditRefusal, decisionValues, firmOf, partnerInvoiceComputed,
  partnerInvoiceScope, recordPartnerInvoicePayment, recordResubmission,
} from './service';
import { contextOf } from '../../resources/types';
import { firmBillablePreBillings, invoiceBillablePreBillings } from './billable';

type InvoiceInput = Parameters<typeof checkPartnerInvoice>[1];

export function registerPartnerInvoiceRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: partnerInvoice,
    table: partnerInvoices,
    scope: partnerInvoiceScope,
    computed: partnerInvoiceComputed,
    // What its approved state leaves unsaid once payments came in; a hold or a return says the decision's own note (decision 063).
    async decorate(rows) {
      for (const row of rows) row.status_note = partlyPaidNote(row);
    },
    async beforeCreate(values, input, ctx) {
      // Only the portal creates invoices (the staff definition has no add): the firm is the caller's.
      const partnerId = firmOf(ctx.account);
      checkInvoiceFile(input);
      const decided = await checkPartnerInvoice(ctx.db, values as unknown as InvoiceInput, partnerId);
      return { ...values, ...decided, partner_id: partnerId, submitted_by: ctx.account.id };
    },
    updateRefusal: staffEditRefusal,
    async beforeUpdate(values, existing, input, ctx) {
      checkInvoiceFile(input);
      const isOtherPreBilling = values.pre_billing_id !== undefined && values.pre_billing_id !== existing.pre_billing_id;
      const merged = {
        ...existing,
        ...values,
        // Another statement brings its own currency unless the edit names one.
        currency: 'currency' in values ? values.currency : isOtherPreBilling ? null : existing.currency,
      } as unknown as InvoiceInput;
      const decided = await checkPartnerInvoice(ctx.db, merged, existing.partner_id as number, existing);
      // The partner's correction of a rejected invoice is its resubmission (history and notice: afterUpdate).
      const resubmission = existing.status === 'rejected' ? { status: 'pending', decided_by: null, decided_at: null } : {};
      return { ...values, ...decided, ...resubmission };
    },
    async afterUpdate(row, existing, _input, ctx) {
      if (existing.status === 'rejected') await recordResubmission(row, ctx);
    },
    beforeTransition: (_transition, _existing, _comment, ctx) => decisionValues(ctx.account),
  });

  // The statements the form offers: the firm's approved pre-billings no other invoice bills yet.
  const billableQuery = z.object({ invoice_id: idQuery().optional() });
  app.get('/partner/invoice/billable', {
    config: { auth: 'partner', permission: `${partnerInvoice.owner!.permissions.add}|${partnerInvoice.owner!.permissions.edit}` },
    schema: { tags: ['Partner portal: Invoices'], summary: 'Approved pre-billings the firm may invoice', querystring: billableQuery, response: { 200: dataResponse(z.array(billablePreBillingSchema)) } },
  }, async (request) => ({ data: await firmBillablePreBillings(contextOf(request), request.query.invoice_id) }));

  // Finance records a payment (issue 21); the firm sees it on the invoice (`payments`) and is told.
  app.post('/partner-invoice/:id/payments', {
    config: { auth: 'app', permission: PARTNER_INVOICE_PAY_PERMISSION },
    schema: {
      tags: [partnerInvoice.label], summary: 'Record a payment of an approved invoice (in part or in full); the last one makes it paid',
      params: z.object({ id: idQuery() }), body: recordPaymentSchema,
      response: { 201: resourceResponses(partnerInvoice).saved },
    },
  }, async (request, reply) => {
    const ctx = contextOf(request);
    const { message } = await recordPartnerInvoicePayment(ctx, request.params.id, request.body);
    return reply.status(201).send({ data: await resourceRow(partnerInvoice.name, ctx, request.params.id), message });
  });

  // Staff correcting a pending invoice pick among the statements of the invoice's firm.
  app.get('/partner-invoice/:id/billable', {
    config: { auth: 'app', permission: partnerInvoice.permissions.edit },
    schema: { tags: [partnerInvoice.label], summary: 'Approved pre-billings the invoice\'s firm may invoice', params: z.object({ id: idQuery() }), response: { 200: dataResponse(z.array(billablePreBillingSchema)) } },
  }, async (request) => ({ data: await invoiceBillablePreBillings(contextOf(request), request.params.id) }));
}
