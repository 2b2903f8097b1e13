// Issue 28 beyond CRUD: scorecards (each interviewer's, others' shown only once one's own is in),
// offer letters (a PDF from the firm's template, answered by the candidate through a capability link)
// and a position's pipeline.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { capabilityLinks } from '../../db/schema/capability';
import { interviews, offerLetters, offerTemplates, scorecards } from '../../db/schema/interviews';
import { clients, positions } from '../../db/schema/master-data';
import { candidates } from '../../db/schema/recruitment';
import { enqueue } from '../../jobs/queue';
import type { Account } from '../../plugins/auth';
import { type Capability, consumeCapabilityUse, createCapabilityLink, revokeCapabilityLink } from '../../plugins/capability';
import { HttpError, validationError } from '../../plugins/errors';
import { actionMail } from '../../plugins/mail';
import { recordChange, recordResourceChange } from '../../resources/audit';
import { writeHistory } from '../../resources/workflow';
import type { Transaction } from '../../lib/transaction';
import { inWrite, type ResourceContext, type WriteContext } from '../../resources/types';
import { notify } from '../notification/notify';
import { createOnboardingForCandidate } from '../onboarding/service';
import { firmName } from '../setting/firm-profile';
import { hasPermission } from '../../../shared/permissions';
import { candidate as candidateDefinition, CANDIDATE_STAGES, REJECTED_STAGE } from '../../../shared/resources/candidate';
import {
  DEFAULT_CRITERIA, fillOfferTemplate, OFFER_LETTER_PURPOSE, OFFER_LINK_DAYS, offerLetterPath, type OfferLetterInput, rateText, RECOMMENDATIONS, type ScorecardInput,
} from '../../../shared/resources/interview';
import type { InterviewScorecards, OfferLetterView, PositionPipeline, PublicOfferLetter, ScorecardView } from '../../../shared/schemas/interview';
import { routePath } from '../../../shared/routes';
import { chosenOneRefused } from '../../../shared/words';

const DAY_MS = 86_400_000;
export const OFFER_STAGE = 'Offer Letter Review';
export const OFFER_MAIL_JOB = 'offer-letter-mail';

// ---- Scorecards ----

const criteriaOf = (stored: string[] | null | undefined): string[] => (stored?.length ? stored : [...DEFAULT_CRITERIA]);

/** Whether the caller sees every interview (a recruiter) or only those they are on (an interviewer). */
export const seesAllInterviews = (account: Account) => hasPermission(account.permissions, candidateDefinition.permissions.view);

/** The interviews a caller may open: all for those who view candidates, else those they are on. */
export const interviewScope = (account: Account) =>
  (seesAllInterviews(account) ? undefined : sql`${interviews.interviewer_ids} @> ${JSON.stringify([account.id])}::jsonb`);

/**
 * Scorecards of some interviews as `account` may see them: their own always; the others' once their
 * own is submitted, or at once for someone not on the panel (the recruiter deciding).
 */
