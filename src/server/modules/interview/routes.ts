// Issue 28: interviews (the definition's routes, with the calendar invitation sent on schedule,
// reschedule and cancel), offer letter templates (plain definition routes), scorecards, offer letters
// with the candidate's public answer, and a position's pipeline.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema/accounts';
import { interviews, offerTemplates } from '../../db/schema/interviews';
import { HttpError } from '../../plugins/errors';
import { contentDisposition } from '../../lib/content-disposition';
import { inTransaction } from '../../lib/transaction';
import { registerResource } from '../../resources/register';
import { contextOf } from '../../resources/types';
import { firmName } from '../setting/firm-profile';
import { idQuery } from '../../../shared/resources/define';
import { candidate } from '../../../shared/resources/candidate';
import { hasPermission } from '../../../shared/permissions';
import { interview, interviewer, OFFER_LETTER_PURPOSE, offerLetterSchema, offerResponseSchema, scorecardSchema } from '../../../shared/resources/interview';
import { offerTemplate } from '../../../shared/resources/offer-template';
import { position } from '../../../shared/resources/position';
import { createdOfferLetter, offerLetterView, positionPipeline as pipelineSchema, publicOfferLetter as publicOfferSchema, scorecardsResponse } from '../../../shared/schemas/interview';
import { dataResponse, fileDownload, messageResponse, savedResponse } from '../../../shared/schemas/responses';
import {
  answerOfferLetter, candidateScorecards, createOfferLetter, interviewScope, interviewScorecards, offerLetterFile, offerLetterPdf, offerLettersOf,
  positionPipeline, publicOfferLetter, submitScorecard,
} from './service';
import {
  cancelledInterviewRefusal, interviewRescheduled, interviewScheduled, interviewTransitionColumns, interviewTransitioned, prepareInterview,
  prepareInterviewUpdate, withInterviewers,
} from './schedule';

const idParams = z.object({ id: idQuery() });

/** What an interviewer's row shows: their name and job title; every other column of a person stays hidden. */
const INTERVIEWER_COLUMNS = ['id', 'name', 'job_title'];
const tokenParams = z.object({ token: z.string().max(200) });
const publicTags = ['Public offer letter'];

