import { z } from 'zod';
import type { preBillingComparisonLineSchema, preBillingComparisonSchema, pricedLineSchema, preBillingVersionSchema } from '../schemas/pre-billing';
import {
  countOf, defineResource, type EventFacts, optionalText, possessive, PREVIOUS_STATE, referenceId, theirComment,
  type SelectOption, type TransitionDefinition, type WorkflowDefinition, withReason,
} from './define';
import { monthName } from './offline-words';
import { createdAtColumn } from './common';
import { formatMoney, hasAtMostTwoDecimals } from '../money';

/**
 * Pre-billing (issue 11; spec §2 /ikk-partner/pre-billing and the partner routes partner.pre-billing.*):
 * a partner firm's statement for one month, one line per engineer and client with the rate agreed
 * for that engineer, and the spreadsheet it used to mail. Partners submit and correct it in the
 * portal (editable while pending or rejected); finance checks it against the firm's own approved
 * time sheets and decides it with spec §4's approval statuses.
 */

export { formatMoney };

/** The firm's working day when a day rate is compared with time-sheet hours. */
export const HOURS_PER_DAY = 8;

/** Deciding permissions (finance): checking the statement against the time sheets, then approving it. */
export const PRE_BILLING_REVIEW_PERMISSION = 'can-review-pre-billing';
export const PRE_BILLING_APPROVE_PERMISSION = 'can-approve-pre-billing';

export const SPREADSHEET_EXTENSIONS = ['xlsx', 'xls', 'csv', 'pdf'] as const;
export const SPREADSHEET_MAX_BYTES = 10 * 1024 * 1024;
/** A statement lists a firm's engineers per client; more than this is a mistake, not a month's work. */
export const MAX_PRE_BILLING_LINES = 200;
/** Quantities as stored (numeric(7, 2)). */
export const MAX_QUANTITY = 99_999.99;

/** A 3-letter code, as the engineers' agreed rates are kept (partner-engineer). */
const currency = z.string({ error: 'The currency field is required.' }).trim().toUpperCase()
  .min(1, { message: 'The currency field is required.', abort: true })
  .regex(/^[A-Z]{3}$/, 'The currency must be a 3-letter code (EUR, USD, INR).');

// ---- Months ----

/** 'YYYY-MM' as typed, or the stored first day ('YYYY-MM-01') sent back unchanged by an edit. */
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])(?:-01)?$/;

/** The first day of the month a value names ('2026-03' or '2026-03-01' -> '2026-03-01'), or null. */
export function firstOfMonth(value: unknown): string | null {
  const match = typeof value === 'string' ? MONTH.exec(value.trim()) : null;
  return match ? `${match[1]}-${match[2]}-01` : null;
}

