// Issue 28, partners look after themselves: a firm's admin login keeps the firm's profile (address,
// tax registration) and asks for new bank details from the portal, and invites and deactivates its
// colleagues' logins. Everything here is scoped to the caller's own firm in the query itself
// (CONVENTIONS "Security habits"): a login of firm A never reads or changes anything of firm B.
//
// Bank details are a classic fraud path (a forged "our account has changed"), so a change waits for
// finance: the firm's approved details (partners.bank_*) stay in force, and every payment goes to them,
// until finance approves the request (partner_bank_changes, kept as the history).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { partnerAccounts, partners } from '../../db/schema/accounts';
import { cities, countries } from '../../db/schema/master-data';
import { partnerBankChanges } from '../../db/schema/partner-profile';
import { PARTNER_ADMIN_ROLE, PARTNER_ROLE, assignRoles } from '../../db/seed';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { recordResourceChange } from '../../resources/audit';
import { actorName, inWrite, type ResourceContext } from '../../resources/types';
import {
  bankChangeWords, ikkPartner, type BankAccount, type BankChange, type FirmBankDetails, type FirmProfileInput,
} from '../../../shared/resources/ikk-partner';
import { partnerAccount } from '../../../shared/resources/partner-account';
import type { BankDetails } from '../../../shared/resources/reimbursement-batch';
import { revokeAllTokens } from '../auth/accounts';
import { sendSetPasswordLink } from '../auth/service';
import { notify, type Recipient } from '../notification/notify';
import { holdersOf } from '../../resources/workflow-recipients';
import { EMAIL_TAKEN, isLoginEmailTaken, prepareNewLogin } from './logins';
import { chosenOneRefused } from '../../../shared/words';

/** Who decides a firm's new bank details. */
export const BANK_APPROVER_PERMISSION = 'can-approve-partner-bank-details';

/** The caller's firm: a partner login's own, never one named in the request. */
function firmIdOf(account: Account): number {
  const id = (account.user as { partner_id?: number }).partner_id;
  if (account.type !== 'partner' || typeof id !== 'number') throw new HttpError(403, 'Only a partner login has a firm.');
  return id;
}


// ---- The firm's profile ----

/** The caller's firm as its logins see it (decision 040: the service a route calls). */
export const readFirm = ({ db, account }: ResourceContext) => firmOf(db, firmIdOf(account));

/** The firm as its logins see it: contact details, place, tax registration, and its bank details with their requests. */
async function firmOf(db: Db, partnerId: number) {
  const [firm] = await db.select({
    id: partners.id, name: partners.name, email: partners.email, phone: partners.phone, address: partners.address,
    country_id: partners.country_id, city_id: partners.city_id, tax_id: partners.tax_id, payment_terms_days: partners.payment_terms_days,
    country: countries.name, city: cities.name,
  }).from(partners)
    .leftJoin(countries, eq(countries.id, partners.country_id))
    .leftJoin(cities, eq(cities.id, partners.city_id))
    .where(eq(partners.id, partnerId));
  if (!firm) throw new HttpError(404, 'Partner not found.');
  return { ...firm, bank: await bankDetailsOf(db, partnerId) };
}

/** The firm's own changes: its place must be a real one, and a city lie in its country. */
export async function updateFirm(ctx: ResourceContext, input: FirmProfileInput) {
  const partnerId = firmIdOf(ctx.account);
  return inWrite(ctx, async ({ db, account }) => {
    const [before] = await db.select().from(partners).where(eq(partners.id, partnerId)).for('update');
    if (!before) throw new HttpError(404, 'Partner not found.');
    const next = { country_id: before.country_id, city_id: before.city_id, ...input };
    if (typeof next.country_id === 'number') {
      const [country] = await db.select({ id: countries.id }).from(countries).where(eq(countries.id, next.country_id));
      if (!country) throw validationError({ country_id: chosenOneRefused('country') });
    }
    if (typeof next.city_id === 'number') {
      const [city] = await db.select({ country_id: cities.country_id }).from(cities).where(eq(cities.id, next.city_id));
      if (!city) throw validationError({ city_id: chosenOneRefused('city') });
      if (typeof next.country_id === 'number' && city.country_id !== next.country_id) throw validationError({ city_id: 'The selected city is not in the selected country.' });
    }
    const values = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    const [after] = await db.update(partners).set({ ...values, updated_at: new Date() }).where(eq(partners.id, partnerId)).returning();
    await recordResourceChange(db, account, ikkPartner, { action: 'update', id: partnerId, before, after });
    return firmOf(db, partnerId);
  });
}

