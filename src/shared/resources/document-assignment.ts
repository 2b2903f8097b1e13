import { z } from 'zod';
import type { assignDocumentResultSchema } from '../schemas/compliance';
import {
  countOf, dateField, defineResource, MAX_ID, theirComment, optionalText, type SelectOption, type TransitionDefinition, type WorkflowDefinition, withReason,
} from './define';
import { COMPLIANCE_FILE_EXTENSIONS, COMPLIANCE_FILE_MAX_BYTES, documentActionOptions } from './document-repository';

/**
 * Assignments of library documents to people (issue 10): `POST /api/document-assign` creates them
 * (one per document and person), the person acknowledges or returns a signed copy from /document,
 * and reviewers approve or reject the copy from /document-assign-history ("rejected" goes back to
 * the person). Every step is in the record's history (the timeline).
 */

export const DOCUMENT_REVIEW_PERMISSION = 'can-review-document';
export const OWN_DOCUMENT_PERMISSION = 'can-view-own-document';
export const ASSIGN_HISTORY_PERMISSION = 'can-view-document-assign-history';
export const ASSIGN_PERMISSION = 'can-assign-document';

// spec §4 colours: pending yellow, approved green, rejected / expired red.
const states = {
  pending: { label: 'Pending', tone: 'yellow', step: 'Waiting for the person' },
  submitted: { label: 'Submitted', tone: 'yellow', step: 'Returned copy waiting for review' },
  approved: { label: 'Approved', tone: 'green', step: 'Done' },
  rejected: { label: 'Rejected', tone: 'red', step: 'Back with the person to return again' },
  expired: { label: 'Expired', tone: 'red', step: 'The document expired; a new version asks again' },
} as const satisfies WorkflowDefinition['states'];
export type AssignmentStatus = keyof typeof states;
export const ASSIGNMENT_STATUSES = Object.keys(states) as AssignmentStatus[];
/** Still waiting for the person: what keeps their `doc_assigned` flag (the header icon) set. */
export const WAITING_STATUSES: readonly AssignmentStatus[] = ['pending', 'rejected'];
const statusOptions: SelectOption[] = ASSIGNMENT_STATUSES.map((value) => ({ value, label: states[value].label }));

const titleOf = (r: Readonly<Record<string, unknown>>) => `“${String(r.document_title ?? 'the document')}”`;
const personOf = (r: Readonly<Record<string, unknown>>) => (r.user as { name?: string } | null)?.name ?? 'the person';
const copies = (count: number) => countOf(count, 'returned copy', 'returned copies');

const transitions: TransitionDefinition[] = [
  // The person reads a read-and-acknowledge document (the server refuses it for one to return).
  { name: 'acknowledge', label: 'Acknowledge', from: ['pending'], to: 'approved', permission: OWN_DOCUMENT_PERMISSION,
    guards: ['ownRecord'], comment: 'none', tone: 'primary',
    offline: (r) => `Your confirmation that you have read ${titleOf(r)}`,
    words: {
      confirm: (r) => `Confirm that you have read ${titleOf(r)}?`, confirmMany: (n) => `Confirm that you have read ${countOf(n, 'document', 'documents')}?`, doneMany: (n) => `You confirmed that you have read ${countOf(n, 'document', 'documents')}.`,
      history: (actor) => `${actor} confirmed reading the document`,
    } },
  // A returned copy is submitted with its file (POST /api/document-assign-history/{id}/return), not here.
  { name: 'approve', label: 'Approve', from: ['submitted'], to: 'approved', permission: DOCUMENT_REVIEW_PERMISSION,
    guards: ['notOwnRecord'], comment: 'optional', tone: 'primary',
    words: {
      confirm: (r) => `Approve the copy of ${titleOf(r)} that ${personOf(r)} returned?`, confirmMany: (n) => `Approve ${copies(n)}?`, doneMany: (n) => `You approved ${copies(n)}.`,
      history: (actor) => `${actor} approved the returned copy`,
      notify: {
        owner: (facts) => ({ title: 'Your returned document was approved', message: `${facts.actor} approved the copy of ${titleOf(facts.record)} you returned. Nothing more is needed.${theirComment(facts)}` }),
      },
    } },
  { name: 'reject', label: 'Reject', from: ['submitted'], to: 'rejected', permission: DOCUMENT_REVIEW_PERMISSION,
    guards: ['notOwnRecord'], comment: 'required', isMailed: true, tone: 'danger',
    words: {
      confirm: (r) => `Reject the copy of ${titleOf(r)} that ${personOf(r)} returned?`, confirmMany: (n) => `Reject ${copies(n)}?`, doneMany: (n) => `You rejected ${copies(n)}.`,
      history: (actor) => `${actor} rejected the returned copy`,
      note: (f) => withReason(`Returned copy rejected by ${f.actor}`, f.comment),
      notify: {
        owner: (facts) => ({ title: 'Your returned document needs another look', message: `${facts.actor} rejected the copy of ${titleOf(facts.record)} you returned: please return it again.${theirComment(facts)}` }),
      },
    } },
];

