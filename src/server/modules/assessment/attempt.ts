// Timed online assessments (issue 12). The server's clock decides everything: the deadline is set
// when the candidate starts, every answer is checked against it in the statement that saves it, and a
// job closes the attempt at the deadline whether or not a browser is still open. Times come from
// `Date.now()` (not the database's now()), so tests control them with fake timers.
// This file: the candidate's side, from the start page through the attempt's window to the submit.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { assessmentAnswers, assessmentAttempts, assessments } from '../../db/schema/assessments';
import { questionCategories, questions } from '../../db/schema/master-data';
import { candidates } from '../../db/schema/recruitment';
import { enqueue } from '../../jobs/queue';
import { inTransaction } from '../../lib/transaction';
import { type Capability, consumeCapabilityUse, createCapabilityLink } from '../../plugins/capability';
import { HttpError, validationError } from '../../plugins/errors';
import { ASSESSMENT_GRACE_MS, type AssessmentLinkInfo, type AttemptState } from '../../../shared/schemas/assessment';
import { CLOSE_JOB, closeAttempt } from './close';
import { LEVELS } from './scoring';

export const ATTEMPT_PURPOSE = 'assessment-attempt';
/** The window's link outlives the deadline by a day, so the candidate can still see that it was submitted. */
const ATTEMPT_LINK_AFTER_DEADLINE_MS = 24 * 3600_000;
export const windowPath = (token: string) => `/candidate/assessment/${token}`;

/** The start page: what the candidate is about to take. Opening it starts nothing. */
export async function describeLink(db: Db, capability: Capability): Promise<AssessmentLinkInfo> {
  const [row] = await db.select({ assessment: assessments, candidate_name: candidates.name }).from(assessments)
    .innerJoin(candidates, eq(candidates.id, assessments.candidate_id)).where(eq(assessments.id, capability.subjectId));
  if (!row) throw new HttpError(404, 'This link is invalid or has expired.');
  const names = await db.select({ name: questionCategories.name }).from(questionCategories)
    .where(inArray(questionCategories.id, row.assessment.question_category_ids)).orderBy(asc(questionCategories.name));
  const perLevel = row.assessment.questions_per_level;
  return {
    candidate_name: row.candidate_name,
    duration_minutes: row.assessment.duration_minutes,
    question_count: LEVELS.reduce((sum, level) => sum + perLevel[level], 0),
    categories: names.map((category) => category.name),
    expires_at: capability.expiresAt.toISOString(),
  };
}

/**
 * Starts the one attempt of a link: draws the questions at random now (a new send draws anew),
 * fixes the deadline from the server's clock, spends the link's use, and schedules the close.
 * Returns the window's own token (it resumes the attempt on a reload or another device).
 */
export async function startAssessment(app: FastifyInstance, capability: Capability): Promise<{ token: string; state: AttemptState }> {
  const { attemptId, token } = await inTransaction(app, async (tx) => {
    const [assessment] = await tx.db.select().from(assessments).where(eq(assessments.id, capability.subjectId));
    if (!assessment) throw new HttpError(404, 'This link is invalid or has expired.');
    const drawn = [];
    for (const level of LEVELS) {
      const count = assessment.questions_per_level[level];
      if (!count) continue;
      drawn.push(...await tx.db.select({ question: questions, category_name: questionCategories.name }).from(questions)
        .innerJoin(questionCategories, eq(questionCategories.id, questions.question_category_id))
        .where(and(inArray(questions.question_category_id, assessment.question_category_ids), eq(questions.skill_level, Number(level))))
        .orderBy(sql`random()`).limit(count));
    }
    if (!drawn.length) throw new HttpError(409, 'This assessment has no questions any more. Please contact your recruiter.');
    await consumeCapabilityUse(tx.db, capability);
    const startedAt = new Date(Date.now());
    const deadline = new Date(startedAt.getTime() + assessment.duration_minutes * 60_000);
    const [attempt] = await tx.db.insert(assessmentAttempts).values({
      assessment_id: assessment.id, started_at: startedAt, deadline, question_count: drawn.length,
    }).onConflictDoNothing().returning({ id: assessmentAttempts.id });
    // The unique attempt per send is the backstop of the link's single use.
    if (!attempt) throw new HttpError(410, 'This link has already been used.');
    await tx.db.insert(assessmentAnswers).values(drawn.map(({ question, category_name }, index) => ({
      attempt_id: attempt.id, question_id: question.id, position: index + 1, question_category_id: question.question_category_id,
      category_name, skill_level: question.skill_level, question: question.question, options: question.options,
      correct_answer: question.correct_answer,
    })));
    const link = await createCapabilityLink(tx.db, {
      purpose: ATTEMPT_PURPOSE, subjectId: attempt.id, expiresAt: new Date(deadline.getTime() + ATTEMPT_LINK_AFTER_DEADLINE_MS),
    });
    await enqueue(tx.db, CLOSE_JOB, { attemptId: attempt.id }, {
      runAt: new Date(deadline.getTime() + ASSESSMENT_GRACE_MS), uniqueKey: `${CLOSE_JOB}:${attempt.id}`,
    });
    return { attemptId: attempt.id, token: link.token };
  });
  return { token, state: await attemptState(app, attemptId) };
}

