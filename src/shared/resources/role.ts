import { z } from 'zod';
import { defineResource, MAX_ID, requiredText } from './define';
import { chosenOneRefused } from '../words';
import { createdAtColumn } from './common';
import { roleNames } from '../permissions';

/**
 * Roles and the permissions they hold. Changing a role's permissions applies at once to its holders'
 * open sessions, on every node (the session cache is emptied by the change: decision 026). The seeded
 * roles keep their names, and the admin role keeps every permission. Issue 28: a role can be cloned
 * (POST /api/role/{id}/clone), and the form ticks permissions by screen with a sentence for each.
 */
export const role = defineResource({
  name: 'role',
  grantsAccess: true,
  label: 'Role',
  pluralLabel: 'Roles',
  schema: z.object({
    name: requiredText('name', 100),
    permission_ids: z.array(z.number().int().positive(chosenOneRefused('permission')).max(MAX_ID, chosenOneRefused('permission')), { error: 'The permissions field must be a list.' }).max(1000),
    requires_two_fa: z.boolean({ error: 'The two-factor sign-in field must be true or false.' }).optional(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    // Ticked per screen: the options come grouped from GET /api/permission-groups (groupPermissionsByScreen).
    permission_ids: {
      label: 'Permissions', input: 'multiselect',
      reference: { resource: 'permission', labelKey: 'name', relation: 'permissions' },
    },
    // Issue 29: holders sign in with a second factor, and set one up at their next sign-in.
    requires_two_fa: {
      label: 'Requires two-factor sign-in', input: 'boolean', isColumn: true,
      help: 'Whoever holds this role signs in with a code from an app on their phone, and sets it up at their next sign-in.',
    },
    permissions_count: { label: 'Permissions', input: 'number', isColumn: true, isSortable: true, isInForm: false },
    users_count: { label: 'Users', input: 'number', isColumn: true, isInForm: false },
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name'],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-role', add: 'can-add-role', edit: 'can-edit-role', delete: 'can-delete-role' },
  routes: { index: 'role.index' },
  menu: { icon: 'key', group: 'Role & Permission', order: 10 },
  // The seeded roles are looked up by name (seed, user types).
  deleteRefusal: (row) => ((roleNames as readonly unknown[]).includes(row.name) ? `The ${String(row.name)} role cannot be deleted.` : null),
});

/** POST /api/role/{id}/clone: the copy's name; it gets the same permissions and nobody holds it yet. */
export const cloneRoleSchema = z.object({ name: requiredText('name', 100) });
