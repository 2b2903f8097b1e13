import { z } from 'zod';
import {
  countOf, dateField, defineResource, type EventFacts, type NotificationText, PREVIOUS_STATE, theirComment, referenceId, requiredText,
  type SelectOption, type TransitionDefinition, type WorkflowDefinition, type WorkflowState, withReason,
} from './define';
import { quoted } from './offline-words';
import { createdAtColumn } from './common';
import { compareMoney, formatMoney, hasAtMostTwoDecimals, subtractMoney } from '../money';

/**
 * Partner invoices (issue 11; spec §2 /ikk-partner/invoice and the partner portal's Invoice): a
 * partner firm invoices one approved pre-billing statement with a PDF; the firm's manager step,
 * then finance approve it and finance records its payments (issue 21: in parts, each with its date,
 * method and reference; the invoice is paid when they reach its total). Served to staff as `partner-invoice`
 * and to the firm's logins under `/api/partner/invoice` (owner), scoped to their firm.
 */

/** The manager's step (first decision) and finance's (final approval, then payment). */
export const PARTNER_INVOICE_APPROVE_PERMISSION = 'can-approve-partner-invoice';
export const PARTNER_INVOICE_PAY_PERMISSION = 'can-pay-partner-invoice';
const EITHER_DECIDER = `${PARTNER_INVOICE_APPROVE_PERMISSION}|${PARTNER_INVOICE_PAY_PERMISSION}`;

export const INVOICE_PDF_MAX_BYTES = 10 * 1024 * 1024;
export const MAX_INVOICE_AMOUNT = 999_999_999_999.99; // numeric(14, 2)

// spec §4 "Approval status colours": yellow pending / on hold, green approved by manager / approved,
// red rejected. Paid is not named there; it is the good end of the road, so green.
const states = {
  pending: { label: 'Pending', tone: 'yellow', step: 'Waiting for the manager' },
  'approved by manager': { label: 'Approved by manager', tone: 'green', step: 'Waiting for finance to approve' },
  approved: { label: 'Approved', tone: 'green', step: 'Waiting for payment: finance records each payment' },
  // Reached by the payments, never chosen: when they add up to the total (recordPartnerInvoicePayment).
  paid: { label: 'Paid', tone: 'green', isFinal: true, step: 'Paid in full' },
  'on hold': { label: 'On hold', tone: 'yellow', step: 'On hold until the decider resumes it' },
  // Not final: the partner corrects it and it is pending again (resubmission on edit).
  rejected: { label: 'Rejected', tone: 'red', step: 'Returned to the partner to correct' },
} as const satisfies WorkflowDefinition['states'];
export type PartnerInvoiceStatus = keyof typeof states;
export const PARTNER_INVOICE_STATUSES = Object.keys(states) as PartnerInvoiceStatus[];
const statusOptions: SelectOption[] = PARTNER_INVOICE_STATUSES.map((value) => ({ value, label: states[value].label }));

/**
 * The same states as the partner reads them (issue 11: "its own statuses in partner-friendly
 * words"): what happens next from their side, never the firm's internal steps. The colours stay
 * spec §4's (issue 24): "approved by manager" is green on the portal too, and what the partner
 * waits for sits beside it as a hint (`step`) instead of changing its colour.
 */
export const PARTNER_FRIENDLY_STATES: Readonly<Record<PartnerInvoiceStatus, Pick<WorkflowState, 'label' | 'tone'> & { step?: string }>> = {
  pending: { label: 'Submitted', tone: 'yellow', step: 'Waiting for the manager' },
  'approved by manager': { label: 'Approved by manager', tone: 'green', step: 'Finance approves it next' },
  approved: { label: 'Approved, awaiting payment', tone: 'green' },
  paid: { label: 'Paid', tone: 'green' },
  'on hold': { label: 'On hold', tone: 'yellow' },
  rejected: { label: 'Returned: please correct', tone: 'red' },
};

/** An approved invoice some of which was paid, as the partner's list, page and dashboard name it. */
export const PARTLY_PAID = 'Partly paid';

/**
 * Beside an approved invoice's state on its page when some of it was paid (decision 063: the row's
 * `status_note`, set by the server): "Partly paid: EUR 3,000.00 received, EUR 4,000.00 outstanding."
 */
