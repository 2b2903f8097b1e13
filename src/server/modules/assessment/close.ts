// Closing an attempt (issue 12): once, by the candidate's submit or by the job at the deadline,
// scored and told to the recruiter.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { assessmentAnswers, assessmentAttempts, assessments } from '../../db/schema/assessments';
import { candidates } from '../../db/schema/recruitment';
import { inTransaction } from '../../lib/transaction';
import { notify } from '../notification/notify';
import { ASSESSMENT_GRACE_MS } from '../../../shared/schemas/assessment';
import { scoreAnswers } from './scoring';

export const CLOSE_JOB = 'assessment-close';
export const resultsPath = (candidateId: number) => `/candidate/${candidateId}/assessments`;

/**
 * Closes an attempt once (compare-and-set on submitted_at), scores it and tells the recruiter live.
 * 'time-up' records the deadline as the submission time; false when it was closed already.
 */
export async function closeAttempt(app: FastifyInstance, attemptId: number, reason: 'submitted' | 'time-up'): Promise<boolean> {
  return inTransaction(app, async (tx) => {
    const now = new Date(Date.now());
    const [closed] = await tx.db.update(assessmentAttempts)
      .set({ submitted_at: reason === 'time-up' ? sql`least(${assessmentAttempts.deadline}, ${now.toISOString()}::timestamptz)` : now, closed_reason: reason })
      .where(and(eq(assessmentAttempts.id, attemptId), isNull(assessmentAttempts.submitted_at)))
      .returning();
    if (!closed) return false;
    const answers = await tx.db.update(assessmentAnswers)
      .set({ is_correct: sql`coalesce(${assessmentAnswers.answer} = ${assessmentAnswers.correct_answer}, false)` })
      .where(eq(assessmentAnswers.attempt_id, attemptId))
      .returning();
    const scores = scoreAnswers(answers);
    await tx.db.update(assessmentAttempts).set({ scores, correct_count: scores.overall.correct }).where(eq(assessmentAttempts.id, attemptId));

    const [owner] = await tx.db.select({ candidate_id: candidates.id, name: candidates.name, recruiter_id: candidates.recruiter_id, sent_by: assessments.sent_by })
      .from(assessments).innerJoin(candidates, eq(candidates.id, assessments.candidate_id)).where(eq(assessments.id, closed.assessment_id));
    const recipient = owner.recruiter_id ?? owner.sent_by;
    if (recipient) {
      const how = reason === 'submitted' ? 'submitted the assessment' : 'ran out of time on the assessment';
      await notify(tx, [recipient], {
        title: 'Assessment submitted',
        message: `${owner.name} ${how}: ${scores.overall.correct} of ${scores.overall.total} correct (${scores.overall.percent}%).`,
        url: resultsPath(owner.candidate_id),
      }, { type: 'App\\Notifications\\AssessmentSubmitted', kind: 'candidate' });
    }
    return true;
  });
}

/** The close job (enqueued for the deadline plus the grace): the attempt ends even when no browser is left. */
export async function closeDueAttempt(app: FastifyInstance, payload: unknown): Promise<void> {
  const attemptId = Number((payload as { attemptId?: unknown } | null)?.attemptId);
  if (!Number.isInteger(attemptId)) throw new Error('assessment-close without an attemptId');
  const [attempt] = await app.db.select({ deadline: assessmentAttempts.deadline, submitted_at: assessmentAttempts.submitted_at })
    .from(assessmentAttempts).where(eq(assessmentAttempts.id, attemptId));
  if (!attempt || attempt.submitted_at) return;
  // A node whose clock runs behind the database's retries later rather than cutting the candidate short.
  if (Date.now() <= attempt.deadline.getTime() + ASSESSMENT_GRACE_MS) throw new Error('assessment-close ran before the deadline');
  await closeAttempt(app, attemptId, 'time-up');
}
