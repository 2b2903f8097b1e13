// The tests' embedded databases are handed from one suite to the next (tests/helpers/pglite-pool.ts,
// decision 039): what a suite wrote, and the ids it used, must not reach the next one.
// The embedded database only: the pool of embedded test databases itself.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app';

const count = async (db: Awaited<ReturnType<typeof createTestApp>>['app']['db'], table: string) =>
  Number(((await db.execute(sql.raw(`SELECT count(*) AS n FROM ${table}`))) as unknown as { rows: { n: string }[] }).rows[0].n);

describe('a database handed on', { timeout: 180_000 }, () => {
  it('comes back as the snapshot left it: rows and ids', async () => {
    const first = await createTestApp();
    const seeded = { users: await count(first.app.db, 'users'), roles: await count(first.app.db, 'roles') };
    const user = await first.createUser({ email: 'one@example.com', user_type: 'user' });
    await first.app.db.execute(sql`INSERT INTO roles (name) VALUES ('scratch role')`);
    await first.close();

    const second = await createTestApp();
    expect({ users: await count(second.app.db, 'users'), roles: await count(second.app.db, 'roles') }).toEqual(seeded);
    // The same id again: the sequences went back too.
    expect((await second.createUser({ email: 'two@example.com', user_type: 'user' })).id).toBe(user.id);
    await second.close();
  });

  it('is not handed on once a suite changed the schema', async () => {
    const first = await createTestApp();
    await first.app.db.execute(sql`CREATE TABLE scratch (id int)`);
    await first.close();
    const second = await createTestApp();
    expect(((await second.app.db.execute(sql`SELECT to_regclass('public.scratch') AS t`)) as unknown as { rows: { t: string | null }[] }).rows[0].t).toBeNull();
    await second.close();
  });
});
