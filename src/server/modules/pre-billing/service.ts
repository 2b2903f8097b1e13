// Pre-billing beyond the declared workflow (issue 11): the lines priced at the rates agreed for the
// month, the checks that refuse a bad statement with 422 before anything is stored, corrections
// kept as versions, telling finance and the account manager of a correction, and the
// comparison with the firm's own approved time sheets. The definition's hooks and the routes'
// services take the context first (decision 040).
import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import { partners, users } from '../../db/schema/accounts';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema/master-data';
import { contractPeople, contracts } from '../../db/schema/onboarding';
import { partnerEngineers, preBillingLines, preBillings, preBillingVersions } from '../../db/schema/partner-billing';
import { timeSheets } from '../../db/schema/time-sheets';
import { HttpError, validationError } from '../../plugins/errors';
import { ownerIdOf, writeHistory } from '../../resources/workflow';
import { notifyAbout } from '../../resources/workflow-notify';
import { hasPermission, isAdminAccount } from '../../../shared/permissions';
import type { AttachmentSummary } from '../../../shared/resources/define';
import { PARTNER_INVOICE_APPROVE_PERMISSION } from '../../../shared/resources/partner-invoice';
import {
  firstOfMonth, HOURS_PER_DAY, lastOfMonth, maxQuantity, monthLabel, parsePreBillingLines, preBilling,
  PRE_BILLING_APPROVE_PERMISSION, PRE_BILLING_REVIEW_PERMISSION, RESUBMIT_TRANSITION, type PreBillingComparison, type PreBillingLine, type PreBillingLineInput,
  type PreBillingVersion,
} from '../../../shared/resources/pre-billing';
// Hours carry two decimals like money: quantities are added and multiplied with the same exact arithmetic.
import { addMoney, multiplyMoney, roundMoney, subtractMoney, sumMoney } from '../../../shared/money';
import { thisMonth } from '../../../shared/dates';
import type { Input, ResourceContext, RowOf, WriteContext } from '../../resources/types';

/** A line ready to store: the engineer record whose agreed rate applies in the month, and the amount. */
export interface PricedLine {
  engineer_id: number;
  client_id: number;
  quantity: number;
  rate_type: 'day' | 'hour';
  rate: number;
  amount: number;
}

const unitOf = (rateType: 'day' | 'hour', quantity: number) => (rateType === 'day' ? (quantity === 1 ? 'day' : 'days') : (quantity === 1 ? 'hour' : 'hours'));

/**
 * The clients a firm may bill (issue 20): those its own engineers are placed with, that is a client
 * contract naming an engineer the firm has a rate agreed for, over a period the contract and the rate
 * share. A partner never learns of the firm's other clients, in a picker or by naming one on a line.
 */
export function billableClientsOf(partnerId: number): SQL {
  return inArray(clients.id, sql`(select ${contracts.client_id} from ${contracts}
    inner join ${contractPeople} on ${contractPeople.contract_id} = ${contracts.id}
    inner join ${partnerEngineers} on ${partnerEngineers.user_id} = ${contractPeople.user_id}
    where ${partnerEngineers.partner_id} = ${partnerId}
      and ${contracts.start_date} <= coalesce(${partnerEngineers.valid_to}, ${contracts.start_date})
      and ${contracts.end_date} >= ${partnerEngineers.valid_from})`);
}

const OPTIONS_LIMIT = 50;

