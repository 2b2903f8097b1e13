// A partner firm's portal logins as staff keep them (issue 11; the partner-account definition's hooks,
// the context first, decision 040): every new login is mailed a set-password link, only someone who
// holds the partner roles' permissions makes one, a deactivated or deleted login is signed out
// everywhere, and the firm admin flag (issue 28) is the partner admin role.
import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { modelHasRoles, partnerAccounts, roles } from '../../db/schema/accounts';
import { assignRoles, PARTNER_ADMIN_ROLE, PARTNER_ROLE } from '../../db/seed';
import type { Db } from '../../db/client';
import { HttpError, validationError } from '../../plugins/errors';
import { recordResourceChange } from '../../resources/audit';
import type { Input, ResourceContext, RowOf, WriteContext } from '../../resources/types';
import { partnerAccount } from '../../../shared/resources/partner-account';
import { changedEmail, holdEmailChange, requestEmailChangeByAdmin } from '../auth/account-email';
import { revokeAllTokens } from '../auth/accounts';
import { sendSetPasswordLink } from '../auth/service';
import { roleIdByName, rolesBeyondGrant } from '../role/grants';

type Login = RowOf<typeof partnerAccounts>;

export const EMAIL_TAKEN = 'The email has already been taken.';

export async function isLoginEmailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  const [taken] = await db.select({ id: partnerAccounts.id }).from(partnerAccounts)
    .where(and(sql`lower(${partnerAccounts.email}) = ${email.toLowerCase()}`, exceptId ? ne(partnerAccounts.id, exceptId) : undefined)).limit(1);
  return !!taken;
}

/** A login's stored values: a password nobody knows until its owner sets one through the mailed link. */
export async function prepareNewLogin(values: Input): Promise<Input> {
  return { ...values, password: await randomPassword(), force_password_reset: true, email_verified_at: null };
}

/** A login made on a firm's page: its creator may give the partner roles, its password is nobody's yet. */
export async function prepareLogin(context: WriteContext, values: Input): Promise<Input> {
  await checkNewLoginGrant(context);
  return prepareNewLogin(values);
}

/** After a login is made on a firm's page: welcomed, and a firm admin when the form says so. */
export async function loginCreated(context: WriteContext, login: Login, input: Input) {
  await welcomeLogin(context, login);
  await setFirmAdmin(context.db, login.id, input.is_firm_admin);
}

/**
 * Issue 20: a new login holds the partner role (and may hold the partner admin role, issue 28), so
 * whoever creates one (or a firm, which comes with its first login) must hold those roles' every
 * permission, as for any role they give: in practice an admin.
 */
export async function checkNewLoginGrant(context: ResourceContext) {
  const roleIds = [await roleIdByName(context.db, PARTNER_ROLE, 'partner'), await roleIdByName(context.db, PARTNER_ADMIN_ROLE, 'partner')]
    .filter((id): id is number => typeof id === 'number');
  if ((await rolesBeyondGrant(context.db, context.account, roleIds)).length) {
    throw new HttpError(403, 'You can only create a partner login if you hold every permission of the partner role yourself.');
  }
}

/** After a login is stored: the partner role, and (after the commit) the set-password mail. */
export async function welcomeLogin(context: WriteContext, login: Login) {
  await assignRoles(context.db, 'partner', login.id, [PARTNER_ROLE]);
  const email = String(login.email);
  // After the commit: the link needs the login to exist for whoever opens it. The login exists
  // whatever the mail server says; a failed mail is logged and the person can use forgot-password.
  context.tx.onCommit(async () => {
    try {
      await sendSetPasswordLink(context.app, 'partner', email);
    } catch (error) {
      context.request.log.error({ err: error, partnerAccountId: login.id }, 'partner set-password mail failed');
    }
  });
}

