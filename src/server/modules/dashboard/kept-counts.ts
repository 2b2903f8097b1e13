// Counts kept, not counted (issue 27, decision 028). For each table the dashboard counts, a table
// `<table>_counts` holds how many of its rows share each combination of a few columns (a state and
// whoever the list's scope looks at: an owner, a firm, an assignee) and a trigger keeps it in the
// writing transaction, as deal_pipeline_totals is kept for the pipeline.
//
// The counts table has the counted table's own column names, so a figure is read with the very
// condition its list uses (listWhere: the caller's scope and the filters) run over the counts table
// under the counted table's name: `select sum(n) from time_sheets_counts as time_sheets where <the
// list's where>`. A figure and the list it links to cannot drift apart; a condition that names a
// column the counts do not keep (a date range, a search) is counted the old way (countedByKeeping).
// Beside a count kept per state and owner (or firm, or assignee), `<table>_state_counts` rolls it up
// per state (decision 052): whoever sees the whole list asks for a state alone and reads a state's few
// slots instead of a row per owner.
//
// The migrations' SQL is generated from KEPT_COUNTS (keptCountsSql, keptRollupSql); tests/api/kept-counts.test.ts
// fails when the migrations and this declaration differ, and checks every count against a recount
// after random writes on both databases.
import { Column, getTableName, is, Param, Placeholder, SQL, sql, StringChunk } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { users } from '../../db/schema/accounts';
import { documentAssignments } from '../../db/schema/compliance';
import { expenses, leaveApplications } from '../../db/schema/hr';
import { positions } from '../../db/schema/master-data';
import { requests } from '../../db/schema/operations';
import { partnerInvoices, preBillings } from '../../db/schema/partner-billing';
import { candidates } from '../../db/schema/recruitment';
import { timeSheets } from '../../db/schema/time-sheets';
import type { Db } from '../../db/client';
import { readRows } from '../../db/named';
import { jsonRows } from '../../db/scalar';
import type { ResourceDefinition } from '../../../shared/resources/define';
import { resourceDefinitions } from '../../../shared/resources/registry';

export interface KeptCount {
  /** The resource (src/shared/dashboard.ts DASHBOARD_COUNTS) whose figures these counts answer. */
  resource: string;
  table: PgTable;
  /** The state, then the columns the list's scope and the dashboard's filters read. */
  columns: readonly string[];
  /**
   * The list's workflow state when the counts are also rolled up per state (`<table>_state_counts`,
   * migration 0042): whoever sees the whole list asks for one state, and would otherwise sum a row per
   * owner or firm (1,000 to 5,000 of them at 100,000 records).
   */
  rolledUpBy?: string;
}

/**
 * What is kept: the columns are declared on each definition (`dashboard.keptBy`); here, the table each
 * resource's counts sit beside, in the order migration 0030 created them (a migration is history: a
 * later kept count is appended and generated into a new migration). A figure of one of these lists
 * whose condition reads only the kept columns comes from the counts.
 */
const COUNTED_TABLES: readonly (readonly [resource: string, table: PgTable])[] = [
  // The people cards: active people by account type.
  ['user', users], ['position', positions],
  // Waiting for you: each decision list by state, scoped to its owner (the owner's manager is read
  // from users at the time of the question, so a change of manager moves no count).
  ['leave-application', leaveApplications], ['expense', expenses], ['time-sheet', timeSheets],
  // Scoped to the firm (an account manager sees the firms they manage).
  ['pre-billing', preBillings], ['partner-invoice', partnerInvoices],
  // Scoped to the person and to whoever assigned it; "documents for you to read" is by person.
  ['document-assign-history', documentAssignments],
  // Scoped to its author and its assignee; "requests assigned to you" and requests by status.
  ['request', requests],
  // The hiring funnel.
  ['candidate', candidates],
];

