// Nobody grants what they do not hold (issue 20). Every route that changes roles, permissions, an
// account's standing or another account's credentials asks these before it writes. An admin may
// do all of it; anyone else may give only roles (and add to a role only permissions) they hold
// themselves, may not touch a role they hold or their own roles and status, and may not touch an
// admin account at all.
import { and, eq, inArray, ne, notExists, notInArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { permissions, roleHasPermissions, roles } from '../../db/schema/accounts';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { isAdmin, isAdminAccount, permissionsBeyond } from '../../../shared/permissions';
import type { ResourceContext, Row } from '../../resources/types';

export const ROLE_GRANT_REFUSAL = 'You can only give roles whose permissions you hold yourself.';
export const PERMISSION_GRANT_REFUSAL = 'You can only give a role permissions you hold yourself.';

/** Each role's name and permission names, for the roles asked about. */
async function rolesWithPermissions(db: Db, roleIds: readonly number[]): Promise<Map<number, { name: string; permissions: string[] }>> {
  const found = new Map<number, { name: string; permissions: string[] }>();
  if (!roleIds.length) return found;
  const rows = await db.select({ id: roles.id, name: roles.name, permission: permissions.name }).from(roles)
    .leftJoin(roleHasPermissions, eq(roleHasPermissions.role_id, roles.id))
    .leftJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
    .where(inArray(roles.id, [...roleIds]));
  for (const row of rows) {
    const role = found.get(row.id) ?? { name: row.name, permissions: [] };
    if (row.permission) role.permissions.push(row.permission);
    found.set(row.id, role);
  }
  return found;
}

/**
 * The roles (by id) `account` may not give: any role holding a permission they lack, for a
 * non-admin. Returns the refused roles' names, in the order asked.
 */
export async function rolesBeyondGrant(db: Db, account: Account, roleIds: readonly number[]): Promise<string[]> {
  if (isAdmin(account)) return [];
  const found = await rolesWithPermissions(db, roleIds);
  return [...new Set(roleIds)].flatMap((id) => {
    const role = found.get(id);
    return role && permissionsBeyond(account.permissions, role.permissions).length ? [role.name] : [];
  });
}

/** 422 on `role_ids` when a non-admin gives a role holding a permission they lack. */
export async function checkRoleGrant(db: Db, account: Account, roleIds: readonly number[]) {
  if ((await rolesBeyondGrant(db, account, roleIds)).length) throw validationError({ role_ids: ROLE_GRANT_REFUSAL });
}

/** A non-admin never edits a role they hold (they would be widening their own power): the refusal, or null. */
export function heldRoleRefusal({ account }: ResourceContext, existing: Row): HttpError | null {
  return !isAdmin(account) && account.roles.includes(String(existing.name))
    ? new HttpError(403, 'You cannot change a role you hold. Ask an admin to change it.') : null;
}

/**
 * A role created or edited by a non-admin (not one they hold: heldRoleRefusal) (they would be widening their own
 * power), and the permissions it gains must all be theirs. Permissions it already had may stay.
 */
export async function checkRolePermissionGrant({ db, account }: ResourceContext, existing: Row | null, permissionIds: unknown) {
  if (isAdmin(account)) return;
  if (!Array.isArray(permissionIds)) return;
  const had = new Set((existing?.permission_ids as number[] | undefined) ?? []);
  const added = [...new Set(permissionIds as number[])].filter((id) => !had.has(id));
  if (!added.length) return;
  const names = (await db.select({ name: permissions.name }).from(permissions).where(inArray(permissions.id, added))).map((p) => p.name);
  if (permissionsBeyond(account.permissions, names).length) throw validationError({ permission_ids: PERMISSION_GRANT_REFUSAL });
}

/** Whether a user row (with its `roles`, as the people routes select them) is an admin's account. */
export function isAdminAccountRow(row: Row): boolean {
  const held = Array.isArray(row.roles) ? (row.roles as { name: string }[]).map((role) => role.name) : [];
  return isAdminAccount(row) || isAdmin({ roles: held });
}

/** Only an admin creates, edits, deactivates or deletes an admin account. */
export function checkAdminAccountChange(account: Account, action: 'create' | 'edit' | 'delete') {
  const refusal = adminAccountRefusal(account, { user_type: 'admin' }, action);
  if (refusal) throw refusal;
}

/** The refusal of a change to this user row when it is an admin's account and the caller no admin, or null. */
export function adminAccountRefusal(account: Account, row: Row, action: 'create' | 'edit' | 'delete'): HttpError | null {
  return isAdminAccountRow(row) && !isAdmin(account) ? new HttpError(403, `Only an admin can ${action} an admin account.`) : null;
}

/** The id of the role named `name` (a user type's own role, or the partner logins'). */
export async function roleIdByName(db: Db, name: string, accountType: 'app' | 'partner' = 'app'): Promise<number | undefined> {
  const [role] = await db.select({ id: roles.id }).from(roles).where(and(eq(roles.name, name), eq(roles.account_type, accountType)));
  return role?.id;
}

/**
 * The roles `account` may give, as a condition on `roles`: every app role for an admin; for anyone
 * else those (never the admin role) whose every permission they hold. The role pickers offer only these.
 */
export function grantableRoles(db: Db, account: Account): SQL | undefined {
  if (isAdmin(account)) return undefined;
  const beyond = db.select({ id: roleHasPermissions.role_id }).from(roleHasPermissions)
    .innerJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
    .where(and(eq(roleHasPermissions.role_id, roles.id), account.permissions.length ? notInArray(permissions.name, account.permissions) : undefined));
  return and(ne(roles.name, 'admin'), notExists(beyond));
}
