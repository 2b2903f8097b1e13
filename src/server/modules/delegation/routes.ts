// Approvals while away (issue 28, decisions 036 and 041): GET, POST and DELETE /api/delegation. Each route
// needs can-delegate-approvals (managers and admins hold it by default); who may give and receive is
// service.ts's rule (a manager for themself, an admin for any manager), the effect is scope.ts's.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTransaction } from '../../lib/transaction';
import { requireAccount } from '../../plugins/auth';
import { idQuery } from '../../../shared/resources/define';
import { messageResponse } from '../../../shared/schemas/responses';
import {
  delegationCandidatesResponse, delegationInputSchema, delegationListResponse, delegationSavedResponse,
} from '../../../shared/schemas/delegation';
import { DELEGATE_PERMISSION } from '../../../shared/permissions';
import { createDelegation, delegateCandidates, listDelegations, withdrawDelegation } from './service';

const tags = ['Delegation'];

export function registerDelegationRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/delegation', {
    config: { auth: 'app', permission: DELEGATE_PERMISSION },
    schema: { tags, summary: 'The caller\'s approvals handed over and those handed to them, not yet over', response: { 200: delegationListResponse } },
  }, async (request) => ({ data: await listDelegations(parent.db, requireAccount(request)) }));

  app.get('/delegation/candidates', {
    config: { auth: 'app', permission: DELEGATE_PERMISSION },
    schema: {
      tags, summary: 'The managers who may decide for a manager (the caller, or for an admin the one named)',
      querystring: z.object({ manager_id: idQuery().optional() }), response: { 200: delegationCandidatesResponse },
    },
  }, async (request) => ({ data: await delegateCandidates(parent.db, requireAccount(request), request.query.manager_id) }));

  app.post('/delegation', {
    config: { auth: 'app', permission: DELEGATE_PERMISSION },
    schema: { tags, summary: 'Hand a manager\'s approvals to another manager for a range of days', body: delegationInputSchema, response: { 201: delegationSavedResponse } },
  }, async (request, reply) => {
    const answer = await inTransaction(parent, (tx) => createDelegation(tx, requireAccount(request), request.body));
    reply.code(201);
    return answer;
  });

  app.delete('/delegation/:id', {
    config: { auth: 'app', permission: DELEGATE_PERMISSION },
    schema: { tags, summary: 'Take handed-over approvals back before the last day', params: z.object({ id: idQuery() }), response: { 200: messageResponse } },
  }, async (request) => inTransaction(parent, (tx) => withdrawDelegation(tx, requireAccount(request), request.params.id)));
}
