// Onboarding (issue 13): checklists copied from the templates admins maintain, ticking tasks (the
// assignee or a manager), the resource-status workflow of spec §4, the spec §5 timing of each task
// with a controlled clock, the daily overdue reminders and their escalation, and the candidate hook.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { candidates } from '../../src/server/db/schema/recruitment';
import { onboardings, onboardingTasks } from '../../src/server/db/schema/onboarding';
import { inTransaction } from '../../src/server/lib/transaction';
import {
  createOnboardingForCandidate, overdueOnboardingTasks, sendOverdueTaskReminders,
} from '../../src/server/modules/onboarding/service';
import { addDays, today } from '../../src/shared/dates';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
const people: Record<string, { id: number; token: string }> = {};
const day = today();

const as = (who: string) => ({ token: people[who].token });
const noticesOf = async (who: string) =>
  (await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people[who].id))))
    .map((n) => ({ ...n.data, type: n.type }));
const tasksOf = async (onboardingId: number, who = 'admin') =>
  (await t.call('GET', `/api/onboarding-task?onboarding_id=${onboardingId}&per_page=100`, as(who))).body.data as Record<string, any>[];
const tick = (who: string, id: number, transition: 'complete' | 'reopen') =>
  t.call('POST', `/api/onboarding-task/${id}/transitions/${transition}`, { ...as(who), body: {} });
const move = (who: string, id: number, transition: string, comment?: string) =>
  t.call('POST', `/api/onboarding/${id}/transitions/${transition}`, { ...as(who), body: comment ? { comment } : {} });

