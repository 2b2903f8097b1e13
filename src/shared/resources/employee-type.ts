import { z } from 'zod';
import { defineResource, optionalText, requiredText, statusField } from './define';
import { createdAtColumn, createdAtFilter, statusColumn, statusFilter } from './common';

/** Kinds of employment (permanent, contractor...) a user can have. */
export const employeeType = defineResource({
  name: 'employee-type',
  label: 'Employee Type',
  pluralLabel: 'Employee Types',
  schema: z.object({
    name: requiredText('name', 100),
    description: optionalText('description', 500),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    description: { label: 'Description', input: 'textarea' },
    status: statusColumn,
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  filters: [statusFilter, createdAtFilter],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-employee-type', add: 'can-add-employee-type', edit: 'can-edit-employee-type', delete: 'can-delete-employee-type' },
  routes: { index: 'employee-type.index', create: 'employee-type.create', show: 'employee-type.show', edit: 'employee-type.edit' },
  menu: { icon: 'tag', order: 70 },
});
