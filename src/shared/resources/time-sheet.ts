import { z } from 'zod';
import { countOf, dateField, possessive, defineResource, MAX_ID, referenceId, type SelectOption, theirComment, type TransitionDefinition, withReason } from './define';
import { dayName } from './offline-words';
import { chosenOneRefused } from '../words';
import { createdAtColumn } from './common';

/**
 * Time sheets (spec /time-sheet, can-view-time-sheet): an engineer uploads one per period and
 * client; their manager (parent_id) approves or rejects it with a comment (the workflow). Uploads
 * are multipart (the file) and may be queued offline, so they do not use the generic create route.
 */
export const timeSheetStatuses = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
export const timeSheetPeriods = ['month', 'week'] as const;

const statusOptions: SelectOption[] = [
  { value: 'pending', label: 'Pending' }, { value: 'approved', label: 'Approved' }, { value: 'rejected', label: 'Rejected' },
  { value: 'withdrawn', label: 'Withdrawn' },
];
const periodOptions: SelectOption[] = [{ value: 'month', label: 'Month' }, { value: 'week', label: 'Week' }];

export const TIME_SHEET_UPLOAD_PERMISSION = 'can-add-time-sheet';
export const TIME_SHEET_REVIEW_PERMISSION = 'can-edit-time-sheet';
/** The engineer's own step on a sheet still waiting for review (decision 058); the others are the reviewer's. */
export const TIME_SHEET_WITHDRAW = 'withdraw';

export const TIME_SHEET_MAX_BYTES = 10 * 1024 * 1024;
/** PDF, images and spreadsheets (issue 5). The server also checks the file's first bytes. */
export const TIME_SHEET_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp', 'xlsx', 'xls', 'ods', 'csv'] as const;
export const TIME_SHEET_ACCEPT = TIME_SHEET_EXTENSIONS.map((e) => `.${e}`).join(',');

const HOURS_IN_A_WEEK = 7 * 24;

/** The fields of an upload, sent beside the file as multipart form text. */
export const timeSheetUploadSchema = z.object({
  client_id: z.coerce.number({ error: 'The client field is required.' }).int().positive('The client field is required.').max(MAX_ID, chosenOneRefused('client')),
  period_type: z.enum(timeSheetPeriods, { error: 'The selected period type is invalid.' }),
  period_start: dateField('period start'),
  // Hours arrive as form text; an empty field means "missing", not zero.
  hours: z.preprocess((value) => (value === '' || value == null ? undefined : Number(value)), z.number({
    error: (issue) => (issue.input === undefined ? 'The hours field is required.' : 'The hours field must be a number.'),
  }).min(0.5, 'The hours field must be at least 0.5.').max(744, 'The hours field must not be greater than 744.')),
  note: z.string().trim().max(1000, 'The note field must not be greater than 1000 characters.').nullish(),
}).refine((value) => value.period_type !== 'week' || value.hours <= HOURS_IN_A_WEEK, {
  // 744 bounds a month (31 days); a week has fewer hours than that.
  path: ['hours'], message: `The hours of a week must not be greater than ${HOURS_IN_A_WEEK}.`,
});
export type TimeSheetUpload = z.infer<typeof timeSheetUploadSchema>;

