// Deals beyond CRUD: the stage's fixed probability stored with it, the owner defaulting to whoever
// records the deal, and the weighted pipeline by stage and by owner (the list's totals and the
// dashboard's figure).
import { and, inArray, type SQL, sql } from 'drizzle-orm';
import { users } from '../../db/schema/accounts';
import type { Db } from '../../db/client';
import { type AskValue, askAlone, jsonRows } from '../../db/scalar';
import { dealPipelineTotals, deals } from '../../db/schema/operations';
import {
  DEAL_LOST_REASON_REQUIRED, DEAL_PARTY_REQUIRED, DEAL_STAGE_PROBABILITY, LOST_REASONS_SHOWN, DEAL_STAGES, type DealPipeline, type DealStage, OPEN_DEAL_STAGES, type PipelineAmount,
} from '../../../shared/resources/deal-tracking';
import { addMoney, roundMoney } from '../../../shared/money';
import { clients } from '../../db/schema/master-data';
import { validationError } from '../../plugins/errors';
import type { Row } from '../../resources/types';

/** The weighted value of a row, in SQL (numeric, exact cents), for the list's column and its sort. */
export const weightedValueSql = sql<number>`round(${deals.value} * ${deals.probability} / 100.0, 2)`.mapWith(Number);

/** The probability follows the stage whenever the stage is set; the client never sends it. */
export function withProbability(values: Row): Row {
  return typeof values.stage === 'string' ? { ...values, probability: DEAL_STAGE_PROBABILITY[values.stage as DealStage] } : values;
}

/** String.localeCompare's order, with its collator made once rather than at every comparison (issue 27). */
const compareText = new Intl.Collator().compare;
const byCurrency = (a: PipelineAmount, b: PipelineAmount) => compareText(a.currency, b.currency);

interface TotalRow { stage: string; owner_id: number; currency: string; count: number; value: number; weighted: number; owner_name?: string | null }

/**
 * Totals of the deals matching `where` (the list's filters and scope): per stage (every stage, in
 * order) and, over the open stages only, per owner, each per currency with its weighted value.
 * Unfiltered (the dashboard, the list without filters) it reads the totals the triggers keep;
 * filtered, one pass over the matching deals. `ask` reads a value alone, or (the dashboard) in a statement
 * shared with its figures.
 */
export async function dealPipeline(db: Db, where: SQL | undefined, ask: AskValue = askAlone(db)): Promise<DealPipeline> {
  const [pipeline, lost_reasons] = await Promise.all([stagePipeline(db, where, ask), lostReasons(where, ask)]);
  return { ...pipeline, lost_reasons };
}

async function stagePipeline(db: Db, where: SQL | undefined, ask: AskValue): Promise<Omit<DealPipeline, 'lost_reasons'>> {
  if (where) return scanDealPipeline(db, where);
  // Every kept total (a handful per stage, owner and currency) with its owner's name.
  const totals = jsonRows<TotalRow>(await ask(sql`(select coalesce(json_agg(t), '[]'::json) from (
    select kept.*, ${users.name} as owner_name from ${dealPipelineTotals} kept left join ${users} on ${users.id} = kept.owner_id) t)`));
  const isOpen = (stage: string) => (OPEN_DEAL_STAGES as readonly string[]).includes(stage);
  const byOwner = new Map<string, TotalRow>();
  for (const row of totals.filter((total) => isOpen(total.stage))) {
    const key = `${row.owner_id}:${row.currency}`;
    const sum = byOwner.get(key) ?? { ...row, count: 0, value: 0, weighted: 0 };
    byOwner.set(key, { ...sum, count: sum.count + row.count, value: addMoney(sum.value, row.value), weighted: addMoney(sum.weighted, row.weighted) });
  }
  const byStage = new Map<string, TotalRow>();
  for (const row of totals) {
    const key = `${row.stage}:${row.currency}`;
    const sum = byStage.get(key) ?? { ...row, count: 0, value: 0, weighted: 0 };
    byStage.set(key, { ...sum, count: sum.count + row.count, value: addMoney(sum.value, row.value), weighted: addMoney(sum.weighted, row.weighted) });
  }
  return assemble(db, [...byStage.values()], [...byOwner.values()]);
}

/** The same totals by reading every deal matching `where` (grouping sets: one pass). */
export async function scanDealPipeline(db: Db, where: SQL | undefined): Promise<Omit<DealPipeline, 'lost_reasons'>> {
  const isOpen = sql`${deals.stage} in (${sql.join(OPEN_DEAL_STAGES.map((stage) => sql`${stage}`), sql`, `)})`;
  const weighted = sql`round(${deals.value} * ${deals.probability} / 100.0, 2)`;
  const rows = await db.select({
    stage: deals.stage,
    owner_id: deals.owner_id,
    currency: deals.currency,
    is_owner_row: sql<number>`grouping(${deals.stage})`.mapWith(Number),
    count: sql<number>`count(*)`.mapWith(Number),
    value: sql<number>`coalesce(sum(${deals.value}), 0)`.mapWith(Number),
    weighted: sql<number>`coalesce(sum(${weighted}), 0)`.mapWith(Number),
    open_count: sql<number>`count(*) filter (where ${isOpen})`.mapWith(Number),
    open_value: sql<number>`coalesce(sum(${deals.value}) filter (where ${isOpen}), 0)`.mapWith(Number),
    open_weighted: sql<number>`coalesce(sum(${weighted}) filter (where ${isOpen}), 0)`.mapWith(Number),
  }).from(deals).where(where)
    .groupBy(sql`grouping sets ((${deals.stage}, ${deals.currency}), (${deals.owner_id}, ${deals.currency}))`);
  const stageRows = rows.filter((row) => row.is_owner_row === 0);
  const ownerRows = rows.filter((row) => row.is_owner_row === 1 && row.open_count > 0)
    .map((row) => ({ ...row, count: row.open_count, value: row.open_value, weighted: row.open_weighted }));
  return assemble(db, stageRows, ownerRows);
}