async function scorecardsOf({ db, account }: ResourceContext, where: { interviewId?: number; candidateId?: number }): Promise<InterviewScorecards[]> {
  const rows = await db.select({
    id: interviews.id, stage: interviews.stage, scheduled_on: interviews.scheduled_on, start_time: interviews.start_time, time_zone: interviews.time_zone,
    status: interviews.status, interviewer_ids: interviews.interviewer_ids, criteria: positions.scorecard_criteria,
  }).from(interviews).innerJoin(candidates, eq(candidates.id, interviews.candidate_id)).innerJoin(positions, eq(positions.id, candidates.position_id))
    .where(and(
      where.interviewId ? eq(interviews.id, where.interviewId) : undefined,
      where.candidateId ? eq(interviews.candidate_id, where.candidateId) : undefined,
      interviewScope(account),
    )).orderBy(asc(interviews.starts_at), asc(interviews.id));
  if (!rows.length) return [];
  const ids = rows.map((row) => row.id);
  const cards = await db.select({
    id: scorecards.id, interview_id: scorecards.interview_id, interviewer_id: scorecards.interviewer_id, interviewer_name: users.name,
    ratings: scorecards.ratings, strengths: scorecards.strengths, concerns: scorecards.concerns, recommendation: scorecards.recommendation, submitted_at: scorecards.submitted_at,
  }).from(scorecards).innerJoin(users, eq(users.id, scorecards.interviewer_id)).where(inArray(scorecards.interview_id, ids)).orderBy(asc(scorecards.submitted_at));
  const panelIds = [...new Set(rows.flatMap((row) => row.interviewer_ids))];
  const panel = panelIds.length ? await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, panelIds)) : [];
  const view = (card: (typeof cards)[number]): ScorecardView => ({
    id: card.id, interview_id: card.interview_id, interviewer: { id: card.interviewer_id, name: card.interviewer_name },
    ratings: card.ratings, strengths: card.strengths, concerns: card.concerns, recommendation: card.recommendation, submitted_at: card.submitted_at.toISOString(),
  });
  return rows.map((row) => {
    const theirs = cards.filter((card) => card.interview_id === row.id);
    const isInterviewer = row.interviewer_ids.includes(account.id);
    const mine = theirs.find((card) => card.interviewer_id === account.id) ?? null;
    const mayReadOthers = !isInterviewer || mine !== null;
    return {
      interview: {
        id: row.id, stage: row.stage, scheduled_on: row.scheduled_on, start_time: row.start_time, time_zone: row.time_zone, status: row.status,
        interviewers: row.interviewer_ids.flatMap((id) => panel.filter((p) => p.id === id)),
      },
      criteria: criteriaOf(row.criteria),
      is_interviewer: isInterviewer,
      can_submit: isInterviewer && !mine && row.status !== 'cancelled',
      mine: mine ? view(mine) : null,
      scorecards: mayReadOthers ? theirs.filter((card) => card.interviewer_id !== account.id).map(view) : null,
      submitted_count: theirs.length,
    };
  });
}

/** GET /api/interview/:id/scorecards: 404 when the interview is not there for the caller (their scope). */
export async function interviewScorecards(ctx: ResourceContext, interviewId: number): Promise<InterviewScorecards[]> {
  const data = await scorecardsOf(ctx, { interviewId });
  if (!data.length) throw new HttpError(404, 'Interview not found.');
  return data;
}

/** GET /api/candidate/:id/scorecards: every interview of the candidate the caller may see, side by side. */
export const candidateScorecards = (ctx: ResourceContext, candidateId: number) => scorecardsOf(ctx, { candidateId });

/** An interviewer's scorecard: once, by someone on the panel, rating exactly the position's criteria. */
export function submitScorecard(ctx: ResourceContext, interviewId: number, input: ScorecardInput): Promise<string> {
  return inWrite(ctx, (write) => saveScorecard(write, interviewId, input));
}

async function saveScorecard({ tx, account }: WriteContext, interviewId: number, input: ScorecardInput): Promise<string> {
  const [row] = await tx.db.select({ id: interviews.id, status: interviews.status, interviewer_ids: interviews.interviewer_ids, criteria: positions.scorecard_criteria })
    .from(interviews).innerJoin(candidates, eq(candidates.id, interviews.candidate_id)).innerJoin(positions, eq(positions.id, candidates.position_id))
    .where(eq(interviews.id, interviewId));
  if (!row) throw new HttpError(404, 'Interview not found.');
  if (!row.interviewer_ids.includes(account.id)) throw new HttpError(403, 'Only the interviewers of this interview fill in its scorecards.');
  if (row.status === 'cancelled') throw new HttpError(409, 'This interview was cancelled, so it has no scorecards.');
  const criteria = criteriaOf(row.criteria);
  const missing = criteria.filter((criterion) => input.ratings[criterion] === undefined);
  const unknown = Object.keys(input.ratings).filter((key) => !criteria.includes(key));
  if (missing.length) throw validationError({ ratings: `Rate each criterion: ${missing.join(', ')}.` });
  if (unknown.length) throw validationError({ ratings: `This position is not rated by ${unknown.join(', ')}.` });
  const [saved] = await tx.db.insert(scorecards).values({
    interview_id: interviewId, interviewer_id: account.id, ratings: input.ratings, strengths: input.strengths ?? null, concerns: input.concerns ?? null,
    recommendation: input.recommendation,
  }).onConflictDoNothing().returning({ id: scorecards.id });
  if (!saved) throw new HttpError(409, 'You have already submitted your scorecard for this interview.');
  const recommendation = RECOMMENDATIONS.find((r) => r.value === input.recommendation)!.label;
  await recordChange(tx.db, {
    account, action: 'create', resource: 'scorecard', recordId: saved.id, title: `Interview ${interviewId}`,
    changes: [{ field: 'recommendation', old: null, new: input.recommendation, old_text: null, new_text: recommendation }],
  });
  return 'Your scorecard is submitted. You can now read the other interviewers\' scorecards.';
}

