// Reimbursement batches (issue 21): the generic list and show of the definition, plus making a
// batch from approved claims, its claims and payee totals, the bank file, paying and cancelling it;
// and people's bank details (the person themself and finance only).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reimbursementBatches } from '../../db/schema/hr';
import { inTransaction } from '../../lib/transaction';
import { requireAccount } from '../../plugins/auth';
import { registerResource, resourceRow, type ResourceContext } from '../../resources/register';
import { idQuery } from '../../../shared/resources/define';
import { resourceResponses } from '../../../shared/schemas/resource';
import { csvDownload, dataResponse } from '../../../shared/schemas/responses';
import { bankDetailsAnswer, bankDetailsSaved, batchClaimsSchema, claimableClaimSchema } from '../../../shared/schemas/reimbursement';
import {
  bankDetailsSchema, createBatchSchema, payBatchSchema, REIMBURSE_PERMISSION, reimbursementBatch,
} from '../../../shared/resources/reimbursement-batch';
import { bankDetailsOf, checkBankDetailsReader, readBankDetails, saveBankDetails } from './bank-details';
import {
  bankFile, cancelBatch, claimableClaims, claimsOfBatch, createBatch, currencyTotals, decorateBatches, payBatch, payeeTotals,
} from './service';

const contextOf = (request: FastifyRequest): ResourceContext =>
  ({ app: request.server, request, account: requireAccount(request), area: 'app', db: request.server.db });

const finance = { auth: 'app', permission: REIMBURSE_PERMISSION } as const;
const tags = [reimbursementBatch.label];
const idParams = z.object({ id: idQuery() });

const batchRow = resourceResponses(reimbursementBatch);

const claimsWord = (count: number) => (count === 1 ? '1 claim' : `${count} claims`);

export function registerReimbursementRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: reimbursementBatch,
    table: reimbursementBatches,
    decorate: (rows, ctx) => decorateBatches(ctx.db, rows),
  });

  app.get('/reimbursement-batch/claimable', {
    config: finance,
    schema: { tags, summary: 'Approved claims in no live batch, with whether their claimant has bank details', response: { 200: dataResponse(z.array(claimableClaimSchema)) } },
  }, async (request) => ({ data: await claimableClaims(request.server.db) }));

  app.post('/reimbursement-batch', {
    config: finance,
    schema: { tags, summary: 'Make a batch of approved claims', body: createBatchSchema, response: { 201: batchRow.saved } },
  }, async (request, reply) => {
    const account = requireAccount(request);
    const id = await inTransaction(parent, (tx) => createBatch(tx, account, request.body.expense_ids));
    const row = await resourceRow(reimbursementBatch.name, contextOf(request), id);
    reply.code(201);
    return { data: row, message: `Batch ${String(row.reference)} was made with ${claimsWord(Number(row.claims_count))} (${String(row.totals)}).` };
  });

  app.get('/reimbursement-batch/:id/claims', {
    config: finance,
    schema: { tags, summary: 'The batch\'s claims and their sums per payee and currency', params: idParams, response: { 200: dataResponse(batchClaimsSchema) } },
  }, async (request) => {
    const db = request.server.db;
    await resourceRow(reimbursementBatch.name, contextOf(request), request.params.id);
    const claims = await claimsOfBatch(db, request.params.id);
    const payees = payeeTotals(claims, await bankDetailsOf(db, claims.map((c) => c.user_id)));
    return { data: { claims, payees, totals: currencyTotals(payees) } };
  });

  app.get('/reimbursement-batch/:id/bank-file', {
    config: finance,
    schema: { tags, summary: 'The bank\'s bulk-transfer CSV: one row per payee and currency', params: idParams, response: { 200: csvDownload } },
  }, async (request, reply) => {
    const file = await bankFile(request.server.db, request.params.id);
    return reply.header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename}"`).send(file.csv);
  });

  app.post('/reimbursement-batch/:id/pay', {
    config: finance,
    schema: { tags, summary: 'Mark the batch paid: its claims are Reimbursed and their claimants told', params: idParams, body: payBatchSchema, response: { 200: batchRow.saved } },
  }, async (request) => {
    const account = requireAccount(request);
    const { batch, claims } = await inTransaction(parent, (tx) => payBatch(tx, account, request.params.id, request.body));
    const people = new Set(claims.map((c) => c.user_id)).size;
    const told = people === 1 ? 'the claimant has been told' : `each of the ${people} claimants has been told`;
    return {
      data: await resourceRow(reimbursementBatch.name, contextOf(request), request.params.id),
      message: `Batch ${batch.reference} is marked paid: ${claimsWord(claims.length)} reimbursed, and ${told}.`,
    };
  });

  app.post('/reimbursement-batch/:id/cancel', {
    config: finance,
    schema: { tags, summary: 'Cancel an open batch: its claims are free for another batch', params: idParams, response: { 200: batchRow.saved } },
  }, async (request) => {
    const account = requireAccount(request);
    const batch = await inTransaction(parent, (tx) => cancelBatch(tx, account, request.params.id));
    return {
      data: await resourceRow(reimbursementBatch.name, contextOf(request), request.params.id),
      message: `Batch ${batch.reference} is cancelled; its claims can go in a new batch.`,
    };
  });

  // Bank details: the person themself (their profile) and finance; refused to anyone else.
  const userParams = z.object({ userId: idQuery() });
  app.get('/bank-details/:userId', {
    config: { auth: 'app' },
    schema: { tags, summary: 'A person\'s bank details (themself and finance only)', params: userParams, response: { 200: bankDetailsAnswer } },
  }, async (request) => {
    checkBankDetailsReader(requireAccount(request), request.params.userId);
    const { name, details } = await readBankDetails(request.server.db, request.params.userId);
    return { data: details, name };
  });

  app.put('/bank-details/:userId', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Keep a person\'s bank details (themself and finance only)', params: userParams, body: bankDetailsSchema, response: { 200: bankDetailsSaved } },
  }, async (request) => {
    const account = requireAccount(request);
    checkBankDetailsReader(account, request.params.userId);
    const { name, details } = await saveBankDetails(request.server.db, request.params.userId, request.body);
    const whose = account.id === request.params.userId ? 'Your' : `${name}'s`;
    return { data: details, name, message: `${whose} bank details were saved. Reimbursed claims are paid to this account from now on.` };
  });
}
