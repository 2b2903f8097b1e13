// Issue 27: a list's query goes to node-postgres as a statement named after its text (prepared.ts).
import { describe, expect, it } from 'vitest';
import { executePrepared } from '../../src/server/resources/prepared';

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

describe('lists as named prepared statements', () => {
  it('names one text the same every time and two texts apart', async () => {
    const first = await executePrepared(fakeQuery('select 1 where "id" = $1'));
    expect(first).toMatch(/^list_[0-9a-f]{24}$/);
    expect(await executePrepared(fakeQuery('select 1 where "id" = $1'))).toBe(first);
    expect(await executePrepared(fakeQuery('select 2 where "id" = $1'))).not.toBe(first);
  });

  it('sends texts past the bound unnamed, and keeps naming the ones it knows', async () => {
    const known = await executePrepared(fakeQuery('select "known"'));
    for (let i = 0; i < 600; i++) await executePrepared(fakeQuery(`select ${i} as "shape"`));
    expect(await executePrepared(fakeQuery('select "a shape nobody foresaw"'))).toBeUndefined();
    expect(await executePrepared(fakeQuery('select "known"'))).toBe(known);
  });
});
