// The queries every route of a resource shares: its scope, a list's where clause and order, and rows
// selected with their references, files, transitions and abilities, ready to send.
import { type AnyColumn, and, asc, desc, type DriverValueDecoder, eq, getTableName, type Name, SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgDialect } from 'drizzle-orm/pg-core';
import { HttpError, validationError } from '../plugins/errors';
import { type NamedKind, readRows } from '../db/named';
import type { ResourceDefinition } from '../../shared/resources/define';
import { today } from '../../shared/dates';
import { fileListSelection } from './attachments';
import { rowAbilities } from './abilities';
import { OWNER_MANAGER, OWNER_MANAGER_DELEGATES, type RegisteredResource, type ResourceContext, type Row } from './types';
import { availableTransitions, ownerIdOf } from './workflow';
import { asSubject } from '../../shared/words';

/** Renders the parts of a list's query that never change to text once (compiledRow, renderedSearch). */
const dialect = new PgDialect();

/** A list's query string, validated by the definition's listQuerySchema. */
export type ListQuery = Record<string, string | number | undefined>;

/**
 * The resource's own scope and, on the partner portal, its owner: a partner login reaches only its
 * firm's records of a partner-owned definition (through lists, reads, writes, references and files).
 */
export function scopeOf(resource: RegisteredResource, ctx: ResourceContext): SQL | undefined {
  const { owner } = resource.definition;
  const own = owner && ctx.area === 'partner' ? eq(resource.columns[owner.column], ownerIdOf(ctx.account)) : undefined;
  return and(resource.scope?.(ctx), own);
}

export const searchTerm = (query: ListQuery) => (typeof query.search === 'string' ? query.search.trim() : '');

/** One filter of the list's query as a condition, or none when the query does not set it. */
function filterCondition(resource: RegisteredResource, filter: NonNullable<ResourceDefinition['filters']>[number], query: ListQuery): SQL[] {
  // A computed value (an invoice's is_overdue) filters like a column (eq takes either; typed as the column).
  const column = (resource.computed?.[filter.key] ?? resource.columns[filter.key]) as PgColumn;
  if (filter.type === 'date-range') {
    const from = query[`${filter.key}_from`];
    const to = query[`${filter.key}_to`];
    // Calendar days, both ends inclusive.
    return [...(from ? [sql`(${column})::date >= ${from}::date`] : []), ...(to ? [sql`(${column})::date <= ${to}::date`] : [])];
  }
  const value = query[filter.key];
  if (value === undefined || value === '') return [];
  if (filter.type === 'boolean') {
    const wanted = value === 'true' || value === '1';
    // A computed boolean is its own condition: `exists (…) = true` is a comparison PostgreSQL evaluates
    // row by row (a hashed subplan over the whole list), where `exists (…)` alone becomes a semi join
    // that starts from the subquery's index (the dashboard's onboardings with an overdue task, issue
    // 27). NULL is excluded either way, as eq did.
    const computed = resource.computed?.[filter.key];
    if (computed) return [wanted ? sql`(${computed})` : sql`not (${computed})`];
    return [eq(column, wanted)];
  }
  if (filter.type === 'text') return [sql`lower(${column}) = lower(${String(value)})`];
  if (filter.type === 'reference') return [eq(column, Number(value))];
  return [eq(column, typeof filter.options[0]?.value === 'number' ? Number(value) : value)];
}

export function listWhere(resource: RegisteredResource, query: ListQuery, ctx: ResourceContext): SQL | undefined {
  const { definition, columns } = resource;
  const conditions: (SQL | undefined)[] = [scopeOf(resource, ctx)];
  const search = searchTerm(query);
  if (search) {
    // Case-insensitive '%term%' with the term's own wildcards escaped, over one expression of all the
    // searched fields, which a trigram index on exactly that expression serves where the list is
    // large (users_search_trgm).
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`${renderedSearch(resource)} like lower(${pattern})`);
  }
  for (const filter of definition.filters ?? []) conditions.push(...filterCondition(resource, filter, query));
  if (definition.parent && query[definition.parent.field] !== undefined) {
    conditions.push(eq(columns[definition.parent.field], Number(query[definition.parent.field])));
  }
  return and(...conditions);
}

