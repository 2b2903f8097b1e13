import { z } from 'zod';
import {
  countOf, dateField, defineResource, type FileFieldDefinition, optionalText, referenceId, requiredText,
  type SelectOption, type WorkflowDefinition,
} from './define';
import { createdAtColumn } from './common';
import { EXPENSE_CURRENCIES, MAX_AMOUNT } from './expense';

/**
 * Client contracts (issue 13): one record per purchase order, with the client, the people placed
 * under it, its dates, value and the signed document. Statuses are spec §4's contract statuses,
 * applied on their dates in the firm's time zone (issue 21): a job expires a contract on its end
 * date; a new PO is recorded as a new contract (its own number, dates, value and document) starting
 * the day after the one it renews ends, which stays Active until then and becomes 'Expired New PO
 * Released' on its end date. Each PO keeps its own history and the two stay linked
 * (`previous_contract_id`; the old one's `renewed_by`).
 */

export const CONTRACT_ACTIVE = 'Active';
export const CONTRACT_EXPIRED = 'Expired';
export const CONTRACT_RENEWING = 'Renewal in progress';
export const CONTRACT_REPLACED = 'Expired New PO Released';

// spec §4 colours: Renewal in progress yellow, Expired and Expired New PO Released red, Active green.
const states = {
  [CONTRACT_ACTIVE]: { label: 'Active', tone: 'green', step: 'Running under this PO' },
  [CONTRACT_RENEWING]: { label: 'Renewal in progress', tone: 'yellow', step: 'Waiting for the client\'s new PO' },
  [CONTRACT_EXPIRED]: { label: 'Expired', tone: 'red', step: 'Past its end date without a new PO' },
  [CONTRACT_REPLACED]: { label: 'Expired New PO Released', tone: 'red', isFinal: true, step: 'Replaced by a new PO' },
} as const satisfies WorkflowDefinition['states'];
export type ContractStatus = keyof typeof states;
export const CONTRACT_STATUSES = Object.keys(states) as ContractStatus[];
const statusOptions: SelectOption[] = CONTRACT_STATUSES.map((value) => ({ value, label: states[value].label }));
/** A new PO may replace a contract in these states. */
export const RENEWABLE_CONTRACT_STATUSES: readonly ContractStatus[] = [CONTRACT_ACTIVE, CONTRACT_RENEWING, CONTRACT_EXPIRED];

export const contractWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: CONTRACT_ACTIVE,
  ownerField: 'owner_id',
  states,
  // Its states follow the dates and the renewal, which nobody approves: correcting a contract keeps them.
  isStateKeptOnEdit: true,
  // 'Expired' is set by the daily job (src/server/modules/contract/service.ts) and 'Expired New PO
  // Released' by recording the new PO (POST /api/contract/{id}/new-po): neither is a button.
  transitions: [
    { name: 'start-renewal', label: 'Start renewal', from: [CONTRACT_ACTIVE, CONTRACT_EXPIRED], to: CONTRACT_RENEWING, permission: 'can-edit-contract', comment: 'optional', tone: 'primary',
      words: {
        confirm: (r) => `Start the renewal of contract ${String(r.po_number)}?`, confirmMany: (n) => `Start the renewal of ${countOf(n, 'contract', 'contracts')}?`, doneMany: (n) => `You started the renewal of ${countOf(n, 'contract', 'contracts')}.`,
        history: (actor) => `${actor} started the renewal`,
      } },
    { name: 'stop-renewal', label: 'Stop renewal', from: [CONTRACT_RENEWING], to: CONTRACT_ACTIVE, permission: 'can-edit-contract', comment: 'optional', tone: 'neutral',
      words: {
        confirm: (r) => `Stop the renewal of contract ${String(r.po_number)}? It runs on under its current PO.`, confirmMany: (n) => `Stop the renewal of ${countOf(n, 'contract', 'contracts')}?`, doneMany: (n) => `You stopped the renewal of ${countOf(n, 'contract', 'contracts')}.`,
        history: (actor) => `${actor} stopped the renewal`,
      } },
  ],
  events: {
    create: { history: (actor) => `${actor} recorded the contract` },
    // Set by the daily job and by recording the new PO (src/server/modules/contract/service.ts).
    expire: { history: () => 'The contract expired on its end date' },
    'new-po': { history: (actor) => `${actor} recorded the new PO that replaces this contract` },
  },
};

