// Approvals while away (issue 28, decisions 036 and 041): a manager hands their decisions to another manager
// for a range of days; the delegate sees and decides the waiting items during the range, each
// decision saying for whom, and nothing after it. Only managers give or receive.
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { permissions, roleHasPermissions, roles, users } from '../../src/server/db/schema/accounts';
import { auditLog } from '../../src/server/db/schema/audit';
import { notifications } from '../../src/server/db/schema/notifications';
import { DELEGATE_PERMISSION, defaultRolePermissions } from '../../src/shared/permissions';
import { leaveTypes } from '../../src/server/db/schema/hr';
import { addDays, today } from '../../src/shared/dates';
import { LEAVE_PENDING } from '../../src/shared/resources/leave-application';
import { sendDueReminders } from '../../src/server/jobs/reminders';
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

/** The newest notification of `who` about the hand-over `id` (its link names it). */
const newsOf = async (who: string, id: number) => {
  const [row] = await t.app.db.select().from(notifications)
    .where(and(eq(notifications.notifiable_id, people[who].id), eq(notifications.kind, 'delegation'))).orderBy(desc(notifications.created_at));
  expect(row?.data.url, `${who}'s news`).toBe(`/delegation#hand-over-${id}`);
  return row;
};
const clearHandOvers = async (who: string) => {
  for (const earlier of (await t.call('GET', '/api/delegation', as(who))).body.data.given) {
    expect((await t.call('DELETE', `/api/delegation/${earlier.id}`, as(who))).status).toBe(200);
  }
};