// ---- Offer letters ----

async function candidateFacts(db: Db, candidateId: number) {
  const [found] = await db.select({
    id: candidates.id, name: candidates.name, email: candidates.email, stage: candidates.stage, recruiter_id: candidates.recruiter_id,
    position: positions.title, client: clients.name,
  }).from(candidates).innerJoin(positions, eq(positions.id, candidates.position_id)).innerJoin(clients, eq(clients.id, positions.client_id))
    .where(eq(candidates.id, candidateId));
  return found ?? null;
}

const offerColumns = {
  id: offerLetters.id, candidate_id: offerLetters.candidate_id, template_id: offerLetters.template_id, template_name: offerTemplates.name,
  start_date: offerLetters.start_date, rate: offerLetters.rate, currency: offerLetters.currency, rate_period: offerLetters.rate_period, status: offerLetters.status,
  signed_name: offerLetters.signed_name, responded_at: offerLetters.responded_at, responded_ip: offerLetters.responded_ip, decline_reason: offerLetters.decline_reason,
  expires_at: capabilityLinks.expires_at, creator_id: users.id, creator_name: users.name, created_at: offerLetters.created_at,
};

function offerView(row: { [K in keyof typeof offerColumns]: unknown }): OfferLetterView {
  return {
    id: row.id as number, candidate_id: row.candidate_id as number,
    template: row.template_id !== null ? { id: row.template_id as number, name: String(row.template_name ?? '') } : null,
    start_date: row.start_date as string, rate: Number(row.rate), currency: row.currency as string, rate_period: row.rate_period as string,
    rate_text: rateText(Number(row.rate), row.currency as string, row.rate_period as string), status: row.status as string,
    signed_name: row.signed_name as string | null, responded_at: (row.responded_at as Date | null)?.toISOString() ?? null,
    responded_ip: row.responded_ip as string | null, decline_reason: row.decline_reason as string | null,
    expires_at: (row.expires_at as Date | null)?.toISOString() ?? null,
    created_by: row.creator_id !== null ? { id: row.creator_id as number, name: String(row.creator_name ?? '') } : null,
    created_at: (row.created_at as Date).toISOString(),
  };
}

const offerQuery = (db: Db) => db.select(offerColumns).from(offerLetters)
  .leftJoin(offerTemplates, eq(offerTemplates.id, offerLetters.template_id))
  .leftJoin(capabilityLinks, eq(capabilityLinks.id, offerLetters.capability_link_id))
  .leftJoin(users, eq(users.id, offerLetters.created_by));

export async function offerLettersOf({ db }: ResourceContext, candidateId: number): Promise<OfferLetterView[]> {
  const rows = await offerQuery(db).where(eq(offerLetters.candidate_id, candidateId)).orderBy(desc(offerLetters.id));
  return rows.map(offerView);
}

/**
 * A new offer at Offer Letter Review: the template filled in and frozen, the link (one answer, 14
 * days) mailed to the candidate through the job queue. An earlier unanswered offer is withdrawn.
 */
export function createOfferLetter(ctx: ResourceContext, candidateId: number, input: OfferLetterInput) {
  return inWrite(ctx, (write) => makeOfferLetter(write, candidateId, input));
}

