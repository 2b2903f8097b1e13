// Candidates beyond CRUD: one person is one candidate (same email or phone refused, with a link to
// the record), the recruiter's links to the public candidate form, and what that form submits.
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { capabilityLinks } from '../../db/schema/capability';
import { cities, clients, positions } from '../../db/schema/master-data';
import { candidates } from '../../db/schema/recruitment';
import { HttpError, validationError } from '../../plugins/errors';
import { type Capability, consumeCapabilityUse, createCapabilityLink, revokeCapabilityLink } from '../../plugins/capability';
import { discardNewFiles, saveAttachments } from '../../resources/attachments';
import { readMultipart } from '../../resources/multipart';
import { recordChange, recordResourceChange } from '../../resources/audit';
import { writeHistory } from '../../resources/workflow';
import { inTransaction } from '../../lib/transaction';
import { notify } from '../notification/notify';
import { createOnboardingForCandidate } from '../onboarding/service';
import {
  candidate, CANDIDATE_FORM_PURPOSE, CANDIDATE_SOURCE_FORM, candidateFormPath, type CandidateFormLink, type CandidateFormLinkInput,
  DATA_CONSENT_FIELD, DATA_CONSENT_REQUIRED, publicCandidateSchema, type PublicCandidateForm,
} from '../../../shared/resources/candidate';
import { routePath } from '../../../shared/routes';
import { inWrite, type ResourceContext, type Row, type WriteContext } from '../../resources/types';
import { issuesByField } from '../../../shared/validation';
import { chosenOneRefused } from '../../../shared/words';

/** The digits of a phone number: "+91 98765-43210" and "919876543210" are the same phone. */
const phoneDigits = (phone: string) => phone.replace(/\D/g, '');

export interface Duplicate { id: number; name: string; field: 'email' | 'phone' }

/** Another candidate with this email or phone (the unique indexes' own expressions), or null. */
export async function findDuplicate(db: Db, values: Record<string, unknown>, exceptId?: number): Promise<Duplicate | null> {
  const email = typeof values.email === 'string' ? values.email.toLowerCase() : null;
  const digits = typeof values.phone === 'string' ? phoneDigits(values.phone) : null;
  if (!email && !digits) return null;
  const [found] = await db.select({ id: candidates.id, name: candidates.name, email: candidates.email }).from(candidates).where(and(
    or(
      email ? sql`lower(${candidates.email}) = ${email}` : undefined,
      digits ? sql`regexp_replace(${candidates.phone}, '[^0-9]', '', 'g') = ${digits}` : undefined,
    ),
    exceptId ? sql`${candidates.id} <> ${exceptId}` : undefined,
  )).limit(1);
  if (!found) return null;
  return { id: found.id, name: found.name, field: email && found.email.toLowerCase() === email ? 'email' : 'phone' };
}

/** Staff see who it is and where: 422 on the field, and `duplicate` names the record to open instead. */
export function duplicateError(duplicate: Duplicate): HttpError {
  const message = `A candidate with this ${duplicate.field} already exists: ${duplicate.name}.`;
  return new HttpError(422, message, undefined, { [duplicate.field]: [message] }, {
    duplicate: { id: duplicate.id, name: duplicate.name, url: routePath('candidate.show', { id: duplicate.id }) },
  });
}

/** The rules across fields of a candidate as it will be stored (create, or the existing row with the update). */
export async function checkCandidate(db: Db, values: Row, exceptId?: number) {
  const errors: Record<string, string> = {};
  const total = values.total_experience;
  const relevant = values.relevant_experience;
  if (typeof total === 'number' && typeof relevant === 'number' && relevant > total) {
    errors.relevant_experience = 'The relevant experience cannot be more than the total experience.';
  }
  if (typeof values.city_id === 'number') {
    const [city] = await db.select({ country_id: cities.country_id }).from(cities).where(eq(cities.id, values.city_id));
    if (city && values.country_id !== city.country_id) errors.city_id = 'The selected city is not in the selected country.';
  }
  if (Object.keys(errors).length) throw validationError(errors);
  const duplicate = await findDuplicate(db, values, exceptId);
  if (duplicate) throw duplicateError(duplicate);
}

/** A candidate as the recruiter puts them forward: checked, and theirs to follow. */
export async function prepareCandidate(ctx: WriteContext, values: Row): Promise<Row> {
  await checkCandidate(ctx.db, values);
  // The recruiter responsible is whoever puts the candidate forward.
  return { ...values, recruiter_id: ctx.account.id };
}

export async function prepareCandidateUpdate(ctx: WriteContext, values: Row, existing: Row): Promise<Row> {
  await checkCandidate(ctx.db, { ...existing, ...values }, existing.id as number);
  return values;
}