/** Days in the month starting at `first` (YYYY-MM-01). */
export function daysInMonth(first: string): number {
  const [year, month] = first.split('-').map(Number);
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The last day of the month starting at `first`, YYYY-MM-DD. */
export const lastOfMonth = (first: string) => `${first.slice(0, 8)}${String(daysInMonth(first)).padStart(2, '0')}`;

/** "March 2026" for '2026-03-01' (or '2026-03'); the value itself when it is not a month. */
export function monthLabel(value: unknown): string {
  const first = firstOfMonth(typeof value === 'string' ? value.slice(0, 7) : value);
  if (!first) return String(value ?? '');
  const [year, month] = first.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** At most a day's 24 hours, or one working day per calendar day (weekends included: on-call happens). */
export function maxQuantity(rateType: 'day' | 'hour', first: string): number {
  return rateType === 'day' ? daysInMonth(first) : daysInMonth(first) * 24;
}

// Each check stops the next (abort): an empty month is required, not malformed, and a malformed one
// is said once, not once per check it fails.
const month = z.string({ error: 'The month field is required.' }).trim()
  .min(1, { message: 'The month field is required.', abort: true })
  .regex(MONTH, { message: 'The month must be a month in the format YYYY-MM.', abort: true })
  .refine((value) => Number(value.slice(0, 4)) >= 2000, 'The month must be a month in the format YYYY-MM.');

// ---- Lines ----

/** One line as the partner enters it; the server adds the rate agreed for the engineer and the amount. */
export const preBillingLineSchema = z.object({
  engineer_id: referenceId('engineer'),
  client_id: referenceId('client'),
  // A line left without its days or hours reads as the form names that field, not as a wrong number.
  quantity: z.number({ error: (issue) => (issue.input === null || issue.input === undefined ? 'The days or hours field is required.' : 'The quantity field must be a number.') })
    .positive('The quantity must be greater than 0.')
    .max(MAX_QUANTITY, 'The quantity is too large.')
    .refine(hasAtMostTwoDecimals, 'The quantity may have at most 2 decimals.'),
});
export type PreBillingLineInput = z.infer<typeof preBillingLineSchema>;

/** A stored line as rows carry it (`lines`), with the engineer's and the client's names. */
export type PreBillingLine = z.infer<typeof pricedLineSchema>;

/**
 * The lines as the body carries them: a JSON array, or in a multipart body (spec §7, which caps the
 * number of parts) one `pre-billing[lines]` part holding that array as JSON. Each line is checked
 * by `parsePreBillingLines` so its errors are named `lines.0.quantity`, as Laravel names them.
 */
const lines = z.union([z.array(z.unknown()), z.string().max(64 * 1024, 'The lines field is too large.')], { error: 'The lines field must be a list of lines.' });

/** Lines checked one by one: the typed lines, or the errors keyed `lines`, `lines.0.quantity`. */
export function parsePreBillingLines(raw: unknown): { lines: PreBillingLineInput[]; errors: Record<string, string> } {
  let list = raw;
  if (typeof raw === 'string') {
    try { list = JSON.parse(raw); } catch { return { lines: [], errors: { lines: 'The lines field must be a list of lines.' } }; }
  }
  if (!Array.isArray(list)) return { lines: [], errors: { lines: 'The lines field must be a list of lines.' } };
  if (list.length === 0) return { lines: [], errors: { lines: 'Add at least one line: an engineer, a client and the quantity worked.' } };
  if (list.length > MAX_PRE_BILLING_LINES) return { lines: [], errors: { lines: `A statement may have at most ${MAX_PRE_BILLING_LINES} lines.` } };
  const errors: Record<string, string> = {};
  const parsed: PreBillingLineInput[] = [];
  list.forEach((item, index) => {
    const result = preBillingLineSchema.safeParse(item);
    if (result.success) { parsed.push(result.data); return; }
    for (const issue of result.error.issues) errors[`lines.${index}.${String(issue.path[0] ?? 'engineer_id')}`] ??= issue.message;
  });
  return { lines: parsed, errors };
}

// ---- Workflow (spec §4 statuses and colours) ----

// spec §4 "Approval status colours": yellow pending / reviewed by accounting / on hold, green approved, red rejected.
const states = {
  pending: { label: 'Pending', tone: 'yellow', step: 'Waiting for accounting to check it against the time sheets' },
  'reviewed by accounting': { label: 'Reviewed by accounting', tone: 'yellow', step: 'Waiting for accounting to approve it' },
  'on hold': { label: 'On hold', tone: 'yellow', step: 'On hold until accounting resumes it' },
  approved: { label: 'Approved', tone: 'green', isFinal: true, step: 'Approved: the partner may invoice it' },
  // Not final: the partner corrects and resubmits it (a new version).
  rejected: { label: 'Rejected', tone: 'red', step: 'Returned to the partner to correct and resubmit' },
} as const satisfies WorkflowDefinition['states'];
export type PreBillingStatus = keyof typeof states;
export const PRE_BILLING_STATUSES = Object.keys(states) as PreBillingStatus[];
const statusOptions: SelectOption[] = PRE_BILLING_STATUSES.map((value) => ({ value, label: states[value].label }));

/** How the partner portal words each status (the partner waits; it does not review): `owner.states`. */
export const partnerStates: Record<PreBillingStatus, { label: string; step: string }> = {
  pending: { label: 'Submitted', step: 'Accounting will check it against the time sheets' },
  'reviewed by accounting': { label: 'Being checked', step: 'Checked by accounting; waiting for approval' },
  'on hold': { label: 'On hold', step: 'Paused by accounting: see the reason' },
  approved: { label: 'Approved', step: 'You may now send the invoice for it' },
  rejected: { label: 'Returned: please correct', step: 'Correct it as the reason says and submit it again' },
};

const EITHER_FINANCE_STEP = `${PRE_BILLING_REVIEW_PERMISSION}|${PRE_BILLING_APPROVE_PERMISSION}`;

// Every decision tells the partner's logins ('owner'), in their words; the ones they must act on (or may invoice) are also mailed.
type Record_ = Readonly<Record<string, unknown>>;
const monthOf = (r: Record_) => monthLabel(r.month);
/** "Acme Partners' statement for March 2026", as staff name it. */
const theStatement = (r: Record_) => {
  const partner = (r.partner as { name?: string } | null)?.name;
  return `${partner ? possessive(partner) : 'the'} statement for ${monthOf(r)}`;
};
const partnerOf = (r: Record_) => (r.partner as { name?: string } | null)?.name;
/** "Pat Partner of Acme Partners": a partner's login as staff know them. */
const submitter = (f: EventFacts) => { const partner = partnerOf(f.record); return partner ? `${f.actor} of ${partner}` : f.actor; };
const their = (r: Record_) => (partnerOf(r) ? 'their' : 'a');
const totalOf = (r: Record_) => formatMoney(Number(r.total), String(r.currency));
const statements = (count: number) => countOf(count, 'statement', 'statements');
const toPartner = (title: string, sentence: (facts: EventFacts) => string) => (facts: EventFacts) => ({ title, message: `${sentence(facts)}${theirComment(facts)}` });

const transitions: TransitionDefinition[] = [
  { name: 'review', label: 'Mark reviewed', from: ['pending'], to: 'reviewed by accounting', permission: PRE_BILLING_REVIEW_PERMISSION,
    comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Mark ${theStatement(r)} as checked against the time sheets?`, confirmMany: (n) => `Mark ${statements(n)} as checked against the time sheets?`, doneMany: (n) => `You marked ${statements(n)} as checked against the time sheets.`,
      history: (actor) => `${actor} checked the statement against the time sheets`,
      notify: { owner: toPartner('Your statement was checked', (f) => `${f.actor} checked your statement for ${monthOf(f.record)} against the time sheets. It now waits for approval.`) },
    } },
  { name: 'approve', label: 'Approve', from: ['reviewed by accounting'], to: 'approved', permission: PRE_BILLING_APPROVE_PERMISSION,
    comment: 'optional', isMailed: true, tone: 'primary',
    words: {
      confirm: (r) => `Approve ${theStatement(r)}? The partner may then invoice it.`, confirmMany: (n) => `Approve ${statements(n)}? Their partners may then invoice them.`, doneMany: (n) => `You approved ${statements(n)}. Their partners may now invoice them.`,
      history: (actor) => `${actor} approved the statement`,
      notify: { owner: toPartner('Your statement was approved', (f) => `${f.actor} approved your statement for ${monthOf(f.record)}. You may now send the invoice for it.`) },
    } },
  { name: 'hold', label: 'Put on hold', from: ['pending', 'reviewed by accounting'], to: 'on hold', permission: EITHER_FINANCE_STEP,
    comment: 'required', isMailed: true, tone: 'neutral',
    words: {
      confirm: (r) => `Put ${theStatement(r)} on hold?`, confirmMany: (n) => `Put ${statements(n)} on hold?`, doneMany: (n) => `You put ${statements(n)} on hold.`,
      history: (actor) => `${actor} put the statement on hold`,
      note: (f) => withReason(`Put on hold by ${f.actor}`, f.comment),
      notify: { owner: toPartner('Your statement was put on hold', (f) => `${f.actor} put your statement for ${monthOf(f.record)} on hold.`) },
    } },
  { name: 'resume', label: 'Resume', from: ['on hold'], to: PREVIOUS_STATE, permission: EITHER_FINANCE_STEP,
    comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Resume ${theStatement(r)}?`, confirmMany: (n) => `Resume ${statements(n)}?`, doneMany: (n) => `You resumed ${statements(n)}.`,
      history: (actor) => `${actor} resumed the statement`,
      notify: { owner: toPartner('Your statement was resumed', (f) => `${f.actor} resumed your statement for ${monthOf(f.record)}: accounting goes on checking it.`) },
    } },
  { name: 'reject', label: 'Reject', from: ['pending', 'reviewed by accounting', 'on hold'], to: 'rejected', permission: EITHER_FINANCE_STEP,
    comment: 'required', isMailed: true, tone: 'danger',
    words: {
      confirm: (r) => `Return ${theStatement(r)} to the partner to correct?`, confirmMany: (n) => `Return ${statements(n)} to their partners to correct?`, doneMany: (n) => `You returned ${statements(n)} to their partners to correct.`,
      history: (actor) => `${actor} returned the statement to the partner to correct`,
      note: (f) => withReason(`Returned by ${f.actor}`, f.comment),
      notify: { owner: toPartner('Your statement was returned: please correct it', (f) => `${f.actor} returned your statement for ${monthOf(f.record)}. Correct it and submit it again.`) },
    } },
];

export const preBillingWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: 'pending',
  // The owning firm: 'owner' is every active login of the partner (src/server/resources/workflow-recipients.ts).
  ownerField: 'partner_id',
  states,
  transitions,
  // Finance (who check statements) and the firm's account manager are told, live as spec §4's PartnerPreBillingUploadEvent.
  events: {
    create: {
      history: (actor) => `${actor} submitted the statement`,
      notify: {
        [`permission:${PRE_BILLING_REVIEW_PERMISSION}`]: (f) => ({
          title: 'A statement waits for your check',
          message: `${submitter(f)} submitted ${their(f.record)} statement for ${monthOf(f.record)} (${totalOf(f.record)}). Check it against the time sheets.`,
        }),
        ownerManager: (f) => ({
          title: `${partnerOf(f.record) ?? 'A partner'} submitted a statement`,
          message: `${submitter(f)} submitted ${their(f.record)} statement for ${monthOf(f.record)} (${totalOf(f.record)}). Accounting checks it next.`,
        }),
      },
    },
    resubmit: {
      history: (actor) => `${actor} corrected the statement and submitted it again`,
      notify: {
        [`permission:${PRE_BILLING_REVIEW_PERMISSION}`]: (f) => ({
          title: 'A corrected statement waits for your check',
          message: `${submitter(f)} corrected ${their(f.record)} statement for ${monthOf(f.record)} and submitted it again as version ${String(f.record.version)} (${totalOf(f.record)}). Check it against the time sheets.`,
        }),
        ownerManager: (f) => ({
          title: `${partnerOf(f.record) ?? 'A partner'} corrected a statement`,
          message: `${submitter(f)} corrected ${their(f.record)} statement for ${monthOf(f.record)} and submitted it again as version ${String(f.record.version)} (${totalOf(f.record)}). Accounting checks it next.`,
        }),
      },
    },
  },
};