export function partlyPaidNote(row: Readonly<Record<string, unknown>>): string | null {
  const paid = typeof row.amount_paid === 'number' ? row.amount_paid : 0;
  if (row.status !== 'approved' || paid <= 0 || typeof row.outstanding !== 'number') return null;
  const currency = String(row.currency ?? '');
  return `${PARTLY_PAID}: ${formatMoney(paid, currency)} received, ${formatMoney(row.outstanding, currency)} outstanding.`;
}

/** A status as the partner reads it; paid says when ("Paid on 2026-05-03"), an approved one paid in part says so. */
export function partnerStatusLabel(status: unknown, paymentDate?: unknown, amountPaid?: unknown): string {
  const state = PARTNER_FRIENDLY_STATES[String(status) as PartnerInvoiceStatus];
  if (!state) return String(status ?? '');
  if (status === 'paid' && typeof paymentDate === 'string' && paymentDate) return `Paid on ${paymentDate.slice(0, 10)}`;
  if (status === 'approved' && typeof amountPaid === 'number' && amountPaid > 0) return PARTLY_PAID;
  return state.label;
}

// Every decision tells the partner firm (all its logins) live and by mail (issue 11), in the firm's words.
type Record_ = Readonly<Record<string, unknown>>;
/** "INV-14 of Acme Partners (EUR 1,440.00 with tax)", as staff name it. */
const theInvoice = (r: Record_) => {
  const partner = (r.partner as { name?: string } | null)?.name;
  return `invoice ${String(r.invoice_number)}${partner ? ` of ${partner}` : ''} (${formatMoney(Number(r.total), String(r.currency))} with tax)`;
};
/** "your invoice INV-14 (EUR 1,440.00 with tax)", as the partner reads it. */
const yourInvoice = (r: Record_) => `your invoice ${String(r.invoice_number)} (${formatMoney(Number(r.total), String(r.currency))} with tax)`;
const invoices = (count: number) => countOf(count, 'invoice', 'invoices');
const toPartner = (title: string, sentence: (facts: EventFacts) => string) => (facts: EventFacts): NotificationText => ({
  title, message: `${sentence(facts)}${theirComment(facts)}`,
});

const transitions: TransitionDefinition[] = [
  { name: 'approve-manager', label: 'Approve', from: ['pending'], to: 'approved by manager', permission: PARTNER_INVOICE_APPROVE_PERMISSION,
    comment: 'optional', isMailed: true, tone: 'primary',
    words: {
      confirm: (r) => `Approve ${theInvoice(r)} for finance?`, confirmMany: (n) => `Approve ${invoices(n)} for finance?`, doneMany: (n) => `You approved ${invoices(n)} for finance.`,
      history: (actor) => `${actor} approved the invoice for finance`,
      notify: {
        owner: toPartner('Your invoice was approved by your account manager', (f) => `${f.actor} approved ${yourInvoice(f.record)}. Finance approves it next, then pays it.`),
        [`permission:${PARTNER_INVOICE_PAY_PERMISSION}`]: (f) => ({
          title: 'An invoice waits for your approval',
          message: `${f.actor} approved ${theInvoice(f.record)}, due ${String(f.record.due_date)}. It now waits for finance.`,
        }),
      },
    } },
  { name: 'approve', label: 'Approve', from: ['approved by manager'], to: 'approved', permission: PARTNER_INVOICE_PAY_PERMISSION,
    comment: 'optional', isMailed: true, tone: 'primary',
    words: {
      confirm: (r) => `Approve ${theInvoice(r)} for payment?`, confirmMany: (n) => `Approve ${invoices(n)} for payment?`, doneMany: (n) => `You approved ${invoices(n)} for payment.`,
      history: (actor) => `${actor} approved the invoice for payment`,
      notify: { owner: toPartner('Your invoice was approved for payment', (f) => `${f.actor} approved ${yourInvoice(f.record)} for payment. It falls due on ${String(f.record.due_date)}.`) },
    } },
  // No 'pay' transition: finance records payments (POST …/payments) and the last one makes it paid.
  { name: 'hold', label: 'Put on hold', from: ['pending', 'approved by manager', 'approved'], to: 'on hold', permission: EITHER_DECIDER,
    comment: 'required', isMailed: true, tone: 'neutral',
    words: {
      confirm: (r) => `Put ${theInvoice(r)} on hold?`, confirmMany: (n) => `Put ${invoices(n)} on hold?`, doneMany: (n) => `You put ${invoices(n)} on hold.`,
      history: (actor) => `${actor} put the invoice on hold`,
      note: (f) => withReason(`Put on hold by ${f.actor}`, f.comment),
      notify: { owner: toPartner('Your invoice was put on hold', (f) => `${f.actor} put ${yourInvoice(f.record)} on hold.`) },
    } },
  { name: 'resume', label: 'Resume', from: ['on hold'], to: PREVIOUS_STATE, permission: EITHER_DECIDER,
    comment: 'optional', isMailed: true, tone: 'primary',
    words: {
      confirm: (r) => `Resume ${theInvoice(r)}?`, confirmMany: (n) => `Resume ${invoices(n)}?`, doneMany: (n) => `You resumed ${invoices(n)}.`,
      history: (actor) => `${actor} resumed the invoice`,
      notify: { owner: toPartner('Your invoice was resumed', (f) => `${f.actor} resumed ${yourInvoice(f.record)}: it goes on from where it was put on hold.`) },
    } },
  { name: 'reject', label: 'Reject', from: ['pending', 'approved by manager', 'on hold'], to: 'rejected', permission: EITHER_DECIDER,
    comment: 'required', isMailed: true, tone: 'danger',
    words: {
      confirm: (r) => `Return ${theInvoice(r)} to the partner to correct?`, confirmMany: (n) => `Return ${invoices(n)} to their partners to correct?`, doneMany: (n) => `You returned ${invoices(n)} to their partners to correct.`,
      history: (actor) => `${actor} returned the invoice to the partner to correct`,
      note: (f) => withReason(`Returned by ${f.actor}`, f.comment),
      notify: { owner: toPartner('Your invoice was returned: please correct it', (f) => `${f.actor} returned ${yourInvoice(f.record)}. Correct it and submit it again.`) },
    } },
];

