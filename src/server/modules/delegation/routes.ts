// Approvals while away (issue 28, decision 036): GET, POST and DELETE /api/delegation. Managers only
// (an admin for any manager); the rules are in service.ts, the effect in scope.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTransaction } from '../../lib/transaction';
import { requireAccount } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { idQuery } from '../../../shared/resources/define';
import { messageResponse } from '../../../shared/schemas/responses';
import {
  delegationCandidatesResponse, delegationInputSchema, delegationListResponse, delegationSavedResponse,
} from '../../../shared/schemas/delegation';
import { isAdmin } from '../../../shared/permissions';
import { createDelegation, delegateCandidates, listDelegations, mayDelegate, withdrawDelegation } from './service';

const tags = ['Delegation'];

export function registerDelegationRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/delegation', {
    config: { auth: 'app' },
    schema: { tags, summary: 'The caller\'s approvals handed over and those handed to them, not yet over', response: { 200: delegationListResponse } },
  }, async (request) => ({ data: await listDelegations(parent.db, requireAccount(request)) }));

  app.get('/delegation/candidates', {
    config: { auth: 'app' },
    schema: {
      tags, summary: 'The managers who may decide for a manager (the caller, or for an admin the one named)',
      querystring: z.object({ manager_id: idQuery().optional() }), response: { 200: delegationCandidatesResponse },
    },
  }, async (request) => {
    const account = requireAccount(request);
    if (!mayDelegate(account)) throw new HttpError(403, 'Only a manager can hand their approvals to someone else.');
    const managerId = isAdmin(account) && request.query.manager_id ? request.query.manager_id : account.id;
    return { data: await delegateCandidates(parent.db, managerId) };
  });

  app.post('/delegation', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Hand a manager\'s approvals to another manager for a range of days', body: delegationInputSchema, response: { 201: delegationSavedResponse } },
  }, async (request, reply) => {
    const answer = await inTransaction(parent, (tx) => createDelegation(tx, requireAccount(request), request.body));
    reply.code(201);
    return answer;
  });

  app.delete('/delegation/:id', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Take handed-over approvals back before the last day', params: z.object({ id: idQuery() }), response: { 200: messageResponse } },
  }, async (request) => inTransaction(parent, (tx) => withdrawDelegation(tx, requireAccount(request), request.params.id)));
}