/** Stage rows and owner rows (per currency) -> the answer, with the owners' names. */
async function assemble(db: Db, stageRows: readonly Omit<TotalRow, 'owner_id'>[], ownerRows: readonly Omit<TotalRow, 'stage'>[]): Promise<Omit<DealPipeline, 'lost_reasons'>> {
  // The kept totals come with their owners' names (null for an owner since deleted); a scan's are asked for.
  const names = new Map(ownerRows.filter((row) => row.owner_name !== undefined).map((row) => [row.owner_id, row.owner_name ?? '']));
  const unnamed = [...new Set(ownerRows.filter((row) => row.owner_name === undefined).map((row) => row.owner_id))];
  if (unnamed.length) for (const row of await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, unnamed))) names.set(row.id, row.name);
  const by_stage = DEAL_STAGES.map((stage) => {
    const rows = stageRows.filter((row) => row.stage === stage);
    return {
      stage, probability: DEAL_STAGE_PROBABILITY[stage], count: rows.reduce((sum, row) => sum + row.count, 0),
      amounts: rows.map((row) => ({ currency: row.currency, value: roundMoney(row.value), weighted: roundMoney(row.weighted) })).sort(byCurrency),
    };
  });
  const owners = new Map<number, DealPipeline['by_owner'][number]>();
  for (const row of ownerRows) {
    const owner = owners.get(row.owner_id) ?? { owner: { id: row.owner_id, name: names.get(row.owner_id) ?? '' }, count: 0, amounts: [] };
    owner.count += row.count;
    owner.amounts.push({ currency: row.currency, value: roundMoney(row.value), weighted: roundMoney(row.weighted) });
    owners.set(row.owner_id, owner);
  }
  const by_owner = [...owners.values()]
    .map((owner) => ({ ...owner, amounts: owner.amounts.sort(byCurrency) }))
    .sort((a, b) => compareText(a.owner.name, b.owner.name) || a.owner.id - b.owner.id);
  return { by_stage, by_owner };
}

/**
 * Issue 22: a deal is with a client or a named prospect, and winning it makes the prospect a client:
 * the client of that name (any case) when there is one, else a new active client, linked to the
 * deal in the same transaction. `merged` is the deal as it will be saved; returns the values to store.
 */
export async function withClientOfWonProspect(db: Db, values: Row, merged: Row, onCreated: (client: { id: number; name: string }) => Promise<void>): Promise<Row> {
  const prospect = typeof merged.prospect_name === 'string' ? merged.prospect_name.trim() : '';
  if (merged.client_id == null && !prospect) throw validationError({ client_id: DEAL_PARTY_REQUIRED });
  if (merged.stage !== 'won' || merged.client_id != null) return values;
  const [existing] = await db.select({ id: clients.id }).from(clients).where(sql`lower(${clients.name}) = ${prospect.toLowerCase()}`).limit(1);
  if (existing) return { ...values, client_id: existing.id };
  const [created] = await db.insert(clients).values({ name: prospect, status: 'active' }).returning({ id: clients.id, name: clients.name });
  await onCreated(created);
  return { ...values, client_id: created.id };
}

/**
 * Issue 24: why the lost deals matching `where` were lost, the most frequent reason first; reasons
 * that differ only in case or spacing count as one, shown with a capital first letter.
 */
async function lostReasons(where: SQL | undefined, ask: AskValue): Promise<DealPipeline['lost_reasons']> {
  const key = sql`lower(trim(${deals.lost_reason}))`;
  // 'lost' written out, as deals_lost_reasons' condition is: a generic plan (the dashboard's statement,
  // decision 055) can use that partial index only when it sees the value.
  const rows = jsonRows<{ reason: string; key: string; currency: string; count: number; value: number }>(await ask(sql`(select coalesce(json_agg(r), '[]'::json) from (
    select min(trim(${deals.lost_reason})) as reason, ${key} as key, ${deals.currency} as currency, count(*)::int as count, coalesce(sum(${deals.value}), 0) as value
    from ${deals} where ${and(where, sql`${deals.stage} = 'lost' and ${deals.lost_reason} is not null`)} group by ${key}, ${deals.currency}) r)`));
  const reasons = new Map<string, DealPipeline['lost_reasons'][number]>();
  for (const row of rows) {
    const reason = reasons.get(row.key) ?? { reason: row.reason.charAt(0).toUpperCase() + row.reason.slice(1), count: 0, amounts: [] };
    reason.count += row.count;
    reason.amounts.push({ currency: row.currency, value: roundMoney(row.value), weighted: 0 });
    reasons.set(row.key, reason);
  }
  return [...reasons.values()].map((reason) => ({ ...reason, amounts: reason.amounts.sort(byCurrency) }))
    .sort((a, b) => b.count - a.count || compareText(a.reason, b.reason)).slice(0, LOST_REASONS_SHOWN);
}

/** Issue 24: a deal moved to Lost says why; a deal that is no longer lost keeps no lost reason. */
export function withLostReason(values: Row, merged: Row): Row {
  const reason = typeof merged.lost_reason === 'string' ? merged.lost_reason.trim() : '';
  if (merged.stage === 'lost' && !reason) throw validationError({ lost_reason: DEAL_LOST_REASON_REQUIRED });
  if (merged.stage !== 'lost' && merged.lost_reason != null) return { ...values, lost_reason: null };
  return values;
}
