// The people screens' behaviour beyond CRUD: a new account gets the role of its type, a random
// password it must replace, and one mail inviting it to set a password (using that link verifies the
// address, see resetPassword); deactivating an account signs it out everywhere.
import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { modelHasRoles, roles, users } from '../../db/schema/accounts';
import { cities } from '../../db/schema/master-data';
import { HttpError, validationError } from '../../plugins/errors';
import type { ResourceContext, WriteContext } from '../../resources/register';
import type { UserType } from '../../../shared/resources/user';
import { isAdmin, isAdminAccount } from '../../../shared/permissions';
import { changedEmail, holdEmailChange, requestEmailChangeByAdmin } from '../auth/account-email';
import { findAccountById, revokeAllTokens, type UserRow } from '../auth/accounts';
import { sendSetPasswordLink } from '../auth/service';
import { adminAccountRefusal, roleIdByName, checkAdminAccountChange, checkRoleGrant, rolesBeyondGrant } from '../role/grants';
import { oneOfChosenRefused, withArticle } from '../../../shared/words';

type Input = Record<string, unknown>;

/** The stored values of a new account: its type, and a password nobody knows until they set one. */
export async function prepareNewUser(userType: UserType, values: Input, input: Input, context: ResourceContext): Promise<Input> {
  if (isAdminAccount({ user_type: userType })) checkAdminAccountChange(context.account, 'create');
  checkHrDates(values);
  await checkPlaceAndRoles(context, values, input);
  await checkNewAccountGrant(context, userType, (input.role_ids as number[] | undefined) ?? []);
  return {
    ...values,
    user_type: userType,
    password: await hash(randomBytes(32).toString('base64url')),
    force_password_reset: true,
    email_verified_at: null,
  };
}

export async function welcomeNewUser(userType: UserType, row: Record<string, unknown>, input: Input, context: WriteContext) {
  const id = row.id as number;
  await setUserRoles(context.db, id, userType, (input.role_ids as number[] | undefined) ?? []);
  // After the commit: the link needs the account to exist for whoever opens it. The account
  // exists whatever the mail server says; a failed mail is logged and the person can use
  // forgot-password. One mail only (issue 14): setting the password through it verifies the address.
  context.tx.onCommit(async () => {
    const user = await findAccountById(context.app.db, 'app', id);
    try {
      await sendSetPasswordLink(context.app, 'app', (user as UserRow).email);
    } catch (error) {
      context.request.log.error({ err: error, userId: id }, 'welcome mail failed');
    }
  });
}

export async function prepareUserUpdate(values: Input, existing: Record<string, unknown>, input: Input, context: ResourceContext): Promise<Input> {
  const { account } = context;
  const isSelf = existing.id === account.id;
  if (isSelf && values.status === 'inactive') throw validationError({ status: 'You cannot deactivate your own account.' });
  if (values.parent_id !== undefined && values.parent_id === existing.id) throw validationError({ parent_id: 'A user cannot be their own manager.' });
  checkHrDates({ join_date: existing.join_date, exit_date: existing.exit_date, ...values });
  await checkPlaceAndRoles(context, { country_id: existing.country_id, city_id: existing.city_id, ...values }, input);
  const heldRoleIds = (existing.role_ids as number[] | undefined) ?? [];
  const roleIds = input.role_ids as number[] | undefined;
  if (!isAdmin(account)) {
    // Your own standing changes only by someone else's hand (an admin's).
    if (isSelf && values.status !== undefined && values.status !== existing.status) throw validationError({ status: 'You cannot change your own status.' });
    if (isSelf && roleIds && !sameRoles(roleIds, heldRoleIds, await roleIdByName(context.db, String(existing.user_type)))) {
      throw validationError({ role_ids: 'You cannot change your own roles.' });
    }
    // Roles already held may stay; every role added must be one the editor could hold themselves.
    if (roleIds) await checkRoleGrant(context.db, account, roleIds.filter((id) => !heldRoleIds.includes(id)));
  }
  return holdEmailChange(context, 'app', values, existing);
}

/** The roles asked for are the ones held (the type's own role is always held, sent or not). */
function sameRoles(wanted: number[], held: number[], typeRoleId: number | undefined): boolean {
  const asked = new Set([...wanted, ...(typeRoleId ? [typeRoleId] : [])]);
  return asked.size === new Set(held).size && held.every((id) => asked.has(id));
}

export async function applyUserUpdate(userType: UserType, row: Record<string, unknown>, existing: Record<string, unknown>, input: Input, context: WriteContext) {
  const id = row.id as number;
  if (existing.status === 'active' && row.status === 'inactive') await revokeAllTokens(context.db, 'app', id);
  if (input.role_ids) await setUserRoles(context.db, id, userType, input.role_ids as number[]);
  const email = changedEmail(input, existing);
  if (email) await requestEmailChangeByAdmin(context, 'app', id, email);
}

/** Issue 20: only an admin touches an admin's account (its email is the key to it). */
export const userUpdateRefusal = (existing: Record<string, unknown>, context: ResourceContext) => adminAccountRefusal(context.account, existing, 'edit');

/** Nobody deletes their own account, and only an admin an admin's. */
export function userDeleteRefusal(existing: Record<string, unknown>, context: ResourceContext): HttpError | null {
  if (existing.id === context.account.id) return validationError({ id: 'You cannot delete your own account.' });
  return adminAccountRefusal(context.account, existing, 'delete');
}

