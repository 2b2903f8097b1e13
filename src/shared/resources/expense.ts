import { z } from 'zod';
import {
  countOf, dateField, defineResource, type EventFacts, optionalReferenceId, possessive, PREVIOUS_STATE, referenceId, requiredText,
  type SelectOption, theirComment, type TransitionDefinition, type WorkflowDefinition, withReason,
} from './define';
import { moneyOf, quoted } from './offline-words';
import { createdAtColumn } from './common';

/**
 * Expenses (spec /expense with show; issue 9): a claim filed by its claimant, decided by their
 * manager (first step) and then finance (review, then approval). Statuses are spec §4's approval
 * statuses; editable only while pending or on hold; receipts are attached files.
 */

export const EXPENSE_CURRENCIES = ['INR', 'USD', 'EUR', 'GBP', 'AED', 'SGD'] as const;
export type ExpenseCurrency = (typeof EXPENSE_CURRENCIES)[number];
const currencyOptions: SelectOption[] = EXPENSE_CURRENCIES.map((code) => ({ value: code, label: code }));

// Money is formatted by the one money module (issue 21); re-exported for the expense screens.
export { formatMoney } from '../money';
import { formatMoney, hasAtMostTwoDecimals } from '../money';

/** The manager's step (first decision) and finance's (review, then approval). */
export const EXPENSE_APPROVE_PERMISSION = 'can-approve-expense';
export const EXPENSE_REVIEW_PERMISSION = 'can-review-expense';

export const RECEIPT_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp'] as const;
export const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
export const RECEIPT_MAX_FILES = 10;
/** Above this amount (any currency) a claim needs a receipt, until finance changes it in settings. */
export const DEFAULT_RECEIPT_THRESHOLD = 50;
export const MAX_AMOUNT = 9_999_999_999.99;

/** Said after a save that the server flagged as a possible duplicate (same claimant, date and amount). */
export const DUPLICATE_NOTE = 'Another claim of yours has the same date and amount: it is flagged as a possible duplicate.';

const receiptThreshold = z.number({ error: 'The receipt threshold must be a number.' })
  .min(0, 'The receipt threshold must be at least 0.')
  .max(MAX_AMOUNT, 'The receipt threshold is too large.');

/** The setting finance keeps (GET / PUT /api/setting/expense). */
export const expenseSettingSchema = z.object({ receipt_threshold: receiptThreshold });
export type ExpenseSetting = z.infer<typeof expenseSettingSchema>;

/** The settings screen's field (text as typed, a decimal comma accepted) -> the same rule. */
export const expenseSettingFormSchema = z.object({
  receipt_threshold: z.string().trim().min(1, 'The receipt threshold field is required.')
    .transform((value) => Number(value.replace(',', '.'))).pipe(receiptThreshold),
});

/** What the form needs to know of the expense policy (GET /api/expense/policy). */
export interface ExpensePolicy { receipt_threshold: number }

// spec §4 "Approval status colours": yellow pending / reviewed by accounting / on hold, green
// approved by manager / approved, red rejected.
const states = {
  pending: { label: 'Pending', tone: 'yellow', step: 'Waiting for the manager', waitsFor: 'Waits for your manager' },
  'approved by manager': { label: 'Approved by manager', tone: 'green', step: 'Waiting for finance to review', waitsFor: 'Your manager approved it; it waits for finance to review' },
  'reviewed by accounting': { label: 'Reviewed by accounting', tone: 'yellow', step: 'Waiting for finance to approve', waitsFor: 'Waits for finance to approve' },
  'on hold': { label: 'On hold', tone: 'yellow', step: 'On hold until the decider resumes it', waitsFor: 'On hold: it waits for whoever held it to resume it' },
  approved: { label: 'Approved', tone: 'green', isFinal: true, step: 'Approved for reimbursement', waitsFor: 'Approved: it waits to be reimbursed' },
  // Issue 21: reached only when finance marks the claim's reimbursement batch paid (no transition
  // leads here, so no button offers it): src/server/modules/reimbursement.
  reimbursed: { label: 'Reimbursed', tone: 'green', isFinal: true, step: 'Reimbursed' },
  rejected: { label: 'Rejected', tone: 'red', isFinal: true, step: 'Rejected' },
} as const satisfies WorkflowDefinition['states'];
export type ExpenseStatus = keyof typeof states;
export const EXPENSE_STATUSES = Object.keys(states) as ExpenseStatus[];
/** A claim may still move (on hold included): these may be put on hold or rejected. */
export const OPEN_EXPENSE_STATUSES: readonly ExpenseStatus[] = ['pending', 'approved by manager', 'reviewed by accounting', 'on hold'];
const FINANCE_STEPS: ExpenseStatus[] = ['approved by manager', 'reviewed by accounting'];
const statusOptions: SelectOption[] = EXPENSE_STATUSES.map((value) => ({ value, label: states[value].label }));

