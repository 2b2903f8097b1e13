// Issue 28, leave: an engineer cancels an approved leave that has not started and ends a started one
// early, each with a reason the manager is told; then reads their ledger, where the days came back.
// Then approvals while away (decisions 036 and 041): the manager hands their approvals to another
// manager, who is told, decides the engineer's leave on their behalf, and loses the power once the
// manager takes it back.
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delegations } from '../../src/server/db/schema/delegations';
import { leaveApplications, leaveTypes } from '../../src/server/db/schema/hr';
import { notifications } from '../../src/server/db/schema/notifications';
import { leaveDays } from '../../src/server/modules/leave/service';
import { addDays, today } from '../../src/shared/dates';
import { LEAVE_APPROVED_NO_BACK_FILL, LEAVE_PENDING, LEAVE_REJECTED } from '../../src/shared/resources/leave-application';
import { dayName, daySpan } from '../../src/shared/resources/offline-words';
import { closeToasts, goInApp, hasBrowser, hasNoSidewaysScroll, loginThroughForm, PASSWORD, type Stack, startStack, subscribed } from './browser';

type Opened = Awaited<ReturnType<Stack['newPage']>>;

describe.skipIf(!hasBrowser)('changing approved leave in the browser', () => {
  let stack: Stack;
  let managerId: number;
  let engineerId: number;
  let deputyId: number;
  let annualId: number;
  /** The manager's page, signed in at the end of the first journey and kept for the second (which runs after it). */
  let managerPage: Opened | undefined;
  const leaves = { future: 0, started: 0 };
  const thisYear = Number(today().slice(0, 4));
  // A leave that started three days ago and runs ten days, within this year (balances are per year).
  const startedFrom = addDays(today(), -3) < `${thisYear}-01-01` ? `${thisYear}-01-01` : addDays(today(), -3);
  const startedTo = addDays(startedFrom, 10) > `${thisYear}-12-31` ? `${thisYear}-12-31` : addDays(startedFrom, 10);
  const newLastDay = addDays(startedFrom, 2);

  beforeAll(async () => {
    stack = await startStack();
    managerId = (await stack.createUser({ email: 'manager@example.com', name: 'Maya Manager', user_type: 'manager' })).id;
    engineerId = (await stack.createUser({ email: 'engineer@example.com', name: 'Eli Engineer', user_type: 'user', parent_id: managerId })).id;
    deputyId = (await stack.createUser({ email: 'deputy@example.com', name: 'Dana Deputy', user_type: 'manager' })).id;
    const [annual] = await stack.app.db.select().from(leaveTypes).where(eq(leaveTypes.name, 'Annual'));
    annualId = annual.id;
    const approved = async (from: string, to: string) => {
      const counted = await leaveDays(stack.app.db, { id: engineerId }, { from_date: from, to_date: to, is_half_day_start: false, is_half_day_end: false });
      if ('errors' in counted) throw new Error(JSON.stringify(counted.errors));
      const [row] = await stack.app.db.insert(leaveApplications).values({
        user_id: engineerId, leave_type_id: annual.id, from_date: from, to_date: to, days: counted.days,
        status: LEAVE_APPROVED_NO_BACK_FILL, created_by: engineerId, decided_by: managerId, decided_at: new Date(),
      }).returning();
      return row.id;
    };
    leaves.future = await approved(`${thisYear + 1}-02-01`, `${thisYear + 1}-02-05`);
    leaves.started = await approved(startedFrom, startedTo);
  });
  afterAll(async () => { await stack?.close(); });
  /** A person at a new phone-sized browser, signed in through the form. */
  const signInOnPhone = async (email: string) => {
    const opened = await stack.newPage({ width: 390, height: 844 });
    await loginThroughForm(opened.page, email, PASSWORD);
    await opened.page.waitForURL('**/dashboard');
    return opened;
  };

  it('cancels a future leave, ends a started one early, and the ledger shows the days back; the manager is told why', async () => {
    const { page, context, errors } = await stack.newPage();
    await loginThroughForm(page, 'engineer@example.com', PASSWORD);
    await page.waitForURL('**/dashboard');

    // Cancel: the reason is asked for and required.
    await goInApp(page, `/leave-application/${leaves.future}`);
    await page.getByRole('button', { name: 'Cancel leave' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Cancel your annual leave from .* Its \d+ days return to your balance\./).waitFor();
    await dialog.getByLabel('Comment').fill('The client moved the go-live into February.');
    await dialog.getByRole('button', { name: 'Cancel leave' }).click();
    await page.getByText('You cancelled the approved leave.').first().waitFor();
    await expect.poll(async () => (await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.id, leaves.future)))[0].status).toBe(LEAVE_REJECTED);

    // End early: the new last day and the reason.
    await goInApp(page, `/leave-application/${leaves.started}`);
    await page.getByRole('button', { name: 'End leave early' }).first().click();
    const ending = page.getByRole('dialog');
    await ending.locator('input[name="to_date"]').fill(newLastDay);
    await ending.getByLabel('Comment').fill('The project needed me back.');
    await ending.getByRole('button', { name: 'End leave early' }).click();
    await page.getByText('You ended the leave early.').first().waitFor();
    const [ended] = await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.id, leaves.started));
    expect(ended.to_date).toBe(newLastDay);

    // The ledger, from the leave list: the shortened leave is the only one taken this year.
    await goInApp(page, '/leave-application');
    await page.getByRole('link', { name: 'Leave ledger' }).click();
    await page.waitForURL('**/leave-application/ledger');
    const annual = page.getByRole('table', { name: 'Annual leave' });
    await annual.waitFor();
    await annual.getByRole('row', { name: new RegExp(`Taken Leave from ${startedFrom} to ${newLastDay}`) }).waitFor();
    expect(await annual.getByRole('row', { name: /Taken/ }).count()).toBe(1);
    await page.getByText(`${20 - ended.days} days remaining.`).first().waitFor();
    expect(await hasNoSidewaysScroll(page)).toBe(true);

    // The manager is told each change in a sentence with the reason, and the bell has both.
    const told = await stack.app.db.select().from(notifications).where(eq(notifications.notifiable_id, managerId));
    expect(told.map((n) => n.data.title).sort()).toEqual(['A leave was ended early', 'An approved leave was cancelled']);
    expect(told.find((n) => n.data.title === 'An approved leave was cancelled')?.data.message).toContain('Eli Engineer wrote: “The client moved the go-live into February.”');
    // The manager, on a phone: the engineer signs out of this browser and the manager signs in through the
    // form (a new context and its first load cost Chromium more than the two).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: /user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const manager = { page, errors };
    await page.getByLabel('Email').fill('manager@example.com');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await manager.page.waitForURL('**/dashboard');
    await expect.poll(() => manager.page.getByTestId('unread-count').textContent()).toBe('2');
    // The manager reads the engineer's ledger too.
    await goInApp(manager.page, `/leave-application/ledger?user_id=${engineerId}`);
    await manager.page.getByRole('heading', { name: `Eli Engineer's leave in ${thisYear}` }).waitFor();
    expect(await hasNoSidewaysScroll(manager.page)).toBe(true);
    expect(errors).toEqual([]);
    managerPage = { page, context, errors };
  });

  it('hands the approvals over while away: the other manager is told, decides on the manager\'s behalf, and not once they are taken back', async () => {
    const lastDay = addDays(today(), 3);
    // Eli's applications reach the server as the leave form sends them.
    const login = await stack.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'engineer@example.com', password: PASSWORD } });
    const authorization = `Bearer ${login.json<{ access_token: string }>().access_token}`;
    const applyThroughServer = async (from: string, to: string) => {
      const answer = await stack.app.inject({
        method: 'POST', url: '/api/leave-application', headers: { authorization },
        payload: { leave_type_id: annualId, from_date: from, to_date: to, reason: 'Family visit' },
      });
      expect(answer.statusCode, answer.body).toBe(201);
      return answer.json<{ data: { id: number } }>().data.id;
    };

    // The other manager waits on their dashboard, listening for their news.
    const deputy = await stack.newPage();
    const deputyListening = subscribed(deputy.page, `private-App.Models.User.${deputyId}`);
    await loginThroughForm(deputy.page, 'deputy@example.com', PASSWORD);
    await deputy.page.waitForURL('**/dashboard');
    await deputyListening;
    const deputyUnread = deputy.page.getByTestId('unread-count');

    // The manager, on their phone from the journey before (signed in now when this one runs alone), opens the screen from the menu.
    const manager = managerPage ?? await signInOnPhone('manager@example.com');
    const { page } = manager;
    // The last decision's toast lies over the phone's menu.
    await closeToasts(page);
    // A phone folds the menu away: open it as a person would.
    const menuToggle = page.getByTestId('sidebar-toggle');
    if (await menuToggle.getAttribute('aria-expanded') === 'false') await menuToggle.click();
    await page.locator('#sidebar').getByRole('link', { name: 'Approvals While Away' }).click();
    await page.waitForURL('**/delegation');
    await page.getByText('Your approvals are yours, and nobody has handed theirs to you.').waitFor();

    // From today through the next three days, to Dana, with a note.
    const firstDay = page.locator('input[name="starts_on"]');
    expect(await firstDay.inputValue()).toBe(today());
    await page.getByRole('button', { name: 'Show Manager who decides for you choices' }).click();
    await page.getByRole('option', { name: 'Dana Deputy' }).click();
    await page.locator('input[name="ends_on"]').fill(lastDay);
    await page.locator('textarea[name="note"]').fill('Only Eli\'s leave is open.');
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    await page.getByRole('button', { name: 'Hand over' }).click();
    await page.getByText(`Dana Deputy will decide your approvals on ${daySpan(today(), lastDay)}.`).first().waitFor();
    const given = page.getByRole('region', { name: 'Your approvals, handed over' });
    await given.getByText(`Dana Deputy decides your approvals until ${dayName(lastDay)}.`).waitFor();
    await given.getByText('In force', { exact: true }).waitFor();

    // Dana is told live; the news opens the hand-over.
    await expect.poll(() => deputyUnread.textContent(), { timeout: 15_000 }).toBe('1');
    await deputy.page.getByRole('button', { name: /Notifications, 1 unread/ }).click();
    await deputy.page.getByRole('button', { name: /Approvals handed to you.*Maya Manager has handed their approvals to you/ }).click();
    await deputy.page.waitForURL(/\/delegation#hand-over-\d+$/);
    const received = deputy.page.getByRole('region', { name: 'Approvals handed to you' });
    await received.getByText(`You decide Maya Manager's approvals until ${dayName(lastDay)}.`).waitFor();
    await received.getByText('In force', { exact: true }).waitFor();
    await received.getByText('Note: Only Eli\'s leave is open.').waitFor();
    await expect.poll(() => deputyUnread.count()).toBe(0);

    // Eli applies: Dana hears it live as Maya does, standing in for her; it waits in her list, and she approves it.
    const waiting = await applyThroughServer('2030-03-04', '2030-03-05');
    await deputy.page.getByTestId('realtime-toast').getByText('A leave application waits for you').waitFor({ timeout: 15_000 });
    await expect.poll(() => deputyUnread.textContent(), { timeout: 15_000 }).toBe('1');
    const [heard] = await stack.app.db.select().from(notifications).where(and(eq(notifications.notifiable_id, deputyId), isNull(notifications.read_at)));
    expect(heard.data.message).toBe('Eli Engineer applied for annual leave from 2030-03-04 to 2030-03-05 (2 days). Decide it and arrange the back fill. You are standing in for Maya Manager, who is away.');
    await deputy.page.locator('#sidebar').getByRole('link', { name: 'Leave Application' }).click();
    await deputy.page.waitForURL('**/leave-application');
    await deputy.page.getByRole('table').getByRole('row').filter({ hasText: 'Eli Engineer' }).filter({ hasText: LEAVE_PENDING }).waitFor();
    await goInApp(deputy.page, `/leave-application/${waiting}`);
    await deputy.page.getByText(LEAVE_PENDING).first().waitFor();
    await deputy.page.getByRole('button', { name: 'Approve, no back fill' }).click();
    const decision = deputy.page.getByRole('dialog');
    await decision.getByText(/Approve Eli Engineer.s annual leave from 2030-03-04 to 2030-03-05, with no back fill needed\?/).waitFor();
    await decision.getByRole('button', { name: 'Approve, no back fill' }).click();
    await deputy.page.getByText('You, on behalf of Maya Manager, approved the leave; no back fill is needed.').first().waitFor();
    await deputy.page.getByText('Dana Deputy, on behalf of Maya Manager, approved the leave; no back fill is needed').first().waitFor();
    const [decided] = await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.id, waiting));
    expect(decided.status).toBe(LEAVE_APPROVED_NO_BACK_FILL);

    // A second hand-over sharing a day with the first is refused, in a sentence under its first day.
    expect(await firstDay.inputValue()).toBe(addDays(lastDay, 1));
    await page.getByRole('button', { name: 'Show Manager who decides for you choices' }).click();
    await page.getByRole('option', { name: 'Dana Deputy' }).click();
    await firstDay.fill(addDays(today(), 2));
    await page.getByRole('button', { name: 'Hand over' }).click();
    const refusal = `You have already handed over your approvals to Dana Deputy from ${dayName(today())} to ${dayName(lastDay)}. Choose other days, or withdraw that hand-over first.`;
    await page.getByText(refusal).waitFor();
    const describedBy = await firstDay.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(refusal);
    expect(await stack.app.db.select().from(delegations).where(eq(delegations.manager_id, managerId))).toHaveLength(1);

    // Maya takes her approvals back, behind a confirmation.
    await given.getByRole('button', { name: 'Withdraw' }).click();
    const confirmation = page.getByRole('dialog');
    await confirmation.getByText('Dana Deputy will no longer decide your approvals, and is told so.').waitFor();
    await confirmation.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByText('You decide your approvals again.').first().waitFor();
    await given.waitFor({ state: 'detached' });
    expect(await hasNoSidewaysScroll(page)).toBe(true);

    // Dana is told (beside the news of the leave she opened from her list), and Eli's next application is not hers to see or decide.
    await expect.poll(() => deputyUnread.textContent(), { timeout: 15_000 }).toBe('2');
    const later = await applyThroughServer('2030-04-01', '2030-04-02');
    await goInApp(deputy.page, `/leave-application/${later}`);
    await deputy.page.getByText('The leave application may have been deleted.').waitFor();
    expect(await deputy.page.getByRole('button', { name: /Approve|Reject|Record as taken/ }).count()).toBe(0);
    const told = await stack.app.db.select().from(notifications).where(eq(notifications.notifiable_id, deputyId)).orderBy(asc(notifications.created_at));
    expect(told.map((n) => n.data.title)).toEqual(['Approvals handed to you', 'A leave application waits for you', 'Approvals taken back']);
    expect(told.at(-1)?.data.message).toBe('Maya Manager has taken their approvals back: you no longer decide them.');
    expect(manager.errors).toEqual([]);
    expect(deputy.errors).toEqual([]);
    await deputy.context.close();
    await manager.context.close();
  });
});