/** The client choices of a partner login's statement line: active clients its firm may bill, by name. */
export async function billableClientOptions({ db, account }: ResourceContext, search: string | undefined) {
  const words = search?.trim();
  const pattern = words ? `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return db.select({ id: clients.id, label: clients.name }).from(clients)
    .where(and(eq(clients.status, 'active'), billableClientsOf(ownerIdOf(account)), pattern ? sql`lower(${clients.name}) like lower(${pattern})` : undefined))
    .orderBy(asc(clients.name), asc(clients.id)).limit(OPTIONS_LIMIT);
}

/**
 * Prices the lines of a statement of `partnerId` for the month starting `first`, or returns why not,
 * per line (`lines.0.engineer_id`). The rate is the one agreed for the engineer (the same person at
 * the same firm; a line may name any of their rate periods) in force in the month: of the periods
 * overlapping the month, the latest (an engineer whose rate changed mid-month is billed at the new
 * rate; the periods of one engineer never overlap). The stored line names that period.
 */
export async function priceLines(
  db: Db, partnerId: number, first: string, currency: string, lines: readonly PreBillingLineInput[], billedElsewhere: ReadonlyMap<number, number> = new Map(),
): Promise<{ priced: PricedLine[]; errors: Record<string, string> }> {
  const errors: Record<string, string> = {};
  if (!lines.length) return { priced: [], errors };
  const last = lastOfMonth(first);
  const month = monthLabel(first);

  const named = await db.select({ id: partnerEngineers.id, partner_id: partnerEngineers.partner_id, user_id: partnerEngineers.user_id })
    .from(partnerEngineers).where(inArray(partnerEngineers.id, [...new Set(lines.map((line) => line.engineer_id))]));
  // Another firm's engineer reads as unknown: the answer never tells whose it is.
  const personOf = new Map(named.filter((e) => e.partner_id === partnerId).map((e) => [e.id, e.user_id]));
  const people = [...new Set(personOf.values())];

  const periods = people.length ? await db.select({
    id: partnerEngineers.id, user_id: partnerEngineers.user_id, rate_type: partnerEngineers.rate_type, rate: partnerEngineers.rate, currency: partnerEngineers.currency,
  }).from(partnerEngineers).where(and(
    eq(partnerEngineers.partner_id, partnerId), inArray(partnerEngineers.user_id, people),
    lte(partnerEngineers.valid_from, last), or(isNull(partnerEngineers.valid_to), gte(partnerEngineers.valid_to, first)),
  )).orderBy(desc(partnerEngineers.valid_from)) : [];
  const periodOf = new Map<number, (typeof periods)[number]>();
  for (const period of periods) if (!periodOf.has(period.user_id)) periodOf.set(period.user_id, period);

  const names = new Map((people.length ? await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, people)) : []).map((u) => [u.id, u.name]));
  // Another firm's client reads as unknown, like another firm's engineer.
  const knownClients = new Set((await db.select({ id: clients.id }).from(clients)
    .where(and(inArray(clients.id, [...new Set(lines.map((line) => line.client_id))]), billableClientsOf(partnerId)))).map((c) => c.id));

  const priced: PricedLine[] = [];
  const lineOf = new Map<string, number>();
  const billedOf = new Map<number, number>();
  lines.forEach((line, index) => {
    const key = (field: string) => `lines.${index}.${field}`;
    const person = personOf.get(line.engineer_id);
    if (person === undefined) { errors[key('engineer_id')] = 'The selected engineer is not one of your engineers.'; return; }
    const name = names.get(person) ?? 'This engineer';
    if (!knownClients.has(line.client_id)) { errors[key('client_id')] = 'The selected client is invalid.'; return; }
    const pair = `${person}:${line.client_id}`;
    const earlier = lineOf.get(pair);
    if (earlier !== undefined) {
      errors[key('client_id')] = `${name} is already billed for this client on line ${earlier + 1}: put the whole month on one line.`;
      return;
    }
    lineOf.set(pair, index);
    const period = periodOf.get(person);
    if (!period) { errors[key('engineer_id')] = `${name} has no rate agreed for ${month}.`; return; }
    if (period.currency !== currency) {
      errors[key('engineer_id')] = `The rate agreed for ${name} is in ${period.currency}, but this statement is in ${currency}: one statement holds one currency.`;
      return;
    }
    const max = maxQuantity(period.rate_type, first);
    if (line.quantity > max) {
      errors[key('quantity')] = `The quantity may not be greater than ${max} ${unitOf(period.rate_type, max)}: ${month} has ${max / (period.rate_type === 'day' ? 1 : 24)} days.`;
      return;
    }
    // The same engineer for several clients still works at most the month's days in all, counting
    // what the month's other statements (the original of a supplementary one) already bill.
    const billed = addMoney(billedOf.get(person) ?? billedElsewhere.get(person) ?? 0, line.quantity);
    billedOf.set(person, billed);
    if (billed > max) {
      const elsewhere = billedElsewhere.get(person) ? `, the month's other statements included` : '';
      errors[key('quantity')] = `${name} is billed ${billed} ${unitOf(period.rate_type, billed)} in ${month} over all lines${elsewhere}, more than the ${max} the month allows.`;
      return;
    }
    priced.push({ engineer_id: period.id, client_id: line.client_id, quantity: line.quantity, rate_type: period.rate_type, rate: period.rate, amount: multiplyMoney(line.quantity, period.rate) });
  });
  return { priced, errors };
}