// Nobody decides their own claim; the manager's step needs the claimant's manager (or an admin).
const managerStep = { permission: EXPENSE_APPROVE_PERMISSION, guards: ['notOwnRecord', 'managerOfOwner'] } as const;
const financeStep = { permission: EXPENSE_REVIEW_PERMISSION, guards: ['notOwnRecord'] } as const;

type Record_ = Readonly<Record<string, unknown>>;
/** "GBP 64.50". */
const amountOf = (r: Record_) => formatMoney(Number(r.amount), String(r.currency));
/** "Eddie Engineer's claim of GBP 64.50", as a decider names it. */
const theClaim = (r: Record_) => {
  const claimant = (r.user as { name?: string } | null)?.name;
  return `${claimant ? possessive(claimant) : 'the'} claim of ${amountOf(r)}`;
};
const claims = (count: number) => countOf(count, 'claim', 'claims');

/** What the claimant is told of a decision: "Your claim of GBP 64.50 was approved by Maria Manager. It now waits for finance." */
const toClaimant = (title: string, done: string, next: string) => (facts: EventFacts) => ({
  title,
  message: `Your claim of ${amountOf(facts.record)} (${String(facts.record.description)}) was ${done} by ${facts.actor}.${next ? ` ${next}` : ''}${theirComment(facts)}`,
});

const transitions: TransitionDefinition[] = [
  // The manager's step.
  { name: 'approve-manager', label: 'Approve', from: ['pending'], to: 'approved by manager', ...managerStep, comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Approve ${theClaim(r)}?`, confirmMany: (n) => `Approve ${claims(n)}?`, doneMany: (n) => `You approved ${claims(n)}.`,
      history: (actor) => `${actor} approved the claim for finance`,
      notify: {
        owner: toClaimant('Your claim was approved by your manager', 'approved', 'It now waits for finance.'),
        [`permission:${EXPENSE_REVIEW_PERMISSION}`]: (facts) => ({
          title: 'A claim waits for your review',
          message: `${facts.actor} approved ${theClaim(facts.record)} (${String(facts.record.description)}). It now waits for finance to review it.`,
        }),
      },
    } },
  { name: 'hold-manager', label: 'Put on hold', from: ['pending'], to: 'on hold', ...managerStep, comment: 'required', tone: 'neutral',
    words: {
      confirm: (r) => `Put ${theClaim(r)} on hold?`, confirmMany: (n) => `Put ${claims(n)} on hold?`, doneMany: (n) => `You put ${claims(n)} on hold.`,
      history: (actor) => `${actor} put the claim on hold`,
      note: (f) => withReason(`Put on hold by ${f.actor}`, f.comment),
      notify: { owner: toClaimant('Your claim was put on hold', 'put on hold', 'Your manager resumes it when it is ready.') },
    } },
  { name: 'reject-manager', label: 'Reject', from: ['pending'], to: 'rejected', ...managerStep, comment: 'required', tone: 'danger',
    words: {
      confirm: (r) => `Reject ${theClaim(r)}?`, confirmMany: (n) => `Reject ${claims(n)}?`, doneMany: (n) => `You rejected ${claims(n)}.`,
      history: (actor) => `${actor} rejected the claim`,
      note: (f) => withReason(`Rejected by ${f.actor}`, f.comment),
      notify: { owner: toClaimant('Your claim was rejected', 'rejected', '') },
    } },
  // Finance's steps.
  { name: 'review', label: 'Mark reviewed', from: ['approved by manager'], to: 'reviewed by accounting', ...financeStep, comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Mark ${theClaim(r)} as reviewed?`, confirmMany: (n) => `Mark ${claims(n)} as reviewed?`, doneMany: (n) => `You marked ${claims(n)} as reviewed.`,
      history: (actor) => `${actor} reviewed the claim`,
      notify: { owner: toClaimant('Your claim was reviewed by finance', 'reviewed', 'It now waits for finance to approve it.') },
    } },
  { name: 'approve', label: 'Approve', from: ['reviewed by accounting'], to: 'approved', ...financeStep, comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Approve ${theClaim(r)} for reimbursement?`, confirmMany: (n) => `Approve ${claims(n)} for reimbursement?`, doneMany: (n) => `You approved ${claims(n)} for reimbursement.`,
      history: (actor) => `${actor} approved the claim for reimbursement`,
      notify: { owner: toClaimant('Your claim was approved for reimbursement', 'approved for reimbursement', 'It is paid with the next reimbursement batch.') },
    } },
  { name: 'hold-finance', label: 'Put on hold', from: FINANCE_STEPS, to: 'on hold', ...financeStep, comment: 'required', tone: 'neutral',
    words: {
      confirm: (r) => `Put ${theClaim(r)} on hold?`, confirmMany: (n) => `Put ${claims(n)} on hold?`, doneMany: (n) => `You put ${claims(n)} on hold.`,
      history: (actor) => `${actor} put the claim on hold`,
      note: (f) => withReason(`Put on hold by ${f.actor}`, f.comment),
      notify: { owner: toClaimant('Your claim was put on hold', 'put on hold', 'Finance resumes it when it is ready.') },
    } },
  { name: 'reject-finance', label: 'Reject', from: FINANCE_STEPS, to: 'rejected', ...financeStep, comment: 'required', tone: 'danger',
    words: {
      confirm: (r) => `Reject ${theClaim(r)}?`, confirmMany: (n) => `Reject ${claims(n)}?`, doneMany: (n) => `You rejected ${claims(n)}.`,
      history: (actor) => `${actor} rejected the claim`,
      note: (f) => withReason(`Rejected by ${f.actor}`, f.comment),
      notify: { owner: toClaimant('Your claim was rejected', 'rejected', '') },
    } },
  // On hold: whoever decides the step the claim was held at resumes or rejects it (the server
  // checks that step against the history: src/server/modules/expense/service.ts).
  { name: 'resume', label: 'Resume', from: ['on hold'], to: PREVIOUS_STATE, permission: `${EXPENSE_APPROVE_PERMISSION}|${EXPENSE_REVIEW_PERMISSION}`,
    guards: ['notOwnRecord'], comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Resume ${theClaim(r)}?`, confirmMany: (n) => `Resume ${claims(n)}?`, doneMany: (n) => `You resumed ${claims(n)}.`,
      history: (actor) => `${actor} resumed the claim`,
      notify: { owner: (facts) => ({ title: 'Your claim was resumed', message: `${facts.actor} resumed your claim of ${amountOf(facts.record)} (${String(facts.record.description)}): it is back where it was put on hold.${theirComment(facts)}` }) },
    } },
  { name: 'reject-on-hold', label: 'Reject', from: ['on hold'], to: 'rejected', permission: `${EXPENSE_APPROVE_PERMISSION}|${EXPENSE_REVIEW_PERMISSION}`,
    guards: ['notOwnRecord'], comment: 'required', tone: 'danger',
    words: {
      confirm: (r) => `Reject ${theClaim(r)}?`, confirmMany: (n) => `Reject ${claims(n)}?`, doneMany: (n) => `You rejected ${claims(n)}.`,
      history: (actor) => `${actor} rejected the claim`,
      note: (f) => withReason(`Rejected by ${f.actor}`, f.comment),
      notify: { owner: toClaimant('Your claim was rejected', 'rejected', '') },
    } },
];

