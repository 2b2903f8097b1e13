// The client refetches the dashboards when a write changes a resource they count (lib/query.ts,
// countedBy). Which resources those are is declared once, in src/shared/dashboard.ts; this test reads
// the tables the dashboards' queries actually touch (as the admin, who sees every panel, and as a
// partner login) and fails when the declaration and the queries drift apart.
import { getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredResources } from '../../src/server/resources/register';
import { DASHBOARD_COUNTS } from '../../src/shared/dashboard';
import { KEPT_COUNTS, keptCountsTable, rollupTable } from '../../src/server/modules/dashboard/kept-counts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** The SQL statements run while `run` waits. */
async function statementsRun(run: () => Promise<unknown>): Promise<Set<string>> {
  const session = (t.app.db as unknown as { session: { logger: { logQuery(query: string, params: unknown[]): void } } }).session;
  const before = session.logger;
  const statements = new Set<string>();
  session.logger = { logQuery: (query) => { statements.add(query); } };
  try { await run(); } finally { session.logger = before; }
  return statements;
}

/** Tables kept from a resource's records by its module rather than written by its routes. */
const KEPT_FROM: Record<string, string> = { deal_pipeline_totals: 'deal-tracking' };
/**
 * Tables read to decide whose items a person sees, not to count them: a hand-over of approvals counts
 * while its manager holds the permission to hand over (decision 041), a fixed catalogue from the code.
 */
const ACCESS_RULES = new Set(['permissions']);
/** The counts kept by triggers and their per-state rollups (kept-counts.ts): each answers for its counted table. */
const COUNTED_BY = new Map(KEPT_COUNTS.flatMap((kept) => [keptCountsTable(kept.table), rollupTable(kept.table)].map((table) => [table, getTableName(kept.table)] as const)));

/** The resources whose records the statements read (the tables after FROM or JOIN). */
function resourcesRead(statements: Iterable<string>): string[] {
  const tables = new Set<string>();
  for (const statement of statements) {
    for (const match of statement.matchAll(/\b(?:from|join)\s+"([a-z_0-9]+)"/gi)) {
      if (!ACCESS_RULES.has(match[1])) tables.add(COUNTED_BY.get(match[1]) ?? match[1]);
    }
  }
  const read = registeredResources(t.app).filter((resource) => tables.has(getTableName(resource.table)));
  // A table that several definitions view (the people table: user, admin, manager, active user, and
  // the interview form's interviewers) counts for those that declare a figure; a table read that no
  // definition on it declares is a figure nobody declared, and stays in the answer to fail.
  const declaring = read.filter((resource) => resource.definition.dashboard);
  const undeclaredTables = new Set(read.map((resource) => getTableName(resource.table)).filter((table) => !declaring.some((resource) => getTableName(resource.table) === table)));
  return [
    ...declaring.map((resource) => resource.definition.name),
    ...read.filter((resource) => undeclaredTables.has(getTableName(resource.table))).map((resource) => resource.definition.name),
    ...Object.entries(KEPT_FROM).filter(([table]) => tables.has(table)).map(([, resource]) => resource),
  ];
}

describe('what the dashboards count', () => {
  it('is what src/shared/dashboard.ts declares', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const partner = await (await t.createPartner({ email: 'counts@example.com', name: 'Counts' })).token();
    // Every signed-in request reads the session, the account and its roles (the same statements as
    // GET /me's): those are not figures.
    const signedIn = new Set([
      ...await statementsRun(() => t.call('GET', '/api/me', { token: admin })),
      ...await statementsRun(() => t.call('GET', '/api/partner/me', { token: partner })),
    ]);
    const dashboards = await statementsRun(async () => {
      expect((await t.call('GET', '/api/dashboard', { token: admin })).status).toBe(200);
      expect((await t.call('GET', '/api/partner/dashboard', { token: partner })).status).toBe(200);
    });
    const counted = new Set(resourcesRead([...dashboards].filter((statement) => !signedIn.has(statement))));
    expect([...counted].sort()).toEqual([...DASHBOARD_COUNTS].sort());
  });
});
