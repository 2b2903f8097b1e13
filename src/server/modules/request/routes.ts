// Service requests: the generic routes of the shared definition (list, show, create, update, delete,
// workflow, history, reminders) scoped per account, plus the comment thread.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requests } from '../../db/schema/operations';
import { requireAccount } from '../../plugins/auth';
import { inTransaction } from '../../lib/transaction';
import { registerResource } from '../../resources/register';
import { idQuery } from '../../../shared/resources/define';
import { request, requestCommentSchema } from '../../../shared/resources/request';
import { requestCommentView } from '../../../shared/schemas/request';
import { dataResponse, savedResponse } from '../../../shared/schemas/responses';
import {
  addRequestComment, checkCityInCountry, checkDateOrder, checkTransitionActor, findVisibleRequest, listRequestComments, narrowTransitions, notifyAssignee,
  notifyAssigneeOfStep, requestScope,
} from './service';

export function registerRequestRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: request,
    table: requests,
    scope: ({ account }) => requestScope(account),
    async beforeCreate(values, _input, ctx) {
      checkDateOrder(values);
      await checkCityInCountry(ctx.db, values);
      // Its creator is whoever raises it; the workflow sets the first status.
      return { ...values, labels: values.labels ?? [], created_by: ctx.account.id, last_status_updated_at: new Date() };
    },
    afterCreate: (row, _input, ctx) => notifyAssignee(ctx.tx, row, ctx.account),
    async beforeUpdate(values, existing, _input, ctx) {
      checkDateOrder({ ...existing, ...values });
      await checkCityInCountry(ctx.db, { ...existing, ...values });
      return values;
    },
    async afterUpdate(row, existing, _input, ctx) {
      if (row.assign_to !== existing.assign_to) await notifyAssignee(ctx.tx, row, ctx.account);
    },
    beforeTransition(_transition, existing, _comment, ctx) {
      checkTransitionActor(existing, ctx.account);
      return { last_status_updated_at: new Date() };
    },
    // The comment the step was taken with (single and bulk routes alike send it in the body).
    afterTransition: (row, transition, _existing, ctx) => notifyAssigneeOfStep(ctx.tx, row, transition, ctx.account, (ctx.request.body as { comment?: string | null } | undefined)?.comment || null),
    decorate: async (rows, ctx) => narrowTransitions(rows, ctx.account),
  });

  const params = z.object({ id: idQuery() });

  app.get('/request/:id/comments', {
    config: { auth: 'app', permission: request.permissions.view },
    schema: { tags: [request.label], summary: 'The comment thread of a request, oldest first', params, response: { 200: dataResponse(z.array(requestCommentView)) } },
  }, async (req) => {
    const account = requireAccount(req);
    const found = await findVisibleRequest(parent.db, req.params.id, account);
    return { data: await listRequestComments(parent.db, found.id) };
  });

  app.post('/request/:id/comments', {
    config: { auth: 'app', permission: request.permissions.view },
    schema: {
      tags: [request.label], summary: 'Add a comment to a request (its creator and assignee are told)', params, body: requestCommentSchema,
      response: { 201: savedResponse(requestCommentView) },
    },
  }, async (req, reply) => {
    const account = requireAccount(req);
    const data = await inTransaction(parent, async (tx) => {
      const found = await findVisibleRequest(tx.db, req.params.id, account);
      return addRequestComment(tx, found, req.body.body, account);
    });
    return reply.status(201).send({ data, message: 'Comment added.' });
  });
}