/** Transitions taken from 'on hold', whose decider is whoever decides the step the claim was held at. */
export const FROM_HOLD_TRANSITIONS = ['resume', 'reject-on-hold'] as const;
/** The step a hold was put on: the manager's (pending) or finance's (the later ones). */
export const holdStepOf = (heldFrom: string | null | undefined): 'manager' | 'finance' => (heldFrom === 'pending' ? 'manager' : 'finance');

export const expenseWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: 'pending',
  ownerField: 'user_id',
  states,
  transitions,
  events: {
    create: {
      history: (actor) => `${actor} submitted the claim`,
      notify: {
        ownerManager: (facts) => ({
          title: 'A claim waits for your approval',
          message: `${facts.actor} claimed ${amountOf(facts.record)} for ${String(facts.record.description)}, spent on ${String(facts.record.expense_date)}.`,
        }),
      },
    },
    // Finance marks the claim's reimbursement batch paid (src/server/modules/reimbursement).
    reimburse: { history: (actor) => `${actor} marked the claim reimbursed` },
    // A claim edited while on hold goes back to the manager, whatever step it was held at.
    edit: {
      history: (actor) => `${actor} edited the claim, so it goes back to the manager`,
      notify: {
        ownerManager: (facts) => ({
          title: 'An edited claim waits for your approval',
          message: `${facts.actor} edited their claim of ${amountOf(facts.record)} (${String(facts.record.description)}) after it was decided, so it comes back to you to decide again.`,
        }),
      },
    },
  },
};

const amount = z.number({ error: 'The amount field is required.' })
  .positive('The amount must be greater than 0.')
  .max(MAX_AMOUNT, 'The amount is too large.')
  // Money in cents: 12.345 is refused rather than rounded behind the claimant's back.
  .refine(hasAtMostTwoDecimals, 'The amount may have at most 2 decimals.');

