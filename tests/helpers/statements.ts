// The statements the app sends while `run` waits, caught where every drizzle query passes on either
// database (its session's prepareQuery; a transaction's session is of the same class), with the name
// the app gave each: passed to prepareQuery (db/named.ts selectNamedRows), or set on node-postgres's
// query config before it is sent (selectNamed). PGlite ignores the names. BEGIN and COMMIT are left
// out: PGlite sends them itself, PostgreSQL through drizzle.
import type { Db } from '../../src/server/db/client';

export interface SentStatement { sql: string; name: string | undefined }

export async function statementsOf(db: Db, run: () => Promise<unknown>): Promise<SentStatement[]> {
  type Prepare = (this: unknown, query: { sql: string }, ...rest: unknown[]) => unknown;
  const session = Object.getPrototypeOf((db as unknown as { session: object }).session) as { prepareQuery: Prepare };
  const original = session.prepareQuery;
  const sent: { sql: string; name: unknown; prepared: { queryConfig?: { name?: string } } }[] = [];
  // Counted when executed: a query prepared only to render its text (db/named.ts renders a read's head once) is not sent.
  session.prepareQuery = function prepareQuery(query, ...rest) {
    const prepared = original.call(this, query, ...rest) as { queryConfig?: { name?: string }; execute(...args: unknown[]): unknown };
    const execute = prepared.execute.bind(prepared);
    prepared.execute = (...args: unknown[]) => {
      // prepareQuery(query, fields, name, …)
      sent.push({ sql: query.sql, name: rest[1], prepared });
      return execute(...args);
    };
    return prepared;
  };
  try { await run(); } finally { session.prepareQuery = original; }
  return sent.filter((statement) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(statement.sql))
    .map((statement) => ({ sql: statement.sql, name: statement.prepared.queryConfig?.name || (typeof statement.name === 'string' && statement.name) || undefined }));
}
