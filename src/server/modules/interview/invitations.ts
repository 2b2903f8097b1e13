// Calendar invitations of interviews (issue 28): one iCalendar event per interview, built by the
// `ics` package (decision 035). The UID stays for the interview's life; SEQUENCE grows with each
// reschedule and with the cancellation, which is sent as METHOD:CANCEL, so calendars update or
// remove the event they already hold. Mail goes through the job queue after the commit.
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createEvent, type EventAttributes } from 'ics';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { positions } from '../../db/schema/master-data';
import { candidates } from '../../db/schema/recruitment';
import { enqueue } from '../../jobs/queue';
import type { MailMessage } from '../../plugins/mail';
import { zonedInstant } from '../../../shared/dates';
import { firmName } from '../setting/firm-profile';

export const INTERVIEW_MAIL_JOB = 'interview-invitation-mail';

/** A new event's UID: unique worldwide, and the same for every later version of the interview. */
export const newIcsUid = (appUrl: string) => `interview-${randomUUID()}@${new URL(appUrl).hostname || 'back-office'}`;

/** The instant an interview starts: its date and time on the clock of its time zone. */
export function interviewStart(day: string, time: string, zone: string): Date {
  const [hour, minute] = time.split(':').map(Number);
  return zonedInstant(day, hour, minute, zone);
}

export interface InvitationFacts {
  id: number; ics_uid: string; sequence: number; starts_at: Date; duration_minutes: number; time_zone: string;
  scheduled_on: string; start_time: string; location: string; notes: string | null; stage: string;
  candidate: { name: string; email: string; position: string };
  interviewers: { name: string; email: string }[];
}

/** The people and the position an interview's invitation names. */
export async function invitationFacts(db: Db, row: Record<string, unknown>): Promise<InvitationFacts> {
  const [candidate] = await db.select({ name: candidates.name, email: candidates.email, position: positions.title })
    .from(candidates).innerJoin(positions, eq(positions.id, candidates.position_id)).where(eq(candidates.id, Number(row.candidate_id)));
  const ids = (row.interviewer_ids as number[] | null) ?? [];
  const panel = ids.length ? await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ids)) : [];
  return {
    id: Number(row.id), ics_uid: String(row.ics_uid), sequence: Number(row.sequence ?? 0),
    starts_at: row.starts_at instanceof Date ? row.starts_at : new Date(String(row.starts_at)),
    duration_minutes: Number(row.duration_minutes), time_zone: String(row.time_zone),
    scheduled_on: String(row.scheduled_on), start_time: String(row.start_time), location: String(row.location),
    notes: (row.notes as string | null) ?? null, stage: String(row.stage),
    candidate, interviewers: ids.flatMap((id) => panel.filter((p) => p.id === id).map(({ name, email }) => ({ name, email }))),
  };
}