/** Issue 13: reaching Onboarding opens the person's onboarding, with its checklist (once per candidate). */
export async function candidateMoved(ctx: WriteContext, row: Row) {
  if (row.stage === 'Onboarding') await createOnboardingForCandidate(ctx, row as { id: number; name: string; email: string; recruiter_id: number | null });
}

/** A unique index refused the row (a duplicate submitted at the same moment): the same 422 as the check. */
export const isUniqueViolation = (error: unknown) =>
  ((error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code) === '23505';

// ---- Links to the public form ----

const LINK_LIST_LIMIT = 50;

async function positionOf(db: Db, id: number) {
  const [found] = await db.select({ id: positions.id, title: positions.title, location: positions.location, status: positions.status, client: clients.name })
    .from(positions).leftJoin(clients, eq(clients.id, positions.client_id)).where(eq(positions.id, id));
  return found ?? null;
}

export async function createCandidateFormLink(ctx: ResourceContext, input: CandidateFormLinkInput) {
  const { app, account } = ctx;
  const recruiterId = account.id;
  const position = await positionOf(ctx.db, input.position_id);
  if (!position) throw validationError({ position_id: chosenOneRefused('position') });
  if (position.status !== 'open') throw validationError({ position_id: 'Candidates can only apply to an open position.' });
  const expiresAt = new Date(Date.now() + input.expires_in_days * 86_400_000);
  // The recruiter who made the link is responsible for whoever applies through it.
  const { id, token } = await inWrite(ctx, async ({ db }) => {
    const link = await createCapabilityLink(db, {
      purpose: CANDIDATE_FORM_PURPOSE, subjectId: position.id, expiresAt, maxUses: input.is_single_use ? 1 : null,
      createdBy: recruiterId, data: { recruiter_id: recruiterId },
    });
    // The audit trail names the position and the terms; the token is a secret and never recorded.
    await recordChange(db, {
      account, action: 'create', resource: 'candidate-form-link', recordId: link.id, title: position.title,
      changes: [
        { field: 'position', old: null, new: position.id, old_text: null, new_text: position.title },
        { field: 'expires_at', old: null, new: expiresAt.toISOString(), old_text: null, new_text: expiresAt.toISOString().slice(0, 10) },
        { field: 'is_single_use', old: null, new: input.is_single_use, old_text: null, new_text: input.is_single_use ? 'yes' : 'no' },
      ],
    });
    return link;
  });
  const path = candidateFormPath(token);
  return { id, token, path, url: new URL(path, app.config.appUrl).toString(), expires_at: expiresAt.toISOString(), max_uses: input.is_single_use ? 1 : null };
}

export async function listCandidateFormLinks({ db }: ResourceContext, positionId: number | undefined): Promise<CandidateFormLink[]> {
  const rows = await db.select({
    id: capabilityLinks.id, position_id: capabilityLinks.subject_id, expires_at: capabilityLinks.expires_at, max_uses: capabilityLinks.max_uses,
    uses: capabilityLinks.uses, revoked_at: capabilityLinks.revoked_at, created_at: capabilityLinks.created_at,
    creator_id: users.id, creator_name: users.name,
  }).from(capabilityLinks).leftJoin(users, eq(users.id, capabilityLinks.created_by))
    .where(and(eq(capabilityLinks.purpose, CANDIDATE_FORM_PURPOSE), positionId ? eq(capabilityLinks.subject_id, positionId) : undefined))
    .orderBy(desc(capabilityLinks.id)).limit(LINK_LIST_LIMIT);
  return rows.map((row) => ({
    id: row.id, position_id: row.position_id, expires_at: row.expires_at.toISOString(), max_uses: row.max_uses, uses: row.uses,
    revoked_at: row.revoked_at?.toISOString() ?? null, created_at: row.created_at.toISOString(),
    created_by: row.creator_id !== null ? { id: row.creator_id, name: row.creator_name ?? '' } : null,
  }));
}

/** A revoked link no longer opens the form; revoking is in the audit trail. */
export async function revokeCandidateFormLink(ctx: ResourceContext, linkId: number) {
  await inWrite(ctx, async ({ db, account }) => {
    if (!await revokeCapabilityLink(db, CANDIDATE_FORM_PURPOSE, linkId)) throw new HttpError(404, 'Link not found or already revoked.');
    await recordChange(db, {
      account, action: 'update', resource: 'candidate-form-link', recordId: linkId,
      changes: [{ field: 'status', old: 'active', new: 'revoked', old_text: 'active', new_text: 'revoked' }],
    });
  });
}

// ---- The public form ----

const CLOSED_POSITION = 'This position is no longer open for applications.';

export async function publicCandidateForm(db: Db, capability: Capability): Promise<PublicCandidateForm> {
  const position = await positionOf(db, capability.subjectId);
  if (!position) throw new HttpError(404, 'This link is invalid or has expired.');
  if (position.status !== 'open') throw new HttpError(410, CLOSED_POSITION);
  return { position: { title: position.title, location: position.location }, expires_at: capability.expiresAt.toISOString() };
}

/** Submissions per address and hour: enough for a household or an office, not for a script. */
export const SUBMISSIONS_PER_ADDRESS = { max: 20, windowSeconds: 3600 };

/**
 * A candidate's own submission: validated in full (fields, CV, duplicates) before anything is kept;
 * then, in one transaction, the link's use, the candidate in Screening for the link's position, the
 * CV, the history and the recruiter's notification (live after the commit).
 */
export async function submitPublicCandidate(request: FastifyRequest, capability: Capability): Promise<string> {
  const app = request.server;
  const limit = await app.limiter.hit(`candidate-form-ip:${request.ip}`, SUBMISSIONS_PER_ADDRESS.max, SUBMISSIONS_PER_ADDRESS.windowSeconds);
  if (!limit.allowed) throw new HttpError(429, `Too many submissions from this network. Please try again in ${Math.ceil(limit.retryAfter / 60)} minutes.`);
  if (!request.isMultipart()) throw new HttpError(415, 'Send the form as multipart/form-data with the CV.');
  const { values, files } = await readMultipart(request, candidate);
  try {
    const parsed = publicCandidateSchema.safeParse(values);
    const errors: Record<string, string[]> = parsed.success ? {} : issuesByField(parsed.error.issues);
    if (!files.added.cv?.length) errors.cv = ['The CV field is required.'];
    // Issue 24: nothing is kept without the candidate's consent, which is kept with its time.
    if (!['1', 'true', true].includes(values[DATA_CONSENT_FIELD] as string | boolean)) errors[DATA_CONSENT_FIELD] = [DATA_CONSENT_REQUIRED];
    if (Object.keys(errors).length) throw validationError(errors);
    const input = parsed.data!;
    const position = await positionOf(app.db, capability.subjectId);
    if (!position) throw new HttpError(404, 'This link is invalid or has expired.');
    if (position.status !== 'open') throw new HttpError(410, CLOSED_POSITION);
    return await inTransaction(app, async (tx) => {
      // Nothing about the existing record is told to the public: only that these details are known.
      try {
        await checkCandidate(tx.db, input);
      } catch (error) {
        if (error instanceof HttpError && error.extra?.duplicate) throw publicDuplicate(Object.keys(error.errors ?? {})[0] === 'phone' ? 'phone' : 'email');
        throw error;
      }
      await consumeCapabilityUse(tx.db, capability);
      const recruiterId = typeof capability.data.recruiter_id === 'number' ? capability.data.recruiter_id : null;
      const [created] = await tx.db.insert(candidates).values({
        ...input, position_id: position.id, stage: candidate.workflow!.initial, recruiter_id: recruiterId, source: CANDIDATE_SOURCE_FORM, data_consent_at: new Date(),
      }).returning().catch((error: unknown) => { throw isUniqueViolation(error) ? publicDuplicate('email') : error; });
      await saveAttachments(tx, candidate, created.id, files, null);
      // Nobody signed in: the trail names the public form as its author; files by name.
      const attached = Object.fromEntries(Object.entries(files.added).map(([key, list]) => [key, list.map((file) => ({ name: file.name }))]));
      await recordResourceChange(tx.db, null, candidate, { action: 'create', id: created.id, before: null, after: { ...created, ...attached } });
      await writeHistory(tx.db, { resource: candidate.name, recordId: created.id, transition: 'create', from: null, to: candidate.workflow!.initial, account: null, comment: 'Submitted through the candidate form' });
      if (recruiterId !== null) {
        await notify(tx, [recruiterId], {
          title: 'New candidate',
          message: `${input.name} applied for ${position.title} through the candidate form.`,
          url: routePath('candidate.show', { id: created.id }),
        }, { type: 'App\\Notifications\\CandidateFormSubmitted', kind: 'candidate' });
      }
      return 'Thank you. Your details have been sent to the recruiter.';
    });
  } catch (error) {
    await discardNewFiles(request, files);
    if (isUniqueViolation(error)) throw new HttpError(422, 'We already have your details.');
    throw error;
  }
}

const publicDuplicate = (field: 'email' | 'phone') => validationError({
  [field]: 'We already have your details. The recruiter will contact you; there is no need to apply again.',
});