export const documentAssignmentWorkflow: WorkflowDefinition = {
  field: 'status', initial: 'pending', ownerField: 'user_id', states, transitions,
  // Assigned through POST /api/document-assign, which tells the person itself (src/server/modules/compliance).
  events: { create: { history: (actor) => `${actor} assigned the document` } },
};

/** Overdue assignments remind their assignee once a day, this many times at most. */
export const OVERDUE_REMINDER_LIMIT = 5;

export const documentAssignment = defineResource({
  name: 'document-assign-history',
  dashboard: { keptBy: ['status', 'user_id', 'assigned_by'] },
  label: 'Document Assignment',
  pluralLabel: 'Document Assignments',
  // Created only through POST /api/document-assign (many at once); nothing here is edited by a form.
  schema: z.object({}),
  fields: {
    document_id: {
      label: 'Document', input: 'reference', isColumn: true, isSortable: true, isInForm: false,
      reference: { resource: 'document-repository', labelKey: 'title', relation: 'document' },
    },
    user_id: {
      label: 'Assigned To', input: 'reference', isColumn: true, isSortable: true, isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'assignee' },
    },
    assigned_by: {
      label: 'Assigned By', input: 'reference', isColumn: true, isInForm: false,
      reference: { resource: 'user', labelKey: 'name', relation: 'assigner' },
    },
    created_at: { label: 'Assigned At', input: 'date', isColumn: true, isSortable: true, isInForm: false },
    due_date: { label: 'Due Date', input: 'date', isColumn: true, isSortable: true, isInForm: false },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    action: { label: 'To Do', input: 'select', options: documentActionOptions, isInForm: false },
    version: { label: 'Version', input: 'number', isInForm: false, help: 'The document version this assignment asks about.' },
    expiry_date: { label: 'Document Expiry', input: 'date', isInForm: false },
    message: { label: 'Message', input: 'textarea', isInForm: false },
    returned_copy: {
      label: 'Returned Copy', input: 'file', isInForm: false,
      file: { extensions: COMPLIANCE_FILE_EXTENSIONS, maxBytes: COMPLIANCE_FILE_MAX_BYTES, isMultiple: true, maxFiles: 20 },
    },
    document_title: { label: 'Document', input: 'text', isInForm: false, isInDetail: false },
  },
  titleKey: 'document_title',
  search: ['document_title'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'user_id', label: 'Assigned To', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'document_id', label: 'Document', type: 'reference', reference: { resource: 'document-repository', labelKey: 'title' } },
    { key: 'due_date', label: 'Due Date', type: 'date-range' },
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  // The history's staff see every assignment; a person sees the ones assigned to them or by them (server scope).
  permissions: { view: `${ASSIGN_HISTORY_PERMISSION}|${OWN_DOCUMENT_PERMISSION}` },
  routes: { index: 'document-assign-history.index', show: 'document-assign-history.show' },
  menu: { icon: 'file', group: 'Compliance Library', order: 30, label: 'Assign History', permission: 'can-view-document-assign-history' },
  workflow: documentAssignmentWorkflow,
  // Issue 26: the signed copy a person returns waits in the outbox offline, with its file.
  offline: { actions: { copy: (v) => `Your signed copy of ${titleOf(v)} (${String(v.file_name)})` } },
});

const ids = (label: string, max: number) => z.array(
  z.number({ error: `The selected ${label} is invalid.` }).int().positive(`The selected ${label} is invalid.`).max(MAX_ID, `The selected ${label} is invalid.`),
  { error: `The ${label} field must be a list.` },
).max(max, `Choose at most ${max}.`).optional();

/** `POST /api/document-assign`: documents to people, picked one by one or as groups (at least one of them). */
export const assignDocumentSchema = z.object({
  document_ids: z.array(
    z.number({ error: 'The selected document is invalid.' }).int().positive('The selected document is invalid.').max(MAX_ID, 'The selected document is invalid.'),
    { error: 'The documents field is required.' },
  ).min(1, 'Choose at least one document.').max(50, 'Choose at most 50 documents.'),
  user_ids: ids('person', 10_000),
  employee_type_ids: ids('employee type', 100),
  manager_ids: ids('manager', 100),
  client_ids: ids('client', 100),
  due_date: dateField('due date'),
  message: optionalText('message', 2000),
});
export type AssignDocumentInput = z.infer<typeof assignDocumentSchema>;

/** What the assignment answered. */
export type AssignDocumentResult = z.infer<typeof assignDocumentResultSchema>;
