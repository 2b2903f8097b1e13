import { z } from 'zod';
import { defineResource } from './define';
import { createdAtColumn } from './common';
import { allPermissions } from '../permissions';

/** Permission names (spec §6): can-{verb}-{area}. The server enforces the ones it knows. */
export const permission = defineResource({
  name: 'permission',
  label: 'Permission',
  pluralLabel: 'Permissions',
  schema: z.object({
    name: z.string({ error: 'The name field is required.' }).trim().toLowerCase()
      .min(1, 'The name field is required.').max(150, 'The name field must not be greater than 150 characters.')
      .regex(/^can-[a-z0-9]+(-[a-z0-9]+)*$/, 'The name must look like can-view-area (lower-case words joined by dashes).'),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. can-view-area' },
    area: { label: 'Area', input: 'text', isColumn: true, isInForm: false },
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-permission', add: 'can-add-permission', edit: 'can-edit-permission', delete: 'can-delete-permission' },
  routes: { index: 'permission.index' },
  // The app checks the built-in names in code; only permissions added here may go.
  deleteRefusal: (row) => (allPermissions.includes(String(row.name)) ? `The ${String(row.name)} permission is built in and cannot be deleted.` : null),
});
