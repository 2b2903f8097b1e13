// Statements a request sends again and again with the same text (a list of one shape, a record read by
// its id, a workflow decision's one statement) go to PostgreSQL as named statements: each pooled
// connection parses them once, and plans them once where a generic plan is as good as a custom one
// (issue 27, decisions 047 and 048: 1.2-1.4 ms of the server's CPU each, a tenth of that named;
// docs/benchmarks.md). Every value is a parameter, so one shape is one text. PGlite ignores the name.
// Two ways in: `readRows` builds its statement on each call; `shapedRows` builds it once per shape
// (decision 050) and binds each call's values to its placeholders. Both answer rows, by column name or,
// given a reader or a drizzle select, by position.
import { createHash } from 'node:crypto';
import { Column, type DriverValueDecoder, is, Param, Placeholder, SQL, sql } from 'drizzle-orm';
import { type PgDialect, PgSelectBase } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Every connection keeps what it prepared until it closes, so only so many distinct texts are named,
 * in two budgets: a list's text varies with its filters, search and sort, and must not use up the names
 * of the fixed shapes (a record read, a decision) that every request of a kind sends. Past its budget a
 * text goes unnamed, as before.
 */
export type NamedKind = 'fixed' | 'list';
const BUDGET: Record<NamedKind, number> = { fixed: 300, list: 500 };
const names = new Map<string, string>();
const used: Record<NamedKind, number> = { fixed: 0, list: 0 };

/** The name of a statement's text (the same on every connection), or undefined once its kind's budget is spent. */
export function statementName(text: string, kind: NamedKind = 'fixed'): string | undefined {
  let name = names.get(text);
  if (!name && used[kind] < BUDGET[kind]) {
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
    used[kind]++;
  }
  return name;
}

/** A drizzle select (`db.select({…}).from(…)…`, flat): its rows come as its fields, decoded as drizzle decodes them. */
export interface Select<Rows> { getSQL(): SQL; readonly _: { readonly result: Rows; readonly selectedFields: unknown } }

/** How a statement's rows are read, and the budget its name counts against. */
export interface RowOptions<T> {
  /** The budget of names (`fixed` by default), or false to send the text unnamed. */
  kind?: NamedKind | false;
  /** Reads the rows as arrays in the select list's order (a list's compiled row); without it they come by column name. */
  read?: (rows: unknown[][]) => T[];
}

/** A statement's text with its parameters (placeholders among them), and how a select's rows are read. */
interface Built { sql: string; params: unknown[]; read?: (rows: unknown[][]) => unknown[] }

/**
 * A handle's session, or a transaction's, on either driver: a statement is one of its queries, its
 * values parsed as drizzle parses them (dates and timestamps as text, for the columns' decoders).
 */
interface Session { prepareQuery(query: Built, fields: undefined, name: string | undefined, arrayMode: boolean, read?: (rows: unknown[][]) => unknown[]): { execute(values?: Record<string, unknown>): Promise<unknown> } }

const driverOf = (db: Db) => db as unknown as { session: Session; dialect: PgDialect };

/** A statement sent as it is built on each call, named after its text. */
export async function readRows<T>(db: Db, query: SQL | Select<T[]>, options: RowOptions<T> = {}): Promise<T[]> {
  return send(db, buildOf(driverOf(db).dialect, query), undefined, options);
}

/**
 * A statement whose text is built once per shape (issue 27, decision 050): drizzle walks a decision's
 * few hundred chunks only the first time, then each call binds `values` to the placeholders. `shape`
 * must name everything the text depends on; every value that changes from one call to the next must be
 * a placeholder (`sql.placeholder`) in what `build` returns, never part of the text nor a bound constant.
 * Under the tests each later call builds again and compares, so a value baked into a shape fails there.
 * Nothing is kept of the handle: each call's statement is a query of the caller's `db` (a transaction's
 * on its own connection, which runs one query at a time: a caller there awaits each before the next).
 */
