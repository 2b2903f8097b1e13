// GET /api/setup-checklist and POST /api/setup-checklist/{step}/confirm (issue 22): admins only, by
// the admin role (not a permission a role could be given), as the audit screen checks it (the service decides).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../resources/types';
import { setupChecklistSchema, setupStepParams } from '../../../shared/schemas/setup';
import { dataResponse, savedResponse } from '../../../shared/schemas/responses';
import { confirmSetupStep, setupChecklist } from './service';

const tags = ['Setup'];

export function registerSetupRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/setup-checklist', {
    config: { auth: 'app' },
    schema: { tags, summary: 'The first-run setup checklist, each step computed from the data (admins only)', response: { 200: dataResponse(setupChecklistSchema) } },
  }, async (request) => ({ data: await setupChecklist(contextOf(request)) }));

  app.post('/setup-checklist/:step/confirm', {
    config: { auth: 'app' },
    schema: { tags, summary: 'Keep a starting list as it is (admins only)', params: setupStepParams, response: { 200: savedResponse(setupChecklistSchema) } },
  }, async (request) => ({ data: await confirmSetupStep(contextOf(request), request.params.step), message: 'Marked as reviewed.' }));
}
