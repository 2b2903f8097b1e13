import { z } from 'zod';
import type {
  awayPartSchema, calendarDaySchema, calendarLeaveSchema, leaveBalanceSchema, leaveCalendarSchema, leaveTypeBalanceSchema,
} from '../schemas/leave';
import {
  calendarDate, countOf, dateField, possessive, defineResource, type EventFacts, theirComment, idQuery, optionalReferenceId, optionalText, referenceId, type SelectOption,
  type TransitionDefinition, type WorkflowDefinition, withReason,
} from './define';
import { daySpan } from './offline-words';
import { createdAtColumn } from './common';
import { isWorkingDay, type WorkingCalendar } from '../working-week';

/**
 * Leave applications (spec /leave-application, issue 9). Engineers work at client sites, so a leave
 * needs cover: the applicant's manager decides whether it is approved and how it is back-filled.
 * Statuses are spec §4 "Leave and back-fill statuses", word for word (they are stored as they read).
 */
export const LEAVE_PENDING = 'Back fill arrangement is in progress';
export const LEAVE_APPROVED_NO_BACK_FILL = 'Leave approved Back fill not required';
export const LEAVE_APPROVED_BACK_FILL = 'Leave approved Back fill arranged';
export const LEAVE_TAKEN_NO_BACK_FILL = 'SBD request Leave taken Back fill not available/arranged';
export const LEAVE_REJECTED = 'Rejected / Rescheduled';

export const leaveStatuses = [
  LEAVE_PENDING, LEAVE_APPROVED_NO_BACK_FILL, LEAVE_APPROVED_BACK_FILL, LEAVE_TAKEN_NO_BACK_FILL, LEAVE_REJECTED,
] as const;
export type LeaveStatus = (typeof leaveStatuses)[number];

/** The transitions that end a started leave early, one per approved status (issue 28). */
export const LEAVE_END_EARLY_TRANSITIONS: readonly string[] = ['end-early', 'end-early-back-fill-arranged', 'end-early-taken'];
export const LEAVE_CANCEL_TRANSITION = 'cancel';

/** Statuses whose days are taken from the balance ("used"); the pending one counts as "pending". */
export const leaveTakenStatuses: readonly string[] = [LEAVE_APPROVED_NO_BACK_FILL, LEAVE_APPROVED_BACK_FILL, LEAVE_TAKEN_NO_BACK_FILL];
/** Every status but rejected: such a leave holds its dates (overlaps) and its days (balance). */
export const leaveHoldingStatuses: readonly string[] = [LEAVE_PENDING, ...leaveTakenStatuses];

export const LEAVE_APPROVE_PERMISSION = 'can-approve-leave-application';
export const LEAVE_CREATE_PERMISSION = 'can-create-leave-application';

/** The balance the leave form shows before dates are typed, kept while online (issue 26): offline it stands in for the one with dates. */
export const LEAVE_BALANCE_READ = '/leave-application/balance?is_half_day_start=false&is_half_day_end=false';

type Record_ = Readonly<Record<string, unknown>>;
/** "annual leave from 2026-12-01 to 2026-12-05", "sick leave on 2026-12-01". */
const leaveOf = (r: Record_) => {
  const type = (r.leave_type as { name?: string } | null)?.name?.toLowerCase().replace(/\s*leave$/, '') ?? '';
  const span = r.from_date === r.to_date ? `on ${String(r.from_date)}` : `from ${String(r.from_date)} to ${String(r.to_date)}`;
  return `${type ? `${type} ` : ''}leave ${span}`;
};
const applicantOf = (r: Record_) => (r.user as { name?: string } | null)?.name ?? 'the applicant';
const applications = (count: number) => countOf(count, 'leave application', 'leave applications');

/** What the applicant is told of their manager's decision. */
const toApplicant = (title: string, sentence: (facts: EventFacts) => string) => (facts: EventFacts) => ({
  title, message: `${sentence(facts)}${theirComment(facts)}`,
});

const decision = (name: string, label: string, to: string, words: TransitionDefinition['words'], extra: Partial<TransitionDefinition> = {}): TransitionDefinition => ({
  name, label, from: [LEAVE_PENDING], to, permission: LEAVE_APPROVE_PERMISSION,
  // The applicant's manager (or an admin) decides; never on their own leave.
  guards: ['notOwnRecord', 'managerOfOwner'], comment: 'optional', tone: 'primary', words, ...extra,
});