/** The definitions' kept counts with their tables; a definition declaring one without a table here stops the start. */
export function keptCountsOf(definitions: readonly ResourceDefinition[], tables = COUNTED_TABLES): KeptCount[] {
  const tableOf = new Map(tables);
  const declared = definitions.filter((definition) => definition.dashboard?.keptBy);
  for (const { name } of declared) if (!tableOf.has(name)) throw new Error(`${name} declares kept counts, but modules/dashboard/kept-counts.ts names no table for them`);
  const byName = new Map(declared.map((definition) => [definition.name, definition]));
  return tables.filter(([resource]) => byName.has(resource)).map(([resource, table]) => {
    const definition = byName.get(resource)!;
    const columns = definition.dashboard!.keptBy!;
    // Only a count kept per state and something else has a rollup to keep: by state alone it is one already.
    const state = definition.workflow?.field;
    return { resource, table, columns, ...(columns.length > 1 && state === columns[0] ? { rolledUpBy: state } : {}) };
  });
}

export const KEPT_COUNTS: readonly KeptCount[] = keptCountsOf(resourceDefinitions);

export const keptCountsTable = (table: PgTable) => `${getTableName(table)}_counts`;
export const rollupTable = (table: PgTable) => `${getTableName(table)}_state_counts`;

/**
 * How many rows of the rollup one state is spread over. Every writer of a state would otherwise wait
 * for the commit of the one before it on that state's single row (fifty approvals at once, one after
 * another); a transaction adds to the row of its own backend's slot, so writers on other connections
 * do not meet, and one transaction's moves all fall in one slot, locked in state order as before (no
 * deadlock). A slot's number alone means nothing (a row inserted in one slot may be deleted in
 * another, leaving it negative): a state's count is the sum of its slots.
 */
export const ROLLUP_SLOTS = 32;

const keptByResource = new Map(KEPT_COUNTS.map((kept) => [kept.resource, kept]));
export const keptCountOf = (resource: string) => keptByResource.get(resource);

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The SQL type of a column as the counts table repeats it. */
function columnType(table: PgTable, key: string): string {
  const column = (table as unknown as Record<string, PgColumn>)[key];
  if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
  return column.getSQLType();
}

/**
 * The migration's SQL for one kept count: the counts table (its key unique with NULLs equal, so an
 * unassigned request is one key), statement-level triggers that add what each statement moved
 * (from its transition tables: one upsert per key and statement, so a bulk insert of 100,000 rows
 * into a handful of states costs a handful of upserts, not 100,000 updates of the same row), the
 * truncate trigger, and the initial fill. The keys are upserted in key order, so two transactions
 * moving counts the opposite way never deadlock; an update that leaves the counted columns alone
 * nets to nothing and touches no count. Zero counts are kept rather than deleted: a key comes back
 * (a state is entered again) and deleting it would race with the insert that brings it.
 */
export function keptCountsSql(kept: KeptCount): string {
  const { table, columns } = kept;
  const name = getTableName(table);
  const counts = keptCountsTable(table);
  const list = columns.map(ident).join(', ');
  return [
    `CREATE TABLE ${ident(counts)} (${columns.map((c) => `${ident(c)} ${columnType(table, c)}`).join(', ')}, "n" integer NOT NULL);`,
    `CREATE UNIQUE INDEX ${ident(`${counts}_key`)} ON ${ident(counts)} (${list}) NULLS NOT DISTINCT;`,
    keepCountsFunctionSql(kept, false),
    `CREATE TRIGGER ${ident(`${name}_count_inserts`)} AFTER INSERT ON ${ident(name)} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${ident(`${name}_keep_counts`)}();`,
    `CREATE TRIGGER ${ident(`${name}_count_updates`)} AFTER UPDATE ON ${ident(name)} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${ident(`${name}_keep_counts`)}();`,
    `CREATE TRIGGER ${ident(`${name}_count_deletes`)} AFTER DELETE ON ${ident(name)} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${ident(`${name}_keep_counts`)}();`,
    clearCountsFunctionSql(kept, false),
    `CREATE TRIGGER ${ident(`${name}_clear_counts`)} AFTER TRUNCATE ON ${ident(name)} FOR EACH STATEMENT EXECUTE FUNCTION ${ident(`${name}_clear_counts`)}();`,
    `INSERT INTO ${ident(counts)} (${list}, n) SELECT ${list}, count(*)::int FROM ${ident(name)} GROUP BY ${list};`,
  ].join('\n--> statement-breakpoint\n');
}

