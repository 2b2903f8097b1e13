// Lists as named prepared statements (issue 27, decision 048). Every value of a list's query is a
// parameter, so one (definition, area, filters set, search or not, sort) gives one SQL text; named
// after the text's hash, it is parsed once per pooled connection and, where a generic plan is as good
// as a custom one (a partner's own invoices: yes; a trigram search: no, PostgreSQL keeps planning that
// per value), planned once. PGlite ignores the name.
import { createHash } from 'node:crypto';

/** Past this many texts in one process (a shape nobody foresaw), further ones go unnamed. */
const MAX_STATEMENTS = 500;
const names = new Set<string>();

interface Prepared<T> { getQuery(): { sql: string }; execute(): Promise<T> }

function statementName(text: string): string | undefined {
  const name = `list_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  if (names.has(name)) return name;
  if (names.size >= MAX_STATEMENTS) return undefined;
  names.add(name);
  return name;
}

/**
 * Runs a drizzle select as a statement named after its text. drizzle takes the name before it builds
 * the text, so the query is prepared unnamed and node-postgres's query config is named afterwards
 * (building the text twice would cost more than the parse it saves).
 */
export function executePrepared<T>(query: { prepare(name: string): Prepared<T> }): Promise<T> {
  const prepared = query.prepare('');
  const name = statementName(prepared.getQuery().sql);
  const config = prepared as unknown as { queryConfig?: { name?: string }; rawQueryConfig?: { name?: string } };
  if (name && config.queryConfig && config.rawQueryConfig) {
    config.queryConfig.name = name;
    config.rawQueryConfig.name = name;
  }
  return prepared.execute();
}
