// Issue 28, leave: an engineer cancels an approved leave that has not started and ends a started one
// early, each with a reason the manager is told; then reads their ledger, where the days came back.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveApplications, leaveTypes } from '../../src/server/db/schema/hr';
import { notifications } from '../../src/server/db/schema/notifications';
import { leaveDays } from '../../src/server/modules/leave/service';
import { addDays, today } from '../../src/shared/dates';
import { LEAVE_APPROVED_NO_BACK_FILL, LEAVE_REJECTED } from '../../src/shared/resources/leave-application';
import { goInApp, hasBrowser, hasNoSidewaysScroll, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('changing approved leave in the browser', () => {
  let stack: Stack;
  let managerId: number;
  let engineerId: number;
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
    const [annual] = await stack.app.db.select().from(leaveTypes).where(eq(leaveTypes.name, 'Annual'));
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
    await context.close();
  });
});