/** "Address <mail@host>" -> the address. */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/** The iCalendar text of the interview as it now stands (REQUEST) or of its withdrawal (CANCEL). */
export function invitationIcs(facts: InvitationFacts, method: 'REQUEST' | 'CANCEL', organizer: { name: string; email: string }): string {
  const start = facts.starts_at;
  const event: EventAttributes = {
    uid: facts.ics_uid,
    sequence: facts.sequence,
    method,
    status: method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED',
    start: start.getTime(), startInputType: 'utc', startOutputType: 'utc',
    duration: { minutes: facts.duration_minutes },
    title: `${facts.stage}: ${facts.candidate.name} for ${facts.candidate.position}`,
    description: `${facts.stage} for ${facts.candidate.position}, ${facts.scheduled_on} at ${facts.start_time} (${facts.time_zone}).${facts.notes ? `\n\n${facts.notes}` : ''}`,
    location: facts.location,
    ...(/^https?:\/\//i.test(facts.location) ? { url: facts.location } : {}),
    organizer,
    attendees: [
      { name: facts.candidate.name, email: facts.candidate.email, rsvp: true, role: 'REQ-PARTICIPANT', partstat: 'NEEDS-ACTION' },
      ...facts.interviewers.map((person) => ({ name: person.name, email: person.email, rsvp: true, role: 'REQ-PARTICIPANT' as const, partstat: 'NEEDS-ACTION' as const })),
    ],
    productId: 'back-office/interviews',
    calName: 'Interviews',
  };
  const { error, value } = createEvent(event);
  if (error || !value) throw error ?? new Error('the calendar invitation could not be built');
  return value;
}

type Change = 'scheduled' | 'rescheduled' | 'cancelled';

/** Each person's mail: the candidate's and the interviewers' words differ, the event is the same. */
function invitationMails(facts: InvitationFacts, change: Change, ics: string, signature: string): MailMessage[] {
  const when = `${facts.scheduled_on} at ${facts.start_time} (${facts.time_zone})`;
  const where = `Where: ${facts.location}`;
  const method = change === 'cancelled' ? 'CANCEL' : 'REQUEST';
  const candidateWords: Record<Change, { subject: string; intro: string }> = {
    scheduled: { subject: `Your interview for ${facts.candidate.position}`, intro: `Dear ${facts.candidate.name}, we have scheduled your interview for ${facts.candidate.position} on ${when}. The invitation is attached: add it to your calendar.` },
    rescheduled: { subject: `Your interview for ${facts.candidate.position} has moved`, intro: `Dear ${facts.candidate.name}, your interview for ${facts.candidate.position} has moved to ${when}. The updated invitation is attached.` },
    cancelled: { subject: `Your interview for ${facts.candidate.position} is cancelled`, intro: `Dear ${facts.candidate.name}, your interview for ${facts.candidate.position} on ${when} is cancelled. We will be in touch about what happens next.` },
  };
  const panelWords: Record<Change, { subject: string; intro: string }> = {
    scheduled: { subject: `Interview with ${facts.candidate.name}`, intro: `You are on the panel interviewing ${facts.candidate.name} for ${facts.candidate.position} on ${when}. Fill in your scorecard in the app after the interview.` },
    rescheduled: { subject: `Interview with ${facts.candidate.name} has moved`, intro: `The interview with ${facts.candidate.name} for ${facts.candidate.position} has moved to ${when}.` },
    cancelled: { subject: `Interview with ${facts.candidate.name} is cancelled`, intro: `The interview with ${facts.candidate.name} for ${facts.candidate.position} on ${when} is cancelled.` },
  };
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const mail = (to: string, words: { subject: string; intro: string }): MailMessage => ({
    to, subject: words.subject,
    text: `${words.intro}\n\n${change === 'cancelled' ? '' : `${where}\n\n`}${signature}`,
    html: `<p>${escape(words.intro)}</p>${change === 'cancelled' ? '' : `<p>${escape(where)}</p>`}<p>${escape(signature)}</p>`,
    icalEvent: { method, filename: change === 'cancelled' ? 'cancel.ics' : 'invite.ics', content: ics },
  });
  return [mail(facts.candidate.email, candidateWords[change]), ...facts.interviewers.map((person) => mail(person.email, panelWords[change]))];
}

/** Builds the invitation now (the event as this transaction leaves it) and queues its mails. */
export async function queueInvitations(app: FastifyInstance, db: Db, row: Record<string, unknown>, change: Change) {
  const facts = await invitationFacts(db, row);
  const signature = await firmName(app, db);
  const ics = invitationIcs(facts, change === 'cancelled' ? 'CANCEL' : 'REQUEST', { name: signature, email: addressOf(app.config.mailFrom) });
  await enqueue(db, INTERVIEW_MAIL_JOB, { messages: invitationMails(facts, change, ics, signature) });
}

/** The mail job: each message as queued (a failed run is retried whole by the queue). */
export async function sendInterviewMails(app: FastifyInstance, payload: unknown) {
  const messages = ((payload ?? {}) as { messages?: MailMessage[] }).messages ?? [];
  for (const message of messages) await app.mailer.send(message);
}