export async function shapedRows<T>(db: Db, shape: string, build: () => SQL | Select<T[]>, values: Record<string, unknown>, options: RowOptions<T> = {}): Promise<T[]> {
  const { dialect } = driverOf(db);
  let built = shapes.get(shape);
  if (!built) {
    built = buildOf(dialect, build());
    keep(shape, built);
  } else if (process.env.VITEST) checkShape(shape, built, buildOf(dialect, build()));
  return send(db, built, values, options);
}

function send<T>(db: Db, built: Built, values: Record<string, unknown> | undefined, { kind = 'fixed', read = built.read as RowOptions<T>['read'] }: RowOptions<T>): Promise<T[]> {
  const name = kind ? statementName(built.sql, kind) : undefined;
  const prepared = driverOf(db).session.prepareQuery(built, undefined, name, !!read, read);
  if (read) return prepared.execute(values) as Promise<T[]>;
  return (prepared.execute(values) as Promise<{ rows: T[] }>).then((result) => result.rows);
}

/** At most this many shapes kept (each a few KB of text), the oldest going first: a shape keyed by the day gives way. */
const SHAPES = 300;
const shapes = new Map<string, Built>();

function keep(shape: string, built: Built) {
  if (shapes.size >= SHAPES) shapes.delete(shapes.keys().next().value!);
  shapes.set(shape, built);
}

function buildOf(dialect: PgDialect, query: SQL | Select<unknown>): Built {
  if (is(query, SQL)) return dialect.sqlToQuery(query);
  return { ...dialect.sqlToQuery(query.getSQL()), read: selectReader(query) };
}

/**
 * Reads a flat select's rows by position into its fields, as drizzle does: null stays null, any other
 * value goes through its column's or its `mapWith`'s decoder (which drizzle keeps internal).
 */
function selectReader(query: Select<unknown>): (rows: unknown[][]) => unknown[] {
  if (!is(query, PgSelectBase)) throw new Error('Only a drizzle select, or SQL, is read.');
  const fields = Object.entries(query._.selectedFields as Record<string, unknown>);
  const decoders = fields.map(([key, field]): DriverValueDecoder<unknown, unknown> => {
    const value = is(field, SQL.Aliased) ? field.sql : field;
    if (is(value, SQL)) return (value as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
    if (is(value, Column)) return value;
    throw new Error(`The selected ${key} is not one value: only a flat select is read by its fields.`);
  });
  return (rows) => rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) row[fields[i][0]] = values[i] === null ? null : decoders[i].mapFromDriverValue(values[i]);
    return row;
  });
}

/** Under the tests: a shape built again must come out the same, or a varying value was baked into it. */
function checkShape(shape: string, kept: Built, again: Built) {
  if (again.sql !== kept.sql || JSON.stringify(again.params.map(paramShape)) !== JSON.stringify(kept.params.map(paramShape))) {
    throw new Error(`The statement of shape ${shape} was built differently: a value that varies is not a placeholder.`);
  }
}

/** A parameter as the shape check compares it: a placeholder by its name, a constant by its value. */
const paramShape = (param: unknown) => {
  const value = is(param, Param) ? param.value : param;
  return is(value, Placeholder) ? `:${value.name}` : value;
};

/** A placeholder for each of `keys`, named `prefix` + key: a written row's values in a shaped statement. */
export const placeholdersOf = (prefix: string, keys: readonly string[]): Record<string, SQL> =>
  Object.fromEntries(keys.map((key) => [key, sql`${sql.placeholder(`${prefix}${key}`)}`]));

/**
 * The values of `placeholdersOf(prefix, Object.keys(row))`, each encoded as drizzle encodes it for its
 * column (a Date as text, JSON as a string); null stays null, as drizzle leaves it.
 */
export function boundValuesOf(columns: Record<string, Column>, prefix: string, row: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    values[`${prefix}${key}`] = value === null || value === undefined ? null : columns[key].mapToDriverValue(value);
  }
  return values;
}