/** What `beforeCreate` / `beforeUpdate` settled, handed to the `after` hook of the same request. */
interface Settled { lines: PricedLine[]; isResubmission: boolean }
const settled = new WeakMap<object, Settled>();

/**
 * Checks a statement as it will be saved (the month free for the firm and not in the future, the
 * spreadsheet attached, every line), all at once: one 422 naming every field, and nothing stored.
 * Returns the columns to store; the priced lines wait for the `after` hook.
 */
async function checkStatement(ctx: ResourceContext, statement: {
  id?: number; partnerId: number; month: string; currency: string; rawLines: unknown; spreadsheet: readonly AttachmentSummary[]; isSupplementary: boolean;
}) {
  const errors: Record<string, string> = {};
  const first = firstOfMonth(statement.month)!;
  let supplementsId: number | null = null;
  if (first > firstOfMonth(thisMonth())!) errors.month = 'The month may not be in the future: bill a month once it has been worked.';
  else {
    // The month's original statement (one per firm and month); supplementary ones come beside it.
    const [original] = await ctx.db.select({ id: preBillings.id, status: preBillings.status }).from(preBillings)
      .where(and(eq(preBillings.partner_id, statement.partnerId), eq(preBillings.month, first), isNull(preBillings.supplements_id),
        statement.id ? ne(preBillings.id, statement.id) : undefined)).limit(1);
    const month = monthLabel(first);
    if (statement.isSupplementary) {
      if (!original) errors.month = `There is no pre-billing for ${month} to supplement: submit an ordinary statement for it.`;
      else if (original.status !== 'approved') {
        errors.month = `The pre-billing for ${month} is not approved yet: add the forgotten line to it instead of a supplementary statement.`;
      } else supplementsId = original.id;
    } else if (original) {
      errors.month = original.status === 'approved'
        ? `The pre-billing for ${month} is already approved: to bill a forgotten line, submit a supplementary statement for ${month}.`
        : `A pre-billing for ${month} has already been submitted: correct that one instead.`;
    }
  }
  if (!statement.spreadsheet.length) errors.spreadsheet = 'Attach the statement\'s spreadsheet (xlsx, xls, csv or pdf).';
  const parsed = parsePreBillingLines(statement.rawLines);
  Object.assign(errors, parsed.errors);
  const elsewhere = await quantitiesBilledElsewhere(ctx.db, statement.partnerId, first, statement.id);
  const { priced, errors: lineErrors } = await priceLines(ctx.db, statement.partnerId, first, statement.currency, parsed.lines, elsewhere);
  Object.assign(errors, lineErrors);
  if (Object.keys(errors).length) throw validationError(errors);
  return { first, priced, total: sumMoney(priced.map((line) => line.amount)), supplementsId };
}

/** The month's other statements of the firm that still count (all but rejected ones), besides `selfId`. */
const otherStatementsOfMonth = (db: Db, partnerId: number, first: string, selfId?: number) =>
  db.select({ id: preBillings.id }).from(preBillings).where(and(
    eq(preBillings.partner_id, partnerId), eq(preBillings.month, first), ne(preBillings.status, 'rejected'), selfId ? ne(preBillings.id, selfId) : undefined,
  ));

/** Days or hours each engineer (by person) is billed in the month's other statements. */
async function quantitiesBilledElsewhere(db: Db, partnerId: number, first: string, selfId?: number): Promise<Map<number, number>> {
  const rows = await db.select({ user_id: partnerEngineers.user_id, quantity: sql<number>`sum(${preBillingLines.quantity})`.mapWith(Number) })
    .from(preBillingLines).innerJoin(partnerEngineers, eq(partnerEngineers.id, preBillingLines.engineer_id))
    .where(inArray(preBillingLines.pre_billing_id, otherStatementsOfMonth(db, partnerId, first, selfId)))
    .groupBy(partnerEngineers.user_id);
  return new Map(rows.map((row) => [row.user_id, row.quantity]));
}

