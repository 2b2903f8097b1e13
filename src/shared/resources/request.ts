import { z } from 'zod';
import type { requestCommentView } from '../schemas/request';
import {
  countOf, dateField, defineResource, type EventFacts, optionalReferenceId, theirComment, optionalText, requiredText,
  type ReminderDefinition, type SelectOption, type TransitionDefinition, type WorkflowDefinition, withReason,
} from './define';
import { quoted } from './offline-words';
import { createdAtColumn } from './common';

/**
 * Service requests (spec §2 /request, §3 "Request record", issue 13): raised by delivery or sales,
 * assigned to someone who works it Requested -> Work in Progress -> Completed (spec §4), with a
 * comment thread and reminders before the SOW end and the contract renewal dates pass.
 */

/** spec §4 "Support types": the request's `euc_or_network`. */
export const SUPPORT_TYPES = ['EUC', 'Network', 'SHE', 'Others'] as const;
export const REQUEST_PRIORITIES = ['Low', 'Medium', 'High', 'Urgent'] as const;
export type RequestPriority = (typeof REQUEST_PRIORITIES)[number];

/** spec §4 "Request status", in workflow order. */
export const REQUEST_STATUSES = ['Requested', 'Work in Progress', 'Completed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const MAX_LABELS = 10;
export const MAX_LABEL_LENGTH = 40;
export const MAX_COMMENT_LENGTH = 2000;
/** Days before the date the reminders go out. */
export const SOW_END_REMINDER_DAYS = 14;
export const CONTRACT_RENEWAL_REMINDER_DAYS = 30;

const supportTypeOptions: SelectOption[] = SUPPORT_TYPES.map((value) => ({ value, label: value }));
const priorityOptions: SelectOption[] = REQUEST_PRIORITIES.map((value) => ({ value, label: value }));
const statusOptions: SelectOption[] = REQUEST_STATUSES.map((value) => ({ value, label: value }));

const states = {
  Requested: { label: 'Requested', tone: 'gray', step: 'Waiting for the assignee to start', waitsFor: 'Waits for the assignee to start' },
  'Work in Progress': { label: 'Work in Progress', tone: 'yellow', step: 'The assignee is working on it', waitsFor: 'The assignee is working on it' },
  Completed: { label: 'Completed', tone: 'green', isFinal: true, step: 'Completed' },
} as const satisfies WorkflowDefinition['states'];

/**
 * Anyone who sees a request may try; the server lets only its assignee (or a coordinator holding
 * can-edit-request) move it, and only once it has an assignee (src/server/modules/request/service.ts).
 */
const titleOf = (r: Readonly<Record<string, unknown>>) => `“${String(r.title)}”`;
const requests = (count: number) => countOf(count, 'request', 'requests');
/** What the request's creator is told of its progress. */
const toCreator = (title: string, sentence: (facts: EventFacts) => string) => (facts: EventFacts) => ({ title, message: `${sentence(facts)}${theirComment(facts)}` });

const transitions: TransitionDefinition[] = [
  { name: 'start', label: 'Start work', from: ['Requested'], to: 'Work in Progress', permission: 'can-view-request', comment: 'optional', tone: 'primary',
    offline: (r) => `Starting work on the request ${titleOf(r)}`,
    words: {
      confirm: (r) => `Start work on ${titleOf(r)}?`, confirmMany: (n) => `Start work on ${requests(n)}?`, doneMany: (n) => `You started work on ${requests(n)}.`,
      history: (actor) => `${actor} started work on the request`,
      notify: { owner: toCreator('Work started on your request', (f) => `${f.actor} started work on your request ${titleOf(f.record)}.`) },
    } },
  { name: 'complete', label: 'Mark completed', from: ['Work in Progress'], to: 'Completed', permission: 'can-view-request', comment: 'optional', tone: 'primary',
    offline: (r) => `Marking the request ${titleOf(r)} as completed`,
    words: {
      confirm: (r) => `Mark ${titleOf(r)} as completed?`, confirmMany: (n) => `Mark ${requests(n)} as completed?`, doneMany: (n) => `You marked ${requests(n)} as completed.`,
      history: (actor) => `${actor} completed the request`,
      notify: { owner: toCreator('Your request was completed', (f) => `${f.actor} completed your request ${titleOf(f.record)}.`) },
    } },
  // Reopening is a coordinator's call, and says why.
  { name: 'reopen', label: 'Reopen', from: ['Completed'], to: 'Work in Progress', permission: 'can-edit-request', comment: 'required', tone: 'neutral',
    words: {
      confirm: (r) => `Reopen ${titleOf(r)}? Work on it starts again.`, confirmMany: (n) => `Reopen ${requests(n)}?`, doneMany: (n) => `You reopened ${requests(n)}.`,
      history: (actor) => `${actor} reopened the request`,
      note: (f) => withReason(`Reopened by ${f.actor}`, f.comment),
      notify: { owner: toCreator('Your request was reopened', (f) => `${f.actor} reopened your request ${titleOf(f.record)}: work on it starts again.`) },
    } },
];

/**
 * What the assignee hears of a step someone else took (src/server/modules/request/service.ts): the
 * creator hears through the transitions' own words; the assignee is not a recipient rule.
 */
export const ASSIGNEE_WORDS: Readonly<Record<string, (facts: EventFacts) => { title: string; message: string }>> = {
  start: (f) => ({ title: 'Work started on a request of yours', message: `${f.actor} started work on the request ${titleOf(f.record)} assigned to you.${theirComment(f)}` }),
  complete: (f) => ({ title: 'A request of yours was completed', message: `${f.actor} completed the request ${titleOf(f.record)} assigned to you.${theirComment(f)}` }),
  reopen: (f) => ({ title: 'A request of yours was reopened', message: `${f.actor} reopened the request ${titleOf(f.record)} assigned to you: work on it starts again.${theirComment(f)}` }),
};

export const requestWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: 'Requested',
  // The request is its creator's: they hear of every step (the assignee is told separately).
  ownerField: 'created_by',
  states,
  transitions,
  // Progress of the work, not an approval of the request's text: an edit keeps it (issue 20).
  isStateKeptOnEdit: true,
  // The assignee is told by the module (src/server/modules/request/service.ts).
  events: { create: { history: (actor) => `${actor} raised the request` } },
};

