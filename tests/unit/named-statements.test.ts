// Issue 27: a list's or a record's query goes to node-postgres as a statement named after its text (db/named.ts).
import { describe, expect, it } from 'vitest';
import { selectNamed } from '../../src/server/db/named';

/** What drizzle's node-postgres prepared query holds: the text and the configs it sends. */
function fakeQuery(text: string) {
  const prepared = {
    queryConfig: { name: undefined as string | undefined },
    rawQueryConfig: { name: undefined as string | undefined },
    getQuery: () => ({ sql: text }),
    execute: async () => prepared.queryConfig.name,
  };
  return { prepare: (name: string) => { expect(name).toBe(''); return prepared; } };
}

describe('statements named after their text', () => {
  it('names one text the same every time and two texts apart', async () => {
    const first = await selectNamed(fakeQuery('select 1 where "id" = $1'));
    expect(first).toMatch(/^s_[A-Za-z0-9_-]{27}$/);
    expect(await selectNamed(fakeQuery('select 1 where "id" = $1'))).toBe(first);
    expect(await selectNamed(fakeQuery('select 2 where "id" = $1'))).not.toBe(first);
  });

  it('sends texts past the bound unnamed, and keeps naming the ones it knows', async () => {
    const known = await selectNamed(fakeQuery('select "known"'), 'list');
    for (let i = 0; i < 600; i++) await selectNamed(fakeQuery(`select ${i} as "shape"`), 'list');
    expect(await selectNamed(fakeQuery('select "a list shape nobody foresaw"'), 'list')).toBeUndefined();
    expect(await selectNamed(fakeQuery('select "known"'), 'list')).toBe(known);
    // Lists of every shape do not use up the names of the fixed shapes (a record read, a decision).
    expect(await selectNamed(fakeQuery('select "a record" where "id" = $1'))).toMatch(/^s_/);
  });
});