export function registerInterviewRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  registerResource(parent, {
    definition: interview,
    table: interviews,
    // Someone who does not view candidates (an engineer on a panel) sees only the interviews they are on.
    scope: (ctx) => interviewScope(ctx.account),
    hidden: ['starts_at', 'ics_uid'],
    beforeCreate: (values, _input, ctx) => prepareInterview(ctx, values),
    afterCreate: (row, _input, ctx) => interviewScheduled(ctx, row),
    updateRefusal: cancelledInterviewRefusal,
    beforeUpdate: (values, existing, _input, ctx) => prepareInterviewUpdate(ctx, values, existing),
    afterUpdate: (row, _existing, _input, ctx) => interviewRescheduled(ctx, row),
    beforeTransition: (_transition, existing, _comment, ctx) => interviewTransitionColumns(ctx, existing),
    afterTransition: (row, transition, _existing, ctx) => interviewTransitioned(ctx, row, transition),
    decorate: (rows, ctx) => withInterviewers(ctx, rows),
  });

  // Decision 043: any active staff account may be an interviewer (the form's choices and the check of the
  // chosen ids); a deactivated person is neither offered nor accepted.
  registerResource(parent, {
    definition: interviewer,
    table: users,
    scope: () => eq(users.status, 'active'),
    // An engineer on a panel may read the interview (its view permission reads these options too), not pick people.
    optionsScope: ({ account }) => (hasPermission(account.permissions, interviewer.permissions.view) ? undefined : sql`false`),
    hidden: Object.keys(getTableColumns(users)).filter((key) => !INTERVIEWER_COLUMNS.includes(key)),
  });

  registerResource(parent, { definition: offerTemplate, table: offerTemplates, unique: ['name'] });

  // ---- Scorecards ----

  app.get('/interview/:id/scorecards', {
    config: { auth: 'app', permission: interview.permissions.view },
    schema: { tags: [interview.label], summary: 'An interview\'s scorecards as the caller may read them', params: idParams, response: { 200: scorecardsResponse } },
  }, async (request) => ({ data: await interviewScorecards(contextOf(request), request.params.id) }));

  app.post('/interview/:id/scorecard', {
    config: { auth: 'app', permission: 'can-submit-scorecard' },
    schema: { tags: [interview.label], summary: 'Submit your scorecard of an interview you were on (once)', params: idParams, body: scorecardSchema, response: { 201: messageResponse } },
  }, async (request, reply) => {
    const message = await submitScorecard(contextOf(request), request.params.id, request.body);
    return reply.status(201).send({ message });
  });

  app.get('/candidate/:id/scorecards', {
    config: { auth: 'app', permission: candidate.permissions.view },
    schema: { tags: [candidate.label], summary: 'The scorecards of a candidate\'s interviews, side by side', params: idParams, response: { 200: scorecardsResponse } },
  }, async (request) => ({ data: await candidateScorecards(contextOf(request), request.params.id) }));

  // ---- Offer letters ----

  app.get('/candidate/:id/offer-letters', {
    config: { auth: 'app', permission: candidate.permissions.view },
    schema: { tags: [candidate.label], summary: 'A candidate\'s offer letters, newest first', params: idParams, response: { 200: dataResponse(z.array(offerLetterView)) } },
  }, async (request) => ({ data: await offerLettersOf(contextOf(request), request.params.id) }));

  app.post('/candidate/:id/offer-letters', {
    config: { auth: 'app', permission: candidate.permissions.edit },
    schema: {
      tags: [candidate.label], summary: 'Make an offer letter from a template and mail its link to the candidate (the link is shown once)',
      params: idParams, body: offerLetterSchema, response: { 201: savedResponse(createdOfferLetter) },
    },
  }, async (request, reply) => {
    const data = await createOfferLetter(contextOf(request), request.params.id, request.body);
    return reply.status(201).send({ data, message: 'The offer letter is made and mailed to the candidate.' });
  });

  app.get('/offer-letter/:id/pdf', {
    config: { auth: 'app', permission: candidate.permissions.view },
    schema: { tags: [candidate.label], summary: 'An offer letter as a PDF', params: idParams, response: { 200: fileDownload } },
  }, async (request, reply) => {
    const file = await offerLetterFile(contextOf(request), request.params.id);
    return reply.type('application/pdf').header('content-disposition', contentDisposition('inline', file.name)).send(Buffer.from(file.bytes));
  });

  // ---- The candidate's page (`/offer-letter?token=…`): the link is the permission, answered once ----

  app.get('/public/offer-letter/:token', {
    config: { auth: { capability: OFFER_LETTER_PURPOSE, allowUsed: true } },
    schema: { tags: publicTags, summary: 'The offer letter a link opens, and whether it is answered', params: tokenParams, response: { 200: dataResponse(publicOfferSchema) } },
  }, async (request) => ({ data: await publicOfferLetter(parent, request.capability!) }));

  app.get('/public/offer-letter/:token/pdf', {
    config: { auth: { capability: OFFER_LETTER_PURPOSE, allowUsed: true } },
    schema: { tags: publicTags, summary: 'The offer letter as a PDF', params: tokenParams, response: { 200: fileDownload } },
  }, async (request, reply) => {
    await publicOfferLetter(parent, request.capability!);
    const file = await offerLetterPdf(parent.db, request.capability!.subjectId, await firmName(parent));
    if (!file) throw new HttpError(404, 'This link is invalid or has expired.');
    return reply.type('application/pdf').header('content-disposition', contentDisposition('inline', file.name)).send(Buffer.from(file.bytes));
  });

  for (const answer of ['accept', 'decline'] as const) {
    app.post(`/public/offer-letter/:token/${answer}`, {
      config: { auth: { capability: OFFER_LETTER_PURPOSE } },
      schema: {
        tags: publicTags, summary: answer === 'accept' ? 'Accept the offer, the typed name as signature' : 'Decline the offer, the typed name as signature',
        params: tokenParams, body: offerResponseSchema, response: { 200: messageResponse },
      },
    }, async (request) => {
      const message = await inTransaction(parent, (tx) => answerOfferLetter(request, tx, request.capability!, answer === 'accept' ? 'accepted' : 'declined', request.body));
      return { message };
    });
  }

  // ---- A position's pipeline ----

  app.get('/position/:id/pipeline', {
    config: { auth: 'app', permission: `${position.permissions.view}&${candidate.permissions.view}` },
    schema: { tags: [position.label], summary: 'A position\'s candidates per stage, days open and time in stage', params: idParams, response: { 200: dataResponse(pipelineSchema) } },
  }, async (request) => ({ data: await positionPipeline(contextOf(request), request.params.id) }));
}
