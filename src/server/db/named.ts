// Statements a request sends again and again with the same text (a list of one shape, a record read by
// its id, a workflow decision's one statement) go to PostgreSQL as named statements: each pooled
// connection parses them once, and plans them once where a generic plan is as good as a custom one
// (issue 27, decisions 047 and 048: 1.2-1.4 ms of the server's CPU each, a tenth of that named;
// docs/benchmarks.md). Every value is a parameter, so one shape is one text. PGlite ignores the name.
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
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

interface Session { prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string | undefined, arrayMode: boolean): { execute(): Promise<unknown> } }

/** `db.execute(query)` as a named statement. */
export function executeNamed<T>(db: Db, query: SQL): Promise<T> {
  const { session, dialect } = db as unknown as { session: Session; dialect: PgDialect };
  const built = dialect.sqlToQuery(query);
  return session.prepareQuery(built, undefined, statementName(built.sql), false).execute() as Promise<T>;
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