/**
 * The trigger function of one kept count: per statement, one upsert per key it moved and, with the
 * rollup, one per state it moved into the writing backend's slot (the same triggers, the same
 * transaction: the rollup can no more drift from the rows than the counts can).
 */
function keepCountsFunctionSql({ table, columns, rolledUpBy }: KeptCount, withRollup: boolean): string {
  const name = getTableName(table);
  const steps = [(rows: MovedRows) => addMoved(keptCountsTable(table), columns, null, rows)];
  if (withRollup && rolledUpBy) steps.push((rows) => addMoved(rollupTable(table), [rolledUpBy], `(pg_backend_pid() % ${ROLLUP_SLOTS})::smallint`, rows));
  const each = (rows: MovedRows) => steps.map((step) => step(rows)).join('\n    ');
  return `CREATE OR REPLACE FUNCTION ${ident(`${name}_keep_counts`)}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${each('inserted')}
  ELSIF TG_OP = 'DELETE' THEN
    ${each('deleted')}
  ELSE
    ${each('updated')}
  END IF;
  RETURN NULL;
END
$$;`;
}

type MovedRows = 'inserted' | 'deleted' | 'updated';

/** One upsert adding what a statement moved per `keys` into `target` (and the writer's `slot`, for a rollup), in key order. */
function addMoved(target: string, keys: readonly string[], slot: string | null, rows: MovedRows): string {
  const grouped = keys.map(ident).join(', ');
  const columns = slot ? `${grouped}, "slot"` : grouped;
  const selected = slot ? `${grouped}, ${slot}` : grouped;
  const moved = {
    inserted: `SELECT ${selected}, count(*)::int FROM new_rows GROUP BY ${grouped}`,
    deleted: `SELECT ${selected}, -count(*)::int FROM old_rows GROUP BY ${grouped}`,
    updated: `SELECT ${selected}, sum(d)::int FROM (SELECT ${grouped}, 1 AS d FROM new_rows UNION ALL SELECT ${grouped}, -1 AS d FROM old_rows) moved GROUP BY ${grouped} HAVING sum(d) <> 0`,
  }[rows];
  return `INSERT INTO ${ident(target)} (${columns}, n) ${moved} ORDER BY ${grouped} ON CONFLICT (${columns}) DO UPDATE SET n = ${ident(target)}.n + excluded.n;`;
}

function clearCountsFunctionSql({ table, rolledUpBy }: KeptCount, withRollup: boolean): string {
  const name = getTableName(table);
  const cleared = [keptCountsTable(table), ...(withRollup && rolledUpBy ? [rollupTable(table)] : [])];
  return `CREATE OR REPLACE FUNCTION ${ident(`${name}_clear_counts`)}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${cleared.map((target) => `DELETE FROM ${ident(target)};`).join('\n  ')}
  RETURN NULL;
END
$$;`;
}

/**
 * Migration 0042's SQL for one rolled-up count: the rollup table (a state's slots, unique), the
 * trigger functions of 0030 replaced by ones that keep it too, and its initial fill (slot 0).
 */
export function keptRollupSql(kept: KeptCount): string {
  const { table, rolledUpBy } = kept;
  if (!rolledUpBy) throw new Error(`${getTableName(table)} has no rollup`);
  const rollup = rollupTable(table);
  const state = ident(rolledUpBy);
  return [
    `CREATE TABLE ${ident(rollup)} (${state} ${columnType(table, rolledUpBy)}, "slot" smallint NOT NULL, "n" integer NOT NULL);`,
    `CREATE UNIQUE INDEX ${ident(`${rollup}_key`)} ON ${ident(rollup)} (${state}, "slot") NULLS NOT DISTINCT;`,
    keepCountsFunctionSql(kept, true),
    clearCountsFunctionSql(kept, true),
    `INSERT INTO ${ident(rollup)} (${state}, "slot", n) SELECT ${state}, 0, count(*)::int FROM ${ident(getTableName(table))} GROUP BY ${state};`,
  ].join('\n--> statement-breakpoint\n');
}

