import { z } from 'zod';
import {
  countOf, dateField, defineResource, optionalReferenceId, optionalText, referenceId, requiredText,
  type SelectOption, type WorkflowDefinition, withReason,
} from './define';
import { createdAtColumn } from './common';

/**
 * Onboarding (issue 13): one record per placed person, from a candidate reaching the Onboarding
 * stage or created by hand, with the resource status of spec §4 as its workflow. It starts with the
 * onboarding checklist (tasks copied from the templates admins maintain); a resignation adds the
 * offboarding checklist. The person is onboarded, or offboarded, once that phase's tasks are done.
 */

export const ONBOARDING_IN_PROGRESS = 'Onboarding is in progress';

// spec §4 "Resource status". Colours: work under way reads yellow, the person placed green, gone gray.
const states = {
  [ONBOARDING_IN_PROGRESS]: { label: 'Onboarding is in progress', tone: 'yellow', step: 'Working through the onboarding checklist' },
  Onboarded: { label: 'Onboarded', tone: 'green', step: 'Placed and working' },
  Resigned: { label: 'Resigned', tone: 'yellow', step: 'Working through the offboarding checklist' },
  Offboarded: { label: 'Offboarded', tone: 'gray', isFinal: true, step: 'Left; offboarding done' },
} as const satisfies WorkflowDefinition['states'];
export type OnboardingStatus = keyof typeof states;
export const ONBOARDING_STATUSES = Object.keys(states) as OnboardingStatus[];
const statusOptions: SelectOption[] = ONBOARDING_STATUSES.map((value) => ({ value, label: states[value].label }));

export const onboardingWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: ONBOARDING_IN_PROGRESS,
  ownerField: 'manager_id',
  states,
  // Where the person stands (onboarded, resigned), not an approval of the record: an edit keeps it (issue 20).
  isStateKeptOnEdit: true,
  transitions: [
    // The server refuses these while the phase's checklist has open tasks (src/server/modules/onboarding/service.ts).
    { name: 'onboard', label: 'Mark onboarded', from: [ONBOARDING_IN_PROGRESS], to: 'Onboarded', permission: 'can-edit-onboarding', comment: 'none', tone: 'primary',
      words: {
        confirm: (r) => `Mark ${String(r.person_name)} as onboarded?`, confirmMany: (n) => `Mark ${countOf(n, 'person', 'people')} as onboarded?`, doneMany: (n) => `You marked ${countOf(n, 'person', 'people')} as onboarded.`,
        history: (actor) => `${actor} marked the person onboarded`,
      } },
    { name: 'resign', label: 'Resigned', from: [ONBOARDING_IN_PROGRESS, 'Onboarded'], to: 'Resigned', permission: 'can-edit-onboarding', comment: 'optional', tone: 'danger',
      words: {
        confirm: (r) => `Record that ${String(r.person_name)} resigned and start their offboarding?`,
        confirmMany: (n) => `Record that ${countOf(n, 'person', 'people')} resigned and start their offboarding?`, doneMany: (n) => `You recorded that ${countOf(n, 'person', 'people')} resigned and started their offboarding.`,
        history: (actor) => `${actor} recorded the resignation; offboarding starts`,
        note: (f) => withReason(`Resignation recorded by ${f.actor}`, f.comment),
      } },
    { name: 'offboard', label: 'Mark offboarded', from: ['Resigned'], to: 'Offboarded', permission: 'can-edit-onboarding', comment: 'none', tone: 'primary',
      words: {
        confirm: (r) => `Mark ${String(r.person_name)} as offboarded?`, confirmMany: (n) => `Mark ${countOf(n, 'person', 'people')} as offboarded?`, doneMany: (n) => `You marked ${countOf(n, 'person', 'people')} as offboarded.`,
        history: (actor) => `${actor} marked the person offboarded`,
      } },
  ],
  events: { create: { history: (actor) => `${actor} started the onboarding` } },
};

