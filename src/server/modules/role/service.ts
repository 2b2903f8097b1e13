// Roles and permissions beyond CRUD. Permissions are read per request (auth plugin), so a change
// here applies to the next request of every holder.
import { count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { modelHasRoles, permissions, roleHasPermissions } from '../../db/schema/accounts';
import { validationError } from '../../plugins/errors';
import { allPermissions, roleNames } from '../../../shared/permissions';
import { permissionArea } from '../../../shared/resources/role';
import type { Row } from '../../resources/types';

const seededRoles: readonly string[] = roleNames;

/** The seeded roles are looked up by name (seed, user types), so they keep it; admin keeps every permission. */
export async function checkRoleChange(db: Db, existing: Row, name: unknown, permissionIds: unknown) {
  const isSeeded = seededRoles.includes(existing.name as string);
  if (isSeeded && name !== undefined && name !== existing.name) {
    throw validationError({ name: `The ${existing.name} role cannot be renamed.` });
  }
  if (existing.name === 'admin' && Array.isArray(permissionIds)) {
    const all = await db.select({ id: permissions.id }).from(permissions);
    const wanted = new Set(permissionIds as number[]);
    if (all.some((p) => !wanted.has(p.id))) throw validationError({ permission_ids: 'The admin role always holds every permission.' });
  }
}

export async function roleHolders(db: Db, existing: Row): Promise<string | null> {
  const [{ holders }] = await db.select({ holders: count() }).from(modelHasRoles).where(eq(modelHasRoles.role_id, existing.id as number));
  return holders ? `This role cannot be deleted because ${holders} account${holders === 1 ? ' holds' : 's hold'} it.` : null;
}

/** Replaces the role's permissions with the ticked ones. */
export async function setRolePermissions(db: Db, roleId: number, permissionIds: number[]) {
  await db.delete(roleHasPermissions).where(eq(roleHasPermissions.role_id, roleId));
  const unique = [...new Set(permissionIds)];
  if (unique.length) await db.insert(roleHasPermissions).values(unique.map((permission_id) => ({ role_id: roleId, permission_id })));
}

/** permission_ids and permissions ({id, name}) of a page of roles, in one query. */
export async function attachPermissions(db: Db, rows: Row[]) {
  const held = await db.select({ role_id: roleHasPermissions.role_id, id: permissions.id, name: permissions.name })
    .from(roleHasPermissions).innerJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
    .where(inArray(roleHasPermissions.role_id, rows.map((row) => row.id as number)))
    .orderBy(permissions.name);
  for (const row of rows) {
    const mine = held.filter((h) => h.role_id === row.id);
    row.permission_ids = mine.map((h) => h.id);
    row.permissions = mine.map(({ id, name }) => ({ id, name }));
  }
}

/** The permissions the server checks by name cannot be renamed or deleted (they would be re-seeded and lose their holders). */
export function refuseBuiltInPermissionRename(existing: Row, values: Row) {
  if (!allPermissions.includes(existing.name as string)) return values;
  if (values.name !== undefined && values.name !== existing.name) {
    throw validationError({ name: `The ${existing.name} permission is built in and cannot be renamed.` });
  }
  return values;
}

export function attachAreas(rows: Row[]) {
  for (const row of rows) row.area = permissionArea(row.name as string);
}
