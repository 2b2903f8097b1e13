// Issue 28: interviews (the definition's routes, with the calendar invitation sent on schedule,
// reschedule and cancel), offer letter templates (plain definition routes), scorecards, offer letters
// with the candidate's public answer, and a position's pipeline.
import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema/accounts';
import { interviews, offerTemplates } from '../../db/schema/interviews';
import { candidates } from '../../db/schema/recruitment';
import { requireAccount } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { contentDisposition } from '../../lib/content-disposition';
import { inTransaction } from '../../lib/transaction';
import { registerResource } from '../../resources/register';
import type { Row } from '../../resources/types';
import { writeHistory } from '../../resources/workflow';
import { firmName } from '../setting/firm-profile';
import { currentTimeZone } from '../../../shared/dates';
import { idQuery } from '../../../shared/resources/define';
import { candidate } from '../../../shared/resources/candidate';
import { hasPermission } from '../../../shared/permissions';
import { INTERVIEW_STAGES, interview, interviewer, OFFER_LETTER_PURPOSE, offerLetterSchema, offerResponseSchema, scorecardSchema } from '../../../shared/resources/interview';
import { offerTemplate } from '../../../shared/resources/offer-template';
import { position } from '../../../shared/resources/position';
import { createdOfferLetter, offerLetterView, positionPipeline as pipelineSchema, publicOfferLetter as publicOfferSchema, scorecardsResponse } from '../../../shared/schemas/interview';
import { dataResponse, fileDownload, messageResponse, savedResponse } from '../../../shared/schemas/responses';
import { interviewStart, newIcsUid, queueInvitations } from './invitations';
import {
  answerOfferLetter, createOfferLetter, interviewScope, offerLetterPdf, offerLettersOf, positionPipeline, publicOfferLetter, scorecardsOf, submitScorecard,
} from './service';

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
    async beforeCreate(values, _input, ctx) {
      const [found] = await ctx.db.select({ stage: candidates.stage }).from(candidates).where(eq(candidates.id, Number(values.candidate_id)));
      if (found && !(INTERVIEW_STAGES as readonly string[]).includes(found.stage)) {
        throw validationError({ candidate_id: `Interviews are scheduled at the Interview and Client Interview stages; this candidate is at ${found.stage}.` });
      }
      const zone = typeof values.time_zone === 'string' && values.time_zone ? values.time_zone : currentTimeZone();
      return {
        ...values, time_zone: zone, stage: found?.stage ?? INTERVIEW_STAGES[0], created_by: ctx.account.id, sequence: 0,
        ics_uid: newIcsUid(ctx.app.config.appUrl), starts_at: interviewStart(String(values.scheduled_on), String(values.start_time), zone),
      };
    },
    afterCreate: async (row, _input, ctx) => queueInvitations(ctx.app, ctx.db, await storedInterview(ctx.db, row.id as number), 'scheduled'),
    updateRefusal: (existing) => (existing.status === 'cancelled' ? new HttpError(409, 'This interview was cancelled, so it can no longer be changed. Schedule a new one.') : null),
    async beforeUpdate(values, existing, _input, ctx) {
      if (values.candidate_id !== undefined && values.candidate_id !== existing.candidate_id) {
        throw validationError({ candidate_id: 'An interview stays with its candidate: cancel it and schedule one for the other candidate.' });
      }
      const merged = { ...existing, ...values };
      const zone = typeof merged.time_zone === 'string' && merged.time_zone ? merged.time_zone : currentTimeZone();
      // Every change is a new version of the same calendar event.
      const [{ sequence }] = await ctx.db.select({ sequence: interviews.sequence }).from(interviews).where(eq(interviews.id, existing.id as number));
      return { ...values, time_zone: zone, sequence: sequence + 1, starts_at: interviewStart(String(merged.scheduled_on), String(merged.start_time), zone) };
    },
    async afterUpdate(row, _existing, _input, ctx) {
      await writeHistory(ctx.db, { resource: interview.name, recordId: row.id as number, transition: 'edit', from: 'scheduled', to: 'scheduled', account: ctx.account });
      await queueInvitations(ctx.app, ctx.db, await storedInterview(ctx.db, row.id as number), 'rescheduled');
    },
    async beforeTransition(_transition, existing, _comment, ctx) {
      const [{ sequence }] = await ctx.db.select({ sequence: interviews.sequence }).from(interviews).where(eq(interviews.id, existing.id as number));
      return { sequence: sequence + 1 };
    },
    afterTransition: async (row, transition, _existing, ctx) => {
      if (transition.name === 'cancel') await queueInvitations(ctx.app, ctx.db, await storedInterview(ctx.db, row.id as number), 'cancelled');
    },
    async decorate(rows, ctx) {
      const ids = [...new Set(rows.flatMap((row) => (row.interviewer_ids as number[] | null) ?? []))];
      const people = ids.length ? await ctx.db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids)) : [];
      for (const row of rows as Row[]) {
        row.interviewers = ((row.interviewer_ids as number[] | null) ?? []).flatMap((id) => people.filter((p) => p.id === id));
      }
    },
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
  }, async (request) => {
    const data = await scorecardsOf(parent.db, requireAccount(request), { interviewId: request.params.id });
    if (!data.length) throw new HttpError(404, 'Interview not found.');
    return { data };
  });

  app.post('/interview/:id/scorecard', {
    config: { auth: 'app', permission: 'can-submit-scorecard' },
    schema: { tags: [interview.label], summary: 'Submit your scorecard of an interview you were on (once)', params: idParams, body: scorecardSchema, response: { 201: messageResponse } },
  }, async (request, reply) => {
    const account = requireAccount(request);
    const message = await inTransaction(parent, (tx) => submitScorecard(tx, account, request.params.id, request.body));
    return reply.status(201).send({ message });
  });

  app.get('/candidate/:id/scorecards', {
    config: { auth: 'app', permission: candidate.permissions.view },
    schema: { tags: [candidate.label], summary: 'The scorecards of a candidate\'s interviews, side by side', params: idParams, response: { 200: scorecardsResponse } },
  }, async (request) => ({ data: await scorecardsOf(parent.db, requireAccount(request), { candidateId: request.params.id }) }));

  // ---- Offer letters ----

  app.get('/candidate/:id/offer-letters', {
    config: { auth: 'app', permission: candidate.permissions.view },
    schema: { tags: [candidate.label], summary: 'A candidate\'s offer letters, newest first', params: idParams, response: { 200: dataResponse(z.array(offerLetterView)) } },
  }, async (request) => ({ data: await offerLettersOf(parent.db, request.params.id) }));

  app.post('/candidate/:id/offer-letters', {
    config: { auth: 'app', permission: candidate.permissions.edit },
    schema: {
      tags: [candidate.label], summary: 'Make an offer letter from a template and mail its link to the candidate (the link is shown once)',
      params: idParams, body: offerLetterSchema, response: { 201: savedResponse(createdOfferLetter) },
    },
  }, async (request, reply) => {
    const account = requireAccount(request);
    const data = await inTransaction(parent, (tx) => createOfferLetter(parent, tx, account, request.params.id, request.body));
    return reply.status(201).send({ data, message: 'The offer letter is made and mailed to the candidate.' });
  });

  app.get('/offer-letter/:id/pdf', {
    config: { auth: 'app', permission: candidate.permissions.view },
    schema: { tags: [candidate.label], summary: 'An offer letter as a PDF', params: idParams, response: { 200: fileDownload } },
  }, async (request, reply) => {
    const file = await offerLetterPdf(parent.db, request.params.id, await firmName(parent));
    if (!file) throw new HttpError(404, 'Offer letter not found.');
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
  }, async (request) => {
    const data = await positionPipeline(parent.db, request.params.id);
    if (!data) throw new HttpError(404, 'Position not found.');
    return { data };
  });
}

/** The interview as stored (with its invitation's UID and start instant, which rows do not carry). */
async function storedInterview(db: FastifyInstance['db'], id: number) {
  const [row] = await db.select().from(interviews).where(eq(interviews.id, id));
  return row as unknown as Record<string, unknown>;
}
