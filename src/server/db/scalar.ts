// One value read by a scalar subquery (a count, the `json_agg` of a few rows): alone, or by a statement
// that reads several such values at once (the dashboard's figures, modules/dashboard/kept-counts.ts), so
// that a reader asks the same SQL either way and the caller decides how it travels (issue 27).
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client';
import { readRows } from './named';

/** Reads the value of a scalar subquery `(select …)`. */
export type AskValue = (select: SQL) => Promise<unknown>;

/** A scalar subquery read by a statement of its own (named: its text is the same every time). */
export const askAlone = (db: Db): AskValue => async (select) =>
  (await readRows<{ value: unknown }>(db, sql`select ${select} as value`))[0]?.value;

/** The rows of a `json_agg` so read (PostgreSQL's driver hands its text, PGlite's the parsed value). */
export const jsonRows = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : value ?? []) as T[];
