import { z } from 'zod';
import { defineResource, MAX_ID, requiredText } from './define';
import { createdAtColumn } from './common';
import { roleNames } from '../permissions';

/**
 * Roles and the permissions they hold. Changing a role's permissions applies to its holders'
 * next request (permissions are read per request). The seeded roles keep their names, and the
 * admin role keeps every permission.
 */
export const role = defineResource({
  name: 'role',
  label: 'Role',
  pluralLabel: 'Roles',
  schema: z.object({
    name: requiredText('name', 100),
    permission_ids: z.array(z.number().int().positive('The selected permission is invalid.').max(MAX_ID, 'The selected permission is invalid.'), { error: 'The permissions field must be a list.' }).max(1000),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    // Ticked per area: the options come grouped from GET /api/permission-groups (groupPermissionsByArea).
    permission_ids: {
      label: 'Permissions', input: 'multiselect',
      reference: { resource: 'permission', labelKey: 'name', relation: 'permissions' },
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
  // The seeded roles are looked up by name (seed, user types).
  deleteRefusal: (row) => ((roleNames as readonly unknown[]).includes(row.name) ? `The ${String(row.name)} role cannot be deleted.` : null),
});

/** can-view-country -> country; can-assign-document -> document (spec §6 names are can-{verb}-{area}). */
export function permissionArea(name: string): string {
  const match = /^can-(?:view|add|create|edit|delete|assign)-(.+)$/.exec(name);
  return match ? match[1] : name.replace(/^can-/, '');
}

export interface PermissionGroup { area: string; permissions: { id: number; name: string }[] }

/** Permissions grouped by area, areas and names sorted, for the role form's tick boxes. */
export function groupPermissionsByArea(list: readonly { id: number; name: string }[]): PermissionGroup[] {
  const groups = new Map<string, PermissionGroup>();
  for (const permission of list) {
    const area = permissionArea(permission.name);
    if (!groups.has(area)) groups.set(area, { area, permissions: [] });
    groups.get(area)!.permissions.push(permission);
  }
  return [...groups.values()]
    .sort((a, b) => a.area.localeCompare(b.area))
    .map((group) => ({ ...group, permissions: group.permissions.sort((a, b) => a.name.localeCompare(b.name)) }));
}
