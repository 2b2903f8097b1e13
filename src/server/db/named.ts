// Statements a request sends again and again with the same text (a record read by its id, a workflow
// decision's one statement) go to PostgreSQL as named statements: each pooled connection parses and
// plans them once instead of on every request (issue 27, third step: 1.2-1.4 ms of the server's CPU
// each, a tenth of that named; docs/benchmarks.md). PGlite ignores the name.
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Every connection keeps what it prepared until it closes, so only so many distinct texts are named;
 * past that a statement is sent unnamed, as before. The texts named are the few shapes of the code
 * (values are parameters), far fewer than this.
 */
const MAX_NAMED = 500;
const names = new Map<string, string>();

/** The name of a statement's text (the same on every connection), or undefined once MAX_NAMED are named. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_NAMED) {
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
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

/** A select builder's rows, as a named statement. */
export function selectNamed<T>(query: { toSQL(): { sql: string }; prepare(name: string): { execute(): Promise<T> } }): Promise<T> {
  const name = statementName(query.toSQL().sql);
  return name ? query.prepare(name).execute() : (query as unknown as Promise<T>);
}
