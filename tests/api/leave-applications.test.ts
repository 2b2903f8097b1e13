// Leave applications (issue 9) on the workflow machinery: days counted by the server, the checks
// that refuse a leave, every decision allowed and refused, history, notifications, scope, the
// balance and the team calendar; plus leave types and holidays.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveApplications, leaveTypes } from '../../src/server/db/schema/hr';
import { notifications } from '../../src/server/db/schema/notifications';
import {
  LEAVE_APPROVED_BACK_FILL, LEAVE_APPROVED_NO_BACK_FILL, LEAVE_PENDING, LEAVE_REJECTED, LEAVE_TAKEN_NO_BACK_FILL,
} from '../../src/shared/resources/leave-application';
import type { TestApp } from '../helpers/app';
import { leaveWorld } from '../helpers/leave';

const world = leaveWorld();
const { type, people, apply, move: decide } = world;
let t: TestApp;
let india: number;

beforeAll(async () => {
  ({ t, india } = await world.setUp(async (make, india) => {
    await make('managerA', { user_type: 'manager', country_id: india });
    await make('managerB', { user_type: 'manager' });
    await make('engineerA', { user_type: 'user', parent_id: people.managerA.id, country_id: india });
    await make('engineerA2', { user_type: 'user', parent_id: people.managerA.id, country_id: india });
    await make('engineerB', { user_type: 'user', parent_id: people.managerB.id });
  }));
});
afterAll(async () => { await world.close(); });

const titlesFor = async (who: string) => (await world.notesFor(who)).map((data) => data.title);

describe('leave types and holidays', () => {
  it('seeds the five leave types once, with a yearly allowance (unpaid: none)', async () => {
    expect(Object.keys(type).sort()).toEqual(['annual', 'casual', 'compensatory', 'sick', 'unpaid']);
    const unpaid = (await t.app.db.select().from(leaveTypes).where(eq(leaveTypes.id, type.unpaid)))[0];
    expect(unpaid.yearly_allowance).toBeNull();
    const taken = await t.call('POST', '/api/leave-type', { token: people.admin.token, body: { name: 'annual', yearly_allowance: 5, status: 'active' } });
    expect(taken.body.errors).toEqual({ name: ['The name has already been taken.'] });
    const quarter = await t.call('POST', '/api/leave-type', { token: people.admin.token, body: { name: 'Study', yearly_allowance: 2.25, status: 'active' } });
    expect(quarter.body.errors.yearly_allowance).toBeDefined();
  });

  it('keeps one holiday per country and date, said on the date field', async () => {
    const holi = await t.call('POST', '/api/holiday', { token: people.admin.token, body: { date: '2030-03-11', name: 'Holi', country_id: india } });
    expect(holi.status).toBe(201);
    expect(holi.body.data).toMatchObject({ date: '2030-03-11', country: { id: india, name: 'India' } });
    const again = await t.call('POST', '/api/holiday', { token: people.admin.token, body: { date: '2030-03-11', name: 'Holi again', country_id: india } });
    expect(again.status).toBe(422);
    expect(again.body.errors.date).toEqual(['Holi is already a holiday on 2030-03-11 in this country.']);
    const badDate = await t.call('POST', '/api/holiday', { token: people.admin.token, body: { date: '2030-02-30', name: 'Nope', country_id: india } });
    expect(badDate.status).toBe(422);
    // Engineers read neither list.
    expect((await t.call('GET', '/api/holiday', { token: people.engineerA.token })).status).toBe(403);
  });
});