const openAndDone = [...REQUEST_STATUSES];
const reminders: ReminderDefinition[] = [
  {
    name: 'sow-end', dateField: 'sow_end_date', daysBefore: SOW_END_REMINDER_DAYS, states: openAndDone, recipients: ['owner'],
    title: 'SOW ending soon', message: 'The SOW of the request “{title}” ends on {date}.',
  },
  {
    name: 'contract-renewal', dateField: 'contract_renewal_date', daysBefore: CONTRACT_RENEWAL_REMINDER_DAYS, states: openAndDone, recipients: ['owner'],
    title: 'Contract renewal due', message: 'The contract of the request “{title}” is up for renewal on {date}.',
  },
];

const optionalDate = (label: string) => dateField(label).nullish();

export const requestLabels = z.array(
  z.string({ error: 'Each label must be a string.' }).trim().min(1, 'A label may not be empty.')
    .max(MAX_LABEL_LENGTH, `A label must not be greater than ${MAX_LABEL_LENGTH} characters.`),
  { error: 'The labels field must be a list.' },
).max(MAX_LABELS, `At most ${MAX_LABELS} labels.`);

export const request = defineResource({
  name: 'request',
  dashboard: { keptBy: ['status', 'created_by', 'assign_to'] },
  label: 'Request',
  pluralLabel: 'Requests',
  schema: z.object({
    title: requiredText('title'),
    assign_to: optionalReferenceId('person'),
    euc_or_network: z.enum(SUPPORT_TYPES, { error: 'Choose a support type: EUC, Network, SHE or Others.' }),
    priority: z.enum(REQUEST_PRIORITIES, { error: 'The selected priority is invalid.' }),
    requesting_partner: optionalText('requesting partner'),
    support_model: optionalText('support model', 100),
    request_type: optionalText('request type', 100),
    client_name: optionalText('client name'),
    gps_contact: optionalText('gps contact'),
    delivery_contact: optionalText('delivery contact'),
    partner_id: optionalReferenceId('partner'),
    country_id: optionalReferenceId('country'),
    city_id: optionalReferenceId('city'),
    estimated_start_date: optionalDate('estimated start date'),
    estimated_end_date: optionalDate('estimated end date'),
    sow_start_date: optionalDate('sow start date'),
    sow_end_date: optionalDate('sow end date'),
    contract_renewal_date: optionalDate('contract renewal date'),
    labels: requestLabels.optional(),
    description: optionalText('description', 20_000),
    comment: optionalText('comment', MAX_COMMENT_LENGTH),
  }),
  fields: {
    title: { label: 'Title', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Two desktop engineers for the Pune site' },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    priority: { label: 'Priority', input: 'select', options: priorityOptions, isColumn: true, isSortable: true, badge: { Low: 'gray', Medium: 'gray', High: 'yellow', Urgent: 'red' } },
    euc_or_network: { label: 'EUC or Network', input: 'select', options: supportTypeOptions, isColumn: true, isSortable: true, help: 'The support type: EUC, Network, SHE or Others.' },
    assign_to: {
      label: 'Assign To', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'user', labelKey: 'name', relation: 'assignee' },
      help: 'They are told as soon as the request is saved.',
    },
    created_by: {
      label: 'Created By', input: 'reference', isInForm: false, isSortable: true,
      reference: { resource: 'user', labelKey: 'name', relation: 'creator' },
    },
    requesting_partner: { label: 'Requesting Partner', input: 'text' },
    support_model: { label: 'Support Model', input: 'text', placeholder: 'e.g. Dedicated, Dispatch' },
    request_type: { label: 'Request Type', input: 'text', placeholder: 'e.g. New resource, Replacement' },
    client_name: { label: 'Client Name', input: 'text', isSortable: true },
    gps_contact: { label: 'GPS Contact', input: 'text' },
    delivery_contact: { label: 'Delivery Contact', input: 'text' },
    partner_id: {
      label: 'Partner', input: 'reference',
      reference: { resource: 'ikk-partner', labelKey: 'name', relation: 'partner' },
    },
    country_id: {
      label: 'Country', input: 'reference',
      reference: { resource: 'country', labelKey: 'name', relation: 'country' },
    },
    city_id: {
      label: 'City', input: 'reference',
      reference: { resource: 'city', labelKey: 'name', relation: 'city', dependsOn: { country_id: 'country_id' } },
    },
    estimated_start_date: { label: 'Estimated Start Date', input: 'date' },
    estimated_end_date: { label: 'Estimated End Date', input: 'date' },
    sow_start_date: { label: 'SOW Start Date', input: 'date' },
    sow_end_date: { label: 'SOW End Date', input: 'date', isColumn: true, isSortable: true, help: `Its creator is reminded ${SOW_END_REMINDER_DAYS} days before.` },
    contract_renewal_date: { label: 'Contract Renewal Date', input: 'date', isSortable: true, help: `Its creator is reminded ${CONTRACT_RENEWAL_REMINDER_DAYS} days before.` },
    labels: { label: 'Labels', input: 'list', help: `Up to ${MAX_LABELS} short tags.` },
    description: { label: 'Description', input: 'richtext' },
    comment: { label: 'Comment', input: 'textarea', help: 'A note kept with the request; the conversation goes in the comments on its page.' },
    last_status_updated_at: { label: 'Last Status Updated At', input: 'date', isInForm: false, isSortable: true },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'title',
  search: ['title', 'client_name', 'requesting_partner'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'priority', label: 'Priority', type: 'select', options: priorityOptions },
    { key: 'euc_or_network', label: 'EUC or Network', type: 'select', options: supportTypeOptions },
    { key: 'assign_to', label: 'Assign To', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'partner_id', label: 'Partner', type: 'reference', reference: { resource: 'ikk-partner', labelKey: 'name' } },
    { key: 'country_id', label: 'Country', type: 'reference', reference: { resource: 'country', labelKey: 'name' } },
    { key: 'sow_end_date', label: 'SOW End Date', type: 'date-range' },
    { key: 'created_at', label: 'Created', type: 'date-range' },
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  permissions: { view: 'can-view-request', add: 'can-add-request', edit: 'can-edit-request', delete: 'can-delete-request' },
  routes: { index: 'request.index', create: 'request.create', show: 'request.show', edit: 'request.edit' },
  menu: { icon: 'inbox', order: 230 },
  workflow: requestWorkflow,
  reminders,
  // Issue 26: the assignee's comments wait in the outbox offline (their status moves declare `offline` above).
  offline: { actions: { comment: (v) => `Your comment on the request ${quoted(v.title)}: ${quoted(v.body)}` } },
});

/** A comment of a request's thread (GET / POST /api/request/{id}/comments). */
export type RequestComment = z.infer<typeof requestCommentView>;

export const requestCommentSchema = z.object({
  body: z.string({ error: 'The comment field is required.' }).trim()
    .min(1, 'The comment field is required.')
    .max(MAX_COMMENT_LENGTH, `The comment field must not be greater than ${MAX_COMMENT_LENGTH} characters.`),
});
