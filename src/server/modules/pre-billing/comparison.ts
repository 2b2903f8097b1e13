// A pre-billing statement's lines beside the firm's own approved time sheets (issues 11 and 21).
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema/master-data';
import { partnerEngineers, preBillingLines } from '../../db/schema/partner-billing';
import { timeSheets } from '../../db/schema/time-sheets';
import { HOURS_PER_DAY, lastOfMonth, type PreBillingComparison } from '../../../shared/resources/pre-billing';
import { addMoney, multiplyMoney, roundMoney, subtractMoney, sumMoney } from '../../../shared/money';
import type { ResourceContext } from '../../resources/types';
import { otherStatementsOfMonth } from './pricing';
import { findStatement } from './read';

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