/** Issue 28: the applicant changes their plans after approval; the manager is told why (the reason is required). */
const changeOfPlan = { permission: LEAVE_CREATE_PERMISSION, guards: ['ownRecord'] as const, comment: 'required' as const, tone: 'neutral' as const, isMailed: true };

/**
 * Cancel approved leave before it starts (the module refuses once it has started: end it early
 * instead). It becomes "Rejected / Rescheduled", the spec's status for leave that will not be taken,
 * so its days return to the balance.
 */
const cancelApproved: TransitionDefinition = {
  name: 'cancel', label: 'Cancel leave', from: [...leaveTakenStatuses], to: LEAVE_REJECTED, ...changeOfPlan,
  words: {
    confirm: (r) => `Cancel your ${leaveOf(r)}? Its ${countOf(Number(r.days), 'day returns', 'days return')} to your balance.`,
    confirmMany: (n) => `Cancel ${countOf(n, 'leave', 'leaves')} of yours? Their days return to your balance.`,
    doneMany: (n) => `You cancelled ${countOf(n, 'leave', 'leaves')}. Their days are back in your balance.`,
    history: (actor) => `${actor} cancelled the approved leave`,
    note: (f) => withReason(`Cancelled by ${f.actor}`, f.comment),
    notify: {
      ownerManager: (f) => ({
        title: 'An approved leave was cancelled',
        message: `${f.actor} cancelled their approved ${leaveOf(f.record)}: they are at work on those days after all, and no back fill is needed.${theirComment(f)}`,
      }),
    },
  },
};

/**
 * End a started leave early: the applicant names their new last day (a transition field), the module
 * counts the days again and the days not taken return to the balance. The status stays what it was,
 * so there is one such transition per approved status (the screens offer the one that applies).
 */
const endEarly = (name: string, status: string): TransitionDefinition => ({
  name, label: 'End leave early', from: [status], to: status, ...changeOfPlan,
  fields: [{ key: 'to_date', label: 'New last day', isRequired: true, help: 'Your new last day of leave: from the first day of the leave to the day before its planned end.' }],
  words: {
    confirm: (r) => `End your ${leaveOf(r)} early? The days after your new last day return to your balance.`,
    confirmMany: (n) => `End ${countOf(n, 'leave', 'leaves')} of yours early?`,
    doneMany: (n) => `You ended ${countOf(n, 'leave', 'leaves')} early.`,
    history: (actor) => `${actor} ended the leave early`,
    note: (f) => withReason(`Ended early by ${f.actor}`, f.comment),
    notify: {
      ownerManager: (f) => ({
        title: 'A leave was ended early',
        message: `${f.actor} ended their leave early: it is now ${leaveOf(f.record)} (${countOf(Number(f.record.days), 'day', 'days')}), and they are back at work after it.${theirComment(f)}`,
      }),
    },
  },
});