async function open(who: string, body: Record<string, unknown>) {
  const res = await t.call('POST', '/api/onboarding', { ...as(who), body: { person_name: 'Asha Rao', start_date: day, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

beforeAll(async () => {
  t = await createTestApp();
  const make = async (key: string, values: Record<string, unknown>, roles?: string[]) => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('managerA', { user_type: 'manager' });
  await make('managerB', { user_type: 'manager' });
  await make('it', { user_type: 'user', parent_id: people.managerB.id });
  await make('hr', { user_type: 'user', parent_id: people.managerB.id });
  await make('outsider', { user_type: 'user' });
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };

  // The admin's checklists: an inactive task is never copied.
  const template = (body: Record<string, unknown>) => t.call('POST', '/api/onboarding-template', { ...as('admin'), body: { status: 'active', ...body } });
  for (const body of [
    { phase: 'onboarding', title: 'Create the email account', due_after_days: 0, assignee_id: people.it.id, sort_order: 1 },
    { phase: 'onboarding', title: 'Issue the laptop', due_after_days: 2, assignee_id: people.it.id, sort_order: 2 },
    { phase: 'onboarding', title: 'Client induction', due_after_days: 5, sort_order: 3 },
    { phase: 'onboarding', title: 'Retired step', due_after_days: 1, status: 'inactive', sort_order: 4 },
    { phase: 'offboarding', title: 'Collect the laptop', due_after_days: 3, assignee_id: people.it.id },
    { phase: 'offboarding', title: 'Exit interview', due_after_days: 1, assignee_id: people.hr.id },
  ]) expect((await template(body)).status).toBe(201);
});
afterAll(async () => { await t?.close(); });
afterEach(() => { vi.useRealTimers(); });

describe('checklist templates', () => {
  it('are maintained by admins; a manager reads them but may not change them', async () => {
    expect((await t.call('GET', '/api/onboarding-template?phase=offboarding', as('managerA'))).body.meta.total).toBe(2);
    const refused = await t.call('POST', '/api/onboarding-template', { ...as('managerA'), body: { phase: 'onboarding', title: 'X', due_after_days: 1, status: 'active' } });
    expect(refused.status).toBe(403);
    const invalid = await t.call('POST', '/api/onboarding-template', { ...as('admin'), body: { phase: 'sometime', title: '', due_after_days: -1, status: 'active' } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['due_after_days', 'phase', 'title']);
  });
});

describe('an onboarding', () => {
  it('starts in progress with the active onboarding templates as its checklist, due from the start date', async () => {
    const record = await open('managerA', { start_date: '2026-03-02' });
    expect(record).toMatchObject({ status: 'Onboarding is in progress', manager_id: people.managerA.id, open_tasks: 3, manager: { id: people.managerA.id, name: 'managerA' } });
    const tasks = await tasksOf(record.id);
    expect(tasks.map((task) => [task.title, task.due_date, task.assignee_id, task.status, task.phase])).toEqual([
      ['Create the email account', '2026-03-02', people.it.id, 'pending', 'onboarding'],
      ['Issue the laptop', '2026-03-04', people.it.id, 'pending', 'onboarding'],
      // No assignee on the template: the onboarding's manager.
      ['Client induction', '2026-03-07', people.managerA.id, 'pending', 'onboarding'],
    ]);
    // The assignee is told once for their tasks; the manager who opened it is not told about their own.
    expect((await noticesOf('it')).filter((n) => n.title === 'New onboarding tasks').at(-1))
      .toMatchObject({ message: '2 onboarding tasks for Asha Rao are assigned to you.', url: `/onboarding/${record.id}` });
    expect((await noticesOf('managerA')).some((n) => n.title === 'New onboarding tasks')).toBe(false);
  });

  it('refuses invalid input with 422 per field and stores nothing', async () => {
    const before = (await t.app.db.select().from(onboardings)).length;
    const res = await t.call('POST', '/api/onboarding', { ...as('managerA'), body: { person_name: ' ', start_date: '2026-02-30', email: 'nope', manager_id: 999_999 } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'person_name', 'start_date']);
    const unknownManager = await t.call('POST', '/api/onboarding', { ...as('managerA'), body: { person_name: 'X', start_date: day, manager_id: 999_999 } });
    expect(unknownManager.status).toBe(422);
    expect(unknownManager.body.errors.manager_id).toEqual(['The manager you chose has been removed or cannot be chosen here. Choose another.']);
    expect((await t.app.db.select().from(onboardings)).length).toBe(before);
    expect((await t.call('POST', '/api/onboarding', { ...as('it'), body: { person_name: 'X', start_date: day } })).status).toBe(403);
  });

  it('shows an assignee only the onboardings they work on, and an outsider none', async () => {
    const record = await open('managerA', { person_name: 'Scoped Person' });
    const listed = (who: string) => t.call('GET', '/api/onboarding?search=Scoped', as(who)).then((res) => res.body.meta.total);
    expect(await listed('it')).toBe(1);
    expect(await listed('outsider')).toBe(0);
    expect((await t.call('GET', `/api/onboarding/${record.id}`, as('outsider'))).status).toBe(404);
    expect((await tasksOf(record.id, 'outsider'))).toEqual([]);
    // The manager's own task is not the IT engineer's to see.
    expect((await tasksOf(record.id, 'it')).map((task) => task.title)).toEqual(['Create the email account', 'Issue the laptop']);
  });

  it('lets the assignee or a manager tick a task, and nobody else', async () => {
    const record = await open('managerA', { person_name: 'Tick Person' });
    const [email] = await tasksOf(record.id);
    // hr has no part in it (not the assignee, not a manager of it).
    expect((await t.call('GET', `/api/onboarding-task/${email.id}`, as('hr'))).status).toBe(404);
    const it1 = (await t.call('GET', `/api/onboarding-task/${email.id}`, as('it'))).body.data;
    expect(it1.available_transitions.map((a: { name: string }) => a.name)).toEqual(['complete']);

    const done = await tick('it', email.id, 'complete');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data).toMatchObject({ status: 'done', completion_date: day, days_overdue: 0, due_in: null });
    expect((await tick('it', email.id, 'complete')).status).toBe(409);
    // The onboarding's manager undoes it; the completion date goes with it.
    const undone = await tick('managerA', email.id, 'reopen');
    expect(undone.body.data).toMatchObject({ status: 'pending', completion_date: null });
    // managerB manages the assignee (it): they may tick it too.
    expect((await tick('managerB', email.id, 'complete')).status).toBe(200);
    const history = (await t.call('GET', `/api/onboarding-task/${email.id}/history`, as('admin'))).body.data;
    expect(history.map((h: { to: string }) => h.to)).toEqual(['pending', 'done', 'pending', 'done']);
  });

  it('adds a task by hand to the checklist; only those who may edit onboardings', async () => {
    const record = await open('managerA', { person_name: 'Hand Task' });
    const body = { onboarding_id: record.id, title: 'Building badge', phase: 'onboarding', assignee_id: people.hr.id, due_date: day };
    expect((await t.call('POST', '/api/onboarding-task', { ...as('it'), body })).status).toBe(403);
    const added = await t.call('POST', '/api/onboarding-task', { ...as('managerA'), body });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ status: 'pending', assignee: { id: people.hr.id, name: 'hr' }, onboarding: { id: record.id, person_name: 'Hand Task' } });
    const invalid = await t.call('POST', '/api/onboarding-task', { ...as('managerA'), body: { ...body, assignee_id: 999_999, due_date: 'soon' } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['due_date']);
  });

  it('is onboarded once its checklist is done; a resignation adds the offboarding checklist, offboarded once that is done', async () => {
    const record = await open('managerA', { person_name: 'Whole Journey' });
    const refused = await move('managerA', record.id, 'onboard');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('3 onboarding tasks are not done yet.');
    expect((await move('it', record.id, 'onboard')).status).toBe(403);
    for (const task of await tasksOf(record.id)) expect((await tick('managerA', task.id, 'complete')).status).toBe(200);
    const onboarded = await move('managerA', record.id, 'onboard');
    expect(onboarded.status).toBe(200);
    expect(onboarded.body.data).toMatchObject({ status: 'Onboarded', open_tasks: 0 });
    expect((await move('managerA', record.id, 'offboard')).status).toBe(409);

    const resigned = await move('managerA', record.id, 'resign', 'Moving abroad');
    expect(resigned.body.data).toMatchObject({ status: 'Resigned', end_date: day, open_tasks: 2 });
    const offboarding = (await tasksOf(record.id)).filter((task) => task.phase === 'offboarding');
    expect(offboarding.map((task) => [task.title, task.due_date])).toEqual([['Exit interview', addDays(day, 1)], ['Collect the laptop', addDays(day, 3)]]);
    expect((await move('managerA', record.id, 'offboard')).body.message).toBe('2 offboarding tasks are not done yet.');
    expect((await tick('hr', offboarding[0].id, 'complete')).status).toBe(200);
    expect((await tick('it', offboarding[1].id, 'complete')).status).toBe(200);
    const offboarded = await move('managerA', record.id, 'offboard');
    expect(offboarded.body.data).toMatchObject({ status: 'Offboarded', available_transitions: [] });
    const history = (await t.call('GET', `/api/onboarding/${record.id}/history`, as('admin'))).body.data;
    expect(history.map((h: { to: string }) => h.to)).toEqual(['Onboarding is in progress', 'Onboarded', 'Resigned', 'Offboarded']);
  });
});

describe('spec §5 timing of a task (controlled clock)', () => {
  it('counts down the days left while pending and due within 5 days, then says how late instead (never both)', async () => {
    const record = await open('managerA', { person_name: 'Clock Person', start_date: day });
    const laptop = (await tasksOf(record.id)).find((task) => task.title === 'Issue the laptop')!; // due day + 2
    const at = async (offset: number) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(`${addDays(day, offset)}T12:00:00`));
      const row = (await t.call('GET', `/api/onboarding-task/${laptop.id}`, as('admin'))).body.data;
      vi.useRealTimers();
      return [row.due_in, row.days_overdue];
    };
    expect(await at(-4)).toEqual([null, 0]); // six days before it is due: outside the window
    expect(await at(-3)).toEqual(['5 days left', 0]);
    expect(await at(0)).toEqual(['2 days left', 0]);
    expect(await at(1)).toEqual(['1 day left', 0]);
    expect(await at(2)).toEqual(['Due today', 0]); // on the due date: not overdue yet
    expect(await at(3)).toEqual([null, 1]); // late: no countdown beside it
    expect(await at(6)).toEqual([null, 4]);
  });

  it('measures a done task from its completion date, floored at 0', async () => {
    const record = await open('managerA', { person_name: 'Done Clock', start_date: day });
    const [email, laptop] = await tasksOf(record.id); // due day, day + 2
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${addDays(day, 3)}T12:00:00`));
    const late = await tick('it', email.id, 'complete');
    const early = await tick('it', laptop.id, 'complete');
    vi.setSystemTime(new Date(`${addDays(day, 20)}T12:00:00`));
    const lateRow = (await t.call('GET', `/api/onboarding-task/${email.id}`, as('admin'))).body.data;
    vi.useRealTimers();
    expect(late.body.data).toMatchObject({ completion_date: addDays(day, 3), days_overdue: 3, due_in: null });
    expect(early.body.data).toMatchObject({ completion_date: addDays(day, 3), days_overdue: 1 });
    // Weeks later a done task is still as late as it was when done.
    expect(lateRow.days_overdue).toBe(3);
  });
});

describe('overdue tasks', () => {
  it('remind the assignee once a day and escalate to the manager once after 3 days', async () => {
    // A checklist of its own: one task due long ago is kept apart from the others by a fresh start.
    const record = await open('managerB', { person_name: 'Overdue Person', start_date: '2020-01-01' });
    await t.app.db.update(onboardingTasks).set({ status: 'done', completion_date: '2020-01-01' })
      .where(and(eq(onboardingTasks.onboarding_id, record.id), eq(onboardingTasks.title, 'Create the email account')));
    // Everything else already open elsewhere is done, so the counts below are this record's.
    await t.app.db.update(onboardingTasks).set({ status: 'done', completion_date: day })
      .where(and(eq(onboardingTasks.status, 'pending'), eq(onboardingTasks.due_date, day)));
    const laptop = (await tasksOf(record.id)).find((task) => task.title === 'Issue the laptop')!; // due 2020-01-03
    const others = (await t.app.db.select().from(onboardingTasks).where(eq(onboardingTasks.status, 'pending')))
      .filter((task) => task.onboarding_id !== record.id && task.due_date < '2020-01-08');
    expect(others).toEqual([]);

    const itBefore = (await noticesOf('it')).length;
    // 2020-01-04: one day past the laptop's due date; the induction (due 01-06) is not due yet.
    expect(await sendOverdueTaskReminders(t.app, '2020-01-04')).toEqual({ reminded: 1, escalated: 0 });
    expect(await sendOverdueTaskReminders(t.app, '2020-01-04')).toEqual({ reminded: 0, escalated: 0 });
    const [reminder] = (await noticesOf('it')).slice(itBefore);
    expect(reminder).toMatchObject({
      title: 'Onboarding task overdue', url: `/onboarding/${record.id}`, type: 'App\\Notifications\\OnboardingTaskOverdue',
      message: '"Issue the laptop" for Overdue Person was due on 2020-01-03 (1 day(s) overdue).',
    });
    // Three days overdue: reminded again, not escalated yet.
    expect(await sendOverdueTaskReminders(t.app, '2020-01-06')).toEqual({ reminded: 1, escalated: 0 });
    const managerBefore = (await noticesOf('managerB')).filter((n) => n.title === 'Onboarding task escalated').length;
    // Four days overdue: escalated to the onboarding's manager, once; the induction (managerB's own, due 01-06) is one day over.
    expect(await sendOverdueTaskReminders(t.app, '2020-01-07')).toEqual({ reminded: 2, escalated: 1 });
    expect(await sendOverdueTaskReminders(t.app, '2020-01-08')).toEqual({ reminded: 2, escalated: 0 });
    const escalated = (await noticesOf('managerB')).filter((n) => n.title === 'Onboarding task escalated');
    expect(escalated.length).toBe(managerBefore + 1);
    expect(escalated.at(-1)!.message).toBe('"Issue the laptop" for Overdue Person is 4 days overdue.');

    // A done task stops reminding.
    expect((await tick('it', laptop.id, 'complete')).status).toBe(200);
    expect(await sendOverdueTaskReminders(t.app, '2020-01-09')).toEqual({ reminded: 1, escalated: 0 });

    // The dashboard's figure: overdue tasks, most overdue first, all or one assignee's.
    const summary = await overdueOnboardingTasks(t.app.db, { on: '2020-01-09' });
    expect(summary).toMatchObject({ total: 1, items: [{ title: 'Client induction', days_overdue: 3, person_name: 'Overdue Person', assignee: { id: people.managerB.id, name: 'managerB' } }] });
    expect((await overdueOnboardingTasks(t.app.db, { on: '2020-01-09', assigneeId: people.it.id })).total).toBe(0);
  });
});

describe('from a candidate reaching Onboarding', () => {
  it('opens one onboarding managed by the recruiter, with the checklist', async () => {
    const candidate = { id: 424_242, name: 'Candidate Kumar', email: 'kumar@example.com', recruiter_id: people.managerA.id };
    const first = await inTransaction(t.app, (tx) => createOnboardingForCandidate(tx, candidate));
    const again = await inTransaction(t.app, (tx) => createOnboardingForCandidate(tx, candidate));
    expect(first).toBeTypeOf('number');
    expect(again).toBeNull();
    const row = (await t.call('GET', `/api/onboarding/${first}`, as('admin'))).body.data;
    expect(row).toMatchObject({ person_name: 'Candidate Kumar', email: 'kumar@example.com', candidate_id: 424_242, manager_id: people.managerA.id, status: 'Onboarding is in progress', start_date: day, open_tasks: 3 });
  });

  it('happens when the recruitment workflow moves a candidate to Onboarding', async () => {
    const [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Fabrikam' }).returning();
    const [{ id: positionId }] = await t.app.db.insert(positions).values({ title: 'SRE', client_id: clientId, location: 'Pune', count: 1 }).returning();
    const [candidate] = await t.app.db.insert(candidates).values({
      name: 'Meera Iyer', email: 'meera@example.com', phone: '+91 90000 00000', position_id: positionId, recruiter_id: people.managerB.id, stage: 'Offer Letter Review',
    }).returning();
    const moved = await t.call('POST', `/api/candidate/${candidate.id}/transitions/move-to-onboarding`, { ...as('admin'), body: {} });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const found = (await t.call('GET', '/api/onboarding?search=Meera', as('admin'))).body.data;
    expect(found).toMatchObject([{ candidate_id: candidate.id, manager_id: people.managerB.id, email: 'meera@example.com', open_tasks: 3 }]);
  });
});