/** The partner portal files a statement: the firm is the caller's, the first version, submitted by this login. */
export async function beforeCreatePreBilling(ctx: WriteContext, values: Input, input: Input): Promise<Input> {
  if (ctx.area !== 'partner') throw new HttpError(403, 'Only the partner submits its pre-billing.');
  const partnerId = ownerIdOf(ctx.account);
  const { first, priced, total, supplementsId } = await checkStatement(ctx, {
    partnerId, month: String(input.month), currency: String(input.currency), rawLines: input.lines,
    spreadsheet: (input.spreadsheet as AttachmentSummary[] | undefined) ?? [], isSupplementary: input.is_supplementary === true,
  });
  settled.set(ctx.request, { lines: priced, isResubmission: false });
  const { is_supplementary: _asked, ...stored } = values;
  return { ...stored, partner_id: partnerId, month: first, total, version: 1, submitted_by: ctx.account.id, supplements_id: supplementsId };
}

export async function afterCreatePreBilling(ctx: WriteContext, row: RowOf<typeof preBillings>) {
  // Finance and the account manager were told by the create (the definition's `events.create`).
  await storeLines(ctx.db, row.id, settled.get(ctx.request)?.lines ?? []);
}

/**
 * A correction from the portal (only while pending or rejected: `editableStates`). Lines left out
 * are priced again as they stand (the month or currency may have changed). Correcting a rejected
 * statement resubmits it: the previous lines and total are kept as version n, it becomes n + 1 and
 * pending again, and finance is told as on the first submission.
 */
export async function beforeUpdatePreBilling(ctx: WriteContext, values: Input, existing: RowOf<typeof preBillings>, input: Input): Promise<Input> {
  if (ctx.area !== 'partner') throw new HttpError(403, 'Only the partner corrects its pre-billing.');
  const existingLines = (existing.lines as PreBillingLine[] | undefined) ?? [];
  const { first, priced, total, supplementsId } = await checkStatement(ctx, {
    id: existing.id,
    partnerId: existing.partner_id,
    month: String(input.month ?? existing.month),
    currency: String(input.currency ?? existing.currency),
    rawLines: input.lines ?? existingLines.map(({ engineer_id, client_id, quantity }) => ({ engineer_id, client_id, quantity })),
    spreadsheet: (input.spreadsheet as AttachmentSummary[] | undefined) ?? [],
    // A supplementary statement stays one (and the same original's) through its corrections.
    isSupplementary: existing.supplements_id !== null && existing.supplements_id !== undefined,
  });
  const isResubmission = existing.status === 'rejected';
  settled.set(ctx.request, { lines: priced, isResubmission });
  const next: Input = { ...values, month: first, total, submitted_by: ctx.account.id };
  delete next.lines;
  delete next.is_supplementary;
  if (supplementsId !== null) next.supplements_id = supplementsId;
  if (isResubmission) {
    const version = existing.version;
    await ctx.db.insert(preBillingVersions).values({
      pre_billing_id: existing.id, version, total: existing.total,
      lines: { currency: existing.currency, lines: existingLines.map(({ id: _id, ...line }) => line) },
    });
    Object.assign(next, { version: version + 1, status: 'pending', decided_by: null, decided_at: null });
  }
  return next;
}

export async function afterUpdatePreBilling(ctx: WriteContext, row: RowOf<typeof preBillings>) {
  const work = settled.get(ctx.request);
  if (!work) return;
  const id = row.id;
  await ctx.db.delete(preBillingLines).where(eq(preBillingLines.pre_billing_id, id));
  await storeLines(ctx.db, id, work.lines);
  if (!work.isResubmission) return;
  await writeHistory(ctx.db, { resource: preBilling.name, recordId: id, transition: RESUBMIT_TRANSITION, from: 'rejected', to: 'pending', account: ctx.account });
  await notifyAbout(ctx.tx, preBilling, row, preBilling.workflow!.events.resubmit.notify, ctx.account, null, 'resubmitted');
}

async function storeLines(db: Db, preBillingId: number, lines: readonly PricedLine[]) {
  if (lines.length) await db.insert(preBillingLines).values(lines.map((line) => ({ ...line, pre_billing_id: preBillingId })));
}