/** A firm's first login, its admin (a new firm comes with it). */
export async function createLogin(context: WriteContext, values: { partner_id: number; name: string; email: string; phone: string | null }) {
  const [login] = await context.db.insert(partnerAccounts).values({ ...values, ...await prepareNewLogin({}) } as typeof partnerAccounts.$inferInsert)
    .returning()
    .catch((error: unknown) => {
      // Taken by a login created at the same moment (the unique index): the same answer as the check.
      if (isUniqueViolation(error)) throw validationError({ email: EMAIL_TAKEN });
      throw error;
    });
  // The audit trail records the login by its definition's fields: never its password.
  await recordResourceChange(context.db, context.account, partnerAccount, { action: 'create', id: login.id, before: null, after: login });
  await welcomeLogin(context, login);
  await assignRoles(context.db, 'partner', login.id, [PARTNER_ADMIN_ROLE]);
}

/** A login stays with its firm; a new address must be verified again; making or unmaking a firm admin is a grant. */
export async function prepareLoginUpdate(context: WriteContext, values: Input, existing: Login, input: Input): Promise<Input> {
  if (typeof input.is_firm_admin === 'boolean') await checkNewLoginGrant(context);
  if (values.partner_id !== undefined && values.partner_id !== existing.partner_id) {
    throw validationError({ partner_id: 'A login cannot be moved to another partner.' });
  }
  // Issue 20: the address is the key to the login; only an admin moves it, and the new one confirms it.
  return holdEmailChange(context, 'partner', values, existing);
}

export async function afterLoginUpdate(context: WriteContext, row: Login, existing: Login, input: Input) {
  const id = row.id;
  if (existing.status === 'active' && row.status === 'inactive') await revokeAllTokens(context.db, 'partner', id);
  const email = changedEmail(input, existing);
  if (email) await requestEmailChangeByAdmin(context, 'partner', id, email);
  await setFirmAdmin(context.db, id, input.is_firm_admin);
}

/** A deleted login's sessions end with it, and its roles go (model_has_roles has no foreign key to either account table). */
export async function beforeLoginDelete(context: WriteContext, existing: Login) {
  const id = existing.id;
  await revokeAllTokens(context.db, 'partner', id);
  await context.db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'partner'), eq(modelHasRoles.account_id, id)));
}

// ---- The firm admin flag on the staff side (the partner-account definition's is_firm_admin) ----

/** The partner admin role's id (seeded on every start). */
async function partnerAdminRoleId(db: Db): Promise<number> {
  const [role] = await db.select({ id: roles.id }).from(roles).where(and(eq(roles.name, PARTNER_ADMIN_ROLE), eq(roles.account_type, 'partner')));
  if (!role) throw new Error('The partner admin role is missing: the seed has not run.');
  return role.id;
}

/** Each row's is_firm_admin, in one query. */
export async function attachFirmAdminFlags({ db }: ResourceContext, rows: Login[]) {
  if (!rows.length) return;
  const roleId = await partnerAdminRoleId(db);
  const held = new Set((await db.select({ id: modelHasRoles.account_id }).from(modelHasRoles)
    .where(and(eq(modelHasRoles.role_id, roleId), eq(modelHasRoles.account_type, 'partner'), inArray(modelHasRoles.account_id, rows.map((row) => row.id)))))
    .map((row) => row.id));
  for (const row of rows) row.is_firm_admin = held.has(row.id);
}

/** Gives or takes the partner admin role as the staff form asks (when it says). */
async function setFirmAdmin(db: Db, loginId: number, isFirmAdmin: unknown) {
  if (typeof isFirmAdmin !== 'boolean') return;
  const roleId = await partnerAdminRoleId(db);
  if (isFirmAdmin) {
    await db.insert(modelHasRoles).values({ role_id: roleId, account_type: 'partner', account_id: loginId }).onConflictDoNothing();
  } else {
    await db.delete(modelHasRoles).where(and(eq(modelHasRoles.role_id, roleId), eq(modelHasRoles.account_type, 'partner'), eq(modelHasRoles.account_id, loginId)));
  }
}

// ---- Helpers ----

const randomPassword = () => hash(randomBytes(32).toString('base64url'));

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';
