import { z } from 'zod';
import { dateField, defineResource, referenceId, requiredText } from './define';
import { createdAtColumn } from './common';

/** Public holidays per country: a leave's working days do not count those of the applicant's country. */
export const holiday = defineResource({
  name: 'holiday',
  label: 'Holiday',
  pluralLabel: 'Holidays',
  schema: z.object({
    date: dateField('date'),
    name: requiredText('name'),
    country_id: referenceId('country'),
  }),
  fields: {
    date: { label: 'Date', input: 'date', isColumn: true, isSortable: true },
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true, placeholder: 'Republic Day' },
    country_id: {
      label: 'Country', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'country', labelKey: 'name', relation: 'country' },
    },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'name',
  search: ['name'],
  filters: [
    { key: 'country_id', label: 'Country', type: 'reference', reference: { resource: 'country', labelKey: 'name' } },
    { key: 'date', label: 'Date', type: 'date-range' },
  ],
  defaultSort: { key: 'date', direction: 'asc' },
  permissions: { view: 'can-view-holiday', add: 'can-add-holiday', edit: 'can-edit-holiday', delete: 'can-delete-holiday' },
  routes: { index: 'holiday.index', create: 'holiday.create', show: 'holiday.show', edit: 'holiday.edit' },
});