/** Who decided last (the history keeps every step). */
export const decisionColumns = ({ account }: WriteContext) => ({ decided_by: account.id, decided_at: new Date() });

/** Rows carry their lines with the engineer's and the client's names (one query for a page). */
export async function attachLines({ db }: ResourceContext, rows: RowOf<typeof preBillings>[]) {
  for (const row of rows) row.lines = [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = await db.select({
    id: preBillingLines.id, pre_billing_id: preBillingLines.pre_billing_id, engineer_id: preBillingLines.engineer_id, client_id: preBillingLines.client_id,
    quantity: preBillingLines.quantity, rate_type: preBillingLines.rate_type, rate: preBillingLines.rate, amount: preBillingLines.amount,
    user_id: partnerEngineers.user_id, engineer_name: users.name, client_name: clients.name,
  }).from(preBillingLines)
    .innerJoin(partnerEngineers, eq(partnerEngineers.id, preBillingLines.engineer_id))
    .innerJoin(users, eq(users.id, partnerEngineers.user_id))
    .innerJoin(clients, eq(clients.id, preBillingLines.client_id))
    .where(inArray(preBillingLines.pre_billing_id, [...byId.keys()]))
    .orderBy(asc(preBillingLines.id));
  for (const { pre_billing_id, user_id: _user, engineer_name, client_name, ...line } of found) {
    const lines = byId.get(pre_billing_id)?.lines as PreBillingLine[] | undefined;
    lines?.push({ ...line, engineer: { id: line.engineer_id, name: engineer_name }, client: { id: line.client_id, name: client_name } });
  }
}

/**
 * Which statements staff see (issue 20), as for the invoices that bill them: admins and finance (who
 * review or approve them) all; an account manager (who takes an invoice's manager step) those of the
 * firms they manage; anyone else allowed to view them all. The portal is scoped to the caller's firm.
 */
export function preBillingStaffScope({ db, account }: ResourceContext): SQL | undefined {
  if (account.type === 'partner' || isAdminAccount(account.user)) return undefined;
  if (hasPermission(account.permissions, `${PRE_BILLING_REVIEW_PERMISSION}|${PRE_BILLING_APPROVE_PERMISSION}`)) return undefined;
  if (!hasPermission(account.permissions, PARTNER_INVOICE_APPROVE_PERMISSION)) return undefined;
  return inArray(preBillings.partner_id, db.select({ id: partners.id }).from(partners).where(eq(partners.account_manager_id, account.id)));
}

/** The statement, fetched with its owner in the query on the partner portal (and staff's scope); 404 otherwise. */
async function findStatement(ctx: ResourceContext, id: number) {
  const [row] = await ctx.db.select().from(preBillings)
    .where(and(eq(preBillings.id, id), ctx.account.type === 'partner' ? eq(preBillings.partner_id, ownerIdOf(ctx.account)) : preBillingStaffScope(ctx))).limit(1);
  if (!row) throw new HttpError(404, 'Pre-billing not found.');
  return row;
}

/** Earlier versions of a statement the caller may see (404 otherwise), newest first, as they were before each correction. */
export async function preBillingVersionsOf(ctx: ResourceContext, id: number): Promise<PreBillingVersion[]> {
  const statement = await findStatement(ctx, id);
  const rows = await ctx.db.select().from(preBillingVersions).where(eq(preBillingVersions.pre_billing_id, statement.id)).orderBy(desc(preBillingVersions.version));
  return rows.map((row) => {
    const kept = row.lines as { currency?: string; lines?: PreBillingVersion['lines'] };
    return { version: row.version, total: row.total, currency: kept.currency ?? statement.currency, lines: kept.lines ?? [], created_at: row.created_at.toISOString() };
  });
}

/** The lines of a statement the caller may see (404 otherwise) beside the approved time-sheet hours. */
export async function preBillingComparison(ctx: ResourceContext, id: number): Promise<PreBillingComparison> {
  return comparePreBilling(ctx.db, await findStatement(ctx, id));
}

/**
 * The statement's lines beside the firm's own approved time sheets of the same engineer (the
 * partner engineer's internal user) for the same client. A sheet counts for the month when its
 * period starts within it (sheets are monthly or weekly; a week straddling two months counts
 * wholly for the month it starts in, and nothing is prorated). Billed days are HOURS_PER_DAY hours.
 */
async function comparePreBilling(db: Db, statement: { id: number; month: string; partner_id: number }): Promise<PreBillingComparison> {
  const first = statement.month;
  const last = lastOfMonth(first);
  const lines = await db.select({
    id: preBillingLines.id, engineer_id: preBillingLines.engineer_id, client_id: preBillingLines.client_id, quantity: preBillingLines.quantity,
    rate_type: preBillingLines.rate_type, user_id: partnerEngineers.user_id, engineer_name: users.name, client_name: clients.name,
  }).from(preBillingLines)
    .innerJoin(partnerEngineers, eq(partnerEngineers.id, preBillingLines.engineer_id))
    .innerJoin(users, eq(users.id, partnerEngineers.user_id))
    .innerJoin(clients, eq(clients.id, preBillingLines.client_id))
    .where(eq(preBillingLines.pre_billing_id, statement.id)).orderBy(asc(preBillingLines.id));
  const people = [...new Set(lines.map((line) => line.user_id))];
  const sheets = people.length ? await db.select({
    user_id: timeSheets.user_id, client_id: timeSheets.client_id,
    hours: sql<number>`coalesce(sum(${timeSheets.hours}), 0)`.mapWith(Number), count: sql<number>`count(*)`.mapWith(Number),
  }).from(timeSheets).where(and(
    inArray(timeSheets.user_id, people), eq(timeSheets.status, 'approved'), gte(timeSheets.period_start, first), lte(timeSheets.period_start, last),
  )).groupBy(timeSheets.user_id, timeSheets.client_id) : [];
  const sheetOf = new Map(sheets.map((s) => [`${s.user_id}:${s.client_id}`, s]));
  // Issue 21: a supplementary statement is checked against the same sheets as its original, so the
  // hours the month's other statements already bill count too (and the original sees its supplements').
  const elsewhere = people.length ? await db.select({
    user_id: partnerEngineers.user_id, client_id: preBillingLines.client_id,
    hours: sql<number>`sum(case when ${preBillingLines.rate_type} = 'day' then ${preBillingLines.quantity} * ${HOURS_PER_DAY} else ${preBillingLines.quantity} end)`.mapWith(Number),
  }).from(preBillingLines).innerJoin(partnerEngineers, eq(partnerEngineers.id, preBillingLines.engineer_id))
    .where(and(inArray(partnerEngineers.user_id, people), inArray(preBillingLines.pre_billing_id, otherStatementsOfMonth(db, statement.partner_id, first, statement.id))))
    .groupBy(partnerEngineers.user_id, preBillingLines.client_id) : [];
  const elsewhereOf = new Map(elsewhere.map((e) => [`${e.user_id}:${e.client_id}`, roundMoney(e.hours)]));
  const compared = lines.map((line) => {
    const sheet = sheetOf.get(`${line.user_id}:${line.client_id}`);
    const billed = multiplyMoney(line.quantity, line.rate_type === 'day' ? HOURS_PER_DAY : 1);
    const recorded = roundMoney(sheet?.hours ?? 0);
    const other = elsewhereOf.get(`${line.user_id}:${line.client_id}`) ?? 0;
    return {
      line_id: line.id,
      engineer: { id: line.engineer_id, name: line.engineer_name, user_id: line.user_id },
      client: { id: line.client_id, name: line.client_name },
      quantity: line.quantity, rate_type: line.rate_type, billed_hours: billed, other_statements_hours: other, time_sheet_hours: recorded,
      difference: subtractMoney(addMoney(billed, other), recorded), time_sheets: sheet?.count ?? 0,
    };
  });
  const sum = (key: 'billed_hours' | 'other_statements_hours' | 'time_sheet_hours') => sumMoney(compared.map((line) => line[key]));
  return {
    month: first, hours_per_day: HOURS_PER_DAY, lines: compared,
    totals: {
      billed_hours: sum('billed_hours'), other_statements_hours: sum('other_statements_hours'), time_sheet_hours: sum('time_sheet_hours'),
      difference: subtractMoney(addMoney(sum('billed_hours'), sum('other_statements_hours')), sum('time_sheet_hours')),
    },
  };
}

