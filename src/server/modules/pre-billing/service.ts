// Pre-billing beyond the declared workflow (issue 11): the lines priced at the rates agreed for the
// month, the checks that refuse a bad statement with 422 before anything is stored, corrections
// kept as versions, PartnerPreBillingUploadEvent for finance and the account manager, and the
// comparison with the firm's own approved time sheets.
import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { partners, users } from '../../db/schema/accounts';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema/master-data';
import { partnerEngineers, preBillingLines, preBillings, preBillingVersions } from '../../db/schema/partner-billing';
import { timeSheets } from '../../db/schema/time-sheets';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { raisePartnerPreBillingUploadEvent } from '../../realtime/events';
import type { ResourceContext } from '../../resources/register';
import { ownerIdOf, writeHistory } from '../../resources/workflow';
import { resolveRecipients } from '../../resources/workflow-recipients';
import type { AttachmentSummary } from '../../../shared/resources/define';
import {
  firstOfMonth, formatMoney, HOURS_PER_DAY, lastOfMonth, maxQuantity, monthLabel, parsePreBillingLines, preBilling,
  PRE_BILLING_REVIEW_PERMISSION, RESUBMIT_TRANSITION, type PreBillingComparison, type PreBillingLine, type PreBillingLineInput,
  type PreBillingVersion,
} from '../../../shared/resources/pre-billing';
import { routePath } from '../../../shared/routes';
import { thisMonth } from '../../../shared/dates';

type Row = Record<string, unknown>;

