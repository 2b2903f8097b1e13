// Timed online assessments (issue 12): the recruiter sends a link and reads the results (app routes
// on the candidate); the candidate starts and takes the assessment through capability links
// (public routes under /api/public/): 'assessment' (one use: the start) and 'assessment-attempt'
// (the window of the started attempt, valid until a day after its deadline).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../resources/types';
import type { Capability } from '../../plugins/capability';
import { HttpError } from '../../plugins/errors';
import { idQuery } from '../../../shared/resources/define';
import {
  assessmentLinkInfoSchema, attemptStateSchema, candidateAssessmentsSchema, saveAnswerSchema, savedAnswerSchema, sendAssessmentFormSchema, sendAssessmentSchema,
  sentAssessmentSchema, startedAttemptSchema, tabLeavesSchema,
} from '../../../shared/schemas/assessment';
import { dataResponse, messageResponse, savedResponse } from '../../../shared/schemas/responses';
import {
  ATTEMPT_PURPOSE, attemptState, describeLink, recordTabLeave, saveAnswer, startAssessment, submitAttempt, windowPath,
} from './attempt';
import { listAssessments } from './results';
import { LINK_PURPOSE, revokeAssessment, sendAssessment, sendFormData } from './send';

const tags = ['Assessments'];
const publicTags = ['Public: assessment'];
const candidateParams = z.object({ id: idQuery() });
const sendParams = z.object({ id: idQuery(), assessmentId: idQuery() });
// The token's format is checked by the capability hook, which answers a malformed one like an unknown one.
const tokenParams = z.object({ token: z.string().max(200) });
const answerParams = z.object({ token: z.string().max(200), questionId: idQuery() });

const linkAuth = { capability: LINK_PURPOSE };
const attemptAuth = { capability: ATTEMPT_PURPOSE, allowUsed: true };

function capabilityOf(request: FastifyRequest): Capability {
  if (!request.capability) throw new HttpError(404, 'This link is invalid or has expired.');
  return request.capability;
}

export function registerAssessmentRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get('/candidate/:id/send-assessment-link', {
    config: { auth: 'app', permission: 'can-edit-candidate' },
    schema: { tags, summary: 'The send form: the candidate and the active question categories with their questions per skill level', params: candidateParams,
      response: { 200: dataResponse(sendAssessmentFormSchema) },
    },
  }, async (request) => ({ data: await sendFormData(contextOf(request), request.params.id) }));

  app.post('/candidate/:id/send-assessment-link', {
    config: { auth: 'app', permission: 'can-edit-candidate' },
    schema: { tags, summary: 'Send a candidate a one-use link to a timed assessment (mailed; the answer holds the link once)', params: candidateParams, body: sendAssessmentSchema,
      response: { 201: savedResponse(sentAssessmentSchema) },
    },
  }, async (request, reply) => {
    const sent = await sendAssessment(contextOf(request), request.params.id, request.body);
    return reply.status(201).send({ data: sent, message: 'Assessment link sent successfully.' });
  });

  app.get('/candidate/:id/assessments', {
    config: { auth: 'app', permission: 'can-view-candidate' },
    schema: { tags, summary: 'Every assessment sent to a candidate (newest first), with its attempt, scores and answers; `candidate` names them', params: candidateParams,
      response: { 200: candidateAssessmentsSchema },
    },
  }, async (request) => listAssessments(contextOf(request), request.params.id));

  app.post('/candidate/:id/assessments/:assessmentId/revoke', {
    config: { auth: 'app', permission: 'can-edit-candidate' },
    schema: { tags, summary: 'Revoke an assessment link that has not been started', params: sendParams, response: { 200: messageResponse } },
  }, async (request) => {
    await revokeAssessment(contextOf(request), request.params.id, request.params.assessmentId);
    return { message: 'Assessment link revoked.' };
  });

  app.get('/public/assessment/:token', {
    config: { auth: linkAuth },
    schema: { tags: publicTags, summary: 'The start page: duration, number of questions, categories (starts nothing)', params: tokenParams,
      response: { 200: dataResponse(assessmentLinkInfoSchema) },
    },
  }, async (request) => ({ data: await describeLink(parent.db, capabilityOf(request)) }));

  app.post('/public/assessment/:token/start', {
    config: { auth: linkAuth },
    schema: { tags: publicTags, summary: 'Start the one attempt of a link: draws the questions, starts the clock', params: tokenParams,
      response: { 201: savedResponse(startedAttemptSchema) },
    },
  }, async (request, reply) => {
    const { token, state } = await startAssessment(parent, capabilityOf(request));
    return reply.status(201).send({ data: { token, url: windowPath(token), ...state }, message: 'The assessment has started.' });
  });

  app.get('/public/assessment-attempt/:token', {
    config: { auth: attemptAuth },
    schema: { tags: publicTags, summary: 'The attempt: questions, saved answers, the server\'s remaining time', params: tokenParams,
      response: { 200: dataResponse(attemptStateSchema) },
    },
  }, async (request) => ({ data: await attemptState(parent, capabilityOf(request).subjectId) }));

  app.put('/public/assessment-attempt/:token/answers/:questionId', {
    config: { auth: attemptAuth },
    schema: { tags: publicTags, summary: 'Save one answer (refused after the deadline and for questions not drawn)', params: answerParams, body: saveAnswerSchema,
      response: { 200: savedResponse(savedAnswerSchema) },
    },
  }, async (request) => ({
    data: await saveAnswer(parent.db, capabilityOf(request).subjectId, request.params.questionId, request.body.answer),
    message: 'Answer saved.',
  }));

  app.post('/public/assessment-attempt/:token/tab-leave', {
    config: { auth: attemptAuth },
    schema: { tags: publicTags, summary: 'Count one leave of the assessment tab', params: tokenParams, response: { 200: dataResponse(tabLeavesSchema) } },
  }, async (request) => ({ data: { tab_leaves: await recordTabLeave(parent.db, capabilityOf(request).subjectId) } }));

  app.post('/public/assessment-attempt/:token/submit', {
    config: { auth: attemptAuth },
    schema: { tags: publicTags, summary: 'Submit the attempt (a second submit changes nothing)', params: tokenParams, response: { 200: savedResponse(attemptStateSchema) } },
  }, async (request) => ({ data: await submitAttempt(parent, capabilityOf(request).subjectId), message: 'Your assessment has been submitted.' }));
}