describe('the delegate is told', () => {
  it('tells the delegate when a manager hands their approvals over, and again when they take them back', async () => {
    await clearHandOvers('mark');
    const first = addDays(today(), 10);
    const last = addDays(today(), 12);
    const given = await t.call('POST', '/api/delegation', { ...as('mark'), body: { delegate_id: people.maria.id, starts_on: first, ends_on: last, note: 'Visiting the client in Pune' } });
    expect(given.status, JSON.stringify(given.body)).toBe(201);
    const id = given.body.data.id as number;
    const news = await newsOf('maria', id);
    expect(news.data.title).toBe('Approvals handed to you');
    expect(news.data.message).toMatch(/^Mark Manager has handed their approvals to you on \d.+\d{4}: you decide the leave, expense claims and time sheets of their team on those days\. Their note: “Visiting the client in Pune”\.$/);
    expect(news.type).toBe('App\\Notifications\\DelegationGiven');
    // Mark did it himself: he is not told of it.
    expect(await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_id, people.mark.id), eq(notifications.kind, 'delegation')))).toEqual([]);

    expect((await t.call('DELETE', `/api/delegation/${id}`, as('mark'))).status).toBe(200);
    const back = await newsOf('maria', id);
    expect(back.data.title).toBe('Approvals taken back');
    // Not started yet: the days it would have covered are named.
    expect(back.data.message).toMatch(/^Mark Manager has taken their approvals back: you will not decide them on \d.+\d{4}\.$/);
  });

  it('tells both managers when an admin hands one\'s approvals to the other, and lists it for the admin to withdraw', async () => {
    const given = await t.call('POST', '/api/delegation', { ...as('admin'), body: { manager_id: people.mark.id, delegate_id: people.maria.id, starts_on: today(), ends_on: addDays(today(), 1) } });
    expect(given.status, JSON.stringify(given.body)).toBe(201);
    const id = given.body.data.id as number;
    expect((await newsOf('maria', id)).data.message).toMatch(/^Administrator has handed Mark Manager's approvals to you on /);
    const marks = await newsOf('mark', id);
    expect(marks.data.title).toBe('Your approvals are handed over');
    expect(marks.data.message).toMatch(/^Administrator has handed your approvals to Maria Manager on .+: they decide your team's leave, expense claims and time sheets on those days\.$/);
    // The admin is on neither side: it is among the others on the admin's list.
    const list = await t.call('GET', '/api/delegation', as('admin'));
    expect(list.body.data.others.map((d: { id: number }) => d.id)).toContain(id);
    expect(list.body.data.others.find((d: { id: number }) => d.id === id).sentence).toMatch(/^Maria Manager decides Mark Manager's approvals until /);
    // A manager does not see others' hand-overs.
    expect((await t.call('GET', '/api/delegation', as('maria'))).body.data.others).toEqual([]);

    expect((await t.call('DELETE', `/api/delegation/${id}`, as('admin'))).status).toBe(200);
    expect((await newsOf('maria', id)).data.message).toBe('Administrator has taken Mark Manager\'s approvals back from you: you no longer decide them.');
    expect((await newsOf('mark', id)).data.message).toBe('Administrator has taken your approvals back from Maria Manager: you decide them again.');
  });
});

describe('the permission to hand approvals over', () => {
  const permissionId = async () => (await t.app.db.select({ id: permissions.id }).from(permissions).where(eq(permissions.name, DELEGATE_PERMISSION)))[0].id;
  const roleId = async (name: string) => (await t.app.db.select({ id: roles.id }).from(roles).where(eq(roles.name, name)))[0].id;

  it('is held by the manager and admin roles by default, not by the others', async () => {
    expect(defaultRolePermissions.manager).toContain(DELEGATE_PERMISSION);
    expect(defaultRolePermissions.admin).toContain(DELEGATE_PERMISSION);
    for (const name of ['user', 'finance', 'recruiter', 'account manager'] as const) expect(defaultRolePermissions[name]).not.toContain(DELEGATE_PERMISSION);
    const held = await t.app.db.select({ role: roles.name }).from(roleHasPermissions).innerJoin(roles, eq(roles.id, roleHasPermissions.role_id))
      .where(eq(roleHasPermissions.permission_id, await permissionId()));
    expect(held.map((row) => row.role).sort()).toEqual(['admin', 'manager']);
  });

  it('refuses every delegation route once an admin takes it from the manager role, and lets them through again when it is given back', async () => {
    await clearHandOvers('mark');
    const managerRole = await roleId('manager');
    const role = await t.call('GET', `/api/role/${managerRole}`, as('admin'));
    const held = role.body.data.permission_ids as number[];
    const delegateId = await permissionId();
    expect(held).toContain(delegateId);
    const taken = await t.call('PUT', `/api/role/${managerRole}`, { ...as('admin'), body: { name: 'manager', permission_ids: held.filter((pid) => pid !== delegateId) } });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);

    // At once, on the sessions already open.
    const body = { delegate_id: people.maria.id, starts_on: today(), ends_on: today() };
    for (const [method, url] of [['GET', '/api/delegation'], ['GET', '/api/delegation/candidates'], ['POST', '/api/delegation'], ['DELETE', '/api/delegation/1']] as const) {
      const refused = await t.call(method, url, { ...as('mark'), body });
      expect(refused.status, `${method} ${url}`).toBe(403);
    }
    // The admin still holds it through the admin role.
    expect((await t.call('GET', '/api/delegation/candidates', as('admin'))).status).toBe(200);

    const restored = await t.call('PUT', `/api/role/${managerRole}`, { ...as('admin'), body: { name: 'manager', permission_ids: held } });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    const again = await t.call('POST', '/api/delegation', { ...as('mark'), body });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it('offers no candidates to a holder who is neither a manager nor an admin, and refuses their hand-over', async () => {
    // A role an admin made with the permission, held by an engineer: the service's rule still stands.
    const [role] = await t.app.db.insert(roles).values({ name: 'delegating engineers' }).returning({ id: roles.id });
    await t.app.db.insert(roleHasPermissions).values({ role_id: role.id, permission_id: await permissionId() });
    const ed = await t.createUser({ email: 'ed@example.com', name: 'Ed Engineer', user_type: 'user' }, ['user', 'delegating engineers']);
    const token = await ed.token();
    const candidates = await t.call('GET', '/api/delegation/candidates', { token });
    expect(candidates.status).toBe(200);
    expect(candidates.body.data).toEqual([]);
    const list = await t.call('GET', '/api/delegation', { token });
    expect(list.body.data.can_delegate).toBe(false);
    const refused = await t.call('POST', '/api/delegation', { token, body: { delegate_id: people.maria.id, starts_on: today(), ends_on: today() } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only a manager can hand their approvals to someone else.');
  });
});

/** Takes every hand-over back, whoever gave it (the admin's list shows them all). */
const clearAll = async () => {
  const list = (await t.call('GET', '/api/delegation', as('admin'))).body.data;
  for (const d of [...list.given, ...list.received, ...list.others]) expect((await t.call('DELETE', `/api/delegation/${d.id}`, as('admin'))).status).toBe(200);
};
const handOver = (days: [string, string], who = 'mark', to = 'maria') =>
  t.call('POST', '/api/delegation', { ...as(who), body: { delegate_id: people[to].id, starts_on: days[0], ends_on: days[1] } });
/** The notifications of `who` whose link opens the leave application `id`. */
const newsAbout = async (who: string, id: number) => t.app.db.select().from(notifications)
  .where(and(eq(notifications.notifiable_id, people[who].id), eq(notifications.notifiable_type, 'app'), sql`${notifications.data}->>'url' like ${`%/leave-application/${id}%`}`))
  .orderBy(desc(notifications.created_at));

describe('the delegate hears of new waiting items', () => {
  it('tells the delegate in force of a new leave application and of its withdrawal, in words for them, as they chose to hear', async () => {
    await clearAll();
    expect((await handOver([today(), addDays(today(), 3)])).status).toBe(201);
    const id = await applyForLeave('2030-06-03', '2030-06-05');
    const [marks] = await newsAbout('mark', id);
    const [marias] = await newsAbout('maria', id);
    expect(marks.data.title).toBe('A leave application waits for you');
    expect(marias.data.title).toBe(marks.data.title);
    expect(marias.data.message).toBe(`${marks.data.message} You are standing in for Mark Manager, who is away.`);
    expect(marias.kind).toBe('leave-application');
    // The applicant's withdrawal (a decision's one statement) reaches her too.
    expect((await t.call('POST', `/api/leave-application/${id}/transitions/withdraw`, { ...as('erin'), body: {} })).status).toBe(200);
    const withdrawn = (await newsAbout('maria', id)).find((n) => n.data.title === 'A leave application was withdrawn');
    expect(withdrawn?.data.message).toMatch(/^Erin Engineer withdrew their annual leave .*: there is nothing to decide\. You are standing in for Mark Manager, who is away\.$/);

    // Her own choice for leave applications stands: nothing in the app, nothing by mail.
    expect((await t.call('PUT', '/api/notification/preferences', { ...as('maria'), body: { channels: { 'leave-application': 'none' }, is_digest: false } })).status).toBe(200);
    const quiet = await applyForLeave('2030-07-01', '2030-07-02');
    expect(await newsAbout('mark', quiet)).toHaveLength(1);
    expect(await newsAbout('maria', quiet)).toEqual([]);
    expect((await t.call('PUT', '/api/notification/preferences', { ...as('maria'), body: { channels: {}, is_digest: false } })).status).toBe(200);
  });

  it('reminds the delegate in force, beside the manager, of undecided leave starting soon', async () => {
    await clearAll();
    expect((await handOver([today(), addDays(today(), 3)])).status).toBe(201);
    // Leave needs a working day: tomorrow unless that is a weekend (today may be a Friday).
    let day = addDays(today(), 1);
    while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) day = addDays(day, 1);
    const id = await applyForLeave(day, day);
    const runs = await sendDueReminders(t.app);
    expect(runs.find((run) => run.reminder === 'leave-starts-soon')?.sent).toBeGreaterThanOrEqual(1);
    const reminded = async (who: string) => (await newsAbout(who, id)).filter((n) => n.data.title === 'Leave starting soon is undecided');
    expect(await reminded('mark')).toHaveLength(1);
    expect(await reminded('maria')).toHaveLength(1);
  });

  it('tells nobody but the manager once the hand-over is withdrawn, or before it starts', async () => {
    await clearAll();
    expect((await handOver([addDays(today(), 5), addDays(today(), 6)])).status).toBe(201);
    const id = await applyForLeave('2030-08-05', '2030-08-06');
    expect(await newsAbout('mark', id)).toHaveLength(1);
    expect(await newsAbout('maria', id)).toEqual([]);
  });
});

describe('one hand-over at a time', () => {
  it('refuses days that overlap a hand-over not withdrawn, on the first day, and accepts them once it is withdrawn', async () => {
    await clearAll();
    const first = await handOver([addDays(today(), 1), addDays(today(), 4)]);
    expect(first.status).toBe(201);
    const overlapping = await handOver([addDays(today(), 4), addDays(today(), 8)]);
    expect(overlapping.status).toBe(422);
    expect(overlapping.body.errors.starts_on[0]).toMatch(/^You have already handed over your approvals to Maria Manager from \d+ \w+ \d{4} to \d+ \w+ \d{4}\. Choose other days, or withdraw that hand-over first\.$/);
    // An admin doing it for Mark reads it about Mark.
    const byAdmin = await t.call('POST', '/api/delegation', { ...as('admin'), body: { manager_id: people.mark.id, delegate_id: people.maria.id, starts_on: today(), ends_on: addDays(today(), 1) } });
    expect(byAdmin.body.errors.starts_on[0]).toMatch(/^Mark Manager has already handed over their approvals to Maria Manager from /);
    // The next day on is free; another manager's own hand-over is not in the way.
    expect((await handOver([addDays(today(), 5), addDays(today(), 6)])).status).toBe(201);
    expect((await handOver([addDays(today(), 1), addDays(today(), 4)], 'maria', 'mark')).status).toBe(201);
    expect((await t.call('DELETE', `/api/delegation/${first.body.data.id}`, as('mark'))).status).toBe(200);
    expect((await handOver([addDays(today(), 2), addDays(today(), 3)])).status).toBe(201);
  });

  it('lets exactly one of two overlapping hand-overs made at once through', async () => {
    await clearAll();
    const answers = await Promise.all([handOver([today(), addDays(today(), 2)]), handOver([addDays(today(), 1), addDays(today(), 3)])]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect((await t.call('GET', '/api/delegation', as('mark'))).body.data.given).toHaveLength(1);
  });
});

describe('a hand-over whose parties no longer allow it', () => {
  const managerRole = async () => (await t.app.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'manager')))[0].id;
  const permissionId = async () => (await t.app.db.select({ id: permissions.id }).from(permissions).where(eq(permissions.name, DELEGATE_PERMISSION)))[0].id;
  const seesLeave = async (id: number) => (await t.call('GET', `/api/leave-application/${id}`, as('maria'))).status;
  const received = async () => (await t.call('GET', '/api/delegation', as('maria'))).body.data.received[0];
  const asAdminSees = async () => (await t.call('GET', '/api/delegation', as('admin'))).body.data.others[0];

  it('stops at once when the manager loses the permission, says so, and counts again when it is given back', async () => {
    await clearAll();
    expect((await handOver([today(), addDays(today(), 2)])).status).toBe(201);
    const id = await applyForLeave('2030-09-02', '2030-09-03');
    expect(await seesLeave(id)).toBe(200);
    expect((await received()).no_effect).toBeNull();
    const role = await managerRole();
    const held = (await t.call('GET', `/api/role/${role}`, as('admin'))).body.data.permission_ids as number[];
    const delegateId = await permissionId();
    const taken = await t.call('PUT', `/api/role/${role}`, { ...as('admin'), body: { name: 'manager', permission_ids: held.filter((pid) => pid !== delegateId) } });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    try {
      expect(await seesLeave(id)).toBe(404);
      expect((await t.call('POST', `/api/leave-application/${id}/transitions/reject`, { ...as('maria'), body: { comment: 'No' } })).status).toBe(404);
      expect(await waitingLeave('maria')).toBe(0);
      // Maria, a manager too, no longer opens the screen: the admin reads why.
      expect((await asAdminSees()).no_effect).toBe('It has no effect: Mark Manager may no longer hand approvals over, so Maria Manager does not decide for them.');
      // Nor is she told of what comes in meanwhile.
      const later = await applyForLeave('2030-09-09', '2030-09-10');
      expect(await newsAbout('maria', later)).toEqual([]);
    } finally {
      expect((await t.call('PUT', `/api/role/${role}`, { ...as('admin'), body: { name: 'manager', permission_ids: held } })).status).toBe(200);
    }
    expect(await seesLeave(id)).toBe(200);
  });

  it('stops while the manager or the delegate is inactive', async () => {
    await clearAll();
    expect((await handOver([today(), addDays(today(), 2)])).status).toBe(201);
    const id = await applyForLeave('2030-10-07', '2030-10-08');
    expect(await seesLeave(id)).toBe(200);
    await t.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, people.mark.id));
    try {
      expect(await seesLeave(id)).toBe(404);
      expect((await received()).no_effect).toBe('It has no effect: Mark Manager\'s account is inactive.');
    } finally {
      await t.app.db.update(users).set({ status: 'active' }).where(eq(users.id, people.mark.id));
    }
    await t.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, people.maria.id));
    try {
      // Read as the admin and the manager: her sessions would end with her account.
      const list = (await t.call('GET', '/api/delegation', as('mark'))).body.data.given[0];
      expect(list.no_effect).toBe('It has no effect: Maria Manager\'s account is inactive, so you decide your approvals yourself.');
      const fresh = await applyForLeave('2030-10-14', '2030-10-15');
      expect(await newsAbout('maria', fresh)).toEqual([]);
    } finally {
      await t.app.db.update(users).set({ status: 'active' }).where(eq(users.id, people.maria.id));
    }
    expect(await seesLeave(id)).toBe(200);
  });
});