// ---- Bank details ----

const changeColumns = {
  id: partnerBankChanges.id, status: partnerBankChanges.status,
  account_holder: partnerBankChanges.account_holder, account_number: partnerBankChanges.account_number, bank_code: partnerBankChanges.bank_code,
  previous_account_holder: partnerBankChanges.previous_account_holder, previous_account_number: partnerBankChanges.previous_account_number,
  previous_bank_code: partnerBankChanges.previous_bank_code,
  requested_by: partnerBankChanges.requested_by_name, decided_by: partnerBankChanges.decided_by_name,
  decided_at: partnerBankChanges.decided_at, reason: partnerBankChanges.reason, created_at: partnerBankChanges.created_at,
};

type ChangeRow = { [K in keyof typeof changeColumns]: (typeof changeColumns)[K]['_']['data'] | null };

function toChange(row: ChangeRow): BankChange {
  return {
    id: row.id!, status: row.status!,
    requested: { account_holder: row.account_holder!, account_number: row.account_number!, bank_code: row.bank_code },
    previous: row.previous_account_holder && row.previous_account_number
      ? { account_holder: row.previous_account_holder, account_number: row.previous_account_number, bank_code: row.previous_bank_code }
      : null,
    requested_by: row.requested_by!, decided_by: row.decided_by, decided_at: row.decided_at?.toISOString() ?? null,
    reason: row.reason, created_at: row.created_at!.toISOString(),
  };
}

/** A firm's bank details as finance decides them (the firm's page). */
export const readBankDetails = ({ db }: ResourceContext, partnerId: number) => bankDetailsOf(db, partnerId);

/** The details in force, the request waiting (if any) and every request, newest first. */
async function bankDetailsOf(db: Db, partnerId: number): Promise<FirmBankDetails> {
  const [firm] = await db.select({
    account_holder: partners.bank_account_holder, account_number: partners.bank_account_number, bank_code: partners.bank_code,
    approved_at: partners.bank_details_approved_at,
  }).from(partners).where(eq(partners.id, partnerId));
  if (!firm) throw new HttpError(404, 'Partner not found.');
  const history = (await db.select(changeColumns).from(partnerBankChanges).where(eq(partnerBankChanges.partner_id, partnerId))
    .orderBy(desc(partnerBankChanges.created_at), desc(partnerBankChanges.id))).map(toChange);
  return {
    current: firm.account_holder && firm.account_number
      ? { account_holder: firm.account_holder, account_number: firm.account_number, bank_code: firm.bank_code, approved_at: firm.approved_at?.toISOString() ?? null }
      : null,
    pending: history.find((change) => change.status === 'pending') ?? null,
    history,
  };
}

const sameAccount = (a: BankAccount, b: BankAccount) =>
  a.account_holder === b.account_holder && a.account_number === b.account_number && (a.bank_code ?? null) === (b.bank_code ?? null);

/**
 * A firm asks for new bank details: stored as a request beside the details in force (which stay), one
 * waiting at a time (a new request withdraws the one before), and finance is told.
 */
export async function requestBankChange(ctx: ResourceContext, details: BankDetails) {
  const partnerId = firmIdOf(ctx.account);
  return inWrite(ctx, async ({ db, tx, account }) => {
    // The firm's row is locked: two requests at once are taken one after the other.
    const [firm] = await db.select().from(partners).where(eq(partners.id, partnerId)).for('update');
    if (!firm) throw new HttpError(404, 'Partner not found.');
    const current = firm.bank_account_holder && firm.bank_account_number
      ? { account_holder: firm.bank_account_holder, account_number: firm.bank_account_number, bank_code: firm.bank_code }
      : null;
    if (current && sameAccount(current, details)) throw validationError({ account_number: 'These are the bank details already in force.' });
    await db.update(partnerBankChanges).set({ status: 'withdrawn', updated_at: new Date() })
      .where(and(eq(partnerBankChanges.partner_id, partnerId), eq(partnerBankChanges.status, 'pending')));
    await db.insert(partnerBankChanges).values({
      partner_id: partnerId, ...details,
      previous_account_holder: current?.account_holder ?? null, previous_account_number: current?.account_number ?? null, previous_bank_code: current?.bank_code ?? null,
      requested_by_id: account.id, requested_by_name: actorName(account),
    });
    const approvers = await holdersOf(db, BANK_APPROVER_PERMISSION);
    await notify(tx, approvers, { ...bankChangeWords.requested({ firm: firm.name, actor: actorName(account) }), url: `/ikk-partner/${partnerId}` },
      { type: 'App\\Notifications\\PartnerBankDetailsRequested', isMailed: true });
    return { data: await bankDetailsOf(db, partnerId), message: bankChangeWords.answers.requested };
  });
}

