import { z } from 'zod';
import { isTimeZone } from '../dates';
import {
  countOf, dateField, defineResource, optionalText, referenceId, requiredText, type SelectOption, type WorkflowDefinition, withReason,
} from './define';
import { createdAtColumn } from './common';

/**
 * Interviews (issue 28): a candidate in the Interview or Client Interview stage meets the firm's
 * interviewers (or the client's) at a date, time and time zone, in a place or on a video link. Each
 * interviewer and the candidate get a calendar invitation by mail; a change sends the same event
 * again (same UID, SEQUENCE + 1), a cancellation withdraws it (METHOD:CANCEL). Each interviewer then
 * fills a scorecard, rated by the position's criteria.
 */

/** The stages at which interviews are scheduled. */
export const INTERVIEW_STAGES = ['Interview', 'Client Interview'] as const;
export const INTERVIEW_DURATIONS: SelectOption[] = [15, 30, 45, 60, 90, 120, 180].map((minutes) => ({
  value: minutes, label: minutes < 60 ? `${minutes} minutes` : minutes % 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes / 60} h`,
}));
export const MAX_INTERVIEWERS = 10;

const states = {
  scheduled: { label: 'Scheduled', tone: 'green', step: 'The invitations are sent' },
  cancelled: { label: 'Cancelled', tone: 'red', isFinal: true, step: 'Cancelled: the invitations are withdrawn' },
} as const satisfies WorkflowDefinition['states'];

type Record_ = Readonly<Record<string, unknown>>;
const candidateOf = (r: Record_) => String((r.candidate as { name?: string } | null)?.name ?? 'the candidate');
const whenOf = (r: Record_) => `${String(r.scheduled_on ?? '')} at ${String(r.start_time ?? '')}`;
const interviews = (n: number) => countOf(n, 'interview', 'interviews');

export const interviewWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: 'scheduled',
  // The recruiter who scheduled it is told when someone else cancels it.
  ownerField: 'created_by',
  states,
  // A reschedule is an edit: the interview stays scheduled and the invitation is sent again.
  isStateKeptOnEdit: true,
  transitions: [{
    name: 'cancel', label: 'Cancel interview', from: ['scheduled'], to: 'cancelled', permission: 'can-edit-interview', comment: 'optional', tone: 'danger',
    words: {
      confirm: (r) => `Cancel the interview with ${candidateOf(r)} on ${whenOf(r)}? The candidate and the interviewers are told, and the invitation leaves their calendars.`,
      confirmMany: (n) => `Cancel ${interviews(n)}? The candidates and the interviewers are told.`,
      doneMany: (n) => `You cancelled ${interviews(n)}.`,
      history: (actor) => `${actor} cancelled the interview`,
      note: (f) => withReason(`Cancelled by ${f.actor}`, f.comment),
      notify: {
        owner: (f) => ({
          title: 'An interview you scheduled was cancelled',
          message: `${f.actor} cancelled the interview with ${candidateOf(f.record)} on ${whenOf(f.record)}.${f.comment ? ` ${f.actor} wrote: “${f.comment}”` : ''}`,
        }),
      },
    },
  }],
  events: {
    create: { history: (actor) => `${actor} scheduled the interview and sent the invitations` },
    edit: { history: (actor) => `${actor} rescheduled the interview and sent the new invitations` },
  },
};

const startTime = z.string({ error: 'The start time field is required.' }).trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'The start time must be a time in the format HH:MM (24 hours).');

export const interview = defineResource({
  name: 'interview',
  label: 'Interview',
  pluralLabel: 'Interviews',
  schema: z.object({
    candidate_id: referenceId('candidate'),
    scheduled_on: dateField('date'),
    start_time: startTime,
    duration_minutes: z.number({ error: 'The duration field is required.' }).int('The duration must be a whole number of minutes.')
      .min(15, 'The duration must be at least 15 minutes.').max(480, 'The duration must not be longer than 8 hours.'),
    time_zone: z.string({ error: 'The time zone field must be text.' }).trim().max(64, 'The selected time zone is invalid.')
      .refine((value) => value === '' || isTimeZone(value), 'The time zone must be one like Europe/London or Asia/Kolkata.').nullish(),
    interviewer_ids: z.array(referenceId('interviewer'), { error: 'Choose at least one interviewer.' })
      .min(1, 'Choose at least one interviewer.').max(MAX_INTERVIEWERS, `Choose at most ${MAX_INTERVIEWERS} interviewers.`),
    location: requiredText('place or video link', 500),
    notes: optionalText('notes', 2000),
  }),
  fields: {
    candidate_id: {
      label: 'Candidate', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'candidate', labelKey: 'name', relation: 'candidate' },
    },
    stage: { label: 'Stage', input: 'select', options: INTERVIEW_STAGES.map((value) => ({ value, label: value })), isColumn: true, isInForm: false },
    scheduled_on: { label: 'Date', input: 'date', isColumn: true, isSortable: true },
    start_time: { label: 'Start time', input: 'text', isColumn: true, placeholder: 'e.g. 14:30', help: '24 hours, in the time zone below.' },
    duration_minutes: { label: 'Duration', input: 'select', options: INTERVIEW_DURATIONS },
    time_zone: { label: 'Time zone', input: 'text', isColumn: true, placeholder: 'e.g. Europe/London', help: 'Empty: the firm\'s time zone.' },
    interviewer_ids: {
      label: 'Interviewers', input: 'multiselect', isColumn: true,
      // Any active staff account (decision 043), not only `user` accounts: managers and admins interview too.
      reference: { resource: 'interviewer', labelKey: 'name', relation: 'interviewers' },
    },
    location: { label: 'Place or video link', input: 'text', placeholder: 'e.g. https://meet.example.com/abc or 2nd floor, room 4' },
    notes: { label: 'Notes for the interviewers', input: 'textarea' },
    status: { label: 'Status', input: 'select', options: Object.entries(states).map(([value, s]) => ({ value, label: s.label })), isColumn: true, isSortable: true, badge: true, isInForm: false },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'scheduled_on',
  search: ['location'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: Object.entries(states).map(([value, s]) => ({ value, label: s.label })) },
    { key: 'candidate_id', label: 'Candidate', type: 'reference', reference: { resource: 'candidate', labelKey: 'name' } },
  ],
  defaultSort: { key: 'scheduled_on', direction: 'desc' },
  permissions: { view: 'can-view-interview', add: 'can-add-interview', edit: 'can-edit-interview' },
  routes: { index: 'interview.index', show: 'interview.show' },
  menu: { icon: 'calendar', group: 'Candidate', order: 30 },
  workflow: interviewWorkflow,
});

/**
 * Who may sit on an interview panel (decision 043): every active staff account, whatever its type
 * (admin, manager, user) and whatever duty role it holds beside it (recruiter, finance...); never a
 * partner login (those are another table) nor a deactivated person. A read-only view of the people
 * table with no screen of its own: the interview form picks from its options, and the server checks
 * the chosen ids against it as against any reference.
 */
export const interviewer = defineResource({
  name: 'interviewer',
  label: 'Interviewer',
  pluralLabel: 'Interviewers',
  schema: z.object({}),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    job_title: { label: 'Job Title', input: 'text', isColumn: true },
  },
  titleKey: 'name',
  search: ['name'],
  filters: [],
  defaultSort: { key: 'name', direction: 'asc' },
  // Those who schedule interviews pick from it.
  permissions: { view: 'can-add-interview|can-edit-interview' },
  // No screen of its own: its "list" is the interviews'.
  routes: { index: 'interview.index' },
});

// ---- Scorecards ----

/** What a position is rated by when it names no criteria of its own. */
export const DEFAULT_CRITERIA = ['Technical skills', 'Problem solving', 'Communication', 'Team fit'] as const;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_WORDS: Readonly<Record<number, string>> = { 1: 'Poor', 2: 'Weak', 3: 'Fair', 4: 'Good', 5: 'Excellent' };
export const RECOMMENDATIONS = [
  { value: 'strong-yes', label: 'Strong yes' }, { value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }, { value: 'strong-no', label: 'Strong no' },
] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number]['value'];

export const scorecardSchema = z.object({
  ratings: z.record(z.string().max(100), z.number({ error: 'Each rating must be a number from 1 to 5.' }).int('Each rating must be a whole number from 1 to 5.')
    .min(RATING_MIN, 'Each rating must be from 1 to 5.').max(RATING_MAX, 'Each rating must be from 1 to 5.'), { error: 'Rate each criterion.' }),
  strengths: optionalText('strengths', 2000),
  concerns: optionalText('concerns', 2000),
  recommendation: z.enum(RECOMMENDATIONS.map((r) => r.value) as [Recommendation, ...Recommendation[]], { error: 'Choose a recommendation.' }),
});
export type ScorecardInput = z.infer<typeof scorecardSchema>;

// ---- Offer letters ----

export const OFFER_PLACEHOLDERS = ['{{candidate_name}}', '{{position}}', '{{client}}', '{{start_date}}', '{{rate}}'] as const;
export const RATE_PERIODS: SelectOption[] = [
  { value: 'hour', label: 'per hour' }, { value: 'day', label: 'per day' }, { value: 'month', label: 'per month' }, { value: 'year', label: 'per year' },
];
export const OFFER_LINK_DAYS = 14;
export const OFFER_LETTER_PURPOSE = 'offer-letter';

export const offerLetterSchema = z.object({
  template_id: referenceId('template'),
  start_date: dateField('start date'),
  rate: z.number({ error: 'The rate field is required.' }).positive('The rate must be more than 0.').max(9_999_999_999.99, 'The rate is too large.'),
  currency: z.string({ error: 'The currency field is required.' }).regex(/^[A-Z]{3}$/, 'The currency must be a three-letter code such as GBP.'),
  rate_period: z.enum(['hour', 'day', 'month', 'year'], { error: 'The selected rate period is invalid.' }),
});
export type OfferLetterInput = z.infer<typeof offerLetterSchema>;

/** The candidate's answer: their name typed as a signature. */
export const offerResponseSchema = z.object({
  signed_name: requiredText('name', 200),
  reason: optionalText('reason', 2000),
});

/** "GBP 450.00 per day". */
export function rateText(rate: number, currency: string, period: string): string {
  const label = RATE_PERIODS.find((p) => p.value === period)?.label ?? `per ${period}`;
  return `${currency} ${rate.toFixed(2)} ${label}`;
}

/** The template's placeholders filled in; an unknown placeholder stays as written. */
export function fillOfferTemplate(body: string, values: { candidate_name: string; position: string; client: string; start_date: string; rate: string }): string {
  return body.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, key: string) => (key in values ? values[key as keyof typeof values] : whole));
}

/** The page an offer link opens. */
export const offerLetterPath = (token: string) => `/offer-letter?token=${encodeURIComponent(token)}`;