/**
 * A new account holds its type's role besides the chosen ones: a non-admin creates only an account
 * whose every role they could hold themselves (else a clerk would mint a manager, or more, for an
 * address of their own).
 */
export async function checkNewAccountGrant(context: ResourceContext, userType: UserType, roleIds: number[]) {
  if (isAdmin(context.account)) return;
  const typeRoleId = await roleIdByName(context.db, userType);
  if (typeRoleId && (await rolesBeyondGrant(context.db, context.account, [typeRoleId])).length) {
    throw new HttpError(403, `You can only create ${withArticle(userType)} account if you hold every permission of the ${userType} role yourself.`);
  }
  await checkRoleGrant(context.db, context.account, roleIds);
}

/**
 * Someone others report to (their `parent_id`) is not deleted: the reports would be left without a
 * manager and their pending time sheets without a reviewer. The 409 names them, so the admin knows
 * whom to give a new manager first.
 */
export async function reportsOf({ db }: ResourceContext, existing: Record<string, unknown>): Promise<string | null> {
  const id = existing.id as number;
  const [{ total }] = await db.select({ total: count() }).from(users).where(eq(users.parent_id, id));
  if (!total) return null;
  const shown = await db.select({ name: users.name }).from(users).where(eq(users.parent_id, id)).orderBy(asc(users.name), asc(users.id)).limit(REPORTS_NAMED);
  const names = shown.map((report) => report.name).join(', ') + (total > shown.length ? ` and ${total - shown.length} more` : '');
  return `${String(existing.name)} cannot be deleted because ${total === 1 ? '1 person reports' : `${total} people report`} to them: ${names}. `
    + `Give ${total === 1 ? 'them' : 'each of them'} another manager first.`;
}

/** Issue 22: someone leaves after they join (both YYYY-MM-DD, so they compare as text). */
export function checkHrDates(values: Input) {
  const { join_date: joined, exit_date: left } = values;
  if (typeof joined === 'string' && typeof left === 'string' && left < joined) {
    throw validationError({ exit_date: 'The exit date must be on or after the join date.' });
  }
}

/** How many reports a refused delete names before "and N more". */
const REPORTS_NAMED = 5;

/**
 * A city given with a country must lie in it; extra roles must be app roles (the partner role is
 * not for users), and only an admin hands out the admin role.
 */
async function checkPlaceAndRoles({ db, account }: ResourceContext, values: Input, input: Input) {
  if (typeof values.city_id === 'number' && typeof values.country_id === 'number') {
    const [city] = await db.select({ country_id: cities.country_id }).from(cities).where(eq(cities.id, values.city_id));
    if (city && city.country_id !== values.country_id) throw validationError({ city_id: 'The selected city is not in the selected country.' });
  }
  const roleIds = (input.role_ids as number[] | undefined) ?? [];
  if (roleIds.length) {
    const found = await db.select({ id: roles.id, name: roles.name }).from(roles).where(and(inArray(roles.id, roleIds), eq(roles.account_type, 'app')));
    if (found.length !== new Set(roleIds).size) throw validationError({ role_ids: oneOfChosenRefused('roles') });
    if (isAdmin({ roles: found.map((role) => role.name) }) && !isAdmin(account)) {
      throw validationError({ role_ids: 'Only an admin can grant the admin role.' });
    }
  }
}

/** The role named like the user type, plus the chosen ones; replaces what the account held. */
export async function setUserRoles(db: Db, userId: number, userType: UserType, roleIds: number[]) {
  const [typeRole] = await db.select({ id: roles.id }).from(roles).where(and(eq(roles.name, userType), eq(roles.account_type, 'app')));
  const wanted = [...new Set([...(typeRole ? [typeRole.id] : []), ...roleIds])];
  await db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'app'), eq(modelHasRoles.account_id, userId)));
  if (wanted.length) {
    await db.insert(modelHasRoles).values(wanted.map((role_id) => ({ role_id, account_type: 'app' as const, account_id: userId })));
  }
}

/**
 * The roles ({id, name}, by name) of each user, selected with the row itself (a `computed` value of
 * the resource; written out, as drizzle would leave the outer "id" unqualified): no second query per page. PostgreSQL evaluates it after the sort and limit, so only
 * for the rows of the page.
 */
export const rolesOfUser = sql`(select coalesce(json_agg(json_build_object('id', r."id", 'name', r."name") order by r."name"), '[]'::json)
  from "model_has_roles" m join "roles" r on r."id" = m."role_id" where m."account_type" = 'app' and m."account_id" = "users"."id")`;

/** The address the account waits to move to (its own request, or an admin's), confirmed by a link mailed there. */
export const pendingEmailOfUser = sql<string | null>`(select e."email" from "email_changes" e where e."account_type" = 'app' and e."account_id" = "users"."id")`;

/** role_ids beside the roles selected with each row. */
export function attachRoleIds(rows: Record<string, unknown>[]) {
  for (const row of rows) {
    const held = typeof row.roles === 'string' ? JSON.parse(row.roles) : row.roles;
    row.roles = held;
    row.role_ids = (held as { id: number }[]).map((role) => role.id);
  }
}

export const isUserOfType = (userType: UserType) => eq(users.user_type, userType);