/** The firm takes back the request waiting; nothing changes in force. */
export async function withdrawBankChange(ctx: ResourceContext) {
  const partnerId = firmIdOf(ctx.account);
  return inWrite(ctx, async ({ db }) => {
    const withdrawn = await db.update(partnerBankChanges).set({ status: 'withdrawn', updated_at: new Date() })
      .where(and(eq(partnerBankChanges.partner_id, partnerId), eq(partnerBankChanges.status, 'pending'))).returning({ id: partnerBankChanges.id });
    if (!withdrawn.length) throw new HttpError(409, 'No change of bank details is waiting.');
    return { data: await bankDetailsOf(db, partnerId), message: bankChangeWords.answers.withdrawn };
  });
}

/**
 * Finance decides a waiting request (compare-and-set on its status, so two decisions at once make one).
 * Approved: the firm's details become the new ones. Either way the firm's admin logins and whoever asked are told.
 */
export async function decideBankChange(ctx: ResourceContext, partnerId: number, changeId: number, decision: 'approved' | 'rejected', reason: string | null) {
  return inWrite(ctx, async ({ db, tx, account }) => {
    const [change] = await db.update(partnerBankChanges).set({
      status: decision, decided_by_id: account.id, decided_by_name: actorName(account), decided_at: new Date(), reason, updated_at: new Date(),
    }).where(and(eq(partnerBankChanges.id, changeId), eq(partnerBankChanges.partner_id, partnerId), eq(partnerBankChanges.status, 'pending'))).returning();
    if (!change) {
      const [exists] = await db.select({ status: partnerBankChanges.status }).from(partnerBankChanges)
        .where(and(eq(partnerBankChanges.id, changeId), eq(partnerBankChanges.partner_id, partnerId)));
      if (!exists) throw new HttpError(404, 'No such request to change the bank details.');
      throw new HttpError(409, `This request is no longer waiting: it was ${exists.status}.`);
    }
    if (decision === 'approved') {
      await db.update(partners).set({
        bank_account_holder: change.account_holder, bank_account_number: change.account_number, bank_code: change.bank_code,
        bank_details_approved_at: new Date(), updated_at: new Date(),
      }).where(eq(partners.id, partnerId));
    }
    const told = await firmAdmins(db, partnerId);
    const recipients: Recipient[] = [...new Set([...told, ...(change.requested_by_id ? [change.requested_by_id] : [])])].map((id) => ({ type: 'partner', id }));
    const words = decision === 'approved' ? bankChangeWords.approved({ actor: actorName(account) }) : bankChangeWords.rejected({ actor: actorName(account), reason: reason ?? '' });
    await notify(tx, recipients, { ...words, url: '/partner/profile' }, { type: 'App\\Notifications\\PartnerBankDetailsDecided', isMailed: true });
    return { data: await bankDetailsOf(db, partnerId), message: bankChangeWords.answers[decision] };
  });
}

// ---- Colleagues' logins ----

/** Whether each login (by id) holds the partner admin role. */
const firmAdminFlag = sql<boolean>`exists (select 1 from "model_has_roles" m join "roles" r on r."id" = m."role_id"
  where m."account_type" = 'partner' and m."account_id" = "partner_accounts"."id" and r."name" = ${PARTNER_ADMIN_ROLE})`;

