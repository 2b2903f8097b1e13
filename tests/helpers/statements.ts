// The statements the app sends while `run` waits, caught where every drizzle query passes on either
// database (its session's prepareQuery; a transaction's session is of the same class), with the name
// the app gave each, passed to prepareQuery (db/named.ts). PGlite ignores the names. BEGIN and COMMIT
// are left out: PGlite sends them itself, PostgreSQL through drizzle.
import type { Db } from '../../src/server/db/client';

export interface SentStatement { sql: string; name: string | undefined }

export async function statementsOf(db: Db, run: () => Promise<unknown>): Promise<SentStatement[]> {
  type Prepare = (this: unknown, query: { sql: string }, ...rest: unknown[]) => unknown;
  const session = Object.getPrototypeOf((db as unknown as { session: object }).session) as { prepareQuery: Prepare };
  const original = session.prepareQuery;
  const sent: SentStatement[] = [];
  // Counted when executed: a query prepared only to render its text is not sent.
  session.prepareQuery = function prepareQuery(query, ...rest) {
    const prepared = original.call(this, query, ...rest) as { execute(...args: unknown[]): unknown };
    const execute = prepared.execute.bind(prepared);
    prepared.execute = (...args: unknown[]) => {
      // prepareQuery(query, fields, name, …); drizzle prepares an unnamed query with an empty name or none.
      sent.push({ sql: query.sql, name: typeof rest[1] === 'string' && rest[1] ? rest[1] : undefined });
      return execute(...args);
    };
    return prepared;
  };
  try { await run(); } finally { session.prepareQuery = original; }
  return sent.filter((statement) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(statement.sql));
}
