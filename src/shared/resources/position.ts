import { z } from 'zod';
import { defineResource, optionalText, referenceId, requiredText, type SelectOption } from './define';
import { createdAtColumn, createdAtFilter } from './common';

/** A hiring requirement: how many people a client needs, where, and whether it is still open. */
export const positionStatuses = ['open', 'on hold', 'closed'] as const;
const positionStatusOptions: SelectOption[] = [
  { value: 'open', label: 'Open' }, { value: 'on hold', label: 'On Hold' }, { value: 'closed', label: 'Closed' },
];

export const position = defineResource({
  name: 'position',
  dashboard: { keptBy: ['status'] },
  label: 'Position',
  pluralLabel: 'Positions',
  schema: z.object({
    title: requiredText('title'),
    client_id: referenceId('client'),
    location: requiredText('location', 150),
    count: z.number({ error: 'The count field must be a number.' }).int('The count field must be an integer.')
      .min(1, 'The count field must be at least 1.').max(10_000, 'The count field must not be greater than 10000.'),
    status: z.enum(positionStatuses, { error: 'The selected status is invalid.' }),
    description: optionalText('description', 5000),
    // Issue 28: what interviewers rate candidates for this position by (a scorecard's criteria).
    scorecard_criteria: z.array(requiredText('criterion', 100), { error: 'The criteria field must be a list.' })
      .max(12, 'A scorecard may have at most 12 criteria.').nullish(),
  }),
  fields: {
    title: { label: 'Title', input: 'text', isColumn: true, isSortable: true },
    client_id: {
      label: 'Client', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'client', labelKey: 'name', relation: 'client' },
    },
    location: { label: 'Location', input: 'text', isColumn: true, isSortable: true },
    count: { label: 'Count', input: 'number', isColumn: true, isSortable: true },
    // 'on hold' is yellow in spec §4; open and closed are not named there.
    status: { label: 'Status', input: 'select', options: positionStatusOptions, isColumn: true, isSortable: true, badge: { open: 'green', 'on hold': 'yellow', closed: 'gray' } },
    description: { label: 'Description', input: 'textarea' },
    scorecard_criteria: { label: 'Scorecard criteria', input: 'list', help: 'What interviewers rate each candidate by, 1 to 5. Empty: technical skills, problem solving, communication and team fit.' },
    created_at: createdAtColumn,
  },
  titleKey: 'title',
  search: ['title', 'location'],
  filters: [
    { key: 'status', label: 'Status', type: 'select', options: positionStatusOptions },
    { key: 'client_id', label: 'Client', type: 'reference', reference: { resource: 'client', labelKey: 'name' } },
    createdAtFilter,
  ],
  defaultSort: { key: 'created_at', direction: 'desc' },
  permissions: { view: 'can-view-position', add: 'can-add-position', edit: 'can-edit-position', delete: 'can-delete-position' },
  routes: { index: 'position.index', create: 'position.create', show: 'position.show', edit: 'position.edit' },
  menu: { icon: 'briefcase', order: 170 },
  // Issue 22: positions in bulk from a file; the client by its name.
  importer: {
    columns: [
      { header: 'Title', field: 'title' }, { header: 'Client', field: 'client_id' }, { header: 'Location', field: 'location' },
      { header: 'Count', field: 'count' }, { header: 'Status', field: 'status' }, { header: 'Description', field: 'description' },
    ],
    defaults: { status: 'open' },
    example: { Title: 'Java Developer', Client: 'Northwind Traders', Location: 'London', Count: '2', Status: 'Open', Description: 'Spring Boot, five years or more.' },
  },
});
