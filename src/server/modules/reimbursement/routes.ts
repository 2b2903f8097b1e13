// Reimbursement batches (issue 21): the generic list and show of the definition, plus making a
// batch from approved claims, its claims and payee totals, the bank file, paying and cancelling it;
// and people's bank details (the person themself and finance only).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reimbursementBatches } from '../../db/schema/hr';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { idQuery } from '../../../shared/resources/define';
import { resourceResponses } from '../../../shared/schemas/resource';
import { csvDownload, dataResponse } from '../../../shared/schemas/responses';
import { bankDetailsAnswer, bankDetailsSaved, batchClaimsSchema, claimableClaimSchema } from '../../../shared/schemas/reimbursement';
import {
  bankDetailsSchema, createBatchSchema, payBatchSchema, REIMBURSE_PERMISSION, reimbursementBatch,
} from '../../../shared/resources/reimbursement-batch';
import { readBankDetails, saveBankDetails } from './bank-details';
import { bankFile, batchClaims, cancelBatch, claimableClaims, createBatch, decorateBatches, payBatch } from './service';

const finance = { auth: 'app', permission: REIMBURSE_PERMISSION } as const;
const tags = [reimbursementBatch.label];
const idParams = z.object({ id: idQuery() });

const batchRow = resourceResponses(reimbursementBatch);

export function registerReimbursementRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: reimbursementBatch,
    table: reimbursementBatches,
    decorate: (rows, ctx) => decorateBatches(ctx, rows),
  });

  app.get('/reimbursement-batch/claimable', {
    config: finance,
    schema: { tags, summary: 'Approved claims in no live batch, with whether their claimant has bank details', response: { 200: dataResponse(z.array(claimableClaimSchema)) } },
  }, async (request) => ({ data: await claimableClaims(contextOf(request)) }));

  app.post('/reimbursement-batch', {
    config: finance,
    schema: { tags, summary: 'Make a batch of approved claims', body: createBatchSchema, response: { 201: batchRow.saved } },
  }, async (request, reply) => reply.code(201).send(await createBatch(contextOf(request), request.body.expense_ids)));

  app.get('/reimbursement-batch/:id/claims', {
    config: finance,
    schema: { tags, summary: 'The batch\'s claims and their sums per payee and currency', params: idParams, response: { 200: dataResponse(batchClaimsSchema) } },
  }, async (request) => ({ data: await batchClaims(contextOf(request), request.params.id) }));

  app.get('/reimbursement-batch/:id/bank-file', {
    config: finance,
    schema: { tags, summary: 'The bank\'s bulk-transfer CSV: one row per payee and currency', params: idParams, response: { 200: csvDownload } },
  }, async (request, reply) => {
    const file = await bankFile(contextOf(request), request.params.id);
    return reply.header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename}"`).send(file.csv);
  });

  app.post('/reimbursement-batch/:id/pay', {
    config: finance,
    schema: { tags, summary: 'Mark the batch paid: its claims are Reimbursed and their claimants told', params: idParams, body: payBatchSchema, response: { 200: batchRow.saved } },
  }, async (request) => payBatch(contextOf(request), request.params.id, request.body));

  app.post('/reimbursement-batch/:id/cancel', {
    config: finance,
    schema: { tags, summary: 'Cancel an open batch: its claims are free for another batch', params: idParams, response: { 200: batchRow.saved } },
  }, async (request) => cancelBatch(contextOf(request), request.params.id));

  // Bank details: the person themself (their profile) and finance; refused to anyone else.
  const userParams = z.object({ userId: idQuery() });
  app.get('/bank-details/:userId', {
    config: { auth: 'app' },
    schema: { tags, summary: 'A person\'s bank details (themself and finance only)', params: userParams, response: { 200: bankDetailsAnswer } },
  }, async (request) => {
    const { name, details } = await readBankDetails(contextOf(request), request.params.userId);
    return { data: details, name };
  });

  app.put('/bank-details/:userId', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Keep a person\'s bank details (themself and finance only)', params: userParams, body: bankDetailsSchema, response: { 200: bankDetailsSaved } },
  }, async (request) => saveBankDetails(contextOf(request), request.params.userId, request.body));
}