export const CONTRACT_CURRENCIES = EXPENSE_CURRENCIES;
const currencyOptions: SelectOption[] = CONTRACT_CURRENCIES.map((code) => ({ value: code, label: code }));
export const CONTRACT_DOCUMENT: FileFieldDefinition = { extensions: ['pdf', 'png', 'jpg', 'jpeg'], maxBytes: 20 * 1024 * 1024 };
/** Reminders to the owner before the end (days). */
export const CONTRACT_REMINDER_DAYS = [30, 7] as const;

const value = z.number({ error: 'The value field is required.' })
  .positive('The value must be greater than 0.').max(MAX_AMOUNT, 'The value is too large.');

/** The fields a PO brings: a new contract, or the new PO replacing one. */
export const poShape = {
  po_number: requiredText('PO number', 60),
  start_date: dateField('start date'),
  end_date: dateField('end date'),
  value,
  currency: z.enum(CONTRACT_CURRENCIES, { error: 'The selected currency is invalid.' }),
};

/** POST /api/contract/{id}/new-po (JSON, or multipart with the new PO's `document`). */
export const newPoSchema = z.object({ ...poShape, notes: optionalText('notes', 2000) });
export type NewPo = z.infer<typeof newPoSchema>;

export const contract = defineResource({
  name: 'contract',
  dashboard: {},
  label: 'Contract',
  pluralLabel: 'Contracts',
  schema: z.object({
    ...poShape,
    client_id: referenceId('client'),
    person_ids: z.array(referenceId('person'), { error: 'The people field must be a list.' }).max(200, 'At most 200 people.').nullish(),
    notes: optionalText('notes', 2000),
  }),
  fields: {
    po_number: { label: 'PO number', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. PO-2026-0042' },
    client_id: {
      label: 'Client', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'client', labelKey: 'name', relation: 'client' },
    },
    person_ids: {
      label: 'People placed', input: 'multiselect',
      reference: { resource: 'user', labelKey: 'name', relation: 'people' },
    },
    start_date: { label: 'Start date', input: 'date', isColumn: true, isSortable: true },
    end_date: { label: 'End (expiry) date', input: 'date', isColumn: true, isSortable: true, help: 'The owner is reminded 30 and 7 days before; the contract expires on this day.' },
    value: { label: 'Value', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true },
    currency: { label: 'Currency', input: 'select', options: currencyOptions, isInDetail: false, initialFrom: 'firm-currency' },
    document: { label: 'Document', input: 'file', file: CONTRACT_DOCUMENT, help: 'The signed contract or the PO (PDF or image).' },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    owner_id: {
      label: 'Owner', input: 'reference', isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'owner' },
    },
    previous_contract_id: {
      label: 'Replaces', input: 'reference', isInForm: false,
      reference: { resource: 'contract', labelKey: 'po_number', relation: 'previous_contract' },
    },
    notes: { label: 'Notes', input: 'textarea' },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'po_number',
  // Where a contract stands and when it ends come before its start: at 1366 px the status was under the row's buttons.
  listOrder: ['po_number', 'client_id', 'status', 'end_date', 'value', 'start_date'],
  search: ['po_number'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'client_id', label: 'Client', type: 'reference', reference: { resource: 'client', labelKey: 'name' } },
    { key: 'end_date', label: 'End date', type: 'date-range' },
  ],
  defaultSort: { key: 'end_date', direction: 'asc' },
  permissions: { view: 'can-view-contract', add: 'can-add-contract', edit: 'can-edit-contract', delete: 'can-delete-contract' },
  routes: { index: 'contract.index', create: 'contract.create', show: 'contract.show', edit: 'contract.edit' },
  menu: { icon: 'file', order: 250 },
  workflow: contractWorkflow,
  // A replaced contract stays as it was, for the record (its successor points at it).
  editableStates: [CONTRACT_ACTIVE, CONTRACT_RENEWING, CONTRACT_EXPIRED],
  deleteRefusal: (row) => (row.status === CONTRACT_REPLACED || row.renewed_by ? 'A contract replaced by a new PO stays for the record.' : null),
  reminders: CONTRACT_REMINDER_DAYS.map((days) => ({
    name: `end-${days}`, dateField: 'end_date', daysBefore: days, states: [CONTRACT_ACTIVE, CONTRACT_RENEWING], recipients: ['owner'] as const,
    title: `Contract ends in ${days} days or less`,
    message: `The contract under PO {title} ends on {date}. Start the renewal or record the new PO.`,
  })),
});