/**
 * The searched fields as one lower-case string: `lower(coalesce(a, '') || chr(1) || coalesce(b, '') ...)`
 * in the definition's `search` order. chr(1) separates the fields because nobody types it, so a term
 * never matches across two of them (as OR-ed ILIKEs would not). A migration that indexes a list's
 * search must use this exact expression (see users_search_trgm), or the planner will not use it.
 */
export function searchExpression(resource: { definition: ResourceDefinition; columns: Record<string, PgColumn>; computed?: Record<string, SQL> }): SQL {
  const fields = resource.definition.search.map((key) => sql`coalesce(${resource.computed?.[key] ?? resource.columns[key]}, '')`);
  return sql`lower(${sql.join(fields, sql` || chr(1) || `)})`;
}

const renderedSearches = new WeakMap<RegisteredResource, SQL>();

/** searchExpression as text, rendered once per resource: it has no parameters and a list query carries it twice. */
function renderedSearch(resource: RegisteredResource): SQL {
  let rendered = renderedSearches.get(resource);
  if (!rendered) {
    rendered = sql.raw(dialect.sqlToQuery(searchExpression(resource)).sql);
    renderedSearches.set(resource, rendered);
  }
  return rendered;
}

export function orderBy(resource: RegisteredResource, query: ListQuery): SQL[] {
  const { definition } = resource;
  const key = (query.sort as string | undefined) ?? definition.defaultSort.key;
  if (!definition.sortable.includes(key) && key !== definition.defaultSort.key) {
    throw validationError({ sort: `The selected sort is invalid. Sortable: ${definition.sortable.join(', ')}.` });
  }
  const direction = (query.direction as 'asc' | 'desc' | undefined) ?? (query.sort ? 'asc' : definition.defaultSort.direction);
  const by = direction === 'desc' ? desc : asc;
  // The id breaks ties so pages never repeat or skip a row.
  return [by(sortExpression(resource, key)), by(resource.columns.id)];
}

/** A column, a computed value, or for a foreign key the referenced record's label (sort cities by country name). */
function sortExpression(resource: RegisteredResource, key: string): SQL | AnyColumn {
  if (resource.computed?.[key]) return resource.computed[key];
  return referenced(resource, key, (other, label) => sql`${other}.${label}`) ?? resource.columns[key];
}

/**
 * `(select <value> from <target> where <target>.id = <this row's key>)` for a reference field with a
 * registered target, else undefined; `value` gets the target's alias and its label column. The alias
 * keeps a self-reference (a user's manager) apart from the outer row, whose column is spelled out as
 * `"table"."column"` (drizzle leaves columns unqualified in one-table queries).
 */
function referenced(resource: RegisteredResource, key: string, value: (other: Name, label: Name) => SQL): SQL | undefined {
  const field = resource.definition.fields[key];
  const target = field?.input === 'reference' && field.reference ? resource.registry.get(field.reference.resource) : undefined;
  if (!target || !field.reference || !resource.columns[key]) return undefined;
  const other = sql.identifier(`ref_${key}`);
  const label = sql.identifier(target.columns[field.reference.labelKey].name);
  const outer = sql`${sql.identifier(getTableName(resource.table))}.${sql.identifier(resource.columns[key].name)}`;
  return sql`(select ${value(other, label)} from ${sql.identifier(getTableName(target.table))} ${other} where ${other}."id" = ${outer})`;
}

/**
 * Each single reference as `{id, [labelKey]}` under its relation, and each file field as its list of
 * files (attachments.ts), selected with the row. PostgreSQL evaluates these subqueries after the sort
 * and limit (for the page's rows only), so a page is one round trip whatever it refers to.
 */
function referenceSelection(resource: RegisteredResource): Record<string, SQL> {
  const selection: Record<string, SQL> = {};
  for (const [key, field] of Object.entries(resource.definition.fields)) {
    const labelKey = field.reference?.labelKey;
    // The key as a literal, not a parameter, so that the selection renders once (compiledRow).
    const keyLiteral = sql.raw(`'${String(labelKey).replace(/'/g, "''")}'`);
    const value = referenced(resource, key, (other, label) => sql`json_build_object('id', ${other}."id", ${keyLiteral}::text, ${other}.${label})`);
    if (value && field.reference) selection[field.reference.relation] = value;
  }
  return { ...selection, ...fileListSelection(resource.definition, getTableName(resource.table)) };
}

