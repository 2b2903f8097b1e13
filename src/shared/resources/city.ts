import { z } from 'zod';
import { defineResource, referenceId, requiredText, statusField } from './define';
import { createdAtColumn, createdAtFilter, statusColumn, statusFilter } from './common';

/** A city belongs to a country; a country with cities cannot be deleted. */
export const city = defineResource({
  name: 'city',
  label: 'City',
  pluralLabel: 'Cities',
  schema: z.object({
    name: requiredText('name', 100),
    country_id: referenceId('country'),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    country_id: {
      label: 'Country', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'country', labelKey: 'name', relation: 'country' },
    },
    status: statusColumn,
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  filters: [
    { key: 'country_id', label: 'Country', type: 'reference', reference: { resource: 'country', labelKey: 'name' } },
    statusFilter, createdAtFilter,
  ],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-city', add: 'can-add-city', edit: 'can-edit-city', delete: 'can-delete-city' },
  routes: { index: 'city.index', create: 'city.create', show: 'city.show', edit: 'city.edit' },
  menu: { icon: 'map', order: 50 },
  // Issue 22: cities in bulk from a file; the country by its name.
  importer: {
    columns: [{ header: 'Name', field: 'name' }, { header: 'Country', field: 'country_id' }, { header: 'Status', field: 'status' }],
    defaults: { status: 'active' },
    example: { Name: 'Manchester', Country: 'United Kingdom', Status: 'Active' },
  },
});