/** A line ready to store: the engineer record whose agreed rate applies in the month, and the amount. */
export interface PricedLine {
  engineer_id: number;
  client_id: number;
  quantity: number;
  rate_type: 'day' | 'hour';
  rate: number;
  amount: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;
const unitOf = (rateType: 'day' | 'hour', quantity: number) => (rateType === 'day' ? (quantity === 1 ? 'day' : 'days') : (quantity === 1 ? 'hour' : 'hours'));

/**
 * Prices the lines of a statement of `partnerId` for the month starting `first`, or returns why not,
 * per line (`lines.0.engineer_id`). The rate is the one agreed for the engineer (the same person at
 * the same firm; a line may name any of their rate periods) in force in the month: of the periods
 * overlapping the month, the latest (an engineer whose rate changed mid-month is billed at the new
 * rate; the periods of one engineer never overlap). The stored line names that period.
 */
export async function priceLines(db: Db, partnerId: number, first: string, currency: string, lines: readonly PreBillingLineInput[]): Promise<{ priced: PricedLine[]; errors: Record<string, string> }> {
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
  const knownClients = new Set((await db.select({ id: clients.id }).from(clients)
    .where(inArray(clients.id, [...new Set(lines.map((line) => line.client_id))]))).map((c) => c.id));

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
    // The same engineer for several clients still works at most the month's days in all.
    const billed = cents((billedOf.get(person) ?? 0) + line.quantity);
    billedOf.set(person, billed);
    if (billed > max) {
      errors[key('quantity')] = `${name} is billed ${billed} ${unitOf(period.rate_type, billed)} in ${month} over all lines, more than the ${max} the month allows.`;
      return;
    }
    priced.push({ engineer_id: period.id, client_id: line.client_id, quantity: line.quantity, rate_type: period.rate_type, rate: period.rate, amount: cents(line.quantity * period.rate) });
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
async function checkStatement(ctx: ResourceContext, statement: { id?: number; partnerId: number; month: string; currency: string; rawLines: unknown; spreadsheet: readonly AttachmentSummary[] }) {
  const errors: Record<string, string> = {};
  const first = firstOfMonth(statement.month)!;
  if (first > firstOfMonth(thisMonth())!) errors.month = 'The month may not be in the future: bill a month once it has been worked.';
  else {
    const [taken] = await ctx.db.select({ id: preBillings.id }).from(preBillings)
      .where(and(eq(preBillings.partner_id, statement.partnerId), eq(preBillings.month, first), statement.id ? ne(preBillings.id, statement.id) : undefined)).limit(1);
    if (taken) errors.month = `A pre-billing for ${monthLabel(first)} has already been submitted: correct that one instead.`;
  }
  if (!statement.spreadsheet.length) errors.spreadsheet = 'Attach the statement\'s spreadsheet (xlsx, xls, csv or pdf).';
  const parsed = parsePreBillingLines(statement.rawLines);
  Object.assign(errors, parsed.errors);
  const { priced, errors: lineErrors } = await priceLines(ctx.db, statement.partnerId, first, statement.currency, parsed.lines);
  Object.assign(errors, lineErrors);
  if (Object.keys(errors).length) throw validationError(errors);
  return { first, priced, total: cents(priced.reduce((sum, line) => sum + line.amount, 0)) };
}

/** The partner portal files a statement: the firm is the caller's, the first version, submitted by this login. */
export async function beforeCreatePreBilling(values: Row, input: Row, ctx: ResourceContext): Promise<Row> {
  if (ctx.area !== 'partner') throw new HttpError(403, 'Only the partner submits its pre-billing.');
  const partnerId = ownerIdOf(ctx.account);
  const { first, priced, total } = await checkStatement(ctx, {
    partnerId, month: String(input.month), currency: String(input.currency), rawLines: input.lines,
    spreadsheet: (input.spreadsheet as AttachmentSummary[] | undefined) ?? [],
  });
  settled.set(ctx.request, { lines: priced, isResubmission: false });
  return { ...values, partner_id: partnerId, month: first, total, version: 1, submitted_by: ctx.account.id };
}

export async function afterCreatePreBilling(row: Row, ctx: ResourceContext) {
  await storeLines(ctx.db, row.id as number, settled.get(ctx.request)?.lines ?? []);
  await announceSubmission(ctx, row.id as number, false);
}

/**
 * A correction from the portal (only while pending or rejected: `editableStates`). Lines left out
 * are priced again as they stand (the month or currency may have changed). Correcting a rejected
 * statement resubmits it: the previous lines and total are kept as version n, it becomes n + 1 and
 * pending again, and finance is told as on the first submission.
 */
export async function beforeUpdatePreBilling(values: Row, existing: Row, input: Row, ctx: ResourceContext): Promise<Row> {
  if (ctx.area !== 'partner') throw new HttpError(403, 'Only the partner corrects its pre-billing.');
  const existingLines = (existing.lines as PreBillingLine[] | undefined) ?? [];
  const { first, priced, total } = await checkStatement(ctx, {
    id: existing.id as number,
    partnerId: existing.partner_id as number,
    month: String(input.month ?? existing.month),
    currency: String(input.currency ?? existing.currency),
    rawLines: input.lines ?? existingLines.map(({ engineer_id, client_id, quantity }) => ({ engineer_id, client_id, quantity })),
    spreadsheet: (input.spreadsheet as AttachmentSummary[] | undefined) ?? [],
  });
  const isResubmission = existing.status === 'rejected';
  settled.set(ctx.request, { lines: priced, isResubmission });
  const next: Row = { ...values, month: first, total, submitted_by: ctx.account.id };
  delete next.lines;
  if (isResubmission) {
    const version = existing.version as number;
    await ctx.db.insert(preBillingVersions).values({
      pre_billing_id: existing.id as number, version, total: existing.total as number,
      lines: { currency: existing.currency, lines: existingLines.map(({ id: _id, ...line }) => line) },
    });
    Object.assign(next, { version: version + 1, status: 'pending', decided_by: null, decided_at: null });
  }
  return next;
}

export async function afterUpdatePreBilling(row: Row, ctx: ResourceContext) {
  const work = settled.get(ctx.request);
  if (!work) return;
  const id = row.id as number;
  await ctx.db.delete(preBillingLines).where(eq(preBillingLines.pre_billing_id, id));
  await storeLines(ctx.db, id, work.lines);
  if (!work.isResubmission) return;
  await writeHistory(ctx.db, { resource: preBilling.name, recordId: id, transition: RESUBMIT_TRANSITION, from: 'rejected', to: 'pending', account: ctx.account });
  await announceSubmission(ctx, id, true);
}

async function storeLines(db: Db, preBillingId: number, lines: readonly PricedLine[]) {
  if (lines.length) await db.insert(preBillingLines).values(lines.map((line) => ({ ...line, pre_billing_id: preBillingId })));
}

/**
 * spec §4 PartnerPreBillingUploadEvent on partner-pre-billing-upload-event.{userId} for finance (who
 * review pre-billings) and the firm's account manager: stored and broadcast once the statement is
 * committed, so nobody is called to a statement that was rolled back.
 */
async function announceSubmission(ctx: ResourceContext, id: number, isResubmission: boolean) {
  const [statement] = await ctx.db.select({
    partner_id: preBillings.partner_id, month: preBillings.month, total: preBillings.total, currency: preBillings.currency, version: preBillings.version,
    partner: partners.name,
  }).from(preBillings).innerJoin(partners, eq(partners.id, preBillings.partner_id)).where(eq(preBillings.id, id));
  const [{ lines }] = await ctx.db.select({ lines: sql<number>`count(*)`.mapWith(Number) }).from(preBillingLines).where(eq(preBillingLines.pre_billing_id, id));
  const recipients = ((await resolveRecipients(ctx.db, [`permission:${PRE_BILLING_REVIEW_PERMISSION}`, 'ownerManager'], [statement.partner_id], 'partner'))
    .get(statement.partner_id) ?? []).filter((r) => r.type === 'app');
  const what = `the pre-billing for ${monthLabel(statement.month)} (${formatMoney(statement.total, statement.currency)}, ${lines} ${lines === 1 ? 'line' : 'lines'})`;
  const content = {
    title: isResubmission ? 'Pre-billing resubmitted' : 'New pre-billing',
    message: isResubmission ? `${statement.partner} corrected and resubmitted ${what} as version ${statement.version}.` : `${statement.partner} submitted ${what}.`,
    url: routePath('pre-billing.show', { id }),
    recipients: recipients.map(({ id: userId }) => ({ id: userId })),
  };
  const { app } = ctx;
  ctx.tx!.onCommit(() => raisePartnerPreBillingUploadEvent(app, content));
}

/** Who decided last (the history keeps every step). */
export const decisionColumns = (account: Account) => ({ decided_by: account.id, decided_at: new Date() });

/** Rows carry their lines with the engineer's and the client's names (one query for a page). */
export async function attachLines(db: Db, rows: Row[]) {
  for (const row of rows) row.lines = [];
  const byId = new Map(rows.map((row) => [row.id as number, row]));
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

/** The statement, fetched with its owner in the query on the partner portal; 404 otherwise. */
export async function findStatement(db: Db, account: Account, id: number) {
  const [row] = await db.select().from(preBillings)
    .where(and(eq(preBillings.id, id), account.type === 'partner' ? eq(preBillings.partner_id, ownerIdOf(account)) : undefined)).limit(1);
  if (!row) throw new HttpError(404, 'Pre-billing not found.');
  return row;
}

/** Earlier versions of a statement, newest first, as they were before each correction. */
export async function preBillingVersionsOf(db: Db, statement: { id: number; currency: string }): Promise<PreBillingVersion[]> {
  const rows = await db.select().from(preBillingVersions).where(eq(preBillingVersions.pre_billing_id, statement.id)).orderBy(desc(preBillingVersions.version));
  return rows.map((row) => {
    const kept = row.lines as { currency?: string; lines?: PreBillingVersion['lines'] };
    return { version: row.version, total: row.total, currency: kept.currency ?? statement.currency, lines: kept.lines ?? [], created_at: row.created_at.toISOString() };
  });
}

/**
 * The statement's lines beside the firm's own approved time sheets of the same engineer (the
 * partner engineer's internal user) for the same client. A sheet counts for the month when its
 * period starts within it (sheets are monthly or weekly; a week straddling two months counts
 * wholly for the month it starts in, and nothing is prorated). Billed days are HOURS_PER_DAY hours.
 */
export async function comparePreBilling(db: Db, statement: { id: number; month: string }): Promise<PreBillingComparison> {
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
  const compared = lines.map((line) => {
    const sheet = sheetOf.get(`${line.user_id}:${line.client_id}`);
    const billed = cents(line.quantity * (line.rate_type === 'day' ? HOURS_PER_DAY : 1));
    const recorded = cents(sheet?.hours ?? 0);
    return {
      line_id: line.id,
      engineer: { id: line.engineer_id, name: line.engineer_name, user_id: line.user_id },
      client: { id: line.client_id, name: line.client_name },
      quantity: line.quantity, rate_type: line.rate_type, billed_hours: billed, time_sheet_hours: recorded,
      difference: cents(billed - recorded), time_sheets: sheet?.count ?? 0,
    };
  });
  const sum = (key: 'billed_hours' | 'time_sheet_hours') => cents(compared.reduce((total, line) => total + line[key], 0));
  return {
    month: first, hours_per_day: HOURS_PER_DAY, lines: compared,
    totals: { billed_hours: sum('billed_hours'), time_sheet_hours: sum('time_sheet_hours'), difference: cents(sum('billed_hours') - sum('time_sheet_hours')) },
  };
}

/** How notifications name a statement: the pre-billing for March 2026 (EUR 12,000.00, version 2). */
export const describePreBilling = (row: Row) =>
  `the pre-billing for ${monthLabel(row.month)} (${formatMoney(Number(row.total), String(row.currency))}${Number(row.version) > 1 ? `, version ${String(row.version)}` : ''})`;