/** The active admin logins of a firm. */
async function firmAdmins(db: Db, partnerId: number): Promise<number[]> {
  const rows = await db.select({ id: partnerAccounts.id }).from(partnerAccounts)
    .where(and(eq(partnerAccounts.partner_id, partnerId), eq(partnerAccounts.status, 'active'), firmAdminFlag));
  return rows.map((row) => row.id);
}

const colleagueColumns = {
  id: partnerAccounts.id, name: partnerAccounts.name, email: partnerAccounts.email, phone: partnerAccounts.phone,
  status: partnerAccounts.status, email_verified_at: partnerAccounts.email_verified_at, last_activity_at: partnerAccounts.last_activity_at,
  is_firm_admin: firmAdminFlag, created_at: partnerAccounts.created_at,
};

/** A login as the colleagues list shows it (times as the JSON sends them). */
function colleagueOf<T extends { email_verified_at: Date | null; last_activity_at: Date | null; created_at: Date }>(row: T, isYou: boolean) {
  return {
    ...row, email_verified_at: row.email_verified_at?.toISOString() ?? null, last_activity_at: row.last_activity_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(), is_you: isYou,
  };
}

/** The firm's logins, the caller's own among them. */
export async function listColleagues({ db, account }: ResourceContext) {
  const rows = await db.select(colleagueColumns).from(partnerAccounts).where(eq(partnerAccounts.partner_id, firmIdOf(account))).orderBy(partnerAccounts.name, partnerAccounts.id);
  return rows.map((row) => colleagueOf(row, row.id === account.id));
}

/** A new login of the caller's firm: it holds the partner role, and is mailed a link to set its password (after the commit). */
export async function inviteColleague(ctx: ResourceContext, input: { name: string; email: string; phone?: string | null }) {
  const partnerId = firmIdOf(ctx.account);
  return inWrite(ctx, async ({ db, tx, app, request, account }) => {
    if (await isLoginEmailTaken(db, input.email)) throw validationError({ email: EMAIL_TAKEN });
    const [login] = await db.insert(partnerAccounts).values({
      partner_id: partnerId, name: input.name, email: input.email, phone: input.phone ?? null, ...(await prepareNewLogin({})),
    } as typeof partnerAccounts.$inferInsert).returning();
    await recordResourceChange(db, account, partnerAccount, { action: 'create', id: login.id, before: null, after: login });
    await assignRoles(db, 'partner', login.id, [PARTNER_ROLE]);
    tx.onCommit(async () => {
      try {
        await sendSetPasswordLink(app, 'partner', input.email);
      } catch (error) {
        request.log.error({ err: error, partnerAccountId: login.id }, 'colleague invitation mail failed');
      }
    });
    const [row] = await db.select(colleagueColumns).from(partnerAccounts).where(eq(partnerAccounts.id, login.id));
    return { data: colleagueOf(row, false), message: `${input.name} is invited: a link to set a password for the partner portal has been emailed to ${input.email}.` };
  });
}

/** Deactivates (signing out everywhere at once) or reactivates a colleague's login of the caller's own firm. */
export async function setColleagueStatus(ctx: ResourceContext, id: number, status: 'active' | 'inactive') {
  const partnerId = firmIdOf(ctx.account);
  if (id === ctx.account.id) throw new HttpError(409, 'You cannot deactivate your own login: ask another admin of your firm.');
  return inWrite(ctx, async ({ db, account }) => {
    const [before] = await db.select().from(partnerAccounts).where(and(eq(partnerAccounts.id, id), eq(partnerAccounts.partner_id, partnerId)));
    // Another firm's login is as unknown as a missing one.
    if (!before) throw new HttpError(404, 'Login not found.');
    const [after] = await db.update(partnerAccounts).set({ status, updated_at: new Date() })
      .where(and(eq(partnerAccounts.id, id), eq(partnerAccounts.partner_id, partnerId))).returning();
    if (before.status === 'active' && status === 'inactive') await revokeAllTokens(db, 'partner', id);
    await recordResourceChange(db, account, partnerAccount, { action: 'update', id, before, after });
    const [row] = await db.select(colleagueColumns).from(partnerAccounts).where(eq(partnerAccounts.id, id));
    return {
      data: colleagueOf(row, false),
      message: status === 'inactive' ? `${after.name}'s login is deactivated and signed out.` : `${after.name}'s login is active again.`,
    };
  });
}
