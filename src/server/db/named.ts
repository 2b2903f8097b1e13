// Statements a request sends again and again with the same text (a list of one shape, a record read by
// its id, a workflow decision's one statement) go to PostgreSQL as named statements: each pooled
// connection parses them once, and plans them once where a generic plan is as good as a custom one
// (issue 27, decisions 047 and 048: 1.2-1.4 ms of the server's CPU each, a tenth of that named;
// docs/benchmarks.md). Every value is a parameter, so one shape is one text. PGlite ignores the name.
// The texts of a decision and of a record's read are also built only once per shape (decision 050).
import { createHash } from 'node:crypto';
import { type Column, is, Param, Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
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

interface Session { prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string | undefined, arrayMode: boolean): { execute(values?: Record<string, unknown>): Promise<unknown> } }

/** `db.execute(query)` as a named statement. */
export function executeNamed<T>(db: Db, query: SQL): Promise<T> {
  const { session, dialect } = db as unknown as { session: Session; dialect: PgDialect };
  const built = dialect.sqlToQuery(query);
  return session.prepareQuery(built, undefined, statementName(built.sql), false).execute() as Promise<T>;
}

/** A statement's text with its parameters, placeholders among them (drizzle's `sql.placeholder`). */
interface Rendered { sql: string; params: unknown[] }

/** At most this many shapes kept (each a few KB of text), the oldest going first: a shape keyed by the day gives way. */
const SHAPES = 300;
const shapes = new Map<string, Rendered>();

function keep<T>(kept: Map<string, T>, shape: string, value: T) {
  if (kept.size >= SHAPES) kept.delete(kept.keys().next().value!);
  kept.set(shape, value);
}

/**
 * `db.execute(build())` as a named statement whose text is built once per shape (issue 27, decision 050):
 * drizzle walks a decision's few hundred chunks only the first time, then each call binds `values` to
 * the placeholders. `shape` must name everything the text depends on; every value that changes from one
 * call to the next must be a placeholder in `build`, never part of the text or a bound constant. Under
 * the tests each later call builds again and compares, so a value baked into a shape fails there.
 */
export function executeShaped<T>(db: Db, shape: string, build: () => SQL, values: Record<string, unknown>): Promise<T> {
  const { session, dialect } = db as unknown as { session: Session; dialect: PgDialect };
  let rendered = shapes.get(shape);
  if (!rendered) {
    rendered = dialect.sqlToQuery(build());
    keep(shapes, shape, rendered);
  } else if (process.env.VITEST) checkShape(shape, rendered, dialect.sqlToQuery(build()));
  return session.prepareQuery(rendered, undefined, statementName(rendered.sql), false).execute(values) as Promise<T>;
}

/** Under the tests: a shape built again must come out the same, or a varying value was baked into it. */
function checkShape(shape: string, kept: Rendered, again: Rendered) {
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

interface ArraySession { prepareQuery<T>(query: { sql: string; params: unknown[] }, fields: undefined, name: string | undefined, arrayMode: true, map: (rows: unknown[][]) => T[]): { execute(): Promise<T[]> } }

/**
 * A statement's rows as arrays, read by `read` (a list's own row reader), as a statement named after
 * its text in `kind`'s budget, or unnamed (`false`). The drivers' value parsing stays drizzle's (its
 * dates and timestamps come as text, for the columns' decoders).
 */
export function selectNamedRows<T>(db: Db, query: SQL, kind: NamedKind | false, read: (rows: unknown[][]) => T[]): Promise<T[]> {
  const { session, dialect } = db as unknown as { session: ArraySession; dialect: PgDialect };
  const built = dialect.sqlToQuery(query);
  return session.prepareQuery(built, undefined, kind ? statementName(built.sql, kind) : undefined, true, read).execute();
}

interface Prepared<T> { getQuery(): { sql: string }; execute(placeholders?: Record<string, unknown>): Promise<T> }

/**
 * Names a prepared drizzle query after its text. drizzle takes the name before it builds the text, so
 * the query is prepared unnamed and node-postgres's query config is named afterwards (building the
 * text twice would cost more than the parse it saves). On PGlite there is no such config and the
 * statement goes unnamed.
 */
function named<T>(prepared: Prepared<T>, kind: NamedKind): Prepared<T> {
  const name = statementName(prepared.getQuery().sql, kind);
  const config = prepared as unknown as { queryConfig?: { name?: string }; rawQueryConfig?: { name?: string } };
  if (name && config.queryConfig && config.rawQueryConfig) {
    config.queryConfig.name = name;
    config.rawQueryConfig.name = name;
  }
  return prepared;
}

/** A drizzle select's rows, as a statement named after its text. */
export function selectNamed<T>(query: { prepare(name: string): Prepared<T> }, kind: NamedKind = 'fixed'): Promise<T> {
  return named(query.prepare(''), kind).execute();
}

/**
 * A query of one shape whose values alone vary (`sql.placeholder`), built by drizzle once per database
 * handle rather than once per request (issue 27: building SQL was about a quarter of a dashboard's Node
 * time), and sent as a named statement. Only for the database handle itself: a transaction is another
 * handle, and its queries are built as usual.
 */
export function preparedOnce<T, Values extends Record<string, unknown> = Record<string, unknown>>(build: (db: Db) => { prepare(name: string): Prepared<T> }): (db: Db, values?: Values) => Promise<T> {
  const built = new WeakMap<Db, Prepared<T>>();
  return (db, values) => {
    let prepared = built.get(db);
    if (!prepared) {
      prepared = named(build(db).prepare(''), 'fixed');
      built.set(db, prepared);
    }
    return prepared.execute(values);
  };
}
