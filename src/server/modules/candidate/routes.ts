// Candidates (issue 12): the generic routes of the shared definition (list, show, create and update
// with the CV, the hiring-stage workflow, history, downloads), the recruiter's links to the public
// candidate form, and the form's own public routes (capability links).
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { candidates } from '../../db/schema/recruitment';
import { workflowHistory } from '../../db/schema/workflow';
import { registerResource } from '../../resources/register';
import { idQuery } from '../../../shared/resources/define';
import { candidateFormLinkView, createdCandidateFormLink, publicCandidateFormView } from '../../../shared/schemas/candidate';
import { dataResponse, messageResponse, savedResponse } from '../../../shared/schemas/responses';
import { candidate, CANDIDATE_FORM_PURPOSE, candidateFormLinkSchema, REJECTED_STAGE } from '../../../shared/resources/candidate';
import {
  candidateMoved, createCandidateFormLink, listCandidateFormLinks, prepareCandidate, prepareCandidateUpdate, publicCandidateForm,
  revokeCandidateFormLink, submitPublicCandidate,
} from './service';
import { contextOf } from '../../resources/types';

/** Making, listing and revoking form links: whoever may add candidates. */
const LINK_PERMISSION = candidate.permissions.add!;
const tags = [candidate.label];
const publicTags = ['Public candidate form'];

export function registerCandidateRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: candidate,
    table: candidates,
    computed: {
      // The stage a rejected candidate left (a reopen returns there; the board places the card by it).
      previous_stage: sql<string | null>`(case when "candidates"."stage" = ${REJECTED_STAGE} then (
        select h.from_status from ${workflowHistory} h
        where h.resource = ${candidate.name} and h.record_id = "candidates"."id" and h.to_status = ${REJECTED_STAGE}
        order by h.id desc limit 1) end)`,
    },
    beforeCreate: (values, _input, ctx) => prepareCandidate(ctx, values),
    beforeUpdate: (values, existing, _input, ctx) => prepareCandidateUpdate(ctx, values, existing),
    // When the candidate entered the stage: the board shows how long they have waited in it.
    beforeTransition: () => ({ stage_changed_at: new Date() }),
    afterTransition: (row, _transition, _existing, ctx) => candidateMoved(ctx, row),
  });

  // ---- Links to the public candidate form (spec §8 copy helper on the recruiter's side) ----

  app.post('/candidate/form-links', {
    config: { auth: 'app', permission: LINK_PERMISSION },
    schema: {
      tags, summary: 'Make a link to the public candidate form for a position (the token is shown once)', body: candidateFormLinkSchema,
      response: { 201: savedResponse(createdCandidateFormLink) },
    },
  }, async (request, reply) => {
    const link = await createCandidateFormLink(contextOf(request), request.body);
    return reply.status(201).send({ data: link, message: 'Candidate form link created.' });
  });

  app.get('/candidate/form-links', {
    config: { auth: 'app', permission: LINK_PERMISSION },
    schema: {
      tags, summary: 'The latest links to the candidate form, of one position or all', querystring: z.object({ position_id: idQuery().optional() }),
      response: { 200: dataResponse(z.array(candidateFormLinkView)) },
    },
  }, async (request) => ({ data: await listCandidateFormLinks(contextOf(request), request.query.position_id) }));

  app.delete('/candidate/form-links/:id', {
    config: { auth: 'app', permission: LINK_PERMISSION },
    schema: { tags, summary: 'Revoke a link to the candidate form', params: z.object({ id: idQuery() }), response: { 200: messageResponse } },
  }, async (request) => {
    await revokeCandidateFormLink(contextOf(request), request.params.id);
    return { message: 'The link is revoked: it no longer opens the form.' };
  });

  // ---- The public form (`/add-candidate-details?token=…`): the link is the permission ----

  app.get('/public/candidate-form/:token', {
    config: { auth: { capability: CANDIDATE_FORM_PURPOSE } },
    schema: { tags: publicTags, summary: 'What the candidate form link is for', params: z.object({ token: z.string().max(200) }), response: { 200: dataResponse(publicCandidateFormView) } },
  }, async (request) => ({ data: await publicCandidateForm(parent.db, request.capability!) }));

  app.post('/public/candidate-form/:token', {
    config: { auth: { capability: CANDIDATE_FORM_PURPOSE } },
    schema: { tags: publicTags, summary: 'Submit a candidate\'s details and CV (multipart)', params: z.object({ token: z.string().max(200) }), response: { 201: messageResponse } },
  }, async (request, reply) => {
    const message = await submitPublicCandidate(request, request.capability!);
    return reply.status(201).send({ message });
  });

}
