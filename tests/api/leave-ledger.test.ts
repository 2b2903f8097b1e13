// Issue 28, leave: cancelling approved leave before it starts and ending a started one early (days
// back to the balance, the manager told why), the ledger (accrual yearly and monthly, carried days and
// their expiry, an admin's adjustments), the yearly rollover once whatever the number of nodes, and
// leave days counted with the holidays of the person's work location.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveApplications, leaveLedger, leaveTypes } from '../../src/server/db/schema/hr';
import { jobs } from '../../src/server/db/schema/workflow';
import { cities, countries } from '../../src/server/db/schema/master-data';
import { createJobQueue } from '../../src/server/jobs/queue';
import { recurringJobs } from '../../src/server/jobs/registry';
import { ledgerOf, rollOverLeave, runLeaveRollover } from '../../src/server/modules/leave/ledger';
import { addDays, today } from '../../src/shared/dates';
import { LEAVE_APPROVED_BACK_FILL, LEAVE_APPROVED_NO_BACK_FILL, LEAVE_REJECTED } from '../../src/shared/resources/leave-application';
import type { TestApp } from '../helpers/app';
import { leaveWorld } from '../helpers/leave';

const world = leaveWorld();
const { type, people, move } = world;
let t: TestApp;
let india: number;

beforeAll(async () => {
  ({ t, india } = await world.setUp(async (make, india) => {
    await make('manager', { user_type: 'manager', name: 'Maria Manager' });
    await make('engineer', { user_type: 'user', parent_id: people.manager.id, country_id: india, name: 'Eddie Engineer' });
    await make('colleague', { user_type: 'user', parent_id: people.manager.id, name: 'Cora Colleague' });
    await make('stranger', { user_type: 'user', name: 'Sam Stranger' });
  }));
});
afterAll(async () => { await world.close(); });

const apply = async (who: string, body: Record<string, unknown>) => {
  const answer = await world.apply(who, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data as { id: number; days: number };
};
const approved = async (who: string, body: Record<string, unknown>) => {
  const leave = await apply(who, body);
  expect((await move('manager', leave.id, 'approve-back-fill-not-required')).status).toBe(200);
  return leave;
};
const balanceOf = async (who: string, year: number, leaveType = type.annual) => {
  const answer = await t.call('GET', `/api/leave-application/balance?year=${year}`, { token: people[who].token });
  return answer.body.data.balances.find((row: { leave_type_id: number }) => row.leave_type_id === leaveType);
};
const notesFor = async (who: string) => (await world.notesFor(who)) as { title: string; message: string }[];

/** A leave of `length` days that started a few days ago, within this year (balances are per year). */
function startedSpan(length = 10) {
  const now = today();
  const yearStart = `${now.slice(0, 4)}-01-01`;
  const yearEnd = `${now.slice(0, 4)}-12-31`;
  const from = addDays(now, -3) < yearStart ? yearStart : addDays(now, -3);
  const to = addDays(from, length) > yearEnd ? yearEnd : addDays(from, length);
  return { from, to };
}

describe('cancelling approved leave before it starts', () => {
  it('gives the days back, keeps the reason in the history and tells the manager in a sentence', async () => {
    const year = Number(today().slice(0, 4)) + 1;
    const before = await balanceOf('engineer', year);
    const leave = await approved('engineer', { from_date: `${year}-02-02`, to_date: `${year}-02-06` });
    expect((await balanceOf('engineer', year)).remaining).toBe(before.remaining - leave.days);

    const noReason = await move('engineer', leave.id, 'cancel');
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.comment).toEqual(['The comment field is required.']);
    // Only the person whose leave it is cancels it; the manager rejects pending leave instead.
    expect((await move('manager', leave.id, 'cancel', 'No')).status).toBe(403);

    const cancelled = await move('engineer', leave.id, 'cancel', 'My client moved the go-live.');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.message).toBe('You cancelled the approved leave.');
    expect(cancelled.body.data.status).toBe(LEAVE_REJECTED);
    // The manager's decision stays on the record.
    expect(cancelled.body.data.decided_by).toBe(people.manager.id);
    expect((await balanceOf('engineer', year)).remaining).toBe(before.remaining);

    const history = await t.call('GET', `/api/leave-application/${leave.id}/history`, { token: people.manager.token });
    expect(history.body.data.at(-1)).toMatchObject({ transition: 'cancel', comment: 'My client moved the go-live.', actor: { id: people.engineer.id } });
    const told = (await notesFor('manager')).find((n) => n.title === 'An approved leave was cancelled');
    expect(told?.message).toBe(`Eddie Engineer cancelled their approved annual leave from ${year}-02-02 to ${year}-02-06: they are at work on those days after all, and no back fill is needed. Eddie Engineer wrote: “My client moved the go-live.”`);
    // A cancelled leave cannot be cancelled again.
    expect((await move('engineer', leave.id, 'cancel', 'Again')).status).toBe(409);
  });

  it('refuses to cancel a leave that has started: it is ended early instead', async () => {
    const { from, to } = startedSpan(6);
    const leave = await approved('engineer', { from_date: from, to_date: to });
    const refused = await move('engineer', leave.id, 'cancel', 'Changed my mind');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`This leave started on ${from}: end it early instead, so the days you were away stay counted.`);
  });
});

