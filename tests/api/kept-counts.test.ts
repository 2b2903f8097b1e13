// The dashboard's counts kept by triggers (src/server/modules/dashboard/kept-counts.ts, decision 028):
// the migration is what the declaration generates, and after random writes (inserts, state changes,
// owner and assignee changes, deletes, statements over many rows, rolled-back transactions) every
// kept count, and every per-state rollup beside them (migration 0042), equals a full recount of its
// table. Runs on PGlite and on PostgreSQL (api-postgres).
// On the embedded database too: the triggers under random writes, on both databases (issue 27).
import { readFileSync } from 'node:fs';
import { getTableName, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_COUNTS, keptCountsMigration, keptCountsTable, keptRollupsMigration, rollupTable, type KeptCount } from '../../src/server/modules/dashboard/kept-counts';
import { DASHBOARD_COUNTS } from '../../src/shared/dashboard';
import type { Db } from '../../src/server/db/client';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { statementsOf } from '../helpers/statements';
import { expectInvoiceTotalsMatch } from '../helpers/invoice-totals';
import { columnsOf, generator, idsOf, insertRow, rowsOf, valuesFor, type Random } from '../helpers/random-rows';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** Every kept count differs from a recount of its table in no key. */
async function expectCountsMatch(db: Db, context: string) {
  for (const kept of KEPT_COUNTS) {
    const columns = sql.join(kept.columns.map((c) => sql.identifier(c)), sql`, `);
    const recount = await rowsOf<Record<string, unknown>>(db, sql`select ${columns}, count(*)::int as n from ${kept.table} group by ${columns}`);
    const stored = await rowsOf<Record<string, unknown>>(db, sql`select ${columns}, n from ${sql.identifier(keptCountsTable(kept.table))}`);
    const byKey = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.filter((row) => Number(row.n) !== 0)
      .map((row) => [JSON.stringify(kept.columns.map((c) => row[c])), Number(row.n)]));
    expect(byKey(stored), `${getTableName(kept.table)} after ${context}`).toEqual(byKey(recount));
    expect(stored.every((row) => Number(row.n) >= 0), `${getTableName(kept.table)}: no negative count`).toBe(true);
    if (!kept.rolledUpBy) continue;
    // The per-state rollup: a state's slots summed (a slot alone may be negative) against a recount by state.
    const state = sql.identifier(kept.rolledUpBy);
    const byState = async (from: ReturnType<typeof sql>, n: ReturnType<typeof sql>) => Object.fromEntries(
      (await rowsOf<{ state: unknown; n: number }>(db, sql`select ${state} as state, ${n}::int as n from ${from} group by ${state}`))
        .filter((row) => Number(row.n) !== 0).map((row) => [JSON.stringify(row.state), Number(row.n)]));
    const rolledUp = await byState(sql`${sql.identifier(rollupTable(kept.table))}`, sql`sum(n)`);
    expect(rolledUp, `${rollupTable(kept.table)} after ${context}`).toEqual(await byState(sql`${kept.table}`, sql`count(*)`));
    expect(Object.values(rolledUp).every((n) => n > 0), `${rollupTable(kept.table)}: no negative count`).toBe(true);
  }
  // The partner invoices' totals (decision 054), moved by the same random writes to partner_invoices.
  await expectInvoiceTotalsMatch(db, context);
}

/** One random write to the table of `kept`; what it was, for the failure message. */
async function randomWrite(db: Db, kept: KeptCount, random: Random): Promise<string> {
  const { table } = kept;
  const name = getTableName(table);
  const ids = await idsOf(db, table);
  const id = () => random.pick(ids);
  const counted = columnsOf(table).filter((column) => kept.columns.includes(column.name));
  const op = ids.length < 3 ? 0 : random.int(10);
  try {
    if (op <= 2) return `insert into ${name}: ${await insertRow(db, table, random, kept.columns) ? 'done' : 'refused'}`;
    if (op <= 6) {
      // A state, owner or assignee change of one row (one or two counted columns at once).
      const changed = random.int(3) === 0 ? counted : [random.pick(counted)];
      const set = sql.join(await Promise.all(changed.map(async (column) => sql`${sql.identifier(column.name)} = ${await valuesFor(db, table, column, random)}`)), sql`, `);
      const target = id();
      await db.execute(sql`update ${table} set ${set} where id = ${target}`);
      return `update ${name} #${target} (${changed.map((c) => c.name).join(', ')})`;
    }
    if (op === 7) {
      // Many rows in one statement.
      const column = random.pick(counted);
      const value = await valuesFor(db, table, column, random);
      const some = ids.filter(() => random.int(3) === 0);
      if (some.length) await db.update(table).set({ [Object.entries(table).find(([, c]) => c === column)![0]]: value } as never).where(inArray(sql`id`, some));
      return `update ${some.length} rows of ${name} (${column.name})`;
    }
    if (op === 8) {
      const target = id();
      await db.execute(sql`delete from ${table} where id = ${target}`);
      return `delete ${name} #${target}`;
    }
    // A transaction that writes and rolls back: its counts go with it.
    await db.transaction(async (tx) => {
      await insertRow(tx as unknown as Db, table, random, kept.columns);
      await tx.execute(sql`update ${table} set ${sql.identifier(counted[0].name)} = ${await valuesFor(tx as unknown as Db, table, counted[0], random)} where id = ${id()}`);
      tx.rollback();
    }).catch(() => undefined);
    return `rolled back on ${name}`;
  } catch (error) {
    // A foreign key or check refused it: the row and its count are as they were.
    return `${name}: refused (${(error as Error).message.slice(0, 60)})`;
  }
}

