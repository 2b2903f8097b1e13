// GET /api/setup-checklist and POST /api/setup-checklist/{step}/confirm (issue 22): admins only, by
// the admin role (not a permission a role could be given), as the audit screen checks it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { forbidden, requireAccount } from '../../plugins/auth';
import { plainChanges, recordChange } from '../../resources/audit';
import { isAdmin } from '../../../shared/permissions';
import { setupChecklistSchema, setupStepParams } from '../../../shared/schemas/setup';
import { dataResponse, savedResponse } from '../../../shared/schemas/responses';
import { confirmSetupStep, setupChecklist } from './service';

const tags = ['Setup'];

function requireAdmin(request: FastifyRequest) {
  const account = requireAccount(request);
  if (!isAdmin(account)) throw forbidden();
  return account;
}

export function registerSetupRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/setup-checklist', {
    config: { auth: 'app' },
    schema: { tags, summary: 'The first-run setup checklist, each step computed from the data (admins only)', response: { 200: dataResponse(setupChecklistSchema) } },
  }, async (request) => {
    requireAdmin(request);
    return { data: await setupChecklist(parent.db) };
  });

  app.post('/setup-checklist/:step/confirm', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Keep a starting list as it is (admins only)', params: setupStepParams, response: { 200: savedResponse(setupChecklistSchema) } },
  }, async (request) => {
    const account = requireAdmin(request);
    await parent.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      await confirmSetupStep(db, account, request.params.step);
      await recordChange(db, { account, action: 'update', resource: 'setting', recordId: null, title: 'Setup checklist', changes: plainChanges({ [request.params.step]: null }, { [request.params.step]: 'Reviewed' }) });
    });
    return { data: await setupChecklist(parent.db), message: 'Marked as reviewed.' };
  });
}