describe('ending a started leave early', () => {
  it('counts the days again, returns the rest to the balance and tells the manager', async () => {
    const { from, to } = startedSpan(10);
    const year = Number(from.slice(0, 4));
    const before = await balanceOf('colleague', year);
    const leave = await apply('colleague', { from_date: from, to_date: to, is_half_day_end: true });
    expect((await move('manager', leave.id, 'approve-back-fill-arranged', undefined, { back_fill_user_id: people.engineer.id })).status).toBe(200);
    expect((await balanceOf('colleague', year)).used).toBe(before.used + leave.days);

    const newTo = addDays(from, 2);
    const expected = await t.call('GET', `/api/leave-application/balance?from_date=${from}&to_date=${newTo}`, { token: people.colleague.token });
    const expectedDays = expected.body.data.request.days as number;

    // The transition for its status is offered; the others are not.
    const shown = await t.call('GET', `/api/leave-application/${leave.id}`, { token: people.colleague.token });
    expect(shown.body.data.available_transitions.map((a: { name: string }) => a.name)).toEqual(['cancel', 'end-early-back-fill-arranged']);

    expect((await move('colleague', leave.id, 'end-early', 'Back early', { to_date: newTo })).status).toBe(409);
    const late = await move('colleague', leave.id, 'end-early-back-fill-arranged', 'Back early', { to_date: to });
    expect(late.status).toBe(422);
    expect(late.body.errors.to_date).toEqual([`The new last day must be before the planned last day, ${to}.`]);
    const early = await move('colleague', leave.id, 'end-early-back-fill-arranged', 'Back early', { to_date: addDays(from, -1) });
    expect(early.body.errors.to_date).toEqual([`The new last day must be on or after the first day of the leave, ${from}.`]);
    expect((await move('colleague', leave.id, 'end-early-back-fill-arranged', undefined, { to_date: newTo })).status).toBe(422);
    // Named by the dialog's label, not the field's "To" ("The to field is required.").
    const dayless = await move('colleague', leave.id, 'end-early-back-fill-arranged', 'Back early', {});
    expect(dayless.body.errors).toEqual({ to_date: ['The new last day field is required.'] });

    const ended = await move('colleague', leave.id, 'end-early-back-fill-arranged', 'The project needed me back.', { to_date: newTo });
    expect(ended.status).toBe(200);
    expect(ended.body.data).toMatchObject({ to_date: newTo, is_half_day_end: false, days: expectedDays, status: LEAVE_APPROVED_BACK_FILL });
    expect((await balanceOf('colleague', year)).used).toBe(before.used + expectedDays);

    const told = (await notesFor('manager')).find((n) => n.title === 'A leave was ended early');
    expect(told?.message).toContain(`Cora Colleague ended their leave early: it is now annual leave from ${from} to ${newTo}`);
    expect(told?.message).toContain('Cora Colleague wrote: “The project needed me back.”');
    const history = await t.call('GET', `/api/leave-application/${leave.id}/history`, { token: people.colleague.token });
    expect(history.body.data.at(-1)).toMatchObject({ transition: 'end-early-back-fill-arranged', comment: 'The project needed me back.' });
  });

  it('refuses to end early a leave that has not started', async () => {
    const year = Number(today().slice(0, 4)) + 1;
    const leave = await approved('colleague', { from_date: `${year}-03-02`, to_date: `${year}-03-06` });
    const refused = await move('colleague', leave.id, 'end-early', 'Back early', { to_date: `${year}-03-03` });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`This leave starts on ${year}-03-02: cancel it instead if you will not take it.`);
    const row = (await t.app.db.select().from(leaveApplications).where(eq(leaveApplications.id, leave.id)))[0];
    expect(row).toMatchObject({ to_date: `${year}-03-06`, days: leave.days, status: LEAVE_APPROVED_NO_BACK_FILL });
  });
});