/** Whom a new or corrected invoice tells: the account manager takes the first step; finance follows every invoice. */
const toDeciders = (title: string, verb: string) => ({
  ownerManager: (f: EventFacts) => ({ title, message: `${f.actor} ${verb} ${theInvoice(f.record)}, due ${String(f.record.due_date)}. It waits for your approval.` }),
  [`permission:${PARTNER_INVOICE_PAY_PERMISSION}`]: (f: EventFacts) => ({ title, message: `${f.actor} ${verb} ${theInvoice(f.record)}, due ${String(f.record.due_date)}. Its account manager approves it first.` }),
});

export const partnerInvoiceWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: 'pending',
  // A partner-owned definition: 'owner' is every active login of the firm, 'ownerManager' its account manager.
  ownerField: 'partner_id',
  states,
  transitions,
  events: {
    create: { history: (actor) => `${actor} submitted the invoice`, notify: toDeciders('New partner invoice', 'submitted') },
    // The partner corrected a returned invoice (src/server/modules/partner-invoice/service.ts).
    resubmit: { history: (actor) => `${actor} corrected and resubmitted the invoice`, notify: toDeciders('Partner invoice resubmitted', 'corrected and resubmitted') },
    'payment-received': { history: (actor) => `${actor} recorded a payment` },
  },
};

const money = (label: string, { isPositive }: { isPositive: boolean }) => {
  const base = z.number({ error: isPositive ? `The ${label} field is required.` : `The ${label} field must be a number.` });
  return (isPositive ? base.positive(`The ${label} must be greater than 0.`) : base.min(0, `The ${label} must be at least 0.`))
    .max(MAX_INVOICE_AMOUNT, `The ${label} is too large.`)
    // Money in cents: 12.345 is refused rather than rounded behind the partner's back.
    .refine(hasAtMostTwoDecimals, `The ${label} may have at most 2 decimals.`);
};

