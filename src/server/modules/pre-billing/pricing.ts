// Pricing a statement's lines (issue 11) at the rates agreed for the month, or saying per line why
// not, counting what the month's other statements of the firm already bill.
import { and, desc, eq, gte, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema/master-data';
import { partnerEngineers, preBillingLines, preBillings } from '../../db/schema/partner-billing';
import { lastOfMonth, maxQuantity, monthLabel, type PreBillingLineInput } from '../../../shared/resources/pre-billing';
// Hours carry two decimals like money: quantities are added and multiplied with the same exact arithmetic.
import { addMoney, multiplyMoney } from '../../../shared/money';
import { billableClientsOf } from './billable-clients';
import { chosenOneRefused } from '../../../shared/words';

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
    if (!knownClients.has(line.client_id)) { errors[key('client_id')] = chosenOneRefused('client'); return; }
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

/** The month's other statements of the firm that still count (all but rejected ones), besides `selfId`. */
export const otherStatementsOfMonth = (db: Db, partnerId: number, first: string, selfId?: number) =>
  db.select({ id: preBillings.id }).from(preBillings).where(and(
    eq(preBillings.partner_id, partnerId), eq(preBillings.month, first), ne(preBillings.status, 'rejected'), selfId ? ne(preBillings.id, selfId) : undefined,
  ));

/** Days or hours each engineer (by person) is billed in the month's other statements. */
export async function quantitiesBilledElsewhere(db: Db, partnerId: number, first: string, selfId?: number): Promise<Map<number, number>> {
  const rows = await db.select({ user_id: partnerEngineers.user_id, quantity: sql<number>`sum(${preBillingLines.quantity})`.mapWith(Number) })
    .from(preBillingLines).innerJoin(partnerEngineers, eq(partnerEngineers.id, preBillingLines.engineer_id))
    .where(inArray(preBillingLines.pre_billing_id, otherStatementsOfMonth(db, partnerId, first, selfId)))
    .groupBy(partnerEngineers.user_id);
  return new Map(rows.map((row) => [row.user_id, row.quantity]));
}
