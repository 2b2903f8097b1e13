import { z } from 'zod';
import {
  dateField, defineResource, PREVIOUS_STATE, referenceId, requiredText,
  type SelectOption, type TransitionDefinition, type WorkflowDefinition, type WorkflowState,
} from './define';
import { createdAtColumn } from './common';
import { formatMoney } from './expense';

/**
 * Partner invoices (issue 11; spec §2 /ikk-partner/invoice and the partner portal's Invoice): a
 * partner firm invoices one approved pre-billing statement with a PDF; the firm's manager step,
 * then finance approve it and finance records the payment. Served to staff as `partner-invoice`
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
  approved: { label: 'Approved', tone: 'green', step: 'Waiting for payment' },
  paid: { label: 'Paid', tone: 'green', isFinal: true, step: 'Paid' },
  'on hold': { label: 'On hold', tone: 'yellow', step: 'On hold until the decider resumes it' },
  // Not final: the partner corrects it and it is pending again (resubmission on edit).
  rejected: { label: 'Rejected', tone: 'red', step: 'Returned to the partner to correct' },
} as const satisfies WorkflowDefinition['states'];
export type PartnerInvoiceStatus = keyof typeof states;
export const PARTNER_INVOICE_STATUSES = Object.keys(states) as PartnerInvoiceStatus[];
const statusOptions: SelectOption[] = PARTNER_INVOICE_STATUSES.map((value) => ({ value, label: states[value].label }));

/**
 * The same states as the partner reads them (issue 11: "its own statuses in partner-friendly
 * words"): what happens next from their side, never the firm's internal steps.
 */
export const PARTNER_FRIENDLY_STATES: Readonly<Record<PartnerInvoiceStatus, Pick<WorkflowState, 'label' | 'tone'>>> = {
  pending: { label: 'Submitted', tone: 'yellow' },
  'approved by manager': { label: 'Being approved', tone: 'yellow' },
  approved: { label: 'Approved, awaiting payment', tone: 'green' },
  paid: { label: 'Paid', tone: 'green' },
  'on hold': { label: 'On hold', tone: 'yellow' },
  rejected: { label: 'Returned: please correct', tone: 'red' },
};

/** A status as the partner reads it; paid says when ("Paid on 2026-05-03"). */
export function partnerStatusLabel(status: unknown, paymentDate?: unknown): string {
  const state = PARTNER_FRIENDLY_STATES[String(status) as PartnerInvoiceStatus];
  if (!state) return String(status ?? '');
  if (status === 'paid' && typeof paymentDate === 'string' && paymentDate) return `Paid on ${paymentDate.slice(0, 10)}`;
  return state.label;
}

// Every decision tells the partner firm (all its logins) live and by mail (issue 11).
const toPartner = { notify: ['owner'], isMailed: true } as const;

const transitions: TransitionDefinition[] = [
  { name: 'approve-manager', label: 'Approve', from: ['pending'], to: 'approved by manager', permission: PARTNER_INVOICE_APPROVE_PERMISSION,
    comment: 'optional', ...toPartner, notify: ['owner', `permission:${PARTNER_INVOICE_PAY_PERMISSION}`], tone: 'primary' },
  { name: 'approve', label: 'Approve', from: ['approved by manager'], to: 'approved', permission: PARTNER_INVOICE_PAY_PERMISSION,
    comment: 'optional', ...toPartner, tone: 'primary' },
  // The payment date is the day finance records it (the transition body is `{comment}` only).
  { name: 'pay', label: 'Mark paid', from: ['approved'], to: 'paid', permission: PARTNER_INVOICE_PAY_PERMISSION,
    comment: 'optional', ...toPartner, tone: 'primary' },
  { name: 'hold', label: 'Put on hold', from: ['pending', 'approved by manager', 'approved'], to: 'on hold', permission: EITHER_DECIDER,
    comment: 'required', ...toPartner, tone: 'neutral' },
  { name: 'resume', label: 'Resume', from: ['on hold'], to: PREVIOUS_STATE, permission: EITHER_DECIDER,
    comment: 'optional', ...toPartner, tone: 'primary' },
  { name: 'reject', label: 'Reject', from: ['pending', 'approved by manager', 'on hold'], to: 'rejected', permission: EITHER_DECIDER,
    comment: 'required', ...toPartner, tone: 'danger' },
];