// First: the random writes below change anyone's status, the admin's too.
describe('which kept table answers a figure', () => {
  const dashboardOf = async (token: string) => (await statementsOf(t.app.db, async () => expect((await t.call('GET', '/api/dashboard', { token })).status).toBe(200)))
    .map((statement) => statement.sql).join('\n');

  it('is the per-state rollup for whoever sees the whole list, the per-owner counts for a manager', async () => {
    const admin = await dashboardOf(await t.login(ADMIN.email, ADMIN.password));
    expect(admin).toContain('from "leave_applications_state_counts" as "leave_applications"');
    expect(admin).not.toContain('from "leave_applications_counts"');
    const manager = await t.createUser({ email: 'rollup-manager@example.com', name: 'Rollup manager', user_type: 'manager' });
    const scoped = await dashboardOf(await manager.token());
    // Their own people's leave only: the rollup cannot say whose a count is.
    expect(scoped).toContain('from "leave_applications_counts" as "leave_applications"');
    expect(scoped).not.toContain('leave_applications_state_counts');
  });
});

describe('counts kept by triggers', () => {
  it('come from the migrations the declaration generates, for resources the dashboards count', () => {
    const migration = (file: string) => readFileSync(new URL(`../../src/server/db/migrations/${file}`, import.meta.url), 'utf8');
    expect(migration('0030_dashboard_counts.sql')).toBe(keptCountsMigration());
    expect(migration('0042_dashboard_state_counts.sql')).toBe(keptRollupsMigration());
    // Every decision list kept per owner or firm is rolled up per state too.
    expect(KEPT_COUNTS.filter((kept) => kept.rolledUpBy).map((kept) => kept.resource)).toEqual(
      ['leave-application', 'expense', 'time-sheet', 'pre-billing', 'partner-invoice', 'document-assign-history', 'request']);
    for (const kept of KEPT_COUNTS) expect(DASHBOARD_COUNTS).toContain(kept.resource);
  });

  it('equal a full recount after random writes', { timeout: 300_000 }, async () => {
    const seed = Number(process.env.KEPT_COUNTS_SEED ?? Date.now() % 1_000_000);
    const random = generator(seed);
    const db = t.app.db;
    await expectCountsMatch(db, 'the migration (seed data)');
    // A few rows in every table first, so that updates and deletes have something to work on.
    for (const kept of KEPT_COUNTS) for (let i = 0; i < 4; i += 1) await insertRow(db, kept.table, random, kept.columns);
    const inserted = await Promise.all(KEPT_COUNTS.map(async (kept) => (await idsOf(db, kept.table)).length));
    // Every table took rows: a generator refused everywhere would prove nothing.
    expect(inserted.every((n) => n > 0), `rows per table: ${inserted.join(', ')}`).toBe(true);
    const done: string[] = [];
    for (let step = 0; step < 400; step += 1) {
      done.push(await randomWrite(db, random.pick(KEPT_COUNTS), random));
      if (step % 50 === 49) await expectCountsMatch(db, `seed ${seed}, step ${step}: ${done.slice(-3).join('; ')}`);
    }
    await expectCountsMatch(db, `seed ${seed}, the end`);
    // The run did change counts: enough writes were accepted.
    expect(done.filter((line) => !line.includes('refused')).length, done.slice(0, 20).join('\n')).toBeGreaterThan(200);
    // TRUNCATE empties the counts too, and the rollup beside them.
    await db.execute(sql`truncate ${KEPT_COUNTS.find((kept) => kept.resource === 'candidate')!.table} cascade`);
    await db.execute(sql`truncate ${KEPT_COUNTS.find((kept) => kept.rolledUpBy)!.table} cascade`);
    await expectCountsMatch(db, 'truncate');
  });
});