/** A manager reviews their reports' sheets, an admin any; nobody their own. The engineer is told live. */
const review = { from: ['pending'], permission: TIME_SHEET_REVIEW_PERMISSION, guards: ['notOwnRecord', 'managerOfOwner'] } as const;
type Record_ = Readonly<Record<string, unknown>>;
/** "the time sheet for 2026-11-02 to 2026-11-08 (40 h)". */
const sheetOf = (r: Record_) => `time sheet for ${String(r.period_start)} to ${String(r.period_end)} (${String(r.hours)} h)`;
const engineerOf = (r: Record_) => (r.user as { name?: string } | null)?.name;
const theSheet = (r: Record_) => { const engineer = engineerOf(r); return engineer ? `${possessive(engineer)} ${sheetOf(r)}` : `the ${sheetOf(r)}`; };
const sheets = (count: number) => countOf(count, 'time sheet', 'time sheets');
const timeSheetTransitions: TransitionDefinition[] = [
  { ...review, name: 'approve', label: 'Approve', to: 'approved', comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Approve ${theSheet(r)}?`, confirmMany: (n) => `Approve ${sheets(n)}?`, doneMany: (n) => `You approved ${sheets(n)}.`,
      history: (actor) => `${actor} approved the time sheet`,
      notify: { owner: (f) => ({ title: 'Your time sheet was approved', message: `${f.actor} approved your ${sheetOf(f.record)}.${theirComment(f)}` }) },
    } },
  { ...review, name: 'reject', label: 'Reject', to: 'rejected', comment: 'required', tone: 'danger',
    words: {
      confirm: (r) => `Reject ${theSheet(r)}?`, confirmMany: (n) => `Reject ${sheets(n)}?`, doneMany: (n) => `You rejected ${sheets(n)}.`,
      history: (actor) => `${actor} rejected the time sheet`,
      note: (f) => withReason(`Rejected by ${f.actor}`, f.comment),
      notify: { owner: (f) => ({ title: 'Your time sheet was rejected', message: `${f.actor} rejected your ${sheetOf(f.record)}: please upload it again.${theirComment(f)}` }) },
    } },
  // Decision 058: a wrong file or wrong hours, noticed before the manager looked. Withdrawn, the period is free
  // to upload again, and the manager's "waits for your review" notice is read (transitionWrites).
  { name: TIME_SHEET_WITHDRAW, label: 'Withdraw', from: ['pending'], to: 'withdrawn', permission: TIME_SHEET_UPLOAD_PERMISSION,
    guards: ['ownRecord'], comment: 'optional', tone: 'neutral',
    offline: (r) => `Your time sheet from ${dayName(r.period_start)}, to withdraw`,
    words: {
      confirm: (r) => `Withdraw your ${sheetOf(r)}?`,
      confirmMany: (n) => `Withdraw ${sheets(n)} of yours?`, doneMany: (n) => `You withdrew ${sheets(n)} of yours.`,
      history: (actor) => `${actor} withdrew the time sheet`,
      note: (f) => withReason(`Withdrawn by ${f.actor}`, f.comment),
      notify: { ownerManager: (f) => ({ title: 'A time sheet was withdrawn', message: `${f.actor} withdrew their ${sheetOf(f.record)}: there is nothing to review.${theirComment(f)}` }) },
    } },
];

/** The list, detail and filters; uploads and decisions have their own routes. */
export const timeSheet = defineResource({
  name: 'time-sheet',
  dashboard: { keptBy: ['status', 'user_id'] },
  label: 'Time Sheet',
  pluralLabel: 'Time Sheets',
  schema: z.object({ client_id: referenceId('client') }),
  fields: {
    // The title first: phone cards lead with it, beside the row actions.
    period_start: { label: 'Period Start', input: 'date', isColumn: true, isSortable: true, isInForm: false },
    user_id: {
      label: 'Engineer', input: 'reference', isColumn: true, isSortable: true, isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'user' },
    },
    client_id: {
      label: 'Client', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'client', labelKey: 'name', relation: 'client' },
    },
    period_type: { label: 'Period', input: 'select', options: periodOptions, isColumn: true, isInForm: false },
    period_end: { label: 'Period End', input: 'date', isInForm: false },
    hours: { label: 'Hours', input: 'number', isColumn: true, isSortable: true, isInForm: false },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    file_name: { label: 'File', input: 'text', isInForm: false },
    note: { label: 'Note', input: 'textarea', isInForm: false },
    // Listed: an engineer reads why a sheet was rejected where they see its status.
    comment: { label: 'Review Comment', input: 'textarea', isColumn: true, isInForm: false },
    reviewed_at: { label: 'Reviewed At', input: 'date', isInForm: false },
    created_at: createdAtColumn,
  },
  titleKey: 'period_start',
  workflow: {
    field: 'status',
    initial: 'pending',
    ownerField: 'user_id',
    states: {
      pending: { label: 'Pending', tone: 'yellow', step: 'Waiting for the manager\'s review', waitsFor: 'Waits for your manager\'s review' },
      approved: { label: 'Approved', tone: 'green', isFinal: true },
      rejected: { label: 'Rejected', tone: 'red', isFinal: true },
      withdrawn: { label: 'Withdrawn', tone: 'gray', isFinal: true, step: 'Withdrawn before the review' },
    },
    transitions: timeSheetTransitions,
    // Uploading tells the manager (src/server/modules/time-sheet/service.ts), live as spec §4's TimeSheetUploadEvent.
    events: {
      create: {
        history: (actor) => `${actor} uploaded the time sheet`,
        notify: {
          ownerManager: (f) => ({ title: 'A time sheet waits for your review', message: `${f.actor} uploaded their ${sheetOf(f.record)}. Approve it, or reject it with the reason.` }),
        },
      },
    },
  },
  search: ['file_name'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'client_id', label: 'Client', type: 'reference', reference: { resource: 'client', labelKey: 'name' } },
    { key: 'user_id', label: 'Engineer', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'period_start', label: 'Period', type: 'date-range' },
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  // Uploads have their own route (multipart, queued offline); reviews are the workflow's transitions.
  permissions: { view: 'can-view-time-sheet' },
  routes: { index: 'time-sheet.index' },
  menu: { icon: 'clock', order: 200 },
  // Issue 5 / 26: an engineer's upload waits in the outbox offline, with its file.
  offline: { actions: { upload: (v) => `Your time sheet from ${dayName(v.period_start)} (${String(v.file_name)})` } },
});

/** The last day of a period that starts on `start` (YYYY-MM-DD). */
export function periodEnd(periodType: 'month' | 'week', start: string): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (periodType === 'week') date.setUTCDate(date.getUTCDate() + 6);
  else date.setUTCMonth(date.getUTCMonth() + 1, 0);
  return date.toISOString().slice(0, 10);
}