/** The window's view of an attempt; one past its deadline (and grace) is closed first, so the page never shows an open attempt the server would refuse. */
export async function attemptState(app: FastifyInstance, attemptId: number): Promise<AttemptState> {
  const [row] = await app.db.select({ attempt: assessmentAttempts, duration_minutes: assessments.duration_minutes, candidate_name: candidates.name })
    .from(assessmentAttempts)
    .innerJoin(assessments, eq(assessments.id, assessmentAttempts.assessment_id))
    .innerJoin(candidates, eq(candidates.id, assessments.candidate_id))
    .where(eq(assessmentAttempts.id, attemptId));
  if (!row) throw new HttpError(404, 'This link is invalid or has expired.');
  let attempt = row.attempt;
  const now = Date.now();
  if (!attempt.submitted_at && now > attempt.deadline.getTime() + ASSESSMENT_GRACE_MS) {
    await closeAttempt(app, attemptId, 'time-up');
    [attempt] = await app.db.select().from(assessmentAttempts).where(eq(assessmentAttempts.id, attemptId));
  }
  const answers = await app.db.select().from(assessmentAnswers).where(eq(assessmentAnswers.attempt_id, attemptId)).orderBy(asc(assessmentAnswers.position));
  return {
    status: attempt.submitted_at ? 'submitted' : 'in progress',
    closed_reason: (attempt.closed_reason as AttemptState['closed_reason']) ?? null,
    candidate_name: row.candidate_name,
    started_at: attempt.started_at.toISOString(),
    deadline: attempt.deadline.toISOString(),
    submitted_at: attempt.submitted_at?.toISOString() ?? null,
    server_time: new Date(now).toISOString(),
    remaining_ms: attempt.submitted_at ? 0 : Math.max(0, attempt.deadline.getTime() - now),
    duration_minutes: row.duration_minutes,
    tab_leaves: attempt.tab_leaves,
    questions: answers.map((answer) => ({
      id: answer.question_id, position: answer.position, question: answer.question, options: answer.options,
      category: answer.category_name, skill_level: answer.skill_level, answer: answer.answer,
    })),
  };
}

/**
 * Saves one answer: one statement that writes only while the attempt is open, before its deadline
 * (plus the grace), for a question drawn for it, with one of its options. `is_correct` is set on every
 * row when the attempt closes, so a save racing the close is refused on the row itself.
 */
export async function saveAnswer(db: Db, attemptId: number, questionId: number, answer: string | null) {
  const now = new Date(Date.now());
  const cutoff = new Date(now.getTime() - ASSESSMENT_GRACE_MS);
  const saved = await db.update(assessmentAnswers).set({ answer, answered_at: now })
    .from(assessmentAttempts)
    .where(and(
      eq(assessmentAnswers.attempt_id, attemptId), eq(assessmentAnswers.question_id, questionId), isNull(assessmentAnswers.is_correct),
      eq(assessmentAttempts.id, assessmentAnswers.attempt_id), isNull(assessmentAttempts.submitted_at),
      sql`${assessmentAttempts.deadline} > ${cutoff.toISOString()}::timestamptz`,
      answer === null ? undefined : sql`${assessmentAnswers.options} @> jsonb_build_array(${answer}::text)`,
    ))
    .returning({ question_id: assessmentAnswers.question_id });
  if (saved.length) return { question_id: questionId, answer, saved_at: now.toISOString() };

  // Refused: say why, having stored nothing.
  const [row] = await db.select({ options: assessmentAnswers.options, submitted_at: assessmentAttempts.submitted_at, deadline: assessmentAttempts.deadline })
    .from(assessmentAttempts)
    .leftJoin(assessmentAnswers, and(eq(assessmentAnswers.attempt_id, assessmentAttempts.id), eq(assessmentAnswers.question_id, questionId)))
    .where(eq(assessmentAttempts.id, attemptId));
  if (row?.submitted_at) throw new HttpError(409, 'This assessment has already been submitted.');
  if (row && row.deadline.getTime() <= cutoff.getTime()) throw new HttpError(409, 'The time for this assessment is over.');
  if (!row?.options) throw validationError({ question_id: 'This question is not part of your assessment.' });
  throw validationError({ answer: 'The selected answer is not one of the options.' });
}

export async function recordTabLeave(db: Db, attemptId: number): Promise<number> {
  const [row] = await db.update(assessmentAttempts).set({ tab_leaves: sql`${assessmentAttempts.tab_leaves} + 1` })
    .where(and(eq(assessmentAttempts.id, attemptId), isNull(assessmentAttempts.submitted_at)))
    .returning({ tab_leaves: assessmentAttempts.tab_leaves });
  if (!row) throw new HttpError(409, 'This assessment has already been submitted.');
  return row.tab_leaves;
}

/**
 * The candidate's submit: before the deadline it is theirs; one arriving after it (the page's own
 * submit at zero, a little late over the network) records that the time ran out, at the deadline.
 * A second submit changes nothing.
 */
export async function submitAttempt(app: FastifyInstance, attemptId: number): Promise<AttemptState> {
  const [attempt] = await app.db.select({ deadline: assessmentAttempts.deadline }).from(assessmentAttempts).where(eq(assessmentAttempts.id, attemptId));
  if (!attempt) throw new HttpError(404, 'This link is invalid or has expired.');
  const isInTime = Date.now() < attempt.deadline.getTime();
  await closeAttempt(app, attemptId, isInTime ? 'submitted' : 'time-up');
  return attemptState(app, attemptId);
}
