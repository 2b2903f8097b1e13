import { z } from 'zod';
import { defineResource, optionalReferenceId, optionalText, requiredText, statusField } from './define';
import { statusColumn, statusFilter } from './common';
import { CHECKLIST_PHASES, phaseOptions } from './onboarding';

/**
 * The checklists every onboarding and offboarding starts with (issue 13): admins keep the list of
 * tasks (accounts, laptop, documents, client induction ...); a new onboarding copies the active
 * onboarding tasks, a resignation the offboarding ones. Changing a template never changes the
 * checklists already copied.
 */
export const MAX_DUE_AFTER_DAYS = 365;

export const onboardingTemplate = defineResource({
  name: 'onboarding-template',
  label: 'Checklist Template',
  pluralLabel: 'Checklist Templates',
  schema: z.object({
    phase: z.enum(CHECKLIST_PHASES, { error: 'The selected checklist is invalid.' }),
    title: requiredText('task'),
    description: optionalText('description', 2000),
    due_after_days: z.number({ error: 'The due after field is required.' }).int('The due after field must be a whole number of days.')
      .min(0, 'The due after field must be at least 0.').max(MAX_DUE_AFTER_DAYS, `The due after field must not be greater than ${MAX_DUE_AFTER_DAYS}.`),
    assignee_id: optionalReferenceId('assignee'),
    sort_order: z.number({ error: 'The order field must be a number.' }).int('The order field must be a whole number.').min(0, 'The order field must be at least 0.').max(10_000, 'The order field must not be greater than 10000.').nullish(),
    status: statusField(),
  }),
  fields: {
    title: { label: 'Task', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Create the email account' },
    phase: { label: 'Checklist', input: 'select', options: phaseOptions, isColumn: true, isSortable: true },
    due_after_days: {
      label: 'Due after (days)', input: 'number', isColumn: true, isSortable: true,
      help: 'Days after the start date (onboarding) or the resignation (offboarding).',
    },
    assignee_id: {
      label: 'Assignee', input: 'reference', isColumn: true,
      help: 'Empty: the onboarding\'s manager.',
      reference: { resource: 'user', labelKey: 'name', relation: 'assignee' },
    },
    sort_order: { label: 'Order', input: 'number', isSortable: true },
    description: { label: 'Description', input: 'textarea' },
    status: { ...statusColumn, help: 'Only active tasks are copied into new checklists.' },
  },
  titleKey: 'title',
  search: ['title'],
  filters: [statusFilter, { key: 'phase', label: 'Checklist', type: 'select', options: phaseOptions }],
  defaultSort: { key: 'sort_order', direction: 'asc' },
  // Admins maintain the checklists (the setting permission); whoever runs onboardings reads them.
  permissions: { view: 'can-view-onboarding', add: 'can-edit-setting', edit: 'can-edit-setting', delete: 'can-edit-setting' },
  routes: { index: 'onboarding-template.index' },
});
