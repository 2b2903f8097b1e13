// Which migration the code ends at and which one a database has reached (issue 30): readiness says
// whether they match, and a node refuses to start on a database newer than its code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './client';

export interface MigrationMark { count: number; last: number }

/** The committed migrations: how many, and the `when` of the last (drizzle's own mark in the database). */
export function codeMigrations(migrationsFolder: string): MigrationMark {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return { count: journal.entries.length, last: Math.max(0, ...journal.entries.map((entry) => entry.when)) };
}

/** What drizzle recorded as applied; zero before the first migration. */
export async function databaseMigrations(db: Db): Promise<MigrationMark> {
  const exists = await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!(rowsOf(exists)[0] as { present: boolean }).present) return { count: 0, last: 0 };
  const result = await db.execute(sql`SELECT count(*)::int AS count, coalesce(max(created_at), 0)::bigint AS last FROM drizzle.__drizzle_migrations`);
  const row = rowsOf(result)[0] as { count: number; last: string | number };
  return { count: Number(row.count), last: Number(row.last) };
}

/** node-postgres answers `{ rows }`, PGlite's drizzle too; this reads either. */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  return ((result as { rows?: Record<string, unknown>[] }).rows ?? (result as Record<string, unknown>[]));
}

export class DatabaseNewerError extends Error {}

/** One line, for main.ts to print before it exits. */
export function refuseNewerDatabase(code: MigrationMark, database: MigrationMark): void {
  if (database.last > code.last || database.count > code.count) {
    throw new DatabaseNewerError(`The database has migrations this version does not know (${database.count} applied, this code has ${code.count}): start the newer version, or restore a backup taken with this one.`);
  }
}
