// Deal tracking: the generic routes of the shared definition, the stage's probability kept with it,
// and the weighted pipeline of the filtered list.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deals } from '../../db/schema/operations';
import { registerResource, resourceListWhere } from '../../resources/register';
import { dealTracking } from '../../../shared/resources/deal-tracking';
import { dealPipeline, weightedValueSql, withProbability } from './service';

export function registerDealRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: dealTracking,
    table: deals,
    computed: { weighted_value: weightedValueSql },
    // Nobody types the probability, and a deal without a named owner is its recorder's.
    beforeCreate: (values, _input, ctx) => withProbability({ ...values, owner_id: values.owner_id ?? ctx.account.id }),
    beforeUpdate: (values) => withProbability(values.owner_id === null ? (({ owner_id: _, ...rest }) => rest)(values) : values),
    describe: (row) => `the deal “${String(row.title)}”`,
  });

  // Totals of the list as filtered (same query parameters): by stage, and the open pipeline by owner.
  app.get('/deal-tracking/pipeline', {
    config: { auth: 'app', permission: dealTracking.permissions.view },
    schema: { tags: [dealTracking.label], summary: 'Weighted pipeline of the filtered deals by stage and by owner, per currency', querystring: dealTracking.listQuerySchema },
  }, async (request) => ({ data: await dealPipeline(parent.db, resourceListWhere(dealTracking.name, request)) }));
}