export const partnerInvoice = defineResource({
  name: 'partner-invoice',
  dashboard: { keptBy: ['status', 'partner_id'] },
  label: 'Invoice',
  pluralLabel: 'Invoices',
  words: { created: 'Invoice submitted successfully.' },
  schema: z.object({
    invoice_number: requiredText('invoice number', 60),
    invoice_date: dateField('invoice date'),
    // Empty: the invoice date plus the firm's payment terms (server).
    due_date: dateField('due date').nullish(),
    pre_billing_id: referenceId('pre-billing'),
    // Named as the form labels it: the net, apart from the tax (issue 21).
    amount: money('net amount', { isPositive: true }),
    tax: money('tax', { isPositive: false }).nullish(),
    // Empty: the pre-billing's currency; another one is refused.
    currency: z.string({ error: 'The currency field must be a string.' }).trim().toUpperCase()
      .regex(/^[A-Z]{3}$/, 'The currency must be a three-letter code such as EUR.').nullish(),
  }),
  fields: {
    // The title first: phone cards lead with it.
    invoice_number: { label: 'Invoice number', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. INV-2026-014' },
    partner_id: {
      label: 'Partner', input: 'reference', isColumn: true, isSortable: true, isInForm: false,
      reference: { resource: 'ikk-partner', labelKey: 'name', relation: 'partner' },
    },
    pre_billing_id: {
      label: 'Pre-billing', input: 'reference', isColumn: true,
      // The statement's month names it (one statement per partner and month).
      reference: { resource: 'pre-billing', labelKey: 'month', relation: 'pre_billing' },
      help: 'The approved pre-billing statement this invoice bills.',
    },
    // Not a list column: the net beside the total takes its room; the due date is what a payer sorts by.
    invoice_date: { label: 'Invoice date', input: 'date', isSortable: true },
    due_date: { label: 'Due date', input: 'date', isColumn: true, isSortable: true, help: 'Leave empty to use your payment terms.' },
    // Net and gross said on every figure (issue 21): the net is what the pre-billing is compared with.
    amount: { label: 'Net amount', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true, help: 'Before tax: the approved pre-billing\'s total.' },
    tax: { label: 'Tax', input: 'number', currencyField: 'currency' },
    total: { label: 'Total with tax', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true, isInForm: false },
    amount_paid: { label: 'Paid', input: 'number', currencyField: 'currency', isInForm: false, help: 'The payments recorded so far, against the total with tax.' },
    outstanding: { label: 'Outstanding', input: 'number', currencyField: 'currency', isSortable: true, isInForm: false, help: 'The total with tax less the payments recorded.' },
    currency: { label: 'Currency', input: 'text', placeholder: 'e.g. EUR', help: 'Leave empty to use the pre-billing\'s currency.' },
    file: { label: 'Invoice PDF', input: 'file', file: { extensions: ['pdf'], maxBytes: INVOICE_PDF_MAX_BYTES } },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    // Said beside the state on the detail page (the decision's note, decision 063) rather than as a row reading "Reason —" on every other invoice.
    status_reason: { label: 'Reason', input: 'textarea', isInForm: false, isInDetail: false, help: 'Why the invoice was returned or put on hold.' },
    payment_date: { label: 'Paid in full on', input: 'date', isSortable: true, isInForm: false },
    // Shown on the net amount (once), not as a row of its own; kept as a field for the filter.
    is_net_mismatch: {
      label: 'Net differs from the pre-billing', input: 'boolean', isInForm: false, isInDetail: false,
      help: 'The invoice\'s net amount is not the approved pre-billing\'s total.',
    },
    is_overdue: { label: 'Overdue', input: 'boolean', isInForm: false, help: 'Past its due date and not paid yet.' },
    created_at: { ...createdAtColumn, label: 'Submitted', isColumn: false },
  },
  titleKey: 'invoice_number',
  search: ['invoice_number'],
  filters: [
    { key: 'partner_id', label: 'Partner', type: 'reference', reference: { resource: 'ikk-partner', labelKey: 'name' } },
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'is_overdue', label: 'Overdue', type: 'boolean' },
    { key: 'is_net_mismatch', label: 'Net differs from the pre-billing', type: 'boolean' },
    { key: 'due_date', label: 'Due date', type: 'date-range' },
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  permissions: { view: 'can-view-partner-invoice', edit: 'can-edit-partner-invoice' },
  routes: { index: 'partner-invoice.index', show: 'partner-invoice.show', edit: 'partner-invoice.edit' },
  menu: { icon: 'file', group: 'Partner', order: 30 },
  owner: {
    account: 'partner',
    column: 'partner_id',
    segment: 'invoice',
    permissions: { view: 'can-view-invoice', add: 'can-add-invoice', edit: 'can-edit-invoice' },
    routes: { index: 'partner.invoice.index', create: 'partner.invoice.create', show: 'partner.invoice.show', edit: 'partner.invoice.edit' },
    states: PARTNER_FRIENDLY_STATES,
  },
  workflow: partnerInvoiceWorkflow,
  // Issue 26: a partner files and corrects its invoices offline, against the approved statements kept while online.
  offline: {
    saves: {
      create: (v) => `Your invoice ${quoted(v.invoice_number)}`,
      edit: (v) => `Your corrections to the invoice ${quoted(v.invoice_number)}`,
    },
    reads: ['/partner/invoice/billable'],
  },
  // The partner corrects an invoice while nobody has decided it yet, or after it came back.
  editableStates: ['pending', 'rejected'],
});

/**
 * What differs from the approved pre-billing, compared like with like (the invoice's net with the
 * statement's total; the tax is apart): "The invoice's net is EUR 7,250.00, EUR 50.00 more than the
 * approved statement of EUR 7,200.00." Null when they agree or the statement's total is unknown.
 */
export function preBillingDifference(row: Readonly<Record<string, unknown>>): string | null {
  if (typeof row.amount !== 'number' || typeof row.pre_billing_total !== 'number') return null;
  const currency = String(row.currency ?? '');
  const order = compareMoney(row.amount, row.pre_billing_total);
  if (order === 0) return null;
  const gap = formatMoney(Math.abs(subtractMoney(row.amount, row.pre_billing_total)), currency);
  return `The invoice's net is ${formatMoney(row.amount, currency)}, ${gap} ${order > 0 ? 'more' : 'less'} than the approved statement of ${formatMoney(row.pre_billing_total, currency)}.`;
}

// ---- Payments (issue 21) ----

export const PAYMENT_METHODS = ['bank transfer', 'cheque', 'card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = { 'bank transfer': 'Bank transfer', cheque: 'Cheque', card: 'Card', other: 'Other' };

/** POST /api/partner-invoice/{id}/payments: what finance records of one payment. */
export const recordPaymentSchema = z.object({
  payment_date: dateField('payment date'),
  amount: money('amount', { isPositive: true }),
  method: z.enum(PAYMENT_METHODS, { error: 'The method must be one of: bank transfer, cheque, card, other.' }),
  reference: requiredText('reference', 100),
});
export type RecordPaymentInput = z.infer<typeof recordPaymentSchema>;

/** A payment as rows carry it (`payments`, oldest first). */
export interface PartnerInvoicePayment {
  id: number;
  payment_date: string;
  amount: number;
  method: PaymentMethod;
  reference: string;
  recorded_by: { id: number; name: string } | null;
}

/**
 * What the partner is told of a payment, in a notification that stands on its own: "Payment of
 * EUR 4,320.00 received for invoice INV-7, reference RT-5521. EUR 4,320.00 remains outstanding."
 */
export function paymentReceivedText(invoice: { invoice_number: unknown; currency: unknown }, payment: { amount: number; reference: string }, outstanding: number): string {
  const currency = String(invoice.currency);
  const received = `Payment of ${formatMoney(payment.amount, currency)} received for invoice ${String(invoice.invoice_number)}, reference ${payment.reference}.`;
  return outstanding > 0
    ? `${received} ${formatMoney(outstanding, currency)} remains outstanding.`
    : `${received} The invoice is now paid in full.`;
}

/** The history's name of a payment (approved -> approved, or -> paid by the last one). */
export const PAYMENT_TRANSITION = 'payment-received';

/**
 * What the invoice's history keeps of a payment, after its line "Fiona Finance recorded a payment":
 * "EUR 4,320.00 by bank transfer on 2026-05-03, reference RT-5521. EUR 4,320.00 remains outstanding."
 * The notification's sentence glued to the method read "…recorded a payment: Payment of EUR 4,320.00
 * received for invoice INV-7, … Paid by bank transfer on …", saying the payment three times over, and
 * the invoice on its own page.
 */
export function paymentHistoryText(invoice: { currency: unknown }, payment: { amount: number; method: PaymentMethod; payment_date: string; reference: string }, outstanding: number): string {
  const currency = String(invoice.currency);
  // "by other" says nothing: a payment of another kind is named by its amount and date alone.
  const method = payment.method === 'other' ? '' : ` by ${payment.method}`;
  const paid = `${formatMoney(payment.amount, currency)}${method} on ${payment.payment_date}, reference ${payment.reference}.`;
  return outstanding > 0 ? `${paid} ${formatMoney(outstanding, currency)} remains outstanding.` : `${paid} The invoice is now paid in full.`;
}