export const leaveWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: LEAVE_PENDING,
  ownerField: 'user_id',
  states: {
    // spec §4 colours: pending yellow, approved green, rejected red. "Leave taken without back fill"
    // is none of the named ones: gray, the spec's colour for anything it does not name.
    [LEAVE_PENDING]: { label: LEAVE_PENDING, tone: 'yellow', step: 'Waiting for the manager', waitsFor: 'Waits for your manager' },
    [LEAVE_APPROVED_NO_BACK_FILL]: { label: LEAVE_APPROVED_NO_BACK_FILL, tone: 'green', isFinal: true },
    [LEAVE_APPROVED_BACK_FILL]: { label: LEAVE_APPROVED_BACK_FILL, tone: 'green', isFinal: true },
    [LEAVE_TAKEN_NO_BACK_FILL]: { label: LEAVE_TAKEN_NO_BACK_FILL, tone: 'gray', isFinal: true },
    [LEAVE_REJECTED]: { label: LEAVE_REJECTED, tone: 'red', isFinal: true },
  },
  transitions: [
    decision('approve-back-fill-arranged', 'Approve, back fill arranged', LEAVE_APPROVED_BACK_FILL, {
      confirm: (r) => `Approve ${possessive(applicantOf(r))} ${leaveOf(r)}, with the back fill arranged?`,
      confirmMany: (n) => `Approve ${applications(n)}, with the back fill arranged?`, doneMany: (n) => `You approved ${applications(n)}, with the back fill arranged.`,
      history: (actor) => `${actor} approved the leave; the back fill is arranged`,
      notify: { owner: toApplicant('Your leave was approved', (f) => `${f.actor} approved your ${leaveOf(f.record)}. Your back fill is arranged.`) },
    }, {
      // Issue 24: "arranged" names who covers; the applicant's suggestion is where the dialog starts.
      fields: [{
        key: 'back_fill_user_id', isRequired: true, help: 'Who covers the leave.',
        options: { path: '/leave-application/back-fill-options', rowParams: { user_id: 'user_id' } },
      }],
    }),
    decision('approve-back-fill-not-required', 'Approve, no back fill', LEAVE_APPROVED_NO_BACK_FILL, {
      confirm: (r) => `Approve ${possessive(applicantOf(r))} ${leaveOf(r)}, with no back fill needed?`,
      confirmMany: (n) => `Approve ${applications(n)}, with no back fill needed?`, doneMany: (n) => `You approved ${applications(n)}, with no back fill needed.`,
      history: (actor) => `${actor} approved the leave; no back fill is needed`,
      notify: { owner: toApplicant('Your leave was approved', (f) => `${f.actor} approved your ${leaveOf(f.record)}. No back fill is needed.`) },
    }),
    // The engineer was already away (sudden illness): recorded as taken, without cover.
    decision('record-leave-taken', 'Record as taken', LEAVE_TAKEN_NO_BACK_FILL, {
      confirm: (r) => `Record ${possessive(applicantOf(r))} ${leaveOf(r)} as taken, without a back fill?`,
      confirmMany: (n) => `Record ${applications(n)} as taken, without a back fill?`, doneMany: (n) => `You recorded ${applications(n)} as taken, without a back fill.`,
      history: (actor) => `${actor} recorded the leave as taken, without a back fill`,
      notify: { owner: toApplicant('Your leave was recorded as taken', (f) => `${f.actor} recorded your ${leaveOf(f.record)} as taken; no back fill could be arranged.`) },
    }, { tone: 'neutral' }),
    decision('reject', 'Reject', LEAVE_REJECTED, {
      confirm: (r) => `Reject ${possessive(applicantOf(r))} ${leaveOf(r)}?`,
      confirmMany: (n) => `Reject ${applications(n)}?`, doneMany: (n) => `You rejected ${applications(n)}.`,
      history: (actor) => `${actor} rejected the leave`,
      note: (f) => withReason(`Rejected by ${f.actor}`, f.comment),
      notify: { owner: toApplicant('Your leave was rejected', (f) => `${f.actor} rejected your ${leaveOf(f.record)}.`) },
    }, { comment: 'required', tone: 'danger' }),
    {
      name: 'withdraw', label: 'Withdraw', from: [LEAVE_PENDING], to: LEAVE_REJECTED, permission: LEAVE_CREATE_PERMISSION,
      guards: ['ownRecord'], comment: 'optional', tone: 'neutral',
      offline: (r) => `Your leave application for ${daySpan(r.from_date, r.to_date)}, to withdraw`,
      words: {
        confirm: (r) => `Withdraw your ${leaveOf(r)}?`,
        confirmMany: (n) => `Withdraw ${countOf(n, 'leave application', 'leave applications')} of yours?`, doneMany: (n) => `You withdrew ${countOf(n, 'leave application', 'leave applications')} of yours.`,
        history: (actor) => `${actor} withdrew the application`,
        note: (f) => withReason(`Withdrawn by ${f.actor}`, f.comment),
        notify: { ownerManager: (f) => ({ title: 'A leave application was withdrawn', message: `${f.actor} withdrew their ${leaveOf(f.record)}: there is nothing to decide.${theirComment(f)}` }) },
      },
    },
    cancelApproved,
    endEarly('end-early', LEAVE_APPROVED_NO_BACK_FILL),
    endEarly('end-early-back-fill-arranged', LEAVE_APPROVED_BACK_FILL),
    endEarly('end-early-taken', LEAVE_TAKEN_NO_BACK_FILL),
  ],
  events: {
    create: {
      history: (actor) => `${actor} submitted the application`,
      notify: {
        ownerManager: (f) => ({
          title: 'A leave application waits for you',
          // A manager or an admin may file for someone: the sentence names both then.
          message: `${f.actor} applied for ${leaveOf(f.record)}${applicantOf(f.record) === f.actor ? '' : ` on behalf of ${applicantOf(f.record)}`} (${countOf(Number(f.record.days), 'day', 'days')}). Decide it and arrange the back fill.`,
        }),
      },
    },
  },
};

const statusOptions: SelectOption[] = leaveStatuses.map((status) => ({ value: status, label: status }));

