// Random rows for the kept-count property tests (tests/api/kept-counts.test.ts, kept-invoice-totals.test.ts):
// a seeded generator, and inserts that fill every required column (references to existing rows) so that
// random writes mostly pass the constraints.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../src/server/db/client';

/** A small seeded generator (mulberry32): a failing run prints its seed and can be replayed with KEPT_COUNTS_SEED. */
export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)] };
}
export type Random = ReturnType<typeof generator>;

export const rowsOf = async <T,>(db: Db, query: ReturnType<typeof sql>) => (await db.execute(query) as unknown as { rows: T[] }).rows;

/** The ids a table holds now (a reference picks one of them). */
export async function idsOf(db: Db, table: PgTable): Promise<number[]> {
  return (await rowsOf<{ id: number }>(db, sql`select id from ${table} order by id desc limit 200`)).map((row) => Number(row.id));
}

export const columnsOf = (table: PgTable) => getTableConfig(table).columns as PgColumn[];
export const referenceOf = (table: PgTable, column: PgColumn): PgTable | undefined =>
  getTableConfig(table).foreignKeys.map((fk) => fk.reference()).find((ref) => ref.columns.some((c) => c.name === column.name))?.foreignTable;

/** Values a counted column takes: its enum, else the values seen in the table plus a few of the app's states. */
export async function valuesFor(db: Db, table: PgTable, column: PgColumn, random: Random): Promise<unknown> {
  const ref = referenceOf(table, column);
  if (ref) {
    if (!column.notNull && random.int(4) === 0) return null;
    const ids = await idsOf(db, ref);
    return ids.length ? random.pick(ids) : null;
  }
  if (column.enumValues?.length) return random.pick(column.enumValues);
  const seen = (await rowsOf<{ value: string }>(db, sql`select distinct ${sql.identifier(column.name)} as value from ${table} limit 20`)).map((row) => row.value);
  return random.pick([...seen, 'pending', 'approved', 'rejected', 'Requested', 'Screening', 'open']);
}

/** A value for a required column nobody counts, by its type. */
export async function filler(db: Db, table: PgTable, column: PgColumn, random: Random): Promise<unknown> {
  const ref = referenceOf(table, column);
  if (ref) {
    let ids = await idsOf(db, ref);
    if (!ids.length) { await insertRow(db, ref, random); ids = await idsOf(db, ref); }
    return random.pick(ids);
  }
  if (column.enumValues?.length) return random.pick(column.enumValues);
  const day = `2026-${String(1 + random.int(12)).padStart(2, '0')}-${String(1 + random.int(28)).padStart(2, '0')}`;
  switch (column.columnType) {
    case 'PgInteger': case 'PgSmallInt': case 'PgBigInt53': return 1 + random.int(5);
    case 'PgNumeric': return String(1 + random.int(500));
    case 'PgNumericNumber': case 'PgReal': case 'PgDoublePrecision': return 1 + random.int(500);
    case 'PgBoolean': return random.int(2) === 0;
    case 'PgDateString': return day;
    case 'PgDate': return new Date(`${day}T00:00:00Z`);
    case 'PgTimestamp': return new Date();
    case 'PgTimestampString': return new Date().toISOString();
    case 'PgJsonb': case 'PgJson': return [];
    case 'PgUUID': return randomUUID();
    default: {
      // Text: unique where it must be (an email, an invoice number), within the column's length.
      const text = column.name.includes('email') ? `${randomUUID().slice(0, 8)}@kept.test` : `k${randomUUID().slice(0, 8)}`;
      const length = (column as unknown as { length?: number }).length;
      return length ? text.slice(0, length) : text;
    }
  }
}

/** Inserts one row with every required column filled (counted ones at random); false when a constraint refused it. */
export async function insertRow(db: Db, table: PgTable, random: Random, counted: readonly string[] = []): Promise<boolean> {
  const values: Record<string, unknown> = {};
  for (const column of columnsOf(table)) {
    const key = Object.entries(table).find(([, c]) => c === column)?.[0] ?? column.name;
    if (counted.includes(column.name)) values[key] = await valuesFor(db, table, column, random);
    else if (column.notNull && !column.hasDefault && !column.primary) values[key] = await filler(db, table, column, random);
    if (values[key] === null && column.notNull) delete values[key];
  }
  try {
    await db.insert(table).values(values as never);
    return true;
  } catch {
    return false;
  }
}