describe('applying for leave', () => {
  let first: number;

  it('counts working days without the weekend and the applicant\'s public holiday, and tells the manager', async () => {
    // Fri 8 March to Tue 12 March 2030: Sat, Sun and Mon (Holi in India) do not count.
    const res = await apply('engineerA', { from_date: '2030-03-08', to_date: '2030-03-12', reason: 'Family visit', back_fill_user_id: people.engineerA2.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      user_id: people.engineerA.id, days: 2, status: LEAVE_PENDING, created_by: people.engineerA.id,
      user: { id: people.engineerA.id, name: 'engineerA' }, leave_type: { id: type.annual, name: 'Annual' },
      back_fill_user: { id: people.engineerA2.id, name: 'engineerA2' }, is_half_day_start: false,
    });
    // The applicant may only withdraw it; deciding is the manager's.
    expect(res.body.data.available_transitions.map((a: { name: string }) => a.name)).toEqual(['withdraw']);
    // Told what happens next, not "Leave Application created successfully.".
    expect(res.body.message).toBe('The leave application for 2 days is sent to the manager, who decides it and arranges the back fill.');
    first = res.body.data.id;
    expect(await titlesFor('managerA')).toContain('A leave application waits for you');
    const stored = (await t.app.db.select().from(notifications).where(eq(notifications.notifiable_id, people.managerA.id)))
      .find((n) => n.data.url === `/leave-application/${first}`)!;
    expect(stored.data).toMatchObject({ title: 'A leave application waits for you', message: 'engineerA applied for annual leave from 2030-03-08 to 2030-03-12 (2 days). Decide it and arrange the back fill.' });
    // Someone without the holiday's country counts Monday.
    const other = await apply('engineerB', { from_date: '2030-03-08', to_date: '2030-03-12' });
    expect(other.body.data.days).toBe(3);
  });

  it('counts half days at either end', async () => {
    const res = await apply('engineerA', { from_date: '2030-03-13', to_date: '2030-03-15', is_half_day_start: true, is_half_day_end: true });
    expect(res.body.data.days).toBe(2);
  });

  it('refuses with 422 and field errors: the end before the start, no working day, a new year, a double half day', async () => {
    const backwards = await apply('engineerA', { from_date: '2030-03-20', to_date: '2030-03-19' });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors).toEqual({ to_date: ['The leave cannot end before it starts.'] });
    const weekend = await apply('engineerA', { from_date: '2030-03-16', to_date: '2030-03-17' });
    expect(weekend.body.errors.from_date[0]).toMatch(/no working day/);
    const holidayOnly = await apply('engineerA', { from_date: '2030-03-11', to_date: '2030-03-11' });
    expect(holidayOnly.body.errors.from_date[0]).toMatch(/no working day/);
    const spanning = await apply('engineerA', { from_date: '2030-12-30', to_date: '2031-01-02' });
    expect(spanning.body.errors.to_date[0]).toBe('A leave must end in the year it starts: apply for the days from 2031-01-01 separately.');
    const halves = await apply('engineerA', { from_date: '2030-03-20', to_date: '2030-03-20', is_half_day_start: true, is_half_day_end: true });
    expect(Object.keys(halves.body.errors)).toEqual(['is_half_day_end']);
    const garbage = await apply('engineerA', { from_date: '2030-02-30', to_date: 'soon', leave_type_id: 'annual', is_half_day_start: 'yes' });
    expect(garbage.status).toBe(422);
    expect(Object.keys(garbage.body.errors).sort()).toEqual(['from_date', 'is_half_day_start', 'leave_type_id', 'to_date']);
    const unknownType = await apply('engineerA', { from_date: '2030-03-20', to_date: '2030-03-20', leave_type_id: 999_999 });
    expect(unknownType.body.errors).toEqual({ leave_type_id: ['The leave type you chose has been removed or cannot be chosen here. Choose another.'] });
  });

  it('refuses leave overlapping another that is not rejected, but a morning and an afternoon may meet', async () => {
    const overlap = await apply('engineerA', { from_date: '2030-03-12', to_date: '2030-03-13' });
    expect(overlap.status).toBe(422);
    expect(overlap.body.errors).toEqual({ from_date: ['These dates overlap your leave from 2030-03-08 to 2030-03-12.'] });
    // The leave of 13 to 15 March ends at noon on Friday: the afternoon is free.
    const afternoon = await apply('engineerA', { from_date: '2030-03-15', to_date: '2030-03-15', is_half_day_start: true, leave_type_id: type.unpaid });
    expect(afternoon.status).toBe(201);
    expect(afternoon.body.data.days).toBe(0.5);
  });

  it('refuses more days than remain of the type for the year, counting pending days', async () => {
    // Casual: 7 days. Mon 1 to Wed 10 April 2030 is 8 working days.
    const over = await apply('engineerA', { from_date: '2030-04-01', to_date: '2030-04-10', leave_type_id: type.casual });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ leave_type_id: ['This leave needs 8 days of casual but only 7 days remain for 2030.'] });
    const five = await apply('engineerA', { from_date: '2030-04-01', to_date: '2030-04-05', leave_type_id: type.casual });
    expect(five.status).toBe(201);
    const three = await apply('engineerA', { from_date: '2030-04-08', to_date: '2030-04-10', leave_type_id: type.casual });
    expect(three.body.errors.leave_type_id).toEqual(['This leave needs 3 days of casual but only 2 days remain for 2030.']);
    // Unpaid leave has no limit.
    const unpaid = await apply('engineerA', { from_date: '2030-04-08', to_date: '2030-04-26', leave_type_id: type.unpaid });
    expect(unpaid.status).toBe(201);
    expect(unpaid.body.data.days).toBe(15);
  });

  it('lets a manager file for a report and an admin for anyone, nobody for someone else\'s report', async () => {
    const forReport = await apply('managerA', { user_id: people.engineerA2.id, from_date: '2030-05-13', to_date: '2030-05-14' });
    expect(forReport.status).toBe(201);
    expect(forReport.body.data).toMatchObject({ user_id: people.engineerA2.id, created_by: people.managerA.id });
    const notMine = await apply('managerA', { user_id: people.engineerB.id, from_date: '2030-05-13', to_date: '2030-05-14' });
    expect(notMine.body.errors).toEqual({ user_id: ['You may apply only for yourself or for someone who reports to you.'] });
    const colleague = await apply('engineerA', { user_id: people.engineerA2.id, from_date: '2030-05-20', to_date: '2030-05-21' });
    expect(colleague.body.errors.user_id).toBeDefined();
    const byAdmin = await apply('admin', { user_id: people.engineerB.id, from_date: '2030-05-13', to_date: '2030-05-14' });
    expect(byAdmin.body.data.user_id).toBe(people.engineerB.id);
  });

  it('offers colleagues as back-fill (team-mates to an engineer, anyone to a manager), never the applicant', async () => {
    const ids = async (who: string, query = '') =>
      (await t.call('GET', `/api/leave-application/back-fill-options${query}`, { token: people[who].token })).body.data.map((o: { id: number }) => o.id);
    expect(await ids('engineerA')).toEqual([people.engineerA2.id]);
    expect(await ids('engineerA', '?search=A2')).toEqual([people.engineerA2.id]);
    expect(await ids('engineerA', '?search=%25')).toEqual([]);
    expect(new Set(await ids('managerA', `?user_id=${people.engineerA.id}`))).toEqual(new Set([people.engineerA2.id, people.engineerB.id]));
    expect((await t.call('GET', `/api/leave-application/back-fill-options?user_id=${people.engineerA.id}`, { token: people.engineerB.token })).status).toBe(404);
    const self = await apply('engineerA', { from_date: '2030-05-27', to_date: '2030-05-27', back_fill_user_id: people.engineerA.id });
    expect(self.body.errors).toEqual({ back_fill_user_id: ['The back-fill person must be someone other than the applicant.'] });
  });

  it('recounts the days when the applicant or their manager edits an undecided leave, with the same checks', async () => {
    const created = await apply('engineerA', { from_date: '2030-05-20', to_date: '2030-05-21' });
    const id = created.body.data.id;
    // The applicant may correct their own undecided leave too: it is recounted the same way.
    const corrected = await t.call('PATCH', `/api/leave-application/${id}`, { token: people.engineerA.token, body: { to_date: '2030-05-22' } });
    expect(corrected.status).toBe(200);
    expect(corrected.body.data.days).toBe(3);
    const longer = await t.call('PATCH', `/api/leave-application/${id}`, { token: people.managerA.token, body: { to_date: '2030-05-24' } });
    expect(longer.status).toBe(200);
    expect(longer.body.data).toMatchObject({ days: 5, user_id: people.engineerA.id });
    const overlapping = await t.call('PATCH', `/api/leave-application/${id}`, { token: people.managerA.token, body: { from_date: '2030-03-12' } });
    expect(overlapping.body.errors.from_date).toBeDefined();
    const put = await t.call('PUT', `/api/leave-application/${id}`, { token: people.managerA.token, body: { leave_type_id: type.sick, from_date: '2030-05-20', to_date: '2030-05-20' } });
    expect(put.body.data).toMatchObject({ days: 1, leave_type_id: type.sick, user_id: people.engineerA.id });
  });
});

