// Approvals while away (issue 28, decision 036): a manager hands their decisions to another manager
// for a range of days; the delegate sees and decides the waiting items during the range, each
// decision saying for whom, and nothing after it. Only managers give or receive.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../src/server/db/schema/audit';
import { leaveTypes } from '../../src/server/db/schema/hr';
import { addDays, today } from '../../src/shared/dates';
import { LEAVE_PENDING } from '../../src/shared/resources/leave-application';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let annual: number;
const people: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const make = async (key: string, name: string, values: Record<string, unknown>) => { people[key] = await t.signedIn(key, name, values); };
  await make('mark', 'Mark Manager', { user_type: 'manager' });
  await make('maria', 'Maria Manager', { user_type: 'manager' });
  await make('erin', 'Erin Engineer', { user_type: 'user', parent_id: people.mark.id });
  await make('eddie', 'Eddie Engineer', { user_type: 'user', parent_id: people.maria.id });
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };
  [{ id: annual }] = await t.app.db.select({ id: leaveTypes.id }).from(leaveTypes).where(eq(leaveTypes.name, 'Annual'));
});
afterAll(async () => { await t?.close(); });
afterEach(() => { vi.useRealTimers(); });

const as = (who: string) => ({ token: people[who].token });
const applyForLeave = async (from: string, to: string) => {
  const res = await t.call('POST', '/api/leave-application', { ...as('erin'), body: { leave_type_id: annual, from_date: from, to_date: to, reason: 'Family visit' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as number;
};
const waitingLeave = async (who: string) => {
  const dashboard = await t.call('GET', '/api/dashboard', as(who));
  expect(dashboard.status).toBe(200);
  return (dashboard.body.data.waiting as { key: string; count: number }[]).find((item) => item.key.startsWith('leave-application:'))?.count ?? 0;
};

describe('approvals while away', () => {
  const start = today();
  const end = addDays(today(), 2);

  it('refuses a delegate who is not a manager, a non-manager handing over, and oneself', async () => {
    const toEngineer = await t.call('POST', '/api/delegation', { ...as('mark'), body: { delegate_id: people.eddie.id, starts_on: start, ends_on: end } });
    expect(toEngineer.status).toBe(422);
    expect(toEngineer.body.errors.delegate_id).toEqual(['Choose a manager: only managers can decide for another manager.']);
    const byEngineer = await t.call('POST', '/api/delegation', { ...as('erin'), body: { delegate_id: people.maria.id, starts_on: start, ends_on: end } });
    expect(byEngineer.status).toBe(403);
    expect((await t.call('GET', '/api/delegation/candidates', as('erin'))).status).toBe(403);
    const toSelf = await t.call('POST', '/api/delegation', { ...as('mark'), body: { delegate_id: people.mark.id, starts_on: start, ends_on: end } });
    expect(toSelf.status).toBe(422);
    const backwards = await t.call('POST', '/api/delegation', { ...as('mark'), body: { delegate_id: people.maria.id, starts_on: end, ends_on: start } });
    expect(backwards.body.errors.ends_on).toEqual(['The last day must be on or after the first day.']);
    // A manager hands over only their own; the candidates are the other managers.
    const forMaria = await t.call('POST', '/api/delegation', { ...as('mark'), body: { delegate_id: people.mark.id, manager_id: people.maria.id, starts_on: start, ends_on: end } });
    expect(forMaria.status).toBe(422);
    const candidates = await t.call('GET', '/api/delegation/candidates', as('mark'));
    expect(candidates.body.data.map((c: { id: number }) => c.id)).toContain(people.maria.id);
    expect(candidates.body.data.map((c: { id: number }) => c.id)).not.toContain(people.mark.id);
  });

  it('lets the delegate see and decide during the range, saying on whose behalf, and not after it', async () => {
    const first = await applyForLeave('2030-03-04', '2030-03-05');
    const second = await applyForLeave('2030-04-01', '2030-04-02');
    // Before: Maria neither sees nor may decide Erin's leave.
    expect((await t.call('GET', `/api/leave-application/${first}`, as('maria'))).status).toBe(404);
    expect(await waitingLeave('maria')).toBe(0);

    const given = await t.call('POST', '/api/delegation', { ...as('mark'), body: { delegate_id: people.maria.id, starts_on: start, ends_on: end, note: 'On leave' } });
    expect(given.status).toBe(201);
    expect(given.body.data).toMatchObject({ manager: { id: people.mark.id }, delegate: { id: people.maria.id }, is_in_force: true });
    expect(given.body.data.sentence).toMatch(/^Maria Manager decides your approvals until \d+ \w+ \d{4}\.$/);
    const received = await t.call('GET', '/api/delegation', as('maria'));
    expect(received.body.data.received[0].sentence).toMatch(/^You decide Mark Manager's approvals until/);
    expect(received.body.data.can_delegate).toBe(true);

    // During the range: in Maria's list, her dashboard's figure and her row's decisions.
    const list = await t.call('GET', `/api/leave-application?status=${encodeURIComponent(LEAVE_PENDING)}`, as('maria'));
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((row: { id: number }) => row.id)).toEqual(expect.arrayContaining([first, second]));
    const row = list.body.data.find((r: { id: number }) => r.id === first);
    expect(row.available_transitions.map((a: { name: string }) => a.name)).toContain('reject');
    expect(await waitingLeave('maria')).toBe(2);

    const approved = await t.call('POST', `/api/leave-application/${first}/transitions/approve-back-fill-not-required`, { ...as('maria'), body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.message).toBe('You, on behalf of Mark Manager, approved the leave; no back fill is needed.');
    const history = await t.call('GET', `/api/leave-application/${first}/history`, as('erin'));
    const decision = history.body.data.at(-1);
    expect(decision).toMatchObject({ actor: { id: people.maria.id, name: 'Maria Manager' }, on_behalf_of: { id: people.mark.id, name: 'Mark Manager' } });
    const [trail] = await t.app.db.select().from(auditLog).where(eq(auditLog.transition, 'approve-back-fill-not-required'));
    expect(trail).toMatchObject({ actor_name: 'Maria Manager', on_behalf_of_name: 'Mark Manager', record_id: first });
    const audit = await t.call('GET', `/api/audit-log?resource=leave-application&record_id=${first}`, as('admin'));
    expect(audit.body.data.find((e: { transition: string | null }) => e.transition === 'approve-back-fill-not-required').summary)
      .toMatch(/^Maria Manager, on behalf of Mark Manager, changed/);

    // The day after the range: it ended by itself.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Date.now() + 4 * 86_400_000));
    const after = await t.call('POST', `/api/leave-application/${second}/transitions/reject`, { ...as('maria'), body: { comment: 'No' } });
    expect(after.status).toBe(404);
    expect(await waitingLeave('maria')).toBe(0);
    expect((await t.call('GET', '/api/delegation', as('maria'))).body.data.received).toEqual([]);
    // Mark decides his own again.
    expect((await t.call('POST', `/api/leave-application/${second}/transitions/reject`, { ...as('mark'), body: { comment: 'No' } })).status).toBe(200);
  });

  it('ends when the manager takes it back; the delegate cannot end it', async () => {
    // The one of the test before is still in force today: taken back first.
    for (const earlier of (await t.call('GET', '/api/delegation', as('mark'))).body.data.given) {
      expect((await t.call('DELETE', `/api/delegation/${earlier.id}`, as('mark'))).status).toBe(200);
    }
    const given = await t.call('POST', '/api/delegation', { ...as('mark'), body: { delegate_id: people.maria.id, starts_on: start, ends_on: end } });
    const id = given.body.data.id;
    const pending = await applyForLeave('2030-05-06', '2030-05-07');
    expect((await t.call('GET', `/api/leave-application/${pending}`, as('maria'))).status).toBe(200);
    expect((await t.call('DELETE', `/api/delegation/${id}`, as('maria'))).status).toBe(403);
    const back = await t.call('DELETE', `/api/delegation/${id}`, as('mark'));
    expect(back.body.message).toBe('You decide your approvals again.');
    expect((await t.call('GET', `/api/leave-application/${pending}`, as('maria'))).status).toBe(404);
    expect((await t.call('POST', `/api/leave-application/${pending}/transitions/reject`, { ...as('maria'), body: { comment: 'No' } })).status).toBe(404);
  });
});