async function makeOfferLetter({ app, tx, account }: WriteContext, candidateId: number, input: OfferLetterInput) {
  const found = await candidateFacts(tx.db, candidateId);
  if (!found) throw new HttpError(404, 'Candidate not found.');
  if (found.stage !== OFFER_STAGE) throw new HttpError(409, `An offer letter is made at the ${OFFER_STAGE} stage; ${found.name} is at the ${found.stage} stage.`);
  const [template] = await tx.db.select().from(offerTemplates).where(eq(offerTemplates.id, input.template_id));
  if (!template) throw validationError({ template_id: chosenOneRefused('offer template') });
  const rate = rateText(input.rate, input.currency, input.rate_period);
  const body = fillOfferTemplate(template.body, { candidate_name: found.name, position: found.position, client: found.client, start_date: input.start_date, rate });
  const earlier = await tx.db.update(offerLetters).set({ status: 'withdrawn' })
    .where(and(eq(offerLetters.candidate_id, candidateId), eq(offerLetters.status, 'sent'))).returning({ link: offerLetters.capability_link_id });
  for (const { link } of earlier) if (link) await revokeCapabilityLink(tx.db, OFFER_LETTER_PURPOSE, link);
  const [created] = await tx.db.insert(offerLetters).values({
    candidate_id: candidateId, template_id: template.id, body, start_date: input.start_date, rate: input.rate, currency: input.currency,
    rate_period: input.rate_period, created_by: account.id,
  }).returning();
  const expiresAt = new Date(Date.now() + OFFER_LINK_DAYS * DAY_MS);
  const link = await createCapabilityLink(tx.db, { purpose: OFFER_LETTER_PURPOSE, subjectId: created.id, expiresAt, maxUses: 1, createdBy: account.id });
  await tx.db.update(offerLetters).set({ capability_link_id: link.id }).where(eq(offerLetters.id, created.id));
  const url = new URL(offerLetterPath(link.token), app.config.appUrl).toString();
  const signature = await firmName(app, tx.db);
  await enqueue(tx.db, OFFER_MAIL_JOB, {
    message: actionMail(signature, found.email, `Your offer for ${found.position}`,
      `Dear ${found.name}, we are pleased to offer you the position of ${found.position}. Read the offer letter and accept or decline it by ${expiresAt.toISOString().slice(0, 10)}.`,
      'Read your offer', url, 'To accept, type your full name as your signature. The link works once.'),
  });
  await recordChange(tx.db, {
    account, action: 'create', resource: 'offer-letter', recordId: created.id, title: found.name,
    changes: [
      { field: 'candidate', old: null, new: candidateId, old_text: null, new_text: found.name },
      { field: 'rate', old: null, new: input.rate, old_text: null, new_text: rate },
      { field: 'start_date', old: null, new: input.start_date, old_text: null, new_text: input.start_date },
    ],
  });
  const [row] = await offerQuery(tx.db).where(eq(offerLetters.id, created.id));
  return { ...offerView(row), url };
}

/** GET /api/offer-letter/:id/pdf: the letter as the firm signs it today. */
export async function offerLetterFile({ app, db }: ResourceContext, offerId: number) {
  const file = await offerLetterPdf(db, offerId, await firmName(app));
  if (!file) throw new HttpError(404, 'Offer letter not found.');
  return file;
}

