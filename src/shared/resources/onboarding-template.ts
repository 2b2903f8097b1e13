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
  menu: { icon: 'list', group: 'Onboarding', order: 20 },
});

/** The checklist tasks a new installation starts with (issue 22); admins change them afterwards. Null assignee: the onboarding's manager. */
export const defaultChecklistTemplates: readonly { phase: (typeof CHECKLIST_PHASES)[number]; title: string; description: string; due_after_days: number; sort_order: number }[] = [
  { phase: 'onboarding', title: 'Send the welcome email and first-day plan', description: 'Start time, address, who to ask for, what to bring.', due_after_days: 0, sort_order: 1 },
  { phase: 'onboarding', title: 'Create the email and system accounts', description: 'Email, chat, time sheets and the client\'s systems the person needs.', due_after_days: 0, sort_order: 2 },
  { phase: 'onboarding', title: 'Issue the laptop and equipment', description: 'Record the serial numbers.', due_after_days: 1, sort_order: 3 },
  { phase: 'onboarding', title: 'Collect the signed contract and ID documents', description: 'Contract, identity document, bank details and tax forms.', due_after_days: 2, sort_order: 4 },
  { phase: 'onboarding', title: 'Assign the compliance documents', description: 'Policies to acknowledge and certifications to upload.', due_after_days: 3, sort_order: 5 },
  { phase: 'onboarding', title: 'Client induction and site access', description: 'Badge, site rules and an introduction to the client\'s team.', due_after_days: 5, sort_order: 6 },
  { phase: 'onboarding', title: 'First-month check-in with the manager', description: 'How is it going, what is missing.', due_after_days: 30, sort_order: 7 },
  { phase: 'offboarding', title: 'Confirm the last working day and hand-over plan', description: 'Agree the hand-over with the client.', due_after_days: 1, sort_order: 1 },
  { phase: 'offboarding', title: 'Exit interview', description: 'Why the person leaves and what could be better.', due_after_days: 7, sort_order: 2 },
  { phase: 'offboarding', title: 'Collect the laptop, badge and equipment', description: 'Check against the serial numbers issued.', due_after_days: 14, sort_order: 3 },
  { phase: 'offboarding', title: 'Close the email and system accounts', description: 'On the last working day, including the client\'s systems.', due_after_days: 14, sort_order: 4 },
  { phase: 'offboarding', title: 'Settle the final expenses and time sheets', description: 'Nothing left to claim or approve.', due_after_days: 21, sort_order: 5 },
];
