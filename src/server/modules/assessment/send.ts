// Sending a candidate an online assessment (issue 12): the send form's choices, the send with its
// one-use link mailed to the candidate, and revoking a link not yet used.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { assessmentAttempts, assessments, type QuestionsPerLevel } from '../../db/schema/assessments';
import { questionCategories, questions } from '../../db/schema/master-data';
import { inTransaction } from '../../lib/transaction';
import { inWrite, type ResourceContext } from '../../resources/types';
import { createCapabilityLink, revokeCapabilityLink } from '../../plugins/capability';
import { HttpError, validationError } from '../../plugins/errors';
import { actionMail } from '../../plugins/mail';
import type { Account } from '../../plugins/auth';
import { recordChange } from '../../resources/audit';
import { MAX_LINK_DAYS, type SendAssessmentInput } from '../../../shared/schemas/assessment';
import { findCandidate } from './candidate';
import { LEVELS, levelLabel } from './scoring';
import { oneOfChosenRefused } from '../../../shared/words';
import { formatDayTimeInZone } from '../../../shared/dates';

export const LINK_PURPOSE = 'assessment';
export const startPath = (token: string) => `/candidate/${token}/assessment`;

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
    if (found.length !== categoryIds.length) throw validationError({ question_category_ids: oneOfChosenRefused('question categories') });
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
    // spec §9: the expiry as the product writes dates, on the firm's clock (the zone the server installed), named.
    tx.onCommit(() => app.mailer.send(actionMail(app.config.appName, candidate.email, 'Your online assessment',
      `Hello ${candidate.name}, you are invited to an online assessment of ${input.duration_minutes} minute(s). The clock starts only when you press Start.`,
      'Open the assessment', url, `The link works once and expires on ${formatDayTimeInZone(expiresAt)}.`)));
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
