import { z } from 'zod';
import { defineResource, requiredText, statusField } from './define';
import { createdAtColumn, statusColumn, statusFilter } from './common';

/** How a leave type's allowance is earned (issue 28). */
export const leaveAccruals = ['yearly', 'monthly'] as const;
export type LeaveAccrual = (typeof leaveAccruals)[number];
const accrualOptions = [{ value: 'yearly', label: 'Yearly' }, { value: 'monthly', label: 'Monthly' }];
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
// Numbers as the form sends them (a select of months): the end of January .. the end of December.
const expiryOptions = MONTH_NAMES.map((name, index) => ({ value: index + 1, label: `At the end of ${name}` }));

/** The largest yearly allowance a leave type may have: every day of a leap year. */
export const MAX_YEARLY_ALLOWANCE = 366;

/**
 * Kinds of leave (annual, sick, casual, unpaid, compensatory; issue 9) and how many working days a
 * person may take of each per calendar year. Admins keep the list; an empty allowance means no limit.
 * Issue 28: the allowance accrues yearly or monthly, and the yearly rollover carries unused days into
 * the next year up to a cap, which expire when the chosen month of the new year ends.
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
    accrual: z.enum(leaveAccruals, { error: 'The accrual field must be yearly or monthly.' }).optional(),
    carry_forward_cap: z.number({ error: 'The carry-forward cap field must be a number.' })
      .min(0, 'The carry-forward cap field must be at least 0.')
      .max(MAX_YEARLY_ALLOWANCE, `The carry-forward cap field must not be greater than ${MAX_YEARLY_ALLOWANCE}.`)
      .multipleOf(0.5, 'The carry-forward cap field must be a whole or a half number of days.')
      .optional(),
    carry_forward_expiry_month: z.number({ error: 'The carried days expire field must be a month.' }).int('The carried days expire field must be a month.')
      .min(1, 'The carried days expire field must be a month.').max(12, 'The carried days expire field must be a month.')
      .optional(),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    yearly_allowance: {
      label: 'Yearly Allowance', input: 'number', isColumn: true, isSortable: true,
      placeholder: 'Unlimited', help: 'Working days per calendar year. Leave empty for no limit.',
    },
    accrual: {
      label: 'Accrual', input: 'select', isColumn: true, options: accrualOptions, initial: 'yearly',
      help: 'Yearly: the whole allowance on 1 January. Monthly: a twelfth at the start of each month.',
    },
    carry_forward_cap: {
      label: 'Carry-forward Cap', input: 'number', isColumn: true, initial: 0,
      help: 'Unused days carried into the next year, at most. 0: nothing is carried.',
    },
    carry_forward_expiry_month: {
      label: 'Carried Days Expire', input: 'select', options: expiryOptions, initial: 3,
      help: 'Carried days not taken by the end of this month of the new year expire.',
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
  menu: { icon: 'tag', order: 80 },
});

/** The types a new installation starts with (issue 9); admins change them afterwards. Null: no limit. */
export const defaultLeaveTypes: readonly { name: string; yearly_allowance: number | null }[] = [
  { name: 'Annual', yearly_allowance: 20 },
  { name: 'Sick', yearly_allowance: 10 },
  { name: 'Casual', yearly_allowance: 7 },
  { name: 'Unpaid', yearly_allowance: null },
  { name: 'Compensatory', yearly_allowance: 5 },
];