export const onboarding = defineResource({
  name: 'onboarding',
  dashboard: {},
  label: 'Onboarding',
  pluralLabel: 'Onboardings',
  schema: z.object({
    person_name: requiredText('name'),
    email: z.string({ error: 'The email field must be a valid email address.' }).trim().toLowerCase()
      .email('The email field must be a valid email address.').max(255, 'The email field must not be greater than 255 characters.').nullish(),
    user_id: optionalReferenceId('login'),
    client_id: optionalReferenceId('client'),
    manager_id: optionalReferenceId('manager'),
    start_date: dateField('start date'),
    notes: optionalText('notes', 2000),
  }),
  fields: {
    person_name: { label: 'Name', input: 'text', isColumn: true, isSortable: true, placeholder: 'The person placed' },
    email: { label: 'Email', input: 'email' },
    user_id: {
      label: 'Login', input: 'reference', help: 'Their account in this application, once they have one.',
      reference: { resource: 'user', labelKey: 'name', relation: 'user' },
    },
    client_id: {
      label: 'Client', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'client', labelKey: 'name', relation: 'client' },
    },
    manager_id: {
      label: 'Manager', input: 'reference', isColumn: true, isSortable: true,
      help: 'Answers for the onboarding; overdue tasks escalate to them. Empty: you.',
      reference: { resource: 'manager', labelKey: 'name', relation: 'manager' },
    },
    start_date: { label: 'Start date', input: 'date', isColumn: true, isSortable: true, help: 'The onboarding tasks fall due counted from this day.' },
    end_date: { label: 'Last day', input: 'date', isInForm: false },
    status: { label: 'Status', input: 'select', options: statusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    open_tasks: { label: 'Open tasks', input: 'number', isInForm: false },
    overdue_tasks: { label: 'Overdue', input: 'number', isColumn: true, isSortable: true, isInForm: false },
    notes: { label: 'Notes', input: 'textarea' },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'person_name',
  search: ['person_name', 'email'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: statusOptions },
    { key: 'client_id', label: 'Client', type: 'reference', reference: { resource: 'client', labelKey: 'name' } },
    { key: 'manager_id', label: 'Manager', type: 'reference', reference: { resource: 'manager', labelKey: 'name' } },
    { key: 'has_overdue', label: 'Has overdue tasks', type: 'boolean' },
    { key: 'start_date', label: 'Start date', type: 'date-range' },
  ],
  defaultSort: { key: 'start_date', direction: 'desc' },
  permissions: { view: 'can-view-onboarding', add: 'can-add-onboarding', edit: 'can-edit-onboarding', delete: 'can-delete-onboarding' },
  routes: { index: 'onboarding.index', create: 'onboarding.create', show: 'onboarding.show', edit: 'onboarding.edit' },
  menu: { icon: 'user', group: 'Onboarding', order: 10 },
  workflow: onboardingWorkflow,
  related: [{ resource: 'onboarding-task', field: 'onboarding_id', title: 'Checklist' }],
});

// ---- Checklist tasks ----

export const CHECKLIST_PHASES = ['onboarding', 'offboarding'] as const;
export const phaseOptions: SelectOption[] = [{ value: 'onboarding', label: 'Onboarding' }, { value: 'offboarding', label: 'Offboarding' }];

const taskStates = {
  pending: { label: 'Pending', tone: 'yellow' },
  done: { label: 'Done', tone: 'green' },
} as const satisfies WorkflowDefinition['states'];
const taskStatusOptions: SelectOption[] = [{ value: 'pending', label: 'Pending' }, { value: 'done', label: 'Done' }];

/**
 * Done / undone by the assignee, the onboarding's manager, the assignee's manager or whoever may edit
 * onboardings: the server narrows the permission to those people (service.ts `taskDecider`).
 */