export const expense = defineResource({
  name: 'expense',
  dashboard: { keptBy: ['status', 'user_id'] },
  label: 'Expense',
  pluralLabel: 'Expenses',
  // The server flags a claim like another of the claimant's (modules/expense): the answer says so.
  words: {
    created: (row) => `Expense created successfully.${row.is_possible_duplicate ? ` ${DUPLICATE_NOTE}` : ''}`,
    updated: (row) => `Expense updated successfully.${row.is_possible_duplicate ? ` ${DUPLICATE_NOTE}` : ''}`,
  },
  schema: z.object({
    description: requiredText('description', 255),
    expense_category_id: referenceId('expense category'),
    expense_date: dateField('date'),
    amount,
    currency: z.enum(EXPENSE_CURRENCIES, { error: 'The selected currency is invalid.' }),
    client_id: optionalReferenceId('client'),
    is_rebillable: z.boolean({ error: 'The rebillable field must be true or false.' }).optional(),
  }),
  fields: {
    // The title first: phone cards lead with it.
    description: { label: 'Description', input: 'text', isColumn: true, placeholder: 'e.g. Taxi to the client site' },
    user_id: {
      label: 'Claimant', input: 'reference', isColumn: true, isSortable: true, isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'user' },
    },
    expense_category_id: {
      label: 'Category', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'expense-category', labelKey: 'name', relation: 'expense_category' },
    },
    expense_date: { label: 'Date', input: 'date', isColumn: true, isSortable: true },
    amount: { label: 'Amount', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true },
    // The amount shows its currency on the detail page.
    currency: { label: 'Currency', input: 'select', options: currencyOptions, isInDetail: false, initialFrom: 'firm-currency' },
    client_id: {
      label: 'Client', input: 'reference',
      reference: { resource: 'client', labelKey: 'name', relation: 'client' },
      help: 'The client the expense was incurred for, if any.',
    },
    is_rebillable: { label: 'Rebillable to the client', input: 'boolean', help: 'The firm will bill this expense on to the client.' },
    receipts: {
      label: 'Receipts', input: 'file',
      file: { extensions: RECEIPT_EXTENSIONS, maxBytes: RECEIPT_MAX_BYTES, isMultiple: true, maxFiles: RECEIPT_MAX_FILES },
    },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    is_possible_duplicate: {
      // Listed under the amount (the screen's cell), filterable, and on the detail page.
      label: 'Possible duplicate', input: 'boolean', isInForm: false,
      help: 'Another claim of the same person has the same date and amount.',
    },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'description',
  // Whose claim, where it stands and how much come before the day and the category: at 1366 px the status was under the row's buttons.
  listOrder: ['description', 'user_id', 'status', 'amount', 'expense_date', 'expense_category_id'],
  search: ['description'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'user_id', label: 'Claimant', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'expense_category_id', label: 'Category', type: 'reference', reference: { resource: 'expense-category', labelKey: 'name' } },
    { key: 'client_id', label: 'Client', type: 'reference', reference: { resource: 'client', labelKey: 'name' } },
    { key: 'currency', label: 'Currency', type: 'select', options: currencyOptions },
    { key: 'is_rebillable', label: 'Rebillable', type: 'boolean' },
    { key: 'is_possible_duplicate', label: 'Possible duplicate', type: 'boolean' },
    { key: 'expense_date', label: 'Date', type: 'date-range' },
  ],
  defaultSort: { key: 'expense_date', direction: 'desc' },
  permissions: { view: 'can-view-expense', add: 'can-add-expense', edit: 'can-edit-expense', delete: 'can-delete-expense' },
  routes: { index: 'expense.index', create: 'expense.create', show: 'expense.show', edit: 'expense.edit' },
  menu: { icon: 'wallet', group: 'Expense', order: 20 },
  workflow: expenseWorkflow,
  editableStates: ['pending', 'on hold'],
  // Issue 26: filing, correcting and withdrawing one's claim wait in the outbox offline, receipts and all.
  offline: {
    saves: {
      create: (v) => `Your expense claim ${quoted(v.description)}${moneyOf(v) ? ` for ${moneyOf(v)}` : ''}`,
      edit: (v) => `Your changes to the expense claim ${quoted(v.description)}${moneyOf(v) ? ` for ${moneyOf(v)}` : ''}`,
    },
    deletes: (r) => `Your expense claim ${quoted(r.description)}, to withdraw`,
  },
  // Money has moved on from the manager's step: the record stays for the books.
  deleteRefusal: (row) => (['approved by manager', 'reviewed by accounting', 'approved', 'reimbursed'].includes(String(row.status))
    ? 'An expense approved by the manager cannot be deleted.' : null),
});
