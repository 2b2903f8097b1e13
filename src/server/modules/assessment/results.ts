// The recruiter's results of a candidate's assessments (issue 12).
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { assessmentAnswers, assessmentAttempts, assessments } from '../../db/schema/assessments';
import { capabilityLinks } from '../../db/schema/capability';
import { questionCategories } from '../../db/schema/master-data';
import type { ResourceContext } from '../../resources/types';
import type { AssessmentResult, AttemptState, CandidateAssessments } from '../../../shared/schemas/assessment';
import { findCandidate } from './candidate';
import { scoreAnswers } from './scoring';

/** The recruiter's results: every send, its link's state and its attempt with scores and each question. */
export async function listAssessments({ db }: ResourceContext, candidateId: number): Promise<CandidateAssessments> {
  const candidate = await findCandidate(db, candidateId);
  return { candidate: { id: candidate.id, name: candidate.name, email: candidate.email }, data: await assessmentsOf(db, candidateId) };
}

async function assessmentsOf(db: Db, candidateId: number): Promise<AssessmentResult[]> {
  const sends = await db.select({
    assessment: assessments, sender: { id: users.id, name: users.name },
    link: { uses: capabilityLinks.uses, revoked_at: capabilityLinks.revoked_at, expires_at: capabilityLinks.expires_at },
  }).from(assessments)
    .leftJoin(users, eq(users.id, assessments.sent_by))
    .leftJoin(capabilityLinks, eq(capabilityLinks.id, assessments.link_id))
    .where(eq(assessments.candidate_id, candidateId))
    .orderBy(sql`${assessments.created_at} desc`, sql`${assessments.id} desc`);
  if (!sends.length) return [];
  const ids = sends.map((send) => send.assessment.id);
  const attempts = await db.select().from(assessmentAttempts).where(inArray(assessmentAttempts.assessment_id, ids));
  const answers = attempts.length
    ? await db.select().from(assessmentAnswers).where(inArray(assessmentAnswers.attempt_id, attempts.map((a) => a.id))).orderBy(asc(assessmentAnswers.position))
    : [];
  const categoryIds = [...new Set(sends.flatMap((send) => send.assessment.question_category_ids))];
  const categoryRows = await db.select({ id: questionCategories.id, name: questionCategories.name }).from(questionCategories).where(inArray(questionCategories.id, categoryIds));
  const now = Date.now();
  return sends.map(({ assessment, sender, link }) => {
    const attempt = attempts.find((a) => a.assessment_id === assessment.id);
    const linkStatus = attempt || (link && link.uses > 0) ? 'used'
      : link?.revoked_at ? 'revoked'
        : !link || link.expires_at.getTime() <= now ? 'expired' : 'unused';
    const own = attempt ? answers.filter((answer) => answer.attempt_id === attempt.id) : [];
    return {
      id: assessment.id,
      categories: categoryRows.filter((category) => assessment.question_category_ids.includes(category.id)),
      questions_per_level: assessment.questions_per_level,
      duration_minutes: assessment.duration_minutes,
      link_expires_at: assessment.link_expires_at.toISOString(),
      link_status: linkStatus,
      sent_by: sender?.id ? sender : null,
      created_at: assessment.created_at.toISOString(),
      attempt: attempt ? {
        id: attempt.id,
        status: attempt.submitted_at ? 'submitted' : 'in progress',
        closed_reason: attempt.closed_reason as AttemptState['closed_reason'],
        started_at: attempt.started_at.toISOString(),
        deadline: attempt.deadline.toISOString(),
        submitted_at: attempt.submitted_at?.toISOString() ?? null,
        time_taken_seconds: attempt.submitted_at ? Math.round((attempt.submitted_at.getTime() - attempt.started_at.getTime()) / 1000) : null,
        tab_leaves: attempt.tab_leaves,
        question_count: attempt.question_count,
        answered_count: own.filter((answer) => answer.answer !== null).length,
        // While the attempt runs the score is what it would be now; closed, it is the stored one.
        scores: attempt.scores ?? scoreAnswers(own),
        questions: own.map((answer) => ({
          question_id: answer.question_id, position: answer.position, question: answer.question, options: answer.options,
          category: answer.category_name, skill_level: answer.skill_level, answer: answer.answer, correct_answer: answer.correct_answer,
          is_correct: answer.answer !== null && answer.answer === answer.correct_answer, answered_at: answer.answered_at?.toISOString() ?? null,
        })),
      } : null,
    };
  });
}