describe('holidays follow the person\'s work location', () => {
  it('leaves a holiday of the person\'s country out of their leave, not of others\'', async () => {
    expect((await t.call('POST', '/api/holiday', { token: people.admin.token, body: { date: '2030-03-11', name: 'Holi', country_id: india } })).status).toBe(201);
    const inIndia = await apply('engineer', { from_date: '2030-03-11', to_date: '2030-03-15' });
    const elsewhere = await apply('colleague', { from_date: '2030-03-11', to_date: '2030-03-15' });
    expect(inIndia.days).toBe(4);
    expect(elsewhere.days).toBe(5);
    // The work location wins over the country on the person's record: a British national placed in Pune.
    const [uk] = await t.app.db.insert(countries).values({ name: 'United Kingdom', code: 'GB' }).returning();
    const [pune] = await t.app.db.insert(cities).values({ name: 'Pune', country_id: india }).returning();
    const placed = await t.createUser({ email: 'placed@example.com', name: 'Pat Placed', user_type: 'user', parent_id: people.manager.id, country_id: uk.id, work_location_id: pune.id });
    people.placed = { id: placed.id, token: await placed.token() };
    expect((await apply('placed', { from_date: '2030-03-11', to_date: '2030-03-15' })).days).toBe(4);
  });
});

