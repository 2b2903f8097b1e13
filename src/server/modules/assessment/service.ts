// Timed online assessments (issue 12). The server's clock decides everything: the deadline is set
// when the candidate starts, every answer is checked against it in the statement that saves it, and a
// job closes the attempt at the deadline whether or not a browser is still open. Times come from
// `Date.now()` (not the database's now()), so tests control them with fake timers.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import {
  assessmentAnswers, assessmentAttempts, assessments, type AttemptScores, type QuestionsPerLevel,
} from '../../db/schema/assessments';
import { capabilityLinks } from '../../db/schema/capability';
import { questionCategories, questions } from '../../db/schema/master-data';
import { candidates } from '../../db/schema/recruitment';
import { enqueue } from '../../jobs/queue';
import { inTransaction } from '../../lib/transaction';
import { inWrite, type ResourceContext } from '../../resources/types';
import { type Capability, consumeCapabilityUse, createCapabilityLink, revokeCapabilityLink } from '../../plugins/capability';
import { HttpError, validationError } from '../../plugins/errors';
import { actionMail } from '../../plugins/mail';
import type { Account } from '../../plugins/auth';
import { recordChange } from '../../resources/audit';
import { notify } from '../notification/notify';
import { skillLevels } from '../../../shared/resources/question';
import {
  ASSESSMENT_GRACE_MS, MAX_LINK_DAYS, type AssessmentLinkInfo, type AssessmentResult, type AttemptState, type CandidateAssessments, type SendAssessmentInput,
} from '../../../shared/schemas/assessment';

export const LINK_PURPOSE = 'assessment';
export const ATTEMPT_PURPOSE = 'assessment-attempt';
export const CLOSE_JOB = 'assessment-close';
/** The window's link outlives the deadline by a day, so the candidate can still see that it was submitted. */
const ATTEMPT_LINK_AFTER_DEADLINE_MS = 24 * 3600_000;
const LEVELS = ['1', '2', '3'] as const;

const levelLabel = (level: number) => String(skillLevels.find((option) => option.value === level)?.label ?? level);
export const startPath = (token: string) => `/candidate/${token}/assessment`;
export const windowPath = (token: string) => `/candidate/assessment/${token}`;
export const resultsPath = (candidateId: number) => `/candidate/${candidateId}/assessments`;

async function findCandidate(db: Db, id: number) {
  const [candidate] = await db.select({ id: candidates.id, name: candidates.name, email: candidates.email, recruiter_id: candidates.recruiter_id })
    .from(candidates).where(eq(candidates.id, id));
  if (!candidate) throw new HttpError(404, 'Candidate not found.');
  return candidate;
}

/** How many questions of each skill level the categories hold. */
async function availableByLevel(db: Db, categoryIds: number[]): Promise<Record<string, number>> {
  const rows = await db.select({ level: questions.skill_level, count: sql<number>`count(*)::int` }).from(questions)
    .where(inArray(questions.question_category_id, categoryIds)).groupBy(questions.skill_level);
  return Object.fromEntries(rows.map((row) => [String(row.level), row.count]));
}

/** The send form, sent by the caller: the link is mailed; the answer holds it once. */
export const sendAssessment = (ctx: ResourceContext, candidateId: number, input: SendAssessmentInput) =>
  sendAssessmentAs(ctx.app, ctx.account.id, candidateId, input, ctx.account);

/**
 * Checks the bank can supply the draw, stores the send, makes the one-use link and mails it. Keeps
 * `app` first: the bench (bench/assessment-answers.server.ts) sends without a signed-in account;
 * `sender` is recorded in the audit trail (a seeding script may leave it out).
 */
export async function sendAssessmentAs(app: FastifyInstance, senderId: number, candidateId: number, input: SendAssessmentInput, sender: Account | null = null) {
  const expiresAt = new Date(input.expires_at);
  const now = Date.now();
  if (expiresAt.getTime() <= now) throw validationError({ expires_at: 'The link expiry must be in the future.' });
  if (expiresAt.getTime() > now + MAX_LINK_DAYS * 86_400_000) throw validationError({ expires_at: `The link may be valid for at most ${MAX_LINK_DAYS} days.` });
  const categoryIds = [...new Set(input.question_category_ids)];
  const perLevel: QuestionsPerLevel = { 1: input.questions_per_level[1], 2: input.questions_per_level[2], 3: input.questions_per_level[3] };
  if (LEVELS.every((level) => perLevel[level] === 0)) throw validationError({ questions_per_level: 'Ask at least one question.' });

  return inTransaction(app, async (tx) => {
    const candidate = await findCandidate(tx.db, candidateId);
    const found = await tx.db.select({ id: questionCategories.id }).from(questionCategories)
      .where(and(inArray(questionCategories.id, categoryIds), eq(questionCategories.status, 'active')));
    if (found.length !== categoryIds.length) throw validationError({ question_category_ids: 'The selected question category is invalid.' });
    const available = await availableByLevel(tx.db, categoryIds);
    const short = Object.fromEntries(LEVELS.filter((level) => perLevel[level] > (available[level] ?? 0)).map((level) => [
      `questions_per_level.${level}`, [`The chosen categories hold only ${available[level] ?? 0} ${levelLabel(Number(level))} question(s).`],
    ]));
    if (Object.keys(short).length) throw validationError(short);

    const [assessment] = await tx.db.insert(assessments).values({
      candidate_id: candidate.id, question_category_ids: categoryIds, questions_per_level: perLevel,
      duration_minutes: input.duration_minutes, link_expires_at: expiresAt, sent_by: senderId,
    }).returning();
    const link = await createCapabilityLink(tx.db, { purpose: LINK_PURPOSE, subjectId: assessment.id, expiresAt, maxUses: 1, createdBy: senderId });
    await tx.db.update(assessments).set({ link_id: link.id }).where(eq(assessments.id, assessment.id));
    // The audit trail: what was sent to whom; the link's token is a secret and never recorded.
    await recordChange(tx.db, {
      account: sender, action: 'create', resource: 'assessment', recordId: assessment.id, title: candidate.name,
      changes: [
        { field: 'candidate', old: null, new: candidate.id, old_text: null, new_text: candidate.name },
        { field: 'duration_minutes', old: null, new: input.duration_minutes, old_text: null, new_text: `${input.duration_minutes} minutes` },
        { field: 'link_expires_at', old: null, new: expiresAt.toISOString(), old_text: null, new_text: expiresAt.toISOString().slice(0, 10) },
      ],
    });
    const url = `${app.config.appUrl}${startPath(link.token)}`;
    tx.onCommit(() => app.mailer.send(actionMail(app.config.appName, candidate.email, 'Your online assessment',
      `Hello ${candidate.name}, you are invited to an online assessment of ${input.duration_minutes} minute(s). The clock starts only when you press Start.`,
      'Open the assessment', url, `The link works once and expires on ${expiresAt.toUTCString()}.`)));
    return { id: assessment.id, url };
  });
}

