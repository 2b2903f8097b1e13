import { z } from 'zod';
import { dateField, defineResource, optionalReferenceId, optionalText, requiredText, type BadgeTone, type SelectOption } from './define';
import { createdAtColumn } from './common';

/**
 * Background-verification checks (spec §2 /bgv-check, can-create-bgv-check; issue 13): a check of a
 * candidate or an employee, run by a vendor over six components, each with its own status and
 * evidence. The overall result is derived from the components by the server, never sent.
 */

export const BGV_COMPONENTS = ['identity', 'address', 'education', 'previous employment', 'criminal record', 'references'] as const;
export type BgvComponent = (typeof BGV_COMPONENTS)[number];
export const BGV_STATUSES = ['pending', 'in progress', 'clear', 'discrepancy'] as const;
export type BgvStatus = (typeof BGV_STATUSES)[number];

const capitalised = (value: string) => value[0].toUpperCase() + value.slice(1);
const componentOptions: SelectOption[] = BGV_COMPONENTS.map((value) => ({ value, label: capitalised(value) }));
export const bgvStatusOptions: SelectOption[] = BGV_STATUSES.map((value) => ({ value, label: capitalised(value) }));
// spec §4 "Approval status colours": pending is yellow, as everywhere (issue 24).
export const bgvStatusTones: Readonly<Record<BgvStatus, BadgeTone>> = { pending: 'yellow', 'in progress': 'yellow', clear: 'green', discrepancy: 'red' };

/**
 * The check's result from its components: any discrepancy makes it a discrepancy, all clear makes it
 * clear, all pending (or none) leaves it pending, anything else is in progress.
 */
export function bgvResult(statuses: readonly string[]): BgvStatus {
  if (statuses.includes('discrepancy')) return 'discrepancy';
  if (statuses.length && statuses.every((s) => s === 'clear')) return 'clear';
  if (statuses.every((s) => s === 'pending')) return 'pending';
  return 'in progress';
}

export const EVIDENCE_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp'] as const;
export const EVIDENCE_MAX_BYTES = 10 * 1024 * 1024;
export const EVIDENCE_MAX_FILES = 10;

export const bgvCheck = defineResource({
  name: 'bgv-check',
  label: 'BGV Check',
  pluralLabel: 'BGV Checks',
  schema: z.object({
    // Exactly one of the two (checked by the server, which answers 422 on candidate_id).
    candidate_id: optionalReferenceId('candidate'),
    user_id: optionalReferenceId('employee'),
    vendor: requiredText('vendor'),
    initiated_on: dateField('initiated on'),
    completed_on: dateField('completed on').nullish(),
    notes: optionalText('notes', 5000),
  }),
  fields: {
    subject_name: { label: 'Subject', input: 'text', isInForm: false, isColumn: true, isSortable: true, isInDetail: false },
    candidate_id: {
      label: 'Candidate', input: 'reference',
      reference: { resource: 'candidate', labelKey: 'name', relation: 'candidate' },
      help: 'A candidate or an employee: fill in one of the two.',
    },
    user_id: {
      label: 'Employee', input: 'reference',
      reference: { resource: 'user', labelKey: 'name', relation: 'employee' },
    },
    vendor: { label: 'Vendor', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. the verification agency' },
    initiated_on: { label: 'Initiated On', input: 'date', isColumn: true, isSortable: true },
    completed_on: { label: 'Completed On', input: 'date', isColumn: true, isSortable: true, help: 'Filled in when every component is decided, if left empty.' },
    result: {
      label: 'Result', input: 'select', options: bgvStatusOptions, badge: bgvStatusTones, isInForm: false, isColumn: true, isSortable: true,
      help: 'Derived from the components: any discrepancy, all clear, or still in progress.',
    },
    notes: { label: 'Notes', input: 'textarea' },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'subject_name',
  search: ['subject_name', 'vendor'],
  filters: [
    { key: 'result', label: 'Result', type: 'select', options: bgvStatusOptions },
    { key: 'candidate_id', label: 'Candidate', type: 'reference', reference: { resource: 'candidate', labelKey: 'name' } },
    { key: 'user_id', label: 'Employee', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'initiated_on', label: 'Initiated', type: 'date-range' },
  ],
  defaultSort: { key: 'initiated_on', direction: 'desc' },
  permissions: { view: 'can-view-bgv-check', add: 'can-create-bgv-check', edit: 'can-edit-bgv-check', delete: 'can-delete-bgv-check' },
  routes: { index: 'bgv-check.index', create: 'bgv-check.create', show: 'bgv-check.show', edit: 'bgv-check.edit' },
  menu: { icon: 'check', order: 210 },
  related: [{ resource: 'bgv-check-component', field: 'bgv_check_id', title: 'Components' }],
});

/** One component of a check: created with the check (all six), then its status and evidence are kept up to date. */
export const bgvCheckComponent = defineResource({
  name: 'bgv-check-component',
  label: 'Component',
  pluralLabel: 'Components',
  schema: z.object({
    status: z.enum(BGV_STATUSES, { error: 'The selected status is invalid.' }),
    remarks: optionalText('remarks', 2000),
  }),
  fields: {
    component: { label: 'Component', input: 'select', options: componentOptions, isInForm: false, isColumn: true, isSortable: true },
    status: { label: 'Status', input: 'select', options: bgvStatusOptions, badge: bgvStatusTones, isColumn: true, isSortable: true },
    remarks: { label: 'Remarks', input: 'textarea', isColumn: true, placeholder: 'What the vendor found' },
    evidence: {
      label: 'Evidence', input: 'file',
      file: { extensions: EVIDENCE_EXTENSIONS, maxBytes: EVIDENCE_MAX_BYTES, isMultiple: true, maxFiles: EVIDENCE_MAX_FILES },
    },
    updated_at: { label: 'Updated At', input: 'date', isInForm: false, isColumn: true },
  },
  titleKey: 'component',
  search: ['component'],
  filters: [{ key: 'status', label: 'Status', type: 'select', options: bgvStatusOptions }],
  defaultSort: { key: 'component', direction: 'asc' },
  permissions: { view: 'can-view-bgv-check', edit: 'can-edit-bgv-check' },
  routes: { index: 'bgv-check.show' },
  parent: { resource: 'bgv-check', field: 'bgv_check_id' },
});
