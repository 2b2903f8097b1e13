// Partner firms beyond CRUD (issue 11): a new firm gets its first portal login, every new login is
// mailed a set-password link to the partner portal, deactivating a firm or a login signs it out
// everywhere, and an engineer's agreed rates never overlap in time.
import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { and, eq, ne, sql } from 'drizzle-orm';
import { modelHasRoles, partnerAccounts, partners } from '../../db/schema/accounts';
import { cities } from '../../db/schema/master-data';
import { partnerEngineers } from '../../db/schema/partner-billing';
import { assignRoles, PARTNER_ADMIN_ROLE, PARTNER_ROLE } from '../../db/seed';
import type { Db } from '../../db/client';
import { HttpError, validationError } from '../../plugins/errors';
import { recordResourceChange } from '../../resources/audit';
import type { ResourceContext, WriteContext } from '../../resources/register';
import { partnerAccount } from '../../../shared/resources/partner-account';
import { changedEmail, holdEmailChange, requestEmailChangeByAdmin } from '../auth/account-email';
import { revokeAllTokens, revokePartnerTokens } from '../auth/accounts';
import { sendSetPasswordLink } from '../auth/service';
import { roleIdByName, rolesBeyondGrant } from '../role/grants';
import type { Row } from '../../resources/types';

type Input = Record<string, unknown>;

const EMAIL_TAKEN = 'The email has already been taken.';


// ---- The firm ----

/** A city given with a country must lie in it (the form's city list follows the country). */
export async function checkPartnerPlace({ db }: ResourceContext, values: Input) {
  if (typeof values.city_id !== 'number' || typeof values.country_id !== 'number') return;
  const [city] = await db.select({ country_id: cities.country_id }).from(cities).where(eq(cities.id, values.city_id));
  if (city && city.country_id !== values.country_id) throw validationError({ city_id: 'The selected city is not in the selected country.' });
}

/** The firm's email becomes its first login's: refused here, before anything is stored, when a login already uses it. */
export async function prepareNewPartner(values: Input, context: ResourceContext): Promise<Input> {
  await checkNewLoginGrant(context);
  await checkPartnerPlace(context, values);
  if (await isLoginEmailTaken(context.db, String(values.email))) throw validationError({ email: EMAIL_TAKEN });
  return values;
}

/** The first portal login, for the firm's contact (or the firm itself when no contact is named), with the firm's email. */
export async function createFirstLogin(partner: Row, context: WriteContext) {
  // Issue 28: the firm's first login is its admin: it keeps the firm's profile and invites the others.
  await createLogin(context, {
    partner_id: partner.id as number,
    name: String(partner.contact_name ?? '').trim() || String(partner.name),
    email: String(partner.email),
    phone: (partner.phone as string | null) ?? null,
  });
}

export async function preparePartnerUpdate(values: Input, existing: Row, context: ResourceContext): Promise<Input> {
  await checkPartnerPlace(context, { country_id: existing.country_id, city_id: existing.city_id, ...values });
  return values;
}

/** A firm made inactive: every login's sessions end now, sockets included (the bearer check keeps them out after). */
export async function afterPartnerUpdate(row: Row, existing: Row, context: WriteContext) {
  if (existing.status === 'active' && row.status === 'inactive') await revokePartnerTokens(context.db, row.id as number);
}

/** The firm's logins go with it (ON DELETE CASCADE); their sessions end in the same transaction. */
export async function beforePartnerDelete(existing: Row, context: WriteContext) {
  const id = existing.id as number;
  await revokePartnerTokens(context.db, id);
  const logins = context.db.select({ id: partnerAccounts.id }).from(partnerAccounts).where(eq(partnerAccounts.partner_id, id));
  await context.db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'partner'), sql`${modelHasRoles.account_id} in ${logins}`));
}

// ---- Its logins ----

export async function isLoginEmailTaken(db: Db, email: string, exceptId?: number): Promise<boolean> {
  const [taken] = await db.select({ id: partnerAccounts.id }).from(partnerAccounts)
    .where(and(sql`lower(${partnerAccounts.email}) = ${email.toLowerCase()}`, exceptId ? ne(partnerAccounts.id, exceptId) : undefined)).limit(1);
  return !!taken;
}