export const leaveApplication = defineResource({
  name: 'leave-application',
  dashboard: { keptBy: ['status', 'user_id'] },
  label: 'Leave Application',
  pluralLabel: 'Leave Applications',
  // What happens next, said to whoever filed it (often for themselves), not "Leave application created successfully.".
  words: {
    created: (row) => `The leave application for ${formatDays(Number(row.days))} is sent to the manager, who decides it and arranges the back fill.`,
    updated: 'The leave application is updated.',
  },
  schema: z.object({
    // Empty: the caller applies for themselves. A manager may file for a report, an admin for anyone.
    user_id: optionalReferenceId('applicant'),
    leave_type_id: referenceId('leave type'),
    from_date: dateField('from date'),
    to_date: dateField('to date'),
    is_half_day_start: z.boolean({ error: 'The half day start field must be true or false.' }).optional(),
    is_half_day_end: z.boolean({ error: 'The half day end field must be true or false.' }).optional(),
    reason: optionalText('reason', 1000),
    client_id: optionalReferenceId('client'),
    back_fill_user_id: optionalReferenceId('back-fill person'),
  }),
  fields: {
    // The title first: phone cards lead with it.
    from_date: { label: 'From', input: 'date', isColumn: true, isSortable: true },
    to_date: { label: 'To', input: 'date', isColumn: true, isSortable: true },
    user_id: {
      label: 'Applicant', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'user', labelKey: 'name', relation: 'user' },
      placeholder: 'Myself', help: 'Leave empty to apply for yourself.',
    },
    leave_type_id: {
      label: 'Leave Type', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'leave-type', labelKey: 'name', relation: 'leave_type' },
    },
    is_half_day_start: { label: 'Half day on the first day', input: 'boolean', help: 'The leave starts at noon.' },
    is_half_day_end: { label: 'Half day on the last day', input: 'boolean', help: 'The leave ends at noon.' },
    days: { label: 'Days', input: 'number', isColumn: true, isSortable: true, isInForm: false },
    reason: { label: 'Reason', input: 'textarea' },
    client_id: {
      label: 'Client', input: 'reference', reference: { resource: 'client', labelKey: 'name', relation: 'client' },
      help: 'Where you are placed: the client who needs cover.',
    },
    back_fill_user_id: {
      label: 'Back-fill Person', input: 'reference',
      reference: { resource: 'user', labelKey: 'name', relation: 'back_fill_user' },
    },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    decided_by: {
      label: 'Decided By', input: 'reference', isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'decided_by_user' },
    },
    decided_at: { label: 'Decided At', input: 'date', isInForm: false },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'from_date',
  search: ['reason'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'leave_type_id', label: 'Leave Type', type: 'reference', reference: { resource: 'leave-type', labelKey: 'name' } },
    { key: 'user_id', label: 'Applicant', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'from_date', label: 'From', type: 'date-range' },
  ],
  defaultSort: { key: 'from_date', direction: 'desc' },
  permissions: {
    view: 'can-view-leave-application', add: LEAVE_CREATE_PERMISSION, edit: 'can-edit-leave-application', delete: 'can-delete-leave-application',
  },
  routes: { index: 'leave-application.index', create: 'leave-application.create', show: 'leave-application.show', edit: 'leave-application.edit' },
  menu: { icon: 'calendar', order: 20 },
  workflow: leaveWorkflow,
  // Issue 26: applying and correcting offline wait in the outbox; the form's balance is kept while online.
  offline: {
    saves: {
      create: (v) => `Your leave application for ${daySpan(v.from_date, v.to_date)}`,
      edit: (v) => `Your changes to the leave application for ${daySpan(v.from_date, v.to_date)}`,
    },
    reads: [LEAVE_BALANCE_READ],
  },
  // Once decided, a leave is history: a change of plan is a new application.
  editableStates: [LEAVE_PENDING],
  reminders: [{
    name: 'leave-starts-soon',
    dateField: 'from_date',
    daysBefore: 3,
    states: [LEAVE_PENDING],
    recipients: ['ownerManager'],
    title: 'Leave starting soon is undecided',
    message: 'A leave application starting on {date} still waits for your decision.',
  }],
});

// ---- Balance and calendar (GET /api/leave-application/balance, /calendar) ----

const yearQuery = z.coerce.number({ error: 'The year field must be a year.' }).int('The year field must be a year.')
  .min(2000, 'The year field must be at least 2000.').max(2100, 'The year field must not be greater than 2100.');
const flagQuery = z.enum(['true', 'false', '1', '0'], { error: 'The field must be true or false.' }).transform((v) => v === 'true' || v === '1');
const queryDate = (label: string) => calendarDate(`The ${label} field must be a real date in the format YYYY-MM-DD.`);