/** A resource's row query, compiled once: its select list and how each value is read back. */
interface CompiledRow {
  /** The row's values (columns, computed values, references, files), then the owner's manager, as SQL. */
  list: SQL;
  /** The key of each of the row's values, in the list's order. */
  keys: string[];
  /** How each of them is read from the driver's value (a column's or a value's `mapWith`). */
  decoders: DriverValueDecoder<unknown, unknown>[];
}

const compiledRows = new WeakMap<RegisteredResource, CompiledRow>();

/**
 * The row query's select list, with each value that has no parameter rendered to SQL text once per
 * resource, and the decoders to read the values back by position (issue 27): drizzle's select
 * builder otherwise walks every selected value's chunks and maps every row by its field tree on each
 * request, most of a list's Node time. A value that changes per request carries a parameter
 * (firmTodaySql does) and stays SQL, rendered with the request. Columns are spelled out with their
 * table, so the list reads the same in a query that joins (selectPageWithTotal). Built on first use,
 * once the registry holds every referenced resource.
 */
function compiledRow(resource: RegisteredResource): CompiledRow {
  let compiled = compiledRows.get(resource);
  if (!compiled) {
    const entries = Object.entries({ ...resource.selection, ...referenceSelection(resource) });
    const values: SQL[] = entries.map(([, value]) => (value instanceof SQL ? value : sql`${value}`));
    // The owner's manager, read beside the row (null for other resources).
    values.push(resource.ownerManager ?? sql`null::integer`);
    // Consecutive values without parameters become one piece of text.
    const pieces: SQL[] = [];
    let text: string[] = [];
    for (const value of values) {
      const rendered = dialect.sqlToQuery(value);
      if (!rendered.params.length) { text.push(rendered.sql); continue; }
      if (text.length) pieces.push(sql.raw(text.join(', ')));
      text = [];
      pieces.push(value);
    }
    if (text.length) pieces.push(sql.raw(text.join(', ')));
    compiled = {
      list: sql.join(pieces, sql.raw(', ')),
      keys: entries.map(([key]) => key),
      // A column decodes its own values; drizzle keeps a value's decoder (mapWith) internal.
      decoders: entries.map(([, value]) => (value instanceof SQL ? (value as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder : value)),
    };
    compiledRows.set(resource, compiled);
  }
  return compiled;
}

/**
 * The select list of a row query for this request: the compiled list, then who acts for the owner's
 * manager today (decision 036), read with the row so that the guards need no query.
 */
const selectList = (resource: RegisteredResource): SQL =>
  sql`${compiledRow(resource).list}, ${resource.ownerManagerDelegates?.(today()) ?? sql`null::json`}`;

/**
 * Reads rows that arrive as arrays in the select list's order (values after the list, such as a
 * page's total, are left to the caller) into rows, each carrying its owner's manager under
 * OWNER_MANAGER (and their delegates) where the resource has one. As drizzle maps: null stays null,
 * any other value goes through its decoder.
 */
function rowReader(resource: RegisteredResource) {
  const { keys, decoders } = compiledRow(resource);
  const count = keys.length;
  const isOwned = !!resource.ownerManager;
  return (found: unknown[][]): Row[] => found.map((values) => {
    const row: Row = {};
    for (let i = 0; i < count; i++) {
      const value = values[i];
      row[keys[i]] = value === null ? null : decoders[i].mapFromDriverValue(value);
    }
    if (isOwned) {
      row[OWNER_MANAGER] = values[count] as number | null;
      row[OWNER_MANAGER_DELEGATES] = ((values[count + 1] ?? []) as unknown[]).map(Number);
    }
    return row;
  });
}

/** `named`: the budget of names the query's text counts against (db/named.ts), or false to send it unnamed. */
export async function selectRows(resource: RegisteredResource, ctx: ResourceContext, where: SQL | undefined, order: SQL[], limit: number, offset: number, named: NamedKind | false = 'list'): Promise<Row[]> {
  const query = sql`select ${selectList(resource)} from ${resource.table}${clauses(where, order)}${pageClause(limit, offset)}`;
  const found = await readRows(ctx.db, query, { kind: named, read: rowReader(resource) });
  return serialise(resource, found, ctx);
}

/** ` where … order by …` of a row query, each where there is one. */
const clauses = (where: SQL | undefined, order: SQL[]): SQL =>
  sql`${where ? sql` where ${where}` : sql``}${order.length ? sql` order by ${sql.join(order, sql`, `)}` : sql``}`;

/**
 * ` limit … offset …`, written into the text for a first page (decision 055). PostgreSQL plans a named
 * statement for its values the first five times, then keeps one generic plan if that plan costs no
 * more; a LIMIT it cannot see it guesses as a tenth of the rows, prices an ordered read of a tenth of
 * the table, and so plans every call again (0.1 to 0.5 ms a list, 2 ms a dashboard). A limit is one of
 * a few page sizes; only the first page's offset, by far the most read, is written in, so that deeper
 * pages do not each take a statement name (db/named.ts counts them).
 */
function pageClause(limit: number, offset: number): SQL {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`a page's limit must be a whole number, not ${limit}`);
  return offset === 0 ? sql.raw(` limit ${limit} offset 0`) : sql` limit ${sql.raw(String(limit))} offset ${offset}`;
}

