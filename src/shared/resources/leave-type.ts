import { z } from 'zod';
import { defineResource, requiredText, statusField } from './define';
import { createdAtColumn, statusColumn, statusFilter } from './common';

/** The largest yearly allowance a leave type may have: every day of a leap year. */
export const MAX_YEARLY_ALLOWANCE = 366;

/**
 * Kinds of leave (annual, sick, casual, unpaid, compensatory; issue 9) and how many working days a
 * person may take of each per calendar year. Admins keep the list; an empty allowance means no limit.
 */
export const leaveType = defineResource({
  name: 'leave-type',
  label: 'Leave Type',
  pluralLabel: 'Leave Types',
  schema: z.object({
    name: requiredText('name', 100),
    yearly_allowance: z.number({ error: 'The yearly allowance field must be a number.' })
      .min(0, 'The yearly allowance field must be at least 0.')
      .max(MAX_YEARLY_ALLOWANCE, `The yearly allowance field must not be greater than ${MAX_YEARLY_ALLOWANCE}.`)
      // Half days exist (a leave may start or end at noon), quarter days do not.
      .multipleOf(0.5, 'The yearly allowance field must be a whole or a half number of days.')
      .nullish(),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    yearly_allowance: {
      label: 'Yearly Allowance', input: 'number', isColumn: true, isSortable: true,
      placeholder: 'Unlimited', help: 'Working days per calendar year. Leave empty for no limit.',
    },
    status: statusColumn,
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  filters: [statusFilter],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-leave-type', add: 'can-add-leave-type', edit: 'can-edit-leave-type', delete: 'can-delete-leave-type' },
  routes: { index: 'leave-type.index', create: 'leave-type.create', show: 'leave-type.show', edit: 'leave-type.edit' },
});

/** The types a new installation starts with (issue 9); admins change them afterwards. Null: no limit. */
export const defaultLeaveTypes: readonly { name: string; yearly_allowance: number | null }[] = [
  { name: 'Annual', yearly_allowance: 20 },
  { name: 'Sick', yearly_allowance: 10 },
  { name: 'Casual', yearly_allowance: 7 },
  { name: 'Unpaid', yearly_allowance: null },
  { name: 'Compensatory', yearly_allowance: 5 },
];
