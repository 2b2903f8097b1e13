import { z } from 'zod';
import { defineResource, requiredText, statusField } from './define';
import { createdAtColumn, createdAtFilter, statusColumn, statusFilter } from './common';

export const country = defineResource({
  name: 'country',
  label: 'Country',
  pluralLabel: 'Countries',
  schema: z.object({
    name: requiredText('name', 100),
    // ISO 3166-1 alpha-2, stored upper-case.
    code: z.string({ error: 'The code field is required.' }).trim().toUpperCase()
      .regex(/^[A-Z]{2}$/, 'The code field must be 2 letters.'),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    code: { label: 'Code', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. IN' },
    status: statusColumn,
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name', 'code'],
  filters: [statusFilter, createdAtFilter],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-country', add: 'can-add-country', edit: 'can-edit-country', delete: 'can-delete-country' },
  routes: { index: 'country.index', create: 'country.create', show: 'country.show', edit: 'country.edit' },
  menu: { icon: 'globe', order: 40 },
});