/** Migration 0042 (0042_dashboard_state_counts.sql): every rollup. */
export const keptRollupsMigration = () => `${KEPT_COUNTS.filter((kept) => kept.rolledUpBy).map(keptRollupSql).join('\n--> statement-breakpoint\n')}\n`;

/** The whole migration (0030_dashboard_counts.sql): every kept count. */
export const keptCountsMigration = () => `${KEPT_COUNTS.map(keptCountsSql).join('\n--> statement-breakpoint\n')}\n`;

const dialect = new PgDialect();

/**
 * Which kept table answers `where` (of the counted table, by its name): the per-state rollup when it
 * reads the state and nothing else (a caller who sees the whole list: no other identifier at all, so
 * no subquery or unqualified column can meet a table without its columns), the counts when every
 * column of the counted table it reads is kept, else none (counted the old way).
 */
function keptTableFor(kept: KeptCount, where: SQL | undefined, groupBy?: string): string | null {
  const read = where ? columnsRead(where, getTableName(kept.table)) : { own: [], others: false };
  const answer = read ? keptTableOfColumns(kept, read, groupBy) : keptTableOfText(kept, where, groupBy);
  // The walk answers what reading the compiled text answers, faster (a dashboard asks twenty-five
  // times): under the tests, both are asked and must agree.
  if (read && process.env.VITEST && answer !== keptTableOfText(kept, where, groupBy)) {
    throw new Error(`kept-counts: the walk of a ${kept.resource} condition disagrees with its text`);
  }
  return answer;
}

function keptTableOfColumns(kept: KeptCount, { own, others }: ReadColumns, groupBy?: string): string | null {
  const { rolledUpBy } = kept;
  if (rolledUpBy && (!groupBy || groupBy === rolledUpBy) && !others && own.every((column) => column === rolledUpBy)) return rollupTable(kept.table);
  if (groupBy && !kept.columns.includes(groupBy)) return null;
  return own.every((column) => kept.columns.includes(column)) ? keptCountsTable(kept.table) : null;
}

/** The same question asked of the compiled text, for a condition the walk cannot read. */
function keptTableOfText(kept: KeptCount, where: SQL | undefined, groupBy?: string): string | null {
  const text = where ? dialect.sqlToQuery(where).sql : '';
  const prefix = `${ident(getTableName(kept.table))}.`;
  const { rolledUpBy } = kept;
  if (rolledUpBy && (!groupBy || groupBy === rolledUpBy) && !text.split(`${prefix}${ident(rolledUpBy)}`).join('').includes('"')) return rollupTable(kept.table);
  if (groupBy && !kept.columns.includes(groupBy)) return null;
  for (let at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
    const column = /^"([^"]+)"/.exec(text.slice(at + prefix.length))?.[1];
    if (!column || !kept.columns.includes(column)) return null;
  }
  return keptCountsTable(kept.table);
}

/** The columns of the counted table a condition reads, and whether it reads any other identifier. */
interface ReadColumns { own: string[]; others: boolean }

/**
 * The columns a condition reads, from its parts rather than its compiled text: plain SQL text,
 * columns and bound values. null when it holds anything else (a table, a named identifier, a
 * subquery, quoted text): the compiled text is read instead.
 */
function columnsRead(condition: SQL, table: string): ReadColumns | null {
  const read: ReadColumns = { own: [], others: false };
  const walk = (chunks: readonly unknown[]): boolean => chunks.every((chunk) => {
    if (chunk === undefined || is(chunk, Placeholder)) return true;
    if (Array.isArray(chunk)) return walk(chunk);
    if (is(chunk, StringChunk)) return !chunk.value.some((text) => text.includes('"'));
    if (is(chunk, SQL)) return walk(chunk.queryChunks);
    if (is(chunk, Column)) {
      if (getTableName(chunk.table) === table) read.own.push(chunk.name);
      else read.others = true;
      return true;
    }
    // A bound value is a parameter, unless it maps to SQL of its own.
    if (is(chunk, Param)) return chunk.value === null || typeof chunk.value !== 'object' || chunk.value instanceof Date;
    return false;
  });
  return walk(condition.queryChunks) ? read : null;
}