/**
 * The balance of one person for one year. With `from_date` and `to_date` it also counts the days of
 * that request (the form's "remaining after this request"); `exclude_id` leaves out the application
 * being edited, whose days would otherwise count twice.
 */
export const leaveBalanceQuerySchema = z.object({
  user_id: idQuery().optional(),
  year: yearQuery.optional(),
  from_date: queryDate('from date').optional(),
  to_date: queryDate('to date').optional(),
  is_half_day_start: flagQuery.optional(),
  is_half_day_end: flagQuery.optional(),
  exclude_id: idQuery().optional(),
});
export type LeaveBalanceQuery = z.infer<typeof leaveBalanceQuerySchema>;

export type LeaveTypeBalance = z.infer<typeof leaveTypeBalanceSchema>;

export type LeaveBalance = z.infer<typeof leaveBalanceSchema>;

/** Who may cover an applicant (the form's back-fill select): `user_id` is the applicant, the caller by default. */
export const leaveBackFillOptionsQuerySchema = z.object({
  search: z.string().max(100, 'The search field must not be greater than 100 characters.').optional(),
  user_id: idQuery().optional(),
});

export const leaveCalendarQuerySchema = z.object({
  month: z.string({ error: 'The month field must be a month in the format YYYY-MM.' })
    .regex(/^(20\d\d|2100)-(0[1-9]|1[0-2])$/, 'The month field must be a month in the format YYYY-MM.').optional(),
});

/** Someone's leave as the calendar shows it (src/shared/schemas/leave.ts). */
export type CalendarLeave = z.infer<typeof calendarLeaveSchema>;

/** away on a day: all day, or half of it (the leave starts at noon: afternoon; ends at noon: morning). */
export type AwayPart = z.infer<typeof awayPartSchema>;

export type CalendarDay = z.infer<typeof calendarDaySchema>;

export type LeaveCalendar = z.infer<typeof leaveCalendarSchema>;

// ---- Working days (pure; the server counts, the calendar lays out) ----

/** YYYY-MM-DD -> the UTC day number (days since 1970-01-01). */
export const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
/** The UTC day number -> YYYY-MM-DD. */
export const dayString = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** Every date from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let day = dayNumber(from); day <= dayNumber(to); day += 1) dates.push(dayString(day));
  return dates;
}

/**
 * Working days of a leave: days from `from` to `to` in the working week that are not public holidays,
 * less half a day when it starts at noon on a working day and half a day when it ends at noon on one.
 */
export function countWorkingDays(from: string, to: string, calendar: WorkingCalendar, isHalfDayStart = false, isHalfDayEnd = false): number {
  const isWorking = (date: string) => isWorkingDay(date, calendar);
  let days = datesBetween(from, to).filter(isWorking).length;
  if (isHalfDayStart && isWorking(from)) days -= 0.5;
  if (isHalfDayEnd && isWorking(to)) days -= 0.5;
  return Math.max(days, 0);
}

export interface LeaveDates { from_date: string; to_date: string; is_half_day_start: boolean; is_half_day_end: boolean }

/** The part of `date` a leave takes: the afternoon of a first day starting at noon, the morning of a last day ending at noon. */
export function partOn(leave: LeaveDates, date: string): AwayPart {
  if (date === leave.from_date && leave.is_half_day_start) return 'afternoon';
  if (date === leave.to_date && leave.is_half_day_end) return 'morning';
  return 'day';
}

/** Two leaves share a day, except a morning and an afternoon of the same day. */
export function leavesOverlap(a: LeaveDates, b: LeaveDates): boolean {
  const from = a.from_date > b.from_date ? a.from_date : b.from_date;
  const to = a.to_date < b.to_date ? a.to_date : b.to_date;
  if (from > to) return false;
  if (from !== to) return true;
  const parts = new Set([partOn(a, from), partOn(b, from)]);
  return !(parts.has('morning') && parts.has('afternoon'));
}

/** The first and last date of a YYYY-MM month. */
export function monthRange(month: string): { from: string; to: string } {
  const [year, monthNumber] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** The month `delta` months after a YYYY-MM month. */
export function shiftMonth(month: string, delta: number): string {
  const [year, monthNumber] = month.split('-').map(Number);
  const date = new Date(Date.UTC(year, monthNumber - 1 + delta, 1));
  return date.toISOString().slice(0, 7);
}

/** How a days figure reads: 1 day, 2.5 days. */
export const formatDays = (days: number) => `${Number.isInteger(days) ? days : days.toFixed(1)} ${days === 1 ? 'day' : 'days'}`;