/**
 * A page of rows and the total of the whole list in one query, from one scan of the matching rows
 * (issue 27): the inner query finds the page's ids in order and counts every match beside them with
 * a window count (computed before its limit), and the outer query joins the page's rows back by id
 * and selects their references and computed values for those rows only. An uncorrelated count
 * subquery beside the page instead ran the search's trigram scan twice, for the page and for the
 * count (docs/benchmarks.md "Lists, one scan"). A page past the end has no row to carry the total:
 * `total` is then null.
 */
export async function selectPageWithTotal(resource: RegisteredResource, ctx: ResourceContext, where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<{ rows: Row[]; total: number | null }> {
  const { table, columns } = resource;
  const query = sql`select ${selectList(resource)}, "list_page"."list_total" from ${table} inner join (
    select ${columns.id}, count(*) over () as "list_total" from ${table}${clauses(where, order)}${pageClause(limit, offset)}
  ) "list_page" on ${columns.id} = "list_page"."id"${clauses(undefined, order)}`;
  let total: number | null = null;
  const read = rowReader(resource);
  const found = await readRows(ctx.db, query, { kind: 'list', read: (arrays) => {
    // The total is the value after the row's and its owner's manager's (the select list's last two).
    if (arrays.length) total = Number(arrays[0][compiledRow(resource).keys.length + 2]);
    return read(arrays);
  } });
  return { rows: await serialise(resource, found, ctx), total };
}

/** One row within the resource's scope, serialised; 404 when it is not there. */
export async function findRow(resource: RegisteredResource, ctx: ResourceContext, id: number, isScoped = true): Promise<Row> {
  const where = and(eq(resource.columns.id, id), isScoped ? scopeOf(resource, ctx) : undefined);
  // The same text for every id: one of the fixed shapes, planned once per connection (db/named.ts).
  const [row] = await selectRows(resource, ctx, where, [], 1, 0, 'fixed');
  if (!row) throw new HttpError(404, `${asSubject(resource.definition.label)} not found.`);
  return row;
}

/** Dates as ISO strings, in place (the rows are fresh from the driver); references arrive with the row. */
async function serialise(resource: RegisteredResource, rows: Row[], ctx: ResourceContext): Promise<Row[]> {
  const relations = Object.values(resource.definition.fields)
    .flatMap((field) => (field.input === 'reference' && field.reference ? [field.reference.relation] : []));
  for (const row of rows) {
    for (const key of resource.dateKeys) {
      const value = row[key];
      if (value instanceof Date) row[key] = value.toISOString();
    }
    for (const relation of relations) row[relation] ??= null;
    if (resource.definition.workflow) row.available_transitions = availableTransitions(resource.definition, row, ctx.account);
  }
  if (rows.length) await resource.decorate?.(rows, ctx);
  // After decorate: a refusal may read what it attached (a user's role ids).
  const abilitiesOf = rowAbilities(resource, ctx);
  for (const row of rows) row.abilities = abilitiesOf(row);
  return rows;
}
