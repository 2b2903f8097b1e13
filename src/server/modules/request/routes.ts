// Service requests: the generic routes of the shared definition (list, show, create, update, delete,
// workflow, history, reminders) scoped per account, plus the comment thread.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requests } from '../../db/schema/operations';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { idQuery } from '../../../shared/resources/define';
import { request, requestCommentSchema } from '../../../shared/resources/request';
import { requestCommentView } from '../../../shared/schemas/request';
import { dataResponse, savedResponse } from '../../../shared/schemas/responses';
import {
  addRequestComment, afterRequestCreate, afterRequestStep, afterRequestUpdate, decorateRequests, prepareRequest, prepareRequestUpdate,
  listRequestComments, requestScope, requestStepValues,
} from './service';

export function registerRequestRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: request,
    table: requests,
    scope: ({ account }) => requestScope(account),
    beforeCreate: (values, _input, ctx) => prepareRequest(ctx, values),
    afterCreate: (row, _input, ctx) => afterRequestCreate(ctx, row),
    beforeUpdate: (values, existing, _input, ctx) => prepareRequestUpdate(ctx, values, existing),
    afterUpdate: (row, existing, _input, ctx) => afterRequestUpdate(ctx, row, existing),
    beforeTransition: (_transition, existing, _comment, ctx) => requestStepValues(ctx, existing),
    afterTransition: (row, transition, _existing, ctx) => afterRequestStep(ctx, row, transition),
    decorate: async (rows, ctx) => decorateRequests(ctx, rows),
  });

  const params = z.object({ id: idQuery() });

  app.get('/request/:id/comments', {
    config: { auth: 'app', permission: request.permissions.view },
    schema: { tags: [request.label], summary: 'The comment thread of a request, oldest first', params, response: { 200: dataResponse(z.array(requestCommentView)) } },
  }, async (req) => ({ data: await listRequestComments(contextOf(req), req.params.id) }));

  app.post('/request/:id/comments', {
    config: { auth: 'app', permission: request.permissions.view },
    schema: {
      tags: [request.label], summary: 'Add a comment to a request (its creator and assignee are told)', params, body: requestCommentSchema,
      response: { 201: savedResponse(requestCommentView) },
    },
  }, async (req, reply) => {
    const data = await addRequestComment(contextOf(req), req.params.id, req.body.body);
    return reply.status(201).send({ data, message: 'Comment added.' });
  });
}