type Rows<T> = { rows: T[] };

/**
 * A list's count under `where` (its scope and filters), or per value of `groupBy`, from the kept
 * counts; null when the condition reads a column they do not keep (the caller counts the rows).
 */
export async function countedByKeeping(db: Db, resource: string, where: SQL | undefined, groupBy?: string, batch: object = db): Promise<number | { value: unknown; count: number }[] | null> {
  const kept = keptCountOf(resource);
  const keptTable = kept && keptTableFor(kept, where, groupBy);
  if (!kept || !keptTable) return null;
  const from = sql`${sql.identifier(keptTable)} as ${sql.identifier(getTableName(kept.table))}`;
  const condition = where ? sql` where ${where}` : sql``;
  if (!groupBy) {
    const value = await batched(db, sql`(select coalesce(sum(n), 0)::int from ${from}${condition})`, batch);
    return Number(value ?? 0);
  }
  const column = sql`${sql.identifier(getTableName(kept.table))}.${sql.identifier(groupBy)}`;
  const value = await batched(db, sql`(select coalesce(json_agg(json_build_object('value', g.value, 'count', g.count)), '[]'::json)
    from (select ${column} as value, sum(n)::int as count from ${from}${condition} group by ${column} having sum(n) <> 0) g)`, batch);
  return jsonRows<{ value: unknown; count: number }>(value).map((row) => ({ value: row.value, count: Number(row.count) }));
}

/**
 * Any other one value a dashboard reads (a scalar subquery: a count, a `json_agg` of a few rows), read
 * by the statement that reads the request's kept counts: one round trip less each (issue 27).
 */
export const askedInBatch = (db: Db, select: SQL, batch: object): Promise<unknown> => batched(db, select, batch);

/**
 * How many rows of `table` meet `where`, counted by the statement that reads the kept counts asked in
 * the same turn: a figure no count keeps (a date range, a computed filter) costs its scan, not a
 * round trip of its own.
 */
export async function countedInBatch(db: Db, table: PgTable, where: SQL | undefined, batch: object = db): Promise<number> {
  const value = await batched(db, sql`(select count(*)::int from ${table}${where ? sql` where ${where}` : sql``})`, batch);
  return Number(value ?? 0);
}

/**
 * Figures asked for in the same turn of the event loop by the same request (a dashboard asks for
 * twenty-five at once) are read by one statement, a scalar subquery each (issue 27): one round trip
 * and one pooled connection instead of twenty.
 */
const waiting = new Map<object, { select: SQL; resolve: (value: unknown) => void; reject: (error: unknown) => void }[]>();

/**
 * `batch` is what shares a statement: a request (the dashboard passes it) so that concurrent requests
 * do not queue behind one statement on one connection holding all their counts (one core busy while
 * the other waits); by default the database handle.
 */
function batched(db: Db, select: SQL, batch: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let queue = waiting.get(batch);
    if (!queue) {
      queue = [];
      waiting.set(batch, queue);
      setImmediate(() => { void flush(db, batch); });
    }
    queue.push({ select, resolve, reject });
  });
}

async function flush(db: Db, batch: object) {
  const queue = waiting.get(batch) ?? [];
  waiting.delete(batch);
  try {
    const columns = sql.join(queue.map((item, index) => sql`${item.select} as ${sql.identifier(`f${index}`)}`), sql`, `);
    // Named: a caller's figures are one text whatever the values (db/named.ts), parsed once per connection.
    const [row] = await readRows<Record<string, unknown>>(db, sql`select ${columns}`);
    queue.forEach((item, index) => item.resolve(row?.[`f${index}`]));
  } catch (error) {
    // One figure's failure must not take the others with it: each is asked again on its own.
    if (queue.length === 1) queue[0].reject(error);
    else {
      for (const item of queue) {
        db.execute(sql`select ${item.select} as f0`).then((result) => item.resolve((result as unknown as Rows<Record<string, unknown>>).rows[0]?.f0), item.reject);
      }
    }
  }
}