describe('deciding leave', () => {
  const pendingOf = async (who: string, from: string, to = from) =>
    (await apply(who, { from_date: from, to_date: to, leave_type_id: type.unpaid })).body.data.id as number;

  it('lets the manager approve with back fill arranged, once; records history and tells the applicant', async () => {
    const id = await pendingOf('engineerA', '2030-06-03', '2030-06-04');
    const managerView = await t.call('GET', `/api/leave-application/${id}`, { token: people.managerA.token });
    expect(managerView.body.data.available_transitions.map((a: { name: string }) => a.name)).toEqual([
      'approve-back-fill-arranged', 'approve-back-fill-not-required', 'record-leave-taken', 'reject',
    ]);
    expect(managerView.body.data.available_transitions.find((a: { name: string }) => a.name === 'reject').requires_comment).toBe(true);

    // Issue 24: "back fill arranged" names who covers: required, never the applicant, kept on the record.
    const unnamed = await decide('managerA', id, 'approve-back-fill-arranged', 'Ravi covers Contoso');
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.errors).toEqual({ back_fill_user_id: ['The back-fill person field is required.'] });
    const self = await decide('managerA', id, 'approve-back-fill-arranged', undefined, { back_fill_user_id: people.engineerA.id });
    expect(self.body.errors).toEqual({ back_fill_user_id: ['The back-fill person must be someone other than the applicant.'] });
    const choices = await t.call('GET', `/api/leave-application/back-fill-options?user_id=${people.engineerA.id}`, { token: people.managerA.token });
    expect(choices.body.data.map((c: { id: number }) => c.id)).toContain(people.engineerA2.id);
    const approved = await decide('managerA', id, 'approve-back-fill-arranged', 'Ravi covers Contoso', { back_fill_user_id: people.engineerA2.id });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      status: LEAVE_APPROVED_BACK_FILL, decided_by: people.managerA.id, available_transitions: [],
      back_fill_user_id: people.engineerA2.id, back_fill_user: { id: people.engineerA2.id, name: 'engineerA2' },
    });
    expect(approved.body.data.decided_at).toEqual(expect.any(String));
    expect(await titlesFor('engineerA')).toContain('Your leave was approved');

    const again = await decide('managerA', id, 'reject', 'Changed my mind');
    expect(again.status).toBe(409);
    expect((await decide('engineerA', id, 'withdraw')).status).toBe(409);
    // Decided leave is no longer edited.
    const edit = await t.call('PATCH', `/api/leave-application/${id}`, { token: people.managerA.token, body: { reason: 'x' } });
    expect(edit.status).toBe(409);

    const history = await t.call('GET', `/api/leave-application/${id}/history`, { token: people.engineerA.token });
    expect(history.body.data).toEqual([
      expect.objectContaining({ transition: 'create', from: null, to: LEAVE_PENDING, actor: { id: people.engineerA.id, name: 'engineerA' } }),
      expect.objectContaining({ transition: 'approve-back-fill-arranged', from: LEAVE_PENDING, to: LEAVE_APPROVED_BACK_FILL, actor: { id: people.managerA.id, name: 'managerA' }, comment: 'Ravi covers Contoso' }),
    ]);
  });

  it('reaches each decision of spec §4 from the pending state', async () => {
    const notRequired = await pendingOf('engineerA', '2030-06-05');
    expect((await decide('managerA', notRequired, 'approve-back-fill-not-required')).body.data.status).toBe(LEAVE_APPROVED_NO_BACK_FILL);
    const taken = await pendingOf('engineerA', '2030-06-06');
    expect((await decide('admin', taken, 'record-leave-taken')).body.data.status).toBe(LEAVE_TAKEN_NO_BACK_FILL);
    const rejected = await pendingOf('engineerA', '2030-06-07');
    const noComment = await decide('managerA', rejected, 'reject');
    expect(noComment.status).toBe(422);
    expect(noComment.body.errors).toEqual({ comment: ['The comment field is required.'] });
    expect((await decide('managerA', rejected, 'reject', '   ')).status).toBe(422);
    const done = await decide('managerA', rejected, 'reject', 'Release week: move it to July');
    expect(done.body.data.status).toBe(LEAVE_REJECTED);
    expect(await titlesFor('engineerA')).toEqual(expect.arrayContaining(['Your leave was approved', 'Your leave was recorded as taken', 'Your leave was rejected']));
    // Rejected leave frees its dates.
    expect((await apply('engineerA', { from_date: '2030-06-07', to_date: '2030-06-07', leave_type_id: type.unpaid })).status).toBe(201);
    expect((await decide('managerA', rejected, 'no-such-step')).status).toBe(404);
  });

  it('refuses the wrong person: the applicant, another manager, a team-mate, a manager on their own leave', async () => {
    const id = await pendingOf('engineerA', '2030-06-10');
    const own = await decide('engineerA', id, 'approve-back-fill-not-required');
    expect(own.status).toBe(403);
    // Another manager's report, and a team-mate's leave, are outside the caller's scope: not found, as for reading.
    expect((await decide('managerB', id, 'approve-back-fill-not-required')).status).toBe(404);
    expect((await decide('engineerA2', id, 'withdraw')).status).toBe(404);
    const bulk = await t.call('POST', '/api/leave-application/transitions/approve-back-fill-not-required', { token: people.managerB.token, body: { ids: [id] } });
    expect(bulk.body.data).toEqual([expect.objectContaining({ id, status: 404 })]);
    // Only the applicant withdraws.
    const managerWithdraws = await decide('managerA', id, 'withdraw');
    expect(managerWithdraws.status).toBe(403);
    // A manager never decides their own leave; an admin may.
    const managersOwn = (await apply('managerA', { from_date: '2030-06-10', to_date: '2030-06-11' })).body.data.id;
    const selfApproval = await decide('managerA', managersOwn, 'approve-back-fill-not-required');
    expect(selfApproval.status).toBe(403);
    expect(selfApproval.body.message).toBe('You cannot decide your own leave application.');
    expect((await decide('admin', managersOwn, 'approve-back-fill-not-required')).status).toBe(200);
    expect((await t.call('GET', `/api/leave-application/${id}`, { token: people.engineerA.token })).body.data.status).toBe(LEAVE_PENDING);
  });

  it('lets the applicant withdraw while undecided and tells the manager', async () => {
    const id = await pendingOf('engineerA', '2030-06-12');
    const before = (await titlesFor('managerA')).length;
    const withdrawn = await decide('engineerA', id, 'withdraw', 'Plans changed');
    expect(withdrawn.body.data?.status, JSON.stringify(withdrawn.body)).toBe(LEAVE_REJECTED);
    expect(withdrawn.body.data.decided_by).toBeNull();
    // Issue 24: the manager's notification of the application, minutes old and unread, now says it was withdrawn.
    const after = await titlesFor('managerA');
    expect(after.length).toBe(before);
    expect(after).toContain('A leave application was withdrawn');
  });

  it('lets exactly one of two simultaneous decisions win', async () => {
    const id = await pendingOf('engineerA', '2030-06-13');
    const results = await Promise.all([
      decide('managerA', id, 'approve-back-fill-arranged', undefined, { back_fill_user_id: people.engineerA2.id }),
      decide('admin', id, 'reject', 'No cover that week'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const history = await t.call('GET', `/api/leave-application/${id}/history`, { token: people.admin.token });
    expect(history.body.data).toHaveLength(2);
    const [row] = await t.app.db.select().from(leaveApplications).where(eq(leaveApplications.id, id));
    const winner = results.find((r) => r.status === 200)!;
    expect(row.status).toBe(winner.body.data.status);
  });
});

describe('who sees which leave', () => {
  it('shows engineers their own, managers their reports\', admins all; others are not found', async () => {
    const users = async (who: string) => new Set((await t.call('GET', '/api/leave-application?per_page=100', { token: people[who].token })).body.data.map((r: { user_id: number }) => r.user_id));
    expect(await users('engineerA')).toEqual(new Set([people.engineerA.id]));
    expect(await users('engineerB')).toEqual(new Set([people.engineerB.id]));
    expect(await users('managerA')).toEqual(new Set([people.managerA.id, people.engineerA.id, people.engineerA2.id]));
    expect(await users('admin')).toEqual(new Set([people.managerA.id, people.engineerA.id, people.engineerA2.id, people.engineerB.id]));
    const [ofA] = await t.app.db.select().from(leaveApplications).where(eq(leaveApplications.user_id, people.engineerA.id)).limit(1);
    expect((await t.call('GET', `/api/leave-application/${ofA.id}`, { token: people.engineerB.token })).status).toBe(404);
    expect((await t.call('GET', `/api/leave-application/${ofA.id}/history`, { token: people.engineerB.token })).status).toBe(404);
    expect((await t.call('GET', `/api/leave-application/${ofA.id}`, { token: people.managerB.token })).status).toBe(404);
  });
});

describe('balance', () => {
  it('gives allowance, used (approved or taken), pending and remaining per type for a year', async () => {
    const res = await t.call('GET', '/api/leave-application/balance?year=2030', { token: people.engineerA.token });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.data.balances.map((b: { name: string }) => [b.name, b]));
    // Annual: 2 (8-12 March) + 2 (13-15 March) pending; Sick: 1 pending (20 May, edited).
    expect(byName.Annual).toEqual({ leave_type_id: type.annual, name: 'Annual', allowance: 20, used: 0, pending: 4, remaining: 16 });
    expect(byName.Casual).toMatchObject({ allowance: 7, pending: 5, remaining: 2 });
    expect(byName.Unpaid).toMatchObject({ allowance: null, remaining: null });
    // Used: 3-4, 5 and 6 June decided (4 days), plus 13 June if the approval won the race. Pending: the
    // afternoon of 15 March, 8-26 April (15), 7 June re-applied and 10 June. Rejected and withdrawn leave counts nowhere.
    expect([4, 5]).toContain(byName.Unpaid.used);
    expect(byName.Unpaid.pending).toBe(17.5);
    expect(res.body.data).toMatchObject({ user: { id: people.engineerA.id, name: 'engineerA' }, year: 2030, request: null });
    const empty = await t.call('GET', '/api/leave-application/balance?year=2031', { token: people.engineerA.token });
    expect(empty.body.data.balances.find((b: { name: string }) => b.name === 'Annual')).toMatchObject({ used: 0, pending: 0, remaining: 20 });
  });

  it('counts the days of a planned request, leaving out the application being edited', async () => {
    const planned = await t.call('GET', '/api/leave-application/balance?from_date=2030-03-08&to_date=2030-03-12&is_half_day_start=true', { token: people.engineerA.token });
    expect(planned.body.data).toMatchObject({ year: 2030, request: { days: 1.5, error: null } });
    const [first] = await t.app.db.select().from(leaveApplications)
      .where(and(eq(leaveApplications.user_id, people.engineerA.id), eq(leaveApplications.from_date, '2030-03-08')));
    const editing = await t.call('GET', `/api/leave-application/balance?from_date=2030-03-08&to_date=2030-03-12&exclude_id=${first.id}`, { token: people.engineerA.token });
    expect(editing.body.data.balances.find((b: { name: string }) => b.name === 'Annual').pending).toBe(2);
    const weekend = await t.call('GET', '/api/leave-application/balance?from_date=2030-03-16&to_date=2030-03-17', { token: people.engineerA.token });
    expect(weekend.body.data.request).toMatchObject({ days: 0, error: expect.stringMatching(/no working day/) });
  });

  it('is read by the person, their manager and admins only; bad input is a 422', async () => {
    expect((await t.call('GET', `/api/leave-application/balance?user_id=${people.engineerA.id}`, { token: people.managerA.token })).status).toBe(200);
    expect((await t.call('GET', `/api/leave-application/balance?user_id=${people.engineerA.id}`, { token: people.admin.token })).status).toBe(200);
    expect((await t.call('GET', `/api/leave-application/balance?user_id=${people.engineerA.id}`, { token: people.engineerB.token })).status).toBe(404);
    expect((await t.call('GET', `/api/leave-application/balance?user_id=${people.engineerA.id}`, { token: people.managerB.token })).status).toBe(404);
    for (const query of ['year=soon', 'year=1999', 'user_id=-3', 'from_date=2030-02-30', 'is_half_day_start=maybe', 'user_id=99999999999']) {
      expect((await t.call('GET', `/api/leave-application/balance?${query}`, { token: people.engineerA.token })).status, query).toBe(422);
    }
  });
});