export const partnerInvoiceWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: 'pending',
  // A partner-owned definition: 'owner' is every active login of the firm, 'ownerManager' its account manager.
  ownerField: 'partner_id',
  states,
  transitions,
  // The account manager takes the first step; finance follows every invoice.
  notifyOnCreate: ['ownerManager', `permission:${PARTNER_INVOICE_PAY_PERMISSION}`],
};

const money = (label: string, { isPositive }: { isPositive: boolean }) => {
  const base = z.number({ error: isPositive ? `The ${label} field is required.` : `The ${label} field must be a number.` });
  return (isPositive ? base.positive(`The ${label} must be greater than 0.`) : base.min(0, `The ${label} must be at least 0.`))
    .max(MAX_INVOICE_AMOUNT, `The ${label} is too large.`)
    // Money in cents: 12.345 is refused rather than rounded behind the partner's back.
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, `The ${label} may have at most 2 decimals.`);
};

export const partnerInvoice = defineResource({
  name: 'partner-invoice',
  label: 'Invoice',
  pluralLabel: 'Invoices',
  schema: z.object({
    invoice_number: requiredText('invoice number', 60),
    invoice_date: dateField('invoice date'),
    // Empty: the invoice date plus the firm's payment terms (server).
    due_date: dateField('due date').nullish(),
    pre_billing_id: referenceId('pre-billing'),
    amount: money('amount', { isPositive: true }),
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
    invoice_date: { label: 'Invoice date', input: 'date', isColumn: true, isSortable: true },
    due_date: { label: 'Due date', input: 'date', isColumn: true, isSortable: true, help: 'Leave empty to use your payment terms.' },
    amount: { label: 'Amount', input: 'number', currencyField: 'currency', placeholder: '0.00' },
    tax: { label: 'Tax', input: 'number', currencyField: 'currency', placeholder: '0.00' },
    total: { label: 'Total', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true, isInForm: false },
    currency: { label: 'Currency', input: 'text', placeholder: 'e.g. EUR', help: 'Leave empty to use the pre-billing\'s currency.' },
    file: { label: 'Invoice PDF', input: 'file', file: { extensions: ['pdf'], maxBytes: INVOICE_PDF_MAX_BYTES } },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    status_reason: { label: 'Reason', input: 'textarea', isInForm: false, help: 'Why the invoice was returned or put on hold.' },
    payment_date: { label: 'Payment date', input: 'date', isSortable: true, isInForm: false },
    is_total_mismatch: {
      label: 'Total differs from the pre-billing', input: 'boolean', isInForm: false,
      help: 'The invoice total is not the approved pre-billing\'s total.',
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
    { key: 'due_date', label: 'Due date', type: 'date-range' },
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  permissions: { view: 'can-view-partner-invoice', edit: 'can-edit-partner-invoice' },
  routes: { index: 'partner-invoice.index', show: 'partner-invoice.show', edit: 'partner-invoice.edit' },
  owner: {
    account: 'partner',
    column: 'partner_id',
    segment: 'invoice',
    permissions: { view: 'can-view-invoice', add: 'can-add-invoice', edit: 'can-edit-invoice' },
    routes: { index: 'partner.invoice.index', create: 'partner.invoice.create', show: 'partner.invoice.show', edit: 'partner.invoice.edit' },
    states: PARTNER_FRIENDLY_STATES,
  },
  workflow: partnerInvoiceWorkflow,
  // The partner corrects an invoice while nobody has decided it yet, or after it came back.
  editableStates: ['pending', 'rejected'],
});

/** How notifications and screens name an invoice: “INV-14” (EUR 1,200.00, due 2026-05-31). */
export const describePartnerInvoice = (row: Record<string, unknown>) =>
  `the invoice “${String(row.invoice_number)}” (${formatMoney(Number(row.total), String(row.currency))}, due ${String(row.due_date).slice(0, 10)})`;