/** The letter as a PDF: the frozen text, and once answered, the signature with its time. */
export async function offerLetterPdf(db: Db, offerId: number, firm: string): Promise<{ bytes: Uint8Array; name: string } | null> {
  const [offer] = await db.select().from(offerLetters).where(eq(offerLetters.id, offerId));
  if (!offer) return null;
  const found = await candidateFacts(db, offer.candidate_id);
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Offer letter for ${found?.name ?? 'the candidate'}`);
  pdf.setSubject(`${found?.position ?? ''} with ${found?.client ?? ''}`);
  pdf.setAuthor(firm);
  pdf.setCreator(firm);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const size = 11;
  const margin = 56;
  let page = pdf.addPage([595.28, 841.89]);
  const width = page.getWidth() - margin * 2;
  let y = page.getHeight() - margin;
  // The standard fonts speak WinAnsi: other characters become '?' rather than failing the letter.
  const printable = (text: string) => text.replace(/[“”]/g, '"').replace(/[‘’]/g, '\'').replace(/[–—]/g, '-').replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
  const line = (text: string, options: { isBold?: boolean; gap?: number; fontSize?: number } = {}) => {
    const face = options.isBold ? bold : font;
    const fontSize = options.fontSize ?? size;
    const words = printable(text).split(/\s+/).filter(Boolean);
    let current = '';
    const flush = () => {
      if (y < margin + fontSize) { page = pdf.addPage([595.28, 841.89]); y = page.getHeight() - margin; }
      page.drawText(current, { x: margin, y, size: fontSize, font: face, color: rgb(0.1, 0.1, 0.15) });
      y -= fontSize * 1.45;
      current = '';
    };
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (face.widthOfTextAtSize(next, fontSize) > width && current) { flush(); current = word; } else current = next;
    }
    if (current) flush();
    y -= options.gap ?? 0;
  };
  line(firm, { isBold: true, fontSize: 16, gap: 6 });
  line(`Offer letter - ${offer.created_at.toISOString().slice(0, 10)}`, { gap: 14 });
  for (const paragraph of offer.body.split(/\n\s*\n/)) line(paragraph.replace(/\n/g, ' '), { gap: 8 });
  if (offer.status === 'accepted' || offer.status === 'declined') {
    y -= 10;
    line(offer.status === 'accepted' ? 'Accepted' : 'Declined', { isBold: true });
    line(`Signed: ${offer.signed_name ?? ''}`);
    line(`On: ${offer.responded_at?.toISOString() ?? ''} from ${offer.responded_ip ?? ''}`);
  }
  const bytes = await pdf.save();
  return { bytes, name: `offer-letter-${(found?.name ?? 'candidate').toLowerCase().replace(/[^a-z0-9]+/g, '-')}.pdf` };
}

export async function publicOfferLetter(app: FastifyInstance, capability: Capability): Promise<PublicOfferLetter> {
  const [offer] = await app.db.select().from(offerLetters).where(eq(offerLetters.id, capability.subjectId));
  const found = offer && await candidateFacts(app.db, offer.candidate_id);
  if (!offer || !found || offer.status === 'withdrawn') throw new HttpError(404, 'This link is invalid or has expired.');
  return {
    candidate_name: found.name, position: found.position, client: found.client, start_date: offer.start_date,
    rate_text: rateText(offer.rate, offer.currency, offer.rate_period), body: offer.body, status: offer.status,
    signed_name: offer.signed_name, responded_at: offer.responded_at?.toISOString() ?? null, expires_at: capability.expiresAt.toISOString(),
    firm: await firmName(app),
  };
}

const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The candidate's answer, once (the link's one use, counted in this transaction). Accepting moves the
 * candidate from Offer Letter Review to Onboarding as the workflow's hire does: stage, history, audit,
 * the recruiter told, the onboarding opened.
 */
export async function answerOfferLetter(
  request: FastifyRequest, tx: Transaction, capability: Capability, answer: 'accepted' | 'declined', input: { signed_name: string; reason?: string | null },
): Promise<string> {
  const [offer] = await tx.db.select().from(offerLetters).where(eq(offerLetters.id, capability.subjectId)).for('update');
  const found = offer && await candidateFacts(tx.db, offer.candidate_id);
  if (!offer || !found || offer.status === 'withdrawn') throw new HttpError(404, 'This link is invalid or has expired.');
  if (offer.status !== 'sent') throw new HttpError(410, 'This link has already been used.');
  if (!sameName(input.signed_name, found.name)) throw validationError({ signed_name: `Type your full name as the letter names you: ${found.name}.` });
  await consumeCapabilityUse(tx.db, capability);
  const now = new Date();
  await tx.db.update(offerLetters).set({
    status: answer, signed_name: input.signed_name.trim(), responded_at: now, responded_ip: request.ip, decline_reason: answer === 'declined' ? input.reason ?? null : null,
  }).where(eq(offerLetters.id, offer.id));
  await recordChange(tx.db, {
    account: null, action: 'update', resource: 'offer-letter', recordId: offer.id, title: found.name,
    changes: [{ field: 'status', old: 'sent', new: answer, old_text: 'sent', new_text: `${answer}, signed “${input.signed_name.trim()}”` }],
  });
  const record = { ...found, position: { title: found.position } };
  const event = answer === 'accepted' ? 'offer-accepted' : 'offer-declined';
  const words = candidateDefinition.workflow!.events[event];
  if (answer === 'accepted') {
    const onboarding = CANDIDATE_STAGES.at(-1)!;
    // The hire's compare-and-set: only from Offer Letter Review, as the workflow's own move-to-onboarding.
    const moved = await tx.db.update(candidates).set({ stage: onboarding, stage_changed_at: now, updated_at: now })
      .where(and(eq(candidates.id, found.id), eq(candidates.stage, OFFER_STAGE))).returning();
    if (!moved.length) throw new HttpError(409, 'This offer can no longer be accepted: the recruiter has moved your application on. Please contact them.');
    await writeHistory(tx.db, { resource: candidateDefinition.name, recordId: found.id, transition: event, from: OFFER_STAGE, to: onboarding, account: null, comment: `Signed “${input.signed_name.trim()}”` });
    await recordResourceChange(tx.db, null, candidateDefinition, { action: 'transition', id: found.id, before: { id: found.id, stage: OFFER_STAGE }, after: { id: found.id, stage: onboarding }, transition: event });
    await createOnboardingForCandidate(tx, { id: found.id, name: found.name, email: found.email, recruiter_id: found.recruiter_id ?? offer.created_by });
  } else {
    await writeHistory(tx.db, { resource: candidateDefinition.name, recordId: found.id, transition: event, from: OFFER_STAGE, to: found.stage, account: null, comment: input.reason ?? null });
  }
  if (found.recruiter_id !== null && words.notify?.owner) {
    const text = words.notify.owner({ record, actor: found.name, comment: input.reason ?? null });
    await notify(tx, [found.recruiter_id], { ...text, url: routePath('candidate.show', { id: found.id }) }, { type: `App\\Notifications\\Candidate${answer === 'accepted' ? 'OfferAccepted' : 'OfferDeclined'}`, kind: 'candidate', isMailed: true });
  }
  return answer === 'accepted'
    ? `Thank you, ${found.name}. You have accepted the offer; we will be in touch about your first day.`
    : `Thank you, ${found.name}. You have declined the offer; we have told the recruiter.`;
}

export async function sendOfferMail(app: FastifyInstance, payload: unknown) {
  const message = ((payload ?? {}) as { message?: Parameters<FastifyInstance['mailer']['send']>[0] }).message;
  if (message) await app.mailer.send(message);
}

// ---- A position's pipeline ----

export async function positionPipeline({ db }: ResourceContext, positionId: number, now = new Date()): Promise<PositionPipeline> {
  const [position] = await db.select({ id: positions.id, title: positions.title, status: positions.status, created_at: positions.created_at, updated_at: positions.updated_at })
    .from(positions).where(eq(positions.id, positionId));
  if (!position) throw new HttpError(404, 'Position not found.');
  const rows = await db.select({ id: candidates.id, name: candidates.name, stage: candidates.stage, stage_changed_at: candidates.stage_changed_at })
    .from(candidates).where(eq(candidates.position_id, positionId)).orderBy(asc(candidates.stage_changed_at));
  const days = (from: Date, to: Date) => Math.max(0, Math.floor((to.getTime() - from.getTime()) / DAY_MS));
  // A closed position stopped counting when it was last changed (its closing).
  const until = position.status === 'closed' ? position.updated_at : now;
  const stages = [...CANDIDATE_STAGES, REJECTED_STAGE].map((stage) => ({ stage, count: rows.filter((row) => row.stage === stage).length }));
  return {
    position: { id: position.id, title: position.title, status: position.status, created_at: position.created_at.toISOString() },
    days_open: days(position.created_at, until),
    stages,
    candidates: rows.map((row) => ({ id: row.id, name: row.name, stage: row.stage, stage_changed_at: row.stage_changed_at.toISOString(), days_in_stage: days(row.stage_changed_at, now) })),
  };
}