describe('team calendar', () => {
  const calendar = async (who: string, month = '2030-03') => (await t.call('GET', `/api/leave-application/calendar?month=${month}`, { token: people[who].token })).body.data;

  it('lists who is away each working day, with half days', async () => {
    const march = await calendar('engineerA');
    expect(march.month).toBe('2030-03');
    expect(march.days).toHaveLength(31);
    const day = (date: string) => march.days.find((d: { date: string }) => d.date === date);
    expect(day('2030-03-08').away).toEqual([expect.objectContaining({ user_id: people.engineerA.id, name: 'engineerA', part: 'day', status: LEAVE_PENDING })]);
    // The weekend inside the leave: nobody is away. The holiday is named for people in India.
    expect(day('2030-03-09')).toMatchObject({ is_working_weekday: false, away: [] });
    expect(day('2030-03-11').holiday).toBe('Holi');
    expect(day('2030-03-13').away[0].part).toBe('afternoon');
    expect(day('2030-03-15').away.map((a: { part: string }) => a.part).sort()).toEqual(['afternoon', 'morning']);
  });

  it('shows engineers their team-mates without details, managers their reports, admins everyone', async () => {
    const seen = (data: { leaves: { user: { id: number } }[] }) => new Set(data.leaves.map((l) => l.user.id));
    const may = await calendar('engineerA', '2030-05');
    expect(seen(may)).toEqual(new Set([people.engineerA.id, people.engineerA2.id]));
    const mate = may.leaves.find((l: { user: { id: number } }) => l.user.id === people.engineerA2.id);
    expect(mate).toMatchObject({ id: null, leave_type: null, from_date: '2030-05-13' });
    expect(may.leaves.find((l: { user: { id: number } }) => l.user.id === people.engineerA.id).id).toEqual(expect.any(Number));
    const managers = await calendar('managerA', '2030-05');
    expect(managers.leaves.every((l: { id: number | null }) => l.id !== null)).toBe(true);
    expect(seen(managers)).toEqual(new Set([people.engineerA.id, people.engineerA2.id]));
    expect(seen(await calendar('admin', '2030-05'))).toEqual(new Set([people.engineerA.id, people.engineerA2.id, people.engineerB.id]));
    expect(seen(await calendar('engineerB', '2030-05'))).toEqual(new Set([people.engineerB.id]));
  });

  it('leaves out rejected leave, defaults to this month and refuses a bad month', async () => {
    const june = await calendar('engineerA', '2030-06');
    expect(june.leaves.every((l: { status: string }) => l.status !== LEAVE_REJECTED)).toBe(true);
    const now = await t.call('GET', '/api/leave-application/calendar', { token: people.engineerA.token });
    expect(now.body.data.month).toBe(new Date().toISOString().slice(0, 7));
    for (const month of ['2030-13', 'March', '2030-3', '1990-01']) {
      expect((await t.call('GET', `/api/leave-application/calendar?month=${month}`, { token: people.engineerA.token })).status, month).toBe(422);
    }
  });
});
