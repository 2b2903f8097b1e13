// Pre-billing (issue 11): the generic routes of the shared definition in both areas (staff at
// /api/pre-billing list and decide; the partner's logins at /api/partner/pre-billing submit and
// correct their own firm's), plus the comparison with the time sheets, the kept versions and the
// clients a partner may bill.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { preBillings } from '../../db/schema/partner-billing';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { idQuery } from '../../../shared/resources/define';
import { preBillingComparisonSchema, preBillingVersionSchema } from '../../../shared/schemas/pre-billing';
import { dataResponse, optionsResponse } from '../../../shared/schemas/responses';
import { preBilling } from '../../../shared/resources/pre-billing';
import { billableClientOptions } from './billable-clients';
import { preBillingComparison } from './comparison';
import { attachLines, preBillingStaffScope, preBillingVersionsOf } from './read';
import {
  afterCreatePreBilling, afterUpdatePreBilling, beforeCreatePreBilling, beforeUpdatePreBilling, decisionColumns,
} from './submit-and-correct';

const idParams = z.object({ id: idQuery() });
const tags = [preBilling.label];
const partnerTags = [`Partner portal: ${preBilling.pluralLabel}`];
const owner = preBilling.owner!;
/** A partner login that may file or correct a statement picks its clients. */
const PARTNER_CLIENT_PERMISSION = [owner.permissions.add, owner.permissions.edit].filter(Boolean).join('|');

export function registerPreBillingRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: preBilling,
    table: preBillings,
    scope: preBillingStaffScope,
    beforeCreate: (values, input, ctx) => beforeCreatePreBilling(ctx, values, input),
    afterCreate: (row, _input, ctx) => afterCreatePreBilling(ctx, row),
    beforeUpdate: (values, existing, input, ctx) => beforeUpdatePreBilling(ctx, values, existing, input),
    afterUpdate: (row, _existing, _input, ctx) => afterUpdatePreBilling(ctx, row),
    beforeTransition: (_transition, _existing, _comment, ctx) => decisionColumns(ctx),
    decorate: (rows, ctx) => attachLines(ctx, rows),
  });

  app.get('/pre-billing/:id/comparison', {
    config: { auth: 'app', permission: preBilling.permissions.view },
    schema: { tags, summary: 'The lines beside the approved time-sheet hours of the same engineers, clients and month', params: idParams, response: { 200: dataResponse(preBillingComparisonSchema) } },
  }, async (request) => ({ data: await preBillingComparison(contextOf(request), request.params.id) }));

  for (const [base, auth, routeTags] of [['/pre-billing', 'app', tags], [`/partner/${owner.segment}`, 'partner', partnerTags]] as const) {
    app.get(`${base}/:id/versions`, {
      config: { auth, permission: auth === 'app' ? preBilling.permissions.view : owner.permissions.view },
      schema: { tags: [...routeTags], summary: 'Earlier versions of a pre-billing (before each correction), newest first', params: idParams, response: { 200: dataResponse(z.array(preBillingVersionSchema)) } },
    }, async (request) => ({ data: await preBillingVersionsOf(contextOf(request), request.params.id) }));
  }

  // The clients a statement's lines may name. The app's client options are for staff; a partner
  // login sees only the names of active clients its own engineers are placed with (issue 20).
  app.get('/partner/client/options', {
    config: { auth: 'partner', permission: PARTNER_CLIENT_PERMISSION },
    schema: { tags: partnerTags, summary: 'Client choices for a pre-billing line', querystring: z.object({ search: z.string().max(100).optional() }), response: { 200: optionsResponse } },
  }, async (request) => ({ data: await billableClientOptions(contextOf(request), request.query.search) }));
}