/** A login's stored values: a password nobody knows until its owner sets one through the mailed link. */
export async function prepareNewLogin(values: Input): Promise<Input> {
  return { ...values, password: await randomPassword(), force_password_reset: true, email_verified_at: null };
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
export async function welcomeLogin(login: Row, context: WriteContext) {
  await assignRoles(context.db, 'partner', login.id as number, [PARTNER_ROLE]);
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

async function createLogin(context: WriteContext, values: { partner_id: number; name: string; email: string; phone: string | null }) {
  const [login] = await context.db.insert(partnerAccounts).values({ ...values, ...await prepareNewLogin({}) } as typeof partnerAccounts.$inferInsert)
    .returning()
    .catch((error: unknown) => {
      // Taken by a login created at the same moment (the unique index): the same answer as the check.
      if (isUniqueViolation(error)) throw validationError({ email: EMAIL_TAKEN });
      throw error;
    });
  // The audit trail records the login by its definition's fields: never its password.
  await recordResourceChange(context.db, context.account, partnerAccount, { action: 'create', id: login.id, before: null, after: login });
  await welcomeLogin(login, context);
  await assignRoles(context.db, 'partner', login.id, [PARTNER_ADMIN_ROLE]);
}

/** A login stays with its firm; a new address must be verified again. */
export function prepareLoginUpdate(values: Input, existing: Row, context: ResourceContext): Input {
  if (values.partner_id !== undefined && values.partner_id !== existing.partner_id) {
    throw validationError({ partner_id: 'A login cannot be moved to another partner.' });
  }
  // Issue 20: the address is the key to the login; only an admin moves it, and the new one confirms it.
  return holdEmailChange(context, 'partner', values, existing);
}

export async function afterLoginUpdate(row: Row, existing: Row, input: Input, context: WriteContext) {
  const id = row.id as number;
  if (existing.status === 'active' && row.status === 'inactive') await revokeAllTokens(context.db, 'partner', id);
  const email = changedEmail(input, existing);
  if (email) await requestEmailChangeByAdmin(context, 'partner', id, email);
}

/** A deleted login's sessions end with it, and its roles go (model_has_roles has no foreign key to either account table). */
export async function beforeLoginDelete(existing: Row, context: WriteContext) {
  const id = existing.id as number;
  await revokeAllTokens(context.db, 'partner', id);
  await context.db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'partner'), eq(modelHasRoles.account_id, id)));
}

// ---- Its engineers and agreed rates ----

/** The engineer's name, selected with each row: the label partners pick their engineers by. */
export const engineerName = sql<string>`(select u."name" from "users" u where u."id" = "partner_engineers"."user_id")`;

/**
 * An agreed rate's period: not ending before it starts, and not overlapping another period of the same
 * engineer at the same firm (a statement's day must have one rate). The firm's row is locked first, so
 * two rates saved at once for it are checked one after the other.
 */
export async function checkEngineerPeriod({ db }: ResourceContext, rate: Input, exceptId?: number) {
  const from = String(rate.valid_from);
  const to = (rate.valid_to as string | null | undefined) ?? null;
  if (to !== null && to < from) throw validationError({ valid_to: 'The valid to field must be a date after or equal to valid from.' });
  const partnerId = rate.partner_id as number;
  await db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).for('update');
  const e = partnerEngineers;
  const [overlap] = await db.select({ valid_from: e.valid_from, valid_to: e.valid_to }).from(e).where(and(
    eq(e.partner_id, partnerId),
    eq(e.user_id, rate.user_id as number),
    exceptId ? ne(e.id, exceptId) : undefined,
    sql`${e.valid_from} <= coalesce(${to}::date, 'infinity'::date)`,
    sql`coalesce(${e.valid_to}, 'infinity'::date) >= ${from}::date`,
  )).limit(1);
  if (overlap) {
    throw validationError({
      valid_from: `This engineer already has a rate at this partner from ${overlap.valid_from} ${overlap.valid_to ? `to ${overlap.valid_to}` : 'with no end date'}; the periods must not overlap.`,
    });
  }
}

/** A rate stays with its firm (its statements' lines point at it). */
export function refuseRateMove(values: Input, existing: Row) {
  if (values.partner_id !== undefined && values.partner_id !== existing.partner_id) {
    throw validationError({ partner_id: 'An engineer\'s rate cannot be moved to another partner.' });
  }
}

// ---- Helpers ----

const randomPassword = () => hash(randomBytes(32).toString('base64url'));

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505';
