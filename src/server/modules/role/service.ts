// Roles and permissions beyond CRUD. A change here empties the session cache of every holder on every
// node when it commits (triggers of migration 0027, decision 026), so it applies to their open sessions
// at once. Issue 28: permissions are the code's fixed catalogue; a role can be cloned.
import { count, eq, inArray, sql } from 'drizzle-orm';
import type { Transaction } from '../../lib/transaction';
import type { Db } from '../../db/client';
import { modelHasRoles, permissions, roleHasPermissions, roles } from '../../db/schema/accounts';
import { HttpError, validationError } from '../../plugins/errors';
import type { Account } from '../../plugins/auth';
import { rolesBeyondGrant } from './grants';
import { roleNames } from '../../../shared/permissions';
import { describePermission } from '../../../shared/resources/permission';
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

/** Each permission row's screen and sentence (the read-only catalogue screen). */
export function attachDescriptions(rows: Row[]) {
  for (const row of rows) {
    const { screen, description } = describePermission(row.name as string);
    Object.assign(row, { screen, description });
  }
}

/**
 * A copy of a role under a new name with the same permissions, held by nobody yet (issue 28). An app
 * role only: the partner roles belong to the portal. The caller must be able to give every permission
 * it copies, as when they tick them (issue 20).
 */
export async function cloneRole(tx: Transaction, account: Account, sourceId: number, name: string) {
  const [source] = await tx.db.select().from(roles).where(eq(roles.id, sourceId));
  if (!source) throw new HttpError(404, 'Role not found.');
  if (source.account_type !== 'app') throw new HttpError(409, `The ${source.name} role belongs to the partner portal and cannot be cloned.`);
  const held = await tx.db.select({ id: roleHasPermissions.permission_id }).from(roleHasPermissions).where(eq(roleHasPermissions.role_id, sourceId));
  const permissionIds = held.map((p) => p.id);
  if ((await rolesBeyondGrant(tx.db, account, [sourceId])).length) throw new HttpError(403, 'You can only clone a role whose permissions you hold yourself.');
  const [taken] = await tx.db.select({ id: roles.id }).from(roles).where(sql`lower(${roles.name}) = ${name.toLowerCase()}`);
  if (taken) throw validationError({ name: 'The name has already been taken.' });
  const [copy] = await tx.db.insert(roles).values({ name, account_type: 'app' }).returning();
  await setRolePermissions(tx.db, copy.id, permissionIds);
  return copy;
}
