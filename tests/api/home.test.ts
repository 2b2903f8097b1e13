// The engineer's home (issue 28): GET /api/dashboard/mine answers only the caller's own records,
// each with what it waits for in words written for them, and their leave balances and documents.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveTypes } from '../../src/server/db/schema/hr';
import { homeResponse } from '../../src/shared/schemas/home';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
const people: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const make = async (key: string, name: string, values: Record<string, unknown>) => { people[key] = await t.signedIn(key, name, values); };
  await make('mark', 'Mark Manager', { user_type: 'manager' });
  await make('erin', 'Erin Engineer', { user_type: 'user', parent_id: people.mark.id });
  await make('ella', 'Ella Engineer', { user_type: 'user', parent_id: people.mark.id });
});
afterAll(async () => { await t?.close(); });

describe('the engineer\'s home', () => {
  it('shows their own leave with what it waits for, their balances, and nobody else\'s records', async () => {
    const [{ id: annual }] = await t.app.db.select({ id: leaveTypes.id }).from(leaveTypes).where(eq(leaveTypes.name, 'Annual'));
    const applied = await t.call('POST', '/api/leave-application', { token: people.erin.token, body: { leave_type_id: annual, from_date: '2030-03-04', to_date: '2030-03-05', reason: 'Family visit' } });
    expect(applied.status).toBe(201);
    await t.call('POST', '/api/leave-application', { token: people.ella.token, body: { leave_type_id: annual, from_date: '2030-03-04', to_date: '2030-03-05', reason: 'Hers' } });

    const home = await t.call('GET', '/api/dashboard/mine', { token: people.erin.token });
    expect(home.status).toBe(200);
    expect(homeResponse.safeParse(home.body).success).toBe(true);
    const { items, leave_balances: balances, documents } = home.body.data;
    expect(items).toEqual([expect.objectContaining({
      resource: 'leave-application', id: applied.body.data.id, title: 'Leave on 4–5 March 2030', waits_for: 'Waits for your manager',
    })]);
    expect(balances.items.find((b: { name: string }) => b.name === 'Annual')).toMatchObject({ used: 0 });
    expect(documents).toEqual({ to_read: 0, to_return_again: 0 });

    // The manager's home holds their own records only, not their reports'.
    const managers = await t.call('GET', '/api/dashboard/mine', { token: people.mark.token });
    expect(managers.body.data.items).toEqual([]);
  });

  it('shows another engineer only her own leave, and answers nobody signed out', async () => {
    const home = await t.call('GET', '/api/dashboard/mine', { token: people.ella.token });
    expect(home.body.data.items.map((i: { waits_for: string }) => i.waits_for)).toEqual(['Waits for your manager']);
    expect((await t.call('GET', '/api/dashboard/mine')).status).toBe(401);
  });
});
