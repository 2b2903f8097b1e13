// Roles and permissions beyond CRUD. A change here empties the session cache of every holder on every
// node when it commits (triggers of migration 0027, decision 026), so it applies to their open sessions
// at once. Issue 28: permissions are the code's fixed catalogue; a role can be cloned.
import { count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { modelHasRoles, permissions, roleHasPermissions, roles } from '../../db/schema/accounts';
import { HttpError, validationError } from '../../plugins/errors';
import { resourceRow } from '../../resources/register';
import { checkRolePermissionGrant, rolesBeyondGrant } from './grants';
import { roleNames } from '../../../shared/permissions';
import { describePermission, groupPermissionsByScreen } from '../../../shared/resources/permission';
import { role } from '../../../shared/resources/role';
import { type Input, inWrite, type ResourceContext, type Row, type RowOf, type WriteContext } from '../../resources/types';

type RoleRow = RowOf<typeof roles>;

const seededRoles: readonly string[] = roleNames;

/** The seeded roles are looked up by name (seed, user types), so they keep it; admin keeps every permission. */
async function checkRoleChange(db: Db, existing: RoleRow, name: unknown, permissionIds: unknown) {
  const isSeeded = seededRoles.includes(existing.name);
  if (isSeeded && name !== undefined && name !== existing.name) {
    throw validationError({ name: `The ${existing.name} role cannot be renamed.` });
  }
  if (existing.name === 'admin' && Array.isArray(permissionIds)) {
    const all = await db.select({ id: permissions.id }).from(permissions);
    const wanted = new Set(permissionIds as number[]);
    if (all.some((p) => !wanted.has(p.id))) throw validationError({ permission_ids: 'The admin role always holds every permission.' });
  }
}

export async function roleHolders({ db }: ResourceContext, existing: RoleRow): Promise<string | null> {
  const [{ holders }] = await db.select({ holders: count() }).from(modelHasRoles).where(eq(modelHasRoles.role_id, existing.id));
  return holders ? `This role cannot be deleted because ${holders} account${holders === 1 ? ' holds' : 's hold'} it.` : null;
}

/** Replaces the role's permissions with the ticked ones. */
async function setRolePermissions(db: Db, roleId: number, permissionIds: number[]) {
  await db.delete(roleHasPermissions).where(eq(roleHasPermissions.role_id, roleId));
  const unique = [...new Set(permissionIds)];
  if (unique.length) await db.insert(roleHasPermissions).values(unique.map((permission_id) => ({ role_id: roleId, permission_id })));
}

/** permission_ids and permissions ({id, name}) of a page of roles, in one query. */
export async function attachPermissions({ db }: ResourceContext, rows: Row[]) {
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

// ---- The definition's hooks ----

/** A role made here is for app users (the partner role comes from the seed), with only permissions the caller may give (issue 20). */
export async function prepareRole(ctx: WriteContext, values: Input, input: Input): Promise<Input> {
  await checkRolePermissionGrant(ctx, null, input.permission_ids);
  return { ...values, account_type: 'app' };
}

export async function prepareRoleUpdate(ctx: WriteContext, values: Input, existing: RoleRow, input: Input): Promise<Input> {
  await checkRolePermissionGrant(ctx, existing, input.permission_ids);
  await checkRoleChange(ctx.db, existing, values.name, input.permission_ids);
  return values;
}

/** The ticked permissions, when the form sent them. */
export async function saveRolePermissions(ctx: WriteContext, row: RoleRow, input: Input) {
  if (Array.isArray(input.permission_ids)) await setRolePermissions(ctx.db, row.id, input.permission_ids as number[]);
}

/** The role form's tick boxes, grouped by screen, each with the sentence of what it opens. */
export async function permissionGroups(ctx: ResourceContext) {
  return groupPermissionsByScreen(await ctx.db.select({ id: permissions.id, name: permissions.name }).from(permissions));
}

/**
 * A copy of a role under a new name with the same permissions, held by nobody yet (issue 28). An app
 * role only: the partner roles belong to the portal. The caller must be able to give every permission
 * it copies, as when they tick them (issue 20). Answers the copy as the role routes show it.
 */
export async function cloneRole(ctx: ResourceContext, sourceId: number, name: string): Promise<Row> {
  const copy = await inWrite(ctx, async ({ db, account }) => {
    const [source] = await db.select().from(roles).where(eq(roles.id, sourceId));
    if (!source) throw new HttpError(404, 'Role not found.');
    if (source.account_type !== 'app') throw new HttpError(409, `The ${source.name} role belongs to the partner portal and cannot be cloned.`);
    const held = await db.select({ id: roleHasPermissions.permission_id }).from(roleHasPermissions).where(eq(roleHasPermissions.role_id, sourceId));
    const permissionIds = held.map((p) => p.id);
    if ((await rolesBeyondGrant(db, account, [sourceId])).length) throw new HttpError(403, 'You can only clone a role whose permissions you hold yourself.');
    const [taken] = await db.select({ id: roles.id }).from(roles).where(sql`lower(${roles.name}) = ${name.toLowerCase()}`);
    if (taken) throw validationError({ name: 'The name has already been taken.' });
    const [created] = await db.insert(roles).values({ name, account_type: 'app' }).returning();
    await setRolePermissions(db, created.id, permissionIds);
    return created;
  });
  return resourceRow(role.name, ctx, copy.id);
}