/** The history entry of a corrected statement submitted again (rejected -> pending, one more version). */
export const RESUBMIT_TRANSITION = 'resubmit';

/** A statement's earlier version (`GET .../pre-billing/{id}/versions`), newest first. */
export type PreBillingVersion = z.infer<typeof preBillingVersionSchema>;

/** One line of `GET /api/pre-billing/{id}/comparison`. */
export type PreBillingComparisonLine = z.infer<typeof preBillingComparisonLineSchema>;

export type PreBillingComparison = z.infer<typeof preBillingComparisonSchema>;

export const preBilling = defineResource({
  name: 'pre-billing',
  dashboard: { keptBy: ['status', 'partner_id'] },
  label: 'Pre-billing',
  pluralLabel: 'Pre-billings',
  // A partner's correction of a returned statement is its next version (afterUpdate), said as such.
  words: {
    created: 'Pre-billing submitted successfully.',
    updated: (row) => (Number(row.version) > 1 && row.status === 'pending' ? `Pre-billing resubmitted as version ${String(row.version)}.` : 'Pre-billing updated successfully.'),
  },
  schema: z.object({
    month,
    currency,
    note: optionalText('note', 2000),
    lines,
    // Issue 21: a forgotten line for a month whose statement is approved goes on a supplementary
    // statement, linked by the server to that original (`supplements_id`).
    is_supplementary: z.boolean({ error: 'The supplementary field must be true or false.' }).optional(),
  }),
  fields: {
    month: { label: 'Month', input: 'text', isColumn: true, isSortable: true, placeholder: 'YYYY-MM', help: 'The month worked, e.g. 2026-03.' },
    partner_id: {
      label: 'Partner', input: 'reference', isColumn: true, isSortable: true, isInForm: false,
      reference: { resource: 'ikk-partner', labelKey: 'name', relation: 'partner' },
    },
    currency: { label: 'Currency', input: 'text', isInDetail: false, help: 'The currency of the rates agreed: one per statement.' },
    total: { label: 'Net total', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true, isInForm: false, help: 'The lines\' amounts, before tax: the invoice adds the tax.' },
    // Edited by the statement's own lines editor; shown beside the time sheets on the detail page.
    lines: { label: 'Lines', input: 'text', isInDetail: false },
    note: { label: 'Note', input: 'textarea', placeholder: 'Anything accounting should know about this month' },
    spreadsheet: {
      label: 'Spreadsheet', input: 'file', file: { extensions: SPREADSHEET_EXTENSIONS, maxBytes: SPREADSHEET_MAX_BYTES },
      // The file field adds the accepted types and the size limit.
      help: 'The statement as your own spreadsheet.',
    },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    version: { label: 'Version', input: 'number', isColumn: true, isInForm: false, help: 'One more each time the partner corrects and resubmits it.' },
    is_supplementary: {
      label: 'Supplementary statement', input: 'boolean', isInDetail: false,
      help: 'For a line forgotten in a month whose statement is already approved.',
    },
    supplements_id: {
      label: 'Supplementary to', input: 'reference', isInForm: false,
      reference: { resource: 'pre-billing', labelKey: 'month', relation: 'supplements' },
      help: 'The approved statement of the same month this one adds a forgotten line to.',
    },
    created_at: { ...createdAtColumn, label: 'Submitted', isColumn: false },
  },
  titleKey: 'month',
  search: ['note'],
  filters: [
    { key: 'partner_id', label: 'Partner', type: 'reference', reference: { resource: 'ikk-partner', labelKey: 'name' } },
    { key: 'month', label: 'Month', type: 'date-range' },
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
  ],
  defaultSort: { key: 'month', direction: 'desc' },
  // Staff read and decide (the workflow); only the partner creates and corrects its statements.
  permissions: { view: 'can-view-pre-billing' },
  routes: { index: 'pre-billing.index', show: 'pre-billing.show' },
  menu: { icon: 'file', group: 'Partner', order: 20, label: 'Pre Billing' },
  owner: {
    account: 'partner',
    column: 'partner_id',
    segment: 'pre-billing',
    permissions: { view: 'can-view-pre-billing', add: 'can-add-pre-billing', edit: 'can-edit-pre-billing' },
    routes: { index: 'partner.pre-billing.index', create: 'partner.pre-billing.create', show: 'partner.pre-billing.show', edit: 'partner.pre-billing.edit' },
    states: partnerStates,
  },
  workflow: preBillingWorkflow,
  editableStates: ['pending', 'rejected'],
  // Issue 26: a partner files and corrects its statements offline; its lines pick engineers (at their
  // agreed rates) and clients, kept while online.
  offline: {
    saves: {
      create: (v) => `Your pre-billing statement for ${monthName(v.month)}`,
      edit: (v) => `Your corrections to the pre-billing statement for ${monthName(v.month)}`,
    },
    options: ['partner-engineer', 'partner/client'],
    reads: ['/partner/engineer?per_page=100'],
  },
});
