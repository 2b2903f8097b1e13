// Issue 28: the rules of an interview's own routes, as its definition's hooks: scheduled at an interview
// stage, kept with its candidate, each change a new version of the same calendar event (the invitation
// sent again), a cancelled one frozen, and its interviewers named on each row.
import { eq, inArray } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import { interviews } from '../../db/schema/interviews';
import { candidates } from '../../db/schema/recruitment';
import type { Db } from '../../db/client';
import { HttpError, validationError } from '../../plugins/errors';
import type { Input, ResourceContext, Row, WriteContext } from '../../resources/types';
import { writeHistory } from '../../resources/workflow';
import { currentTimeZone } from '../../../shared/dates';
import { INTERVIEW_STAGES, interview } from '../../../shared/resources/interview';
import { interviewStart, newIcsUid, queueInvitations } from './invitations';

const zoneOf = (value: unknown) => (typeof value === 'string' && value ? value : currentTimeZone());

export async function prepareInterview(ctx: WriteContext, values: Input): Promise<Input> {
  const [found] = await ctx.db.select({ stage: candidates.stage }).from(candidates).where(eq(candidates.id, Number(values.candidate_id)));
  if (found && !(INTERVIEW_STAGES as readonly string[]).includes(found.stage)) {
    throw validationError({ candidate_id: `Interviews are scheduled at the Interview and Client Interview stages; this candidate is at the ${found.stage} stage.` });
  }
  const zone = zoneOf(values.time_zone);
  return {
    ...values, time_zone: zone, stage: found?.stage ?? INTERVIEW_STAGES[0], created_by: ctx.account.id, sequence: 0,
    ics_uid: newIcsUid(ctx.app.config.appUrl), starts_at: interviewStart(String(values.scheduled_on), String(values.start_time), zone),
  };
}

export const interviewScheduled = async (ctx: WriteContext, row: Row) =>
  queueInvitations(ctx.app, ctx.db, await storedInterview(ctx.db, row.id as number), 'scheduled');

export const cancelledInterviewRefusal = (existing: Row) =>
  (existing.status === 'cancelled' ? new HttpError(409, 'This interview was cancelled, so it can no longer be changed. Schedule a new one.') : null);

export async function prepareInterviewUpdate(ctx: WriteContext, values: Input, existing: Row): Promise<Input> {
  if (values.candidate_id !== undefined && values.candidate_id !== existing.candidate_id) {
    throw validationError({ candidate_id: 'An interview stays with its candidate: cancel it and schedule one for the other candidate.' });
  }
  const merged = { ...existing, ...values };
  const zone = zoneOf(merged.time_zone);
  return { ...values, time_zone: zone, sequence: await nextSequence(ctx.db, existing), starts_at: interviewStart(String(merged.scheduled_on), String(merged.start_time), zone) };
}

export async function interviewRescheduled(ctx: WriteContext, row: Row) {
  await writeHistory(ctx.db, { resource: interview.name, recordId: row.id as number, transition: 'edit', from: 'scheduled', to: 'scheduled', account: ctx.account });
  await queueInvitations(ctx.app, ctx.db, await storedInterview(ctx.db, row.id as number), 'rescheduled');
}

/** Every change is a new version of the same calendar event. */
export const interviewTransitionColumns = async (ctx: WriteContext, existing: Row) => ({ sequence: await nextSequence(ctx.db, existing) });

export async function interviewTransitioned(ctx: WriteContext, row: Row, transition: { name: string }) {
  if (transition.name === 'cancel') await queueInvitations(ctx.app, ctx.db, await storedInterview(ctx.db, row.id as number), 'cancelled');
}

/** Each row's interviewers by name, read in one query for the page. */
export async function withInterviewers(ctx: ResourceContext, rows: Row[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.interviewer_ids as number[] | null) ?? []))];
  const people = ids.length ? await ctx.db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids)) : [];
  for (const row of rows) {
    row.interviewers = ((row.interviewer_ids as number[] | null) ?? []).flatMap((id) => people.filter((p) => p.id === id));
  }
}

async function nextSequence(db: Db, existing: Row) {
  const [{ sequence }] = await db.select({ sequence: interviews.sequence }).from(interviews).where(eq(interviews.id, existing.id as number));
  return sequence + 1;
}

/** The interview as stored (with its invitation's UID and start instant, which rows do not carry). */
async function storedInterview(db: Db, id: number) {
  const [row] = await db.select().from(interviews).where(eq(interviews.id, id));
  return row as unknown as Record<string, unknown>;
}