describe('the ledger', () => {
  it('shows a past year\'s accrual, taken days and an admin\'s adjustment with its reason, to the person, their manager and HR', async () => {
    await approved('engineer', { from_date: '2024-05-06', to_date: '2024-05-08' });
    const refused = await t.call('POST', '/api/leave-application/ledger/adjustments', {
      token: people.manager.token, body: { user_id: people.engineer.id, leave_type_id: type.annual, year: 2024, days: 2, reason: 'Overtime' },
    });
    expect(refused.status).toBe(403);
    const noReason = await t.call('POST', '/api/leave-application/ledger/adjustments', {
      token: people.admin.token, body: { user_id: people.engineer.id, leave_type_id: type.annual, year: 2024, days: 2, reason: ' ' },
    });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toEqual(['The reason field is required.']);
    const unlimited = await t.call('POST', '/api/leave-application/ledger/adjustments', {
      token: people.admin.token, body: { user_id: people.engineer.id, leave_type_id: type.unpaid, year: 2024, days: 2, reason: 'x' },
    });
    expect(unlimited.status).toBe(422);
    const added = await t.call('POST', '/api/leave-application/ledger/adjustments', {
      token: people.admin.token, body: { user_id: people.engineer.id, leave_type_id: type.annual, year: 2024, days: 2.5, reason: 'Worked the Diwali weekend' },
    });
    expect(added.status).toBe(201);

    for (const who of ['engineer', 'manager', 'admin']) {
      const answer = await t.call('GET', `/api/leave-application/ledger?year=2024${who === 'engineer' ? '' : `&user_id=${people.engineer.id}`}`, { token: people[who].token });
      expect(answer.status).toBe(200);
      const annual = answer.body.data.types.find((row: { leave_type_id: number }) => row.leave_type_id === type.annual);
      expect(annual).toMatchObject({ accrued: 20, carried: 0, expired: 0, adjusted: 2.5, taken: 3, pending: 0, allowance: 22.5, remaining: 19.5 });
      expect(annual.lines.map((l: { kind: string; days: number; note: string }) => [l.kind, l.days, l.note])).toEqual([
        ['accrued', 20, 'The allowance for 2024'],
        ['adjusted', 2.5, 'Worked the Diwali weekend'],
        ['taken', -3, 'Leave from 2024-05-06 to 2024-05-08'],
      ]);
    }
    expect((await t.call('GET', `/api/leave-application/ledger?user_id=${people.engineer.id}`, { token: people.stranger.token })).status).toBe(404);
    // The balance is the ledger's.
    expect(await balanceOf('engineer', 2024)).toMatchObject({ allowance: 22.5, used: 3, remaining: 19.5 });
  });

  it('accrues a monthly type a twelfth a month, and refuses leave beyond what has accrued by its first day', async () => {
    const created = await t.call('POST', '/api/leave-type', {
      token: people.admin.token, body: { name: 'Study', yearly_allowance: 12, accrual: 'monthly', carry_forward_cap: 0, carry_forward_expiry_month: 3, status: 'active' },
    });
    expect(created.status).toBe(201);
    const study = created.body.data.id as number;
    const march = (await ledgerOf(t.app.db, people.colleague.id, 2031, '2031-03-15')).find((row) => row.leave_type_id === study)!;
    expect(march).toMatchObject({ accrued: 3, remaining: 3 });
    expect(march.lines.map((l) => [l.date, l.days])).toEqual([['2031-01-01', 1], ['2031-02-01', 1], ['2031-03-01', 1]]);
    // Four days in early March: only three have accrued by then.
    const tooMany = await t.call('POST', '/api/leave-application', {
      token: people.colleague.token, body: { leave_type_id: study, from_date: '2031-03-03', to_date: '2031-03-06' },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.leave_type_id[0]).toBe('This leave needs 4 days of study but only 3 days remain for 2031.');
    await apply('colleague', { leave_type_id: study, from_date: '2031-06-02', to_date: '2031-06-05' });
  });
});

describe('the yearly rollover', () => {
  it('carries unused days up to the cap once, and they expire when not taken by the month chosen', async () => {
    await t.app.db.update(leaveTypes).set({ carry_forward_cap: 5, carry_forward_expiry_month: 3 }).where(eq(leaveTypes.id, type.annual));
    // 2020: 20 accrued, 12 taken: 8 unused, 5 carried.
    await approved('colleague', { from_date: '2020-06-01', to_date: '2020-06-16' });
    expect((await balanceOf('colleague', 2020)).remaining).toBe(8);

    // Two nodes schedule the same year's run: one job.
    const onlyRollover = recurringJobs.filter((job) => job.name === 'leave-rollover');
    for (const node of [createJobQueue(t.app, { recurring: onlyRollover }), createJobQueue(t.app, { recurring: onlyRollover })]) {
      await node.schedule(new Date('2021-01-01T12:00:00Z'));
      await node.schedule(new Date('2021-02-10T12:00:00Z'));
    }
    const queued = await t.app.db.select().from(jobs).where(eq(jobs.name, 'leave-rollover'));
    expect(queued.map((job) => job.unique_key)).toEqual(['leave-rollover:2021']);

    await runLeaveRollover(t.app, queued[0]);
    await runLeaveRollover(t.app, queued[0]);
    expect((await rollOverLeave(t.app.db, 2020)).carried).toBe(0);
    const carried = await t.app.db.select().from(leaveLedger)
      .where(and(eq(leaveLedger.user_id, people.colleague.id), eq(leaveLedger.year, 2021), eq(leaveLedger.kind, 'carried')));
    expect(carried).toHaveLength(1);
    expect(carried[0]).toMatchObject({ leave_type_id: type.annual, days: 5, effective_on: '2021-01-01', expires_on: '2021-03-31' });

    // Two days taken in February come out of the carried days; the other three expire after 31 March.
    await approved('colleague', { from_date: '2021-02-01', to_date: '2021-02-02' });
    const inMarch = (await ledgerOf(t.app.db, people.colleague.id, 2021, '2021-03-31')).find((row) => row.leave_type_id === type.annual)!;
    expect(inMarch).toMatchObject({ carried: 5, expired: 0, taken: 2, remaining: 23 });
    const ledger = await t.call('GET', `/api/leave-application/ledger?year=2021&user_id=${people.colleague.id}`, { token: people.admin.token });
    const annual = ledger.body.data.types.find((row: { leave_type_id: number }) => row.leave_type_id === type.annual);
    expect(annual).toMatchObject({ accrued: 20, carried: 5, expired: 3, taken: 2, remaining: 20 });
    expect(annual.lines.map((l: { kind: string; date: string; days: number }) => [l.kind, l.date, l.days])).toEqual([
      ['carried', '2021-01-01', 5], ['accrued', '2021-01-01', 20], ['taken', '2021-02-01', -2], ['expired', '2021-04-01', -3],
    ]);
    await t.app.db.update(leaveTypes).set({ carry_forward_cap: 0 }).where(eq(leaveTypes.id, type.annual));
  });
});