export const onboardingTaskWorkflow: WorkflowDefinition = {
  field: 'status',
  initial: 'pending',
  ownerField: 'assignee_id',
  states: taskStates,
  // Done is the assignee's own mark, not a decision on the task's text: an edit keeps it (issue 20).
  isStateKeptOnEdit: true,
  transitions: [
    { name: 'complete', label: 'Mark done', from: ['pending'], to: 'done', permission: 'can-view-onboarding', comment: 'none', tone: 'primary',
      offline: (r) => `Your task “${String(r.title)}”, to mark done`,
      words: {
        confirm: (r) => `Mark “${String(r.title)}” as done?`, confirmMany: (n) => `Mark ${countOf(n, 'task', 'tasks')} as done?`, doneMany: (n) => `You marked ${countOf(n, 'task', 'tasks')} as done.`,
        history: (actor) => `${actor} marked the task done`,
      } },
    { name: 'reopen', label: 'Mark not done', from: ['done'], to: 'pending', permission: 'can-view-onboarding', comment: 'none', tone: 'neutral',
      offline: (r) => `Your task “${String(r.title)}”, to mark not done yet`,
      words: {
        confirm: (r) => `Mark “${String(r.title)}” as not done yet?`, confirmMany: (n) => `Mark ${countOf(n, 'task', 'tasks')} as not done yet?`, doneMany: (n) => `You marked ${countOf(n, 'task', 'tasks')} as not done yet.`,
        history: (actor) => `${actor} marked the task not done`,
      } },
  ],
  events: { create: { history: (actor) => `${actor} added the task` } },
};

export const onboardingTask = defineResource({
  name: 'onboarding-task',
  dashboard: {},
  label: 'Task',
  pluralLabel: 'Tasks',
  schema: z.object({
    onboarding_id: referenceId('onboarding'),
    title: requiredText('task'),
    phase: z.enum(CHECKLIST_PHASES, { error: 'The selected checklist is invalid.' }),
    assignee_id: referenceId('assignee'),
    due_date: dateField('due date'),
  }),
  fields: {
    title: { label: 'Task', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Laptop issued' },
    phase: { label: 'Checklist', input: 'select', options: phaseOptions, isColumn: true, isSortable: true },
    assignee_id: {
      label: 'Assignee', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'user', labelKey: 'name', relation: 'assignee' },
    },
    due_date: { label: 'Due date', input: 'date', isColumn: true, isSortable: true },
    status: { label: 'Status', input: 'select', options: taskStatusOptions, isColumn: true, isSortable: true, badge: true, isInForm: false },
    completion_date: { label: 'Completed on', input: 'date', isColumn: true, isSortable: true, isInForm: false },
    // spec §5, computed per row with today's date (service.ts `taskTiming`).
    due_in: { label: 'Due in', input: 'text', isColumn: true, isInForm: false, help: 'The days left while a pending task is due within 5 days; a late task says how late instead.' },
    days_overdue: { label: 'Days overdue', input: 'number', isColumn: true, isInForm: false },
    onboarding_id: {
      label: 'Onboarding', input: 'reference', isInDetail: false,
      reference: { resource: 'onboarding', labelKey: 'person_name', relation: 'onboarding' },
    },
  },
  titleKey: 'title',
  search: ['title'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: taskStatusOptions },
    { key: 'phase', label: 'Checklist', type: 'select', options: phaseOptions },
    { key: 'assignee_id', label: 'Assignee', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'is_overdue', label: 'Overdue', type: 'boolean' },
  ],
  defaultSort: { key: 'due_date', direction: 'asc' },
  // Tasks are part of the onboarding: whoever may edit it manages them; assignees tick their own.
  permissions: { view: 'can-view-onboarding', add: 'can-edit-onboarding', edit: 'can-edit-onboarding', delete: 'can-edit-onboarding' },
  // Listed on the onboarding's page (its show route); the form opens in a dialog there.
  routes: { index: 'onboarding.show' },
  parent: { resource: 'onboarding', field: 'onboarding_id' },
  workflow: onboardingTaskWorkflow,
});
