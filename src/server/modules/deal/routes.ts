// Deal tracking: the generic routes of the shared definition, the stage's probability kept with it,
// and the weighted pipeline of the filtered list.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deals } from '../../db/schema/operations';
import { registerResource, resourceListWhere } from '../../resources/register';
import { dealTracking } from '../../../shared/resources/deal-tracking';
import { dealPipelineSchema } from '../../../shared/schemas/deal';
import { dataResponse } from '../../../shared/schemas/responses';
import { dealPipeline, weightedValueSql, withClientOfWonProspect, withLostReason, withProbability } from './service';
import { recordChange } from '../../resources/audit';
import type { ResourceContext } from '../../resources/register';

/** Records the client a won prospect became, as its creation by whoever won the deal. */
const clientRecorder = (ctx: ResourceContext) => (client: { id: number; name: string }) =>
  recordChange(ctx.db, { account: ctx.account, action: 'create', resource: 'client', recordId: client.id, title: client.name, changes: [] });

export function registerDealRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: dealTracking,
    table: deals,
    computed: { weighted_value: weightedValueSql },
    // Nobody types the probability, and a deal without a named owner is its recorder's. A deal with a
    // prospect that is won makes the prospect a client (issue 22), recorded in the audit trail.
    beforeCreate: async (values, _input, ctx) => withProbability(await withClientOfWonProspect(ctx.db, withLostReason({ ...values, owner_id: values.owner_id ?? ctx.account.id }, values), values, clientRecorder(ctx))),
    beforeUpdate: async (values, existing, _input, ctx) => {
      const kept = values.owner_id === null ? (({ owner_id: _, ...rest }) => rest)(values) : values;
      const reasoned = withLostReason(kept, { ...existing, ...kept });
      return withProbability(await withClientOfWonProspect(ctx.db, reasoned, { ...existing, ...reasoned }, clientRecorder(ctx)));
    },
  });

  // Totals of the list as filtered (same query parameters): by stage, and the open pipeline by owner.
  app.get('/deal-tracking/pipeline', {
    config: { auth: 'app', permission: dealTracking.permissions.view },
    schema: { tags: [dealTracking.label], summary: 'Weighted pipeline of the filtered deals by stage and by owner, per currency', querystring: dealTracking.listQuerySchema,
      response: { 200: dataResponse(dealPipelineSchema) },
    },
  }, async (request) => ({ data: await dealPipeline(parent.db, resourceListWhere(dealTracking.name, request)) }));
}