/** The send form's choices: the candidate, and each active category with its questions per skill level. */
export async function sendFormData({ db }: ResourceContext, candidateId: number) {
  const candidate = await findCandidate(db, candidateId);
  const rows = await db.select({ id: questionCategories.id, name: questionCategories.name, level: questions.skill_level, count: sql<number>`count(${questions.id})::int` })
    .from(questionCategories).leftJoin(questions, eq(questions.question_category_id, questionCategories.id))
    .where(eq(questionCategories.status, 'active'))
    .groupBy(questionCategories.id, questionCategories.name, questions.skill_level)
    .orderBy(asc(questionCategories.name), asc(questionCategories.id));
  const categories = new Map<number, { id: number; name: string; questions_per_level: QuestionsPerLevel }>();
  for (const row of rows) {
    const category = categories.get(row.id) ?? { id: row.id, name: row.name, questions_per_level: { 1: 0, 2: 0, 3: 0 } };
    if (row.level !== null && LEVELS.includes(String(row.level) as '1')) category.questions_per_level[String(row.level) as '1'] = row.count;
    categories.set(row.id, category);
  }
  return { candidate: { id: candidate.id, name: candidate.name, email: candidate.email }, categories: [...categories.values()] };
}

export async function revokeAssessment(ctx: ResourceContext, candidateId: number, assessmentId: number) {
  const { db: read, account } = ctx;
  const [assessment] = await read.select({ link_id: assessments.link_id }).from(assessments)
    .where(and(eq(assessments.id, assessmentId), eq(assessments.candidate_id, candidateId)));
  if (!assessment) throw new HttpError(404, 'Assessment not found.');
  const [attempt] = await read.select({ id: assessmentAttempts.id }).from(assessmentAttempts).where(eq(assessmentAttempts.assessment_id, assessmentId));
  if (attempt) throw new HttpError(409, 'The candidate has already started this assessment.');
  const linkId = assessment.link_id;
  await inWrite(ctx, async ({ db }) => {
    if (!linkId || !(await revokeCapabilityLink(db, LINK_PURPOSE, linkId))) throw new HttpError(409, 'This link was already revoked.');
    await recordChange(db, {
      account, action: 'update', resource: 'assessment', recordId: assessmentId,
      changes: [{ field: 'status', old: 'sent', new: 'revoked', old_text: 'sent', new_text: 'revoked' }],
    });
  });
}

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

/** Scores a list of answered questions overall, per category and per skill level. */
export function scoreAnswers(rows: readonly { question_category_id: number; category_name: string; skill_level: number; answer: string | null; correct_answer: string }[]): AttemptScores {
  const categories = new Map<number, AttemptScores['by_category'][number]>();
  const levels = new Map<number, AttemptScores['by_skill_level'][number]>();
  let correct = 0;
  for (const row of rows) {
    const isCorrect = row.answer !== null && row.answer === row.correct_answer;
    if (isCorrect) correct += 1;
    const category = categories.get(row.question_category_id) ?? { question_category_id: row.question_category_id, name: row.category_name, correct: 0, total: 0 };
    category.total += 1; category.correct += isCorrect ? 1 : 0;
    categories.set(row.question_category_id, category);
    const level = levels.get(row.skill_level) ?? { skill_level: row.skill_level, label: levelLabel(row.skill_level), correct: 0, total: 0 };
    level.total += 1; level.correct += isCorrect ? 1 : 0;
    levels.set(row.skill_level, level);
  }
  return {
    overall: { correct, total: rows.length, percent: rows.length ? Math.round((correct / rows.length) * 1000) / 10 : 0 },
    by_category: [...categories.values()].sort((a, b) => a.name.localeCompare(b.name)),
    by_skill_level: [...levels.values()].sort((a, b) => a.skill_level - b.skill_level),
  };
}

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
