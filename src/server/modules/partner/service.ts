// Partner firms beyond CRUD (issue 11): a new firm gets its first portal login (logins.ts),
// deactivating or deleting a firm signs its logins out everywhere, and an engineer's agreed rates
// never overlap in time. The definitions' hooks are the named functions here, the context first
// (decision 040).
import { and, eq, ne, sql } from 'drizzle-orm';
import { modelHasRoles, partnerAccounts, partners } from '../../db/schema/accounts';
import { cities } from '../../db/schema/master-data';
import { partnerEngineers } from '../../db/schema/partner-billing';
import { validationError } from '../../plugins/errors';
import { revokePartnerTokens } from '../auth/accounts';
import type { Input, ResourceContext, RowOf, WriteContext } from '../../resources/types';
import { checkNewLoginGrant, createLogin, EMAIL_TAKEN, isLoginEmailTaken } from './logins';

type Partner = RowOf<typeof partners>;

// ---- The firm ----

/** A city given with a country must lie in it (the form's city list follows the country). */
export async function checkPartnerPlace({ db }: ResourceContext, values: Input) {
  if (typeof values.city_id !== 'number' || typeof values.country_id !== 'number') return;
  const [city] = await db.select({ country_id: cities.country_id }).from(cities).where(eq(cities.id, values.city_id));
  if (city && city.country_id !== values.country_id) throw validationError({ city_id: 'The selected city is not in the selected country.' });
}

/** The firm's email becomes its first login's: refused here, before anything is stored, when a login already uses it. */
export async function prepareNewPartner(context: WriteContext, values: Input): Promise<Input> {
  await checkNewLoginGrant(context);
  await checkPartnerPlace(context, values);
  if (await isLoginEmailTaken(context.db, String(values.email))) throw validationError({ email: EMAIL_TAKEN });
  return values;
}

/** The first portal login, for the firm's contact (or the firm itself when no contact is named), with the firm's email. */
export async function createFirstLogin(context: WriteContext, partner: Partner) {
  // Issue 28: the firm's first login is its admin: it keeps the firm's profile and invites the others.
  await createLogin(context, {
    partner_id: partner.id,
    name: String(partner.contact_name ?? '').trim() || String(partner.name),
    email: String(partner.email),
    phone: partner.phone ?? null,
  });
}

export async function preparePartnerUpdate(context: WriteContext, values: Input, existing: Partner): Promise<Input> {
  await checkPartnerPlace(context, { country_id: existing.country_id, city_id: existing.city_id, ...values });
  return values;
}

/** A firm made inactive: every login's sessions end now, sockets included (the bearer check keeps them out after). */
export async function afterPartnerUpdate(context: WriteContext, row: Partner, existing: Partner) {
  if (existing.status === 'active' && row.status === 'inactive') await revokePartnerTokens(context.db, row.id);
}

/** The firm's logins go with it (ON DELETE CASCADE); their sessions end in the same transaction. */
export async function beforePartnerDelete(context: WriteContext, existing: Partner) {
  const id = existing.id;
  await revokePartnerTokens(context.db, id);
  const logins = context.db.select({ id: partnerAccounts.id }).from(partnerAccounts).where(eq(partnerAccounts.partner_id, id));
  await context.db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'partner'), sql`${modelHasRoles.account_id} in ${logins}`));
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
  if (to !== null && to < from) throw validationError({ valid_to: 'The last day this rate is valid cannot be before its first.' });
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

export async function prepareEngineer(context: WriteContext, values: Input): Promise<Input> {
  await checkEngineerPeriod(context, values);
  return values;
}

/** A rate stays with its firm (its statements' lines point at it), and its changed period is checked again. */
export async function prepareEngineerUpdate(context: WriteContext, values: Input, existing: RowOf<typeof partnerEngineers>): Promise<Input> {
  if (values.partner_id !== undefined && values.partner_id !== existing.partner_id) {
    throw validationError({ partner_id: 'An engineer\'s rate cannot be moved to another partner.' });
  }
  await checkEngineerPeriod(context, { ...existing, ...values }, existing.id);
  return values;
}
