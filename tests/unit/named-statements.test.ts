// Issue 27: statements go to PostgreSQL named after their text, a shape's text built once (db/named.ts,
// decisions 047, 048 and 050). The database handle here is a stand-in for drizzle's: its session records
// what would be sent (the text, its parameters, the name, how rows come back, the values bound).
import { count, sql } from 'drizzle-orm';
import { integer, PgDialect, pgTable, QueryBuilder, timestamp } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { readRows, shapedRows } from '../../src/server/db/named';

interface Sent { sql: string; params: unknown[]; name: string | undefined; arrayMode: boolean; values: Record<string, unknown> | undefined }

/** A handle whose session answers `rows` (by position when a reader is given) and keeps what was sent. */
function fakeDb(rows: unknown[][] = [[1]]) {
  const sent: Sent[] = [];
  const session = {
    prepareQuery: (query: { sql: string; params: unknown[] }, _fields: undefined, name: string | undefined, arrayMode: boolean, read?: (arrays: unknown[][]) => unknown[]) => ({
      execute: async (values?: Record<string, unknown>) => {
        sent.push({ sql: query.sql, params: query.params, name, arrayMode, values });
        return read ? read(rows) : { rows: rows.map((values) => ({ name, value: values[0] })) };
      },
    }),
  };
  return { db: { session, dialect: new PgDialect() } as unknown as Db, sent };
}

const nameOf = async (text: string, kind?: 'fixed' | 'list') => (await readRows<{ name: string | undefined }>(fakeDb().db, sql.raw(text), { kind }))[0].name;

describe('statements named after their text', () => {
  it('names one text the same every time and two texts apart', async () => {
    const first = await nameOf('select 1 where "id" = $1');
    expect(first).toMatch(/^s_[A-Za-z0-9_-]{27}$/);
    expect(await nameOf('select 1 where "id" = $1')).toBe(first);
    expect(await nameOf('select 2 where "id" = $1')).not.toBe(first);
  });

  it('sends texts past the bound unnamed, and keeps naming the ones it knows', async () => {
    const known = await nameOf('select "known"', 'list');
    for (let i = 0; i < 600; i++) await nameOf(`select ${i} as "shape"`, 'list');
    expect(await nameOf('select "a list shape nobody foresaw"', 'list')).toBeUndefined();
    expect(await nameOf('select "known"', 'list')).toBe(known);
    // Lists of every shape do not use up the names of the fixed shapes (a record read, a decision).
    expect(await nameOf('select "a record" where "id" = $1')).toMatch(/^s_/);
  });

  it('sends a value as a parameter, and a text unnamed when asked to', async () => {
    const { db, sent } = fakeDb();
    await readRows(db, sql`select ${'Ana'} as value`, { kind: false });
    expect(sent).toEqual([{ sql: 'select $1 as value', params: ['Ana'], name: undefined, arrayMode: false, values: undefined }]);
  });
});

const events = pgTable('events', { id: integer('id').notNull(), at: timestamp('at', { mode: 'date' }) });

describe('rows read by position', () => {
  it('reads a drizzle select into its fields, decoded as drizzle decodes them', async () => {
    const { db, sent } = fakeDb([['12', '2026-01-02 03:04:05', 7], ['0', null, 8]]);
    const select = new QueryBuilder().select({ total: count(), at: events.at, id: events.id }).from(events);
    const rows = await readRows(db, select);
    expect(rows).toEqual([{ total: 12, at: new Date('2026-01-02T03:04:05Z'), id: 7 }, { total: 0, at: null, id: 8 }]);
    expect(sent[0].arrayMode).toBe(true);
  });

  it('hands the arrays to a reader given', async () => {
    const { db } = fakeDb([[1, 'a'], [2, 'b']]);
    expect(await readRows(db, sql`select 1`, { read: (arrays) => arrays.map(([, letter]) => letter) })).toEqual(['a', 'b']);
  });
});

describe('a statement built once per shape', () => {
  const vitest = process.env.VITEST;
  afterEach(() => { process.env.VITEST = vitest; });
  const byId = (builds: { count: number }) => () => {
    builds.count++;
    return sql`select ${'fixed'} as kind from ${events} where ${events.id} = ${sql.placeholder('id')}`;
  };

  it('builds the text once and binds each call\'s values on the caller\'s handle', async () => {
    delete process.env.VITEST;
    const builds = { count: 0 };
    const [one, two] = [fakeDb(), fakeDb()];
    await shapedRows(one.db, 'test|once', byId(builds), { id: 1 });
    await shapedRows(two.db, 'test|once', byId(builds), { id: 2 });
    expect(builds.count).toBe(1);
    expect([...one.sent, ...two.sent].map(({ sql: text, values, name }) => ({ text, values, isNamed: !!name }))).toEqual([
      { text: 'select $1 as kind from "events" where "events"."id" = $2', values: { id: 1 }, isNamed: true },
      { text: 'select $1 as kind from "events" where "events"."id" = $2', values: { id: 2 }, isNamed: true },
    ]);
  });

  it('fails under the tests where a value that varies was built into the shape', async () => {
    const { db } = fakeDb();
    const builds = { count: 0 };
    await shapedRows(db, 'test|checked', byId(builds), { id: 1 });
    // Built again and compared: the same text and the same constants pass.
    await shapedRows(db, 'test|checked', byId(builds), { id: 2 });
    expect(builds.count).toBe(2);
    const withId = (id: number) => () => sql`select 1 from ${events} where ${events.id} = ${id}`;
    await shapedRows(db, 'test|baked', withId(1), {});
    await expect(shapedRows(db, 'test|baked', withId(2), {})).rejects.toThrow('The statement of shape test|baked was built differently');
  });
});
