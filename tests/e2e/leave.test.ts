// Leave as people meet it (issue 9): an engineer applies from their home (issue 28), seeing the balance
// left after the request, and finds it on the home with what it waits for;
// the manager's bell rings live; the manager approves with back fill arranged; the engineer's list
// shows the decision without a reload. Then the list and the team calendar at phone width.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAssignments, libraryDocuments } from '../../src/server/db/schema/compliance';
import { leaveApplications } from '../../src/server/db/schema/hr';
import { notifications } from '../../src/server/db/schema/notifications';
import { LEAVE_APPROVED_BACK_FILL, LEAVE_PENDING } from '../../src/shared/resources/leave-application';
import { goInApp, hasBrowser, hasNoSidewaysScroll, loginThroughForm, markPage, PASSWORD, type Stack, startStack, subscribed, wasNotReloaded } from './browser';

describe.skipIf(!hasBrowser)('leave applications in the browser', () => {
  let stack: Stack;
  let managerId: number;
  let engineerId: number;
  /** The engineer's page, signed in once in the first test and kept for the second (which runs after it). */
  let engineer: Awaited<ReturnType<Stack['newPage']>>;
  beforeAll(async () => {
    stack = await startStack();
    const manager = await stack.createUser({ email: 'manager@example.com', name: 'Maya Manager', user_type: 'manager' });
    managerId = manager.id;
    engineerId = (await stack.createUser({ email: 'engineer@example.com', name: 'Eli Engineer', user_type: 'user', parent_id: manager.id })).id;
    await stack.createUser({ email: 'teammate@example.com', name: 'Tara Teammate', user_type: 'user', parent_id: manager.id });
    // A policy for the engineer to read: their home says so.
    const [policy] = await stack.app.db.insert(libraryDocuments).values({ title: 'Code of conduct', category: 'compliance', action: 'acknowledge' }).returning();
    await stack.app.db.insert(documentAssignments).values({ document_id: policy.id, user_id: engineerId, due_date: '2030-01-31', status: 'pending', version: 1 });
  });
  afterAll(async () => { await stack?.close(); });

  it('an engineer applies, the manager is told live and approves with back fill arranged, the engineer sees it', async () => {
    // The manager waits on the dashboard, subscribed to their notification channel.
    const manager = await stack.newPage();
    const managerListening = subscribed(manager.page, `private-App.Models.User.${managerId}`);
    await loginThroughForm(manager.page, 'manager@example.com', PASSWORD);
    await manager.page.waitForURL('**/dashboard');
    await managerListening;
    await markPage(manager.page);
    expect(await manager.page.getByTestId('unread-count').count()).toBe(0);

    engineer = await stack.newPage();
    const engineerListening = subscribed(engineer.page, `private-App.Models.User.${engineerId}`);
    await loginThroughForm(engineer.page, 'engineer@example.com', PASSWORD);
    await engineer.page.waitForURL('**/dashboard');
    await engineerListening;
    const { page } = engineer;
    // The engineer's home (issue 28): their balances, a document to read, nothing of theirs waiting yet;
    // its quick action opens the form.
    const home = page.getByTestId('engineer-home');
    await home.getByTestId('leave-balances').getByRole('listitem').filter({ hasText: 'Annual' }).getByText('20 days left').waitFor();
    await home.getByText('Nothing of yours is waiting for anyone.').waitFor();
    await home.getByRole('link', { name: '1 document to read or return.' }).waitFor();
    await page.getByTestId('quick-actions').getByRole('link', { name: 'Apply for leave' }).click();
    await page.waitForURL('**/leave-application/create');

    // An engineer applies for themselves: no applicant field.
    expect(await page.getByLabel('Applicant').count()).toBe(0);
    await page.getByRole('button', { name: 'Show Leave Type choices' }).click();
    await page.getByRole('option', { name: 'Annual' }).click();
    // Mon 4 and Tue 5 March 2030: two working days of twenty.
    await page.locator('input[name="from_date"]').fill('2030-03-04');
    await page.locator('input[name="to_date"]').fill('2030-03-05');
    await expect.poll(() => page.getByTestId('remaining-after-request').textContent()).toBe('18 days');
    await page.getByRole('switch', { name: 'Half day on the last day' }).click();
    await expect.poll(() => page.getByTestId('remaining-after-request').textContent()).toBe('18.5 days');
    await page.getByRole('button', { name: 'Show Back-fill Person choices' }).click();
    await page.getByRole('option', { name: 'Tara Teammate' }).click();
    await page.getByLabel('Reason').fill('Sister\'s wedding');
    await page.getByRole('button', { name: 'Submit leave application' }).click();
    await page.waitForURL(/\/leave-application\/\d+$/);
    await page.getByText(LEAVE_PENDING).first().waitFor();
    const [saved] = await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.user_id, engineerId));
    expect(saved).toMatchObject({ days: 1.5, status: LEAVE_PENDING, is_half_day_end: true });

    // Home again: the leave with what it waits for, in the engineer's words; its link opens it.
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.waitForURL('**/dashboard');
    const mine = home.getByTestId('my-items').getByRole('link', { name: /Leave on 4–5 March 2030/ });
    await mine.getByText('Waits for your manager.').waitFor();
    await mine.getByText(LEAVE_PENDING, { exact: true }).waitFor();
    await mine.click();
    await page.waitForURL(`**/leave-application/${saved.id}`);

    // The engineer keeps the list open: the decision must arrive there without a reload.
    await page.getByRole('link', { name: /Back to leave applications/ }).click();
    await page.waitForURL('**/leave-application');
    await page.getByRole('table').getByText(LEAVE_PENDING).waitFor();
    await markPage(page);

    // The manager's bell counts it live, without a reload, and opens it.
    await expect.poll(() => manager.page.getByTestId('unread-count').textContent(), { timeout: 15_000 }).toBe('1');
    expect(await wasNotReloaded(manager.page)).toBe(true);
    await manager.page.getByRole('button', { name: /Notifications, 1 unread/ }).click();
    await manager.page.getByRole('button', { name: 'A leave application waits for you' }).click();
    await manager.page.waitForURL(`**/leave-application/${saved.id}`);
    await manager.page.getByRole('button', { name: 'Approve, back fill arranged' }).click();
    const dialog = manager.page.getByRole('dialog');
    // Issue 24: the dialog asks who covers, starting from the engineer's suggestion; the record keeps the name.
    await expect.poll(() => dialog.getByRole('combobox', { name: /Back-fill Person/ }).inputValue()).toBe('Tara Teammate');
    await dialog.getByRole('button', { name: 'Approve, back fill arranged' }).click();
    await manager.page.getByText('You approved the leave; the back fill is arranged.').first().waitFor();
    // Focus follows the decision to what it changed (decision 059): the status, which reads the new state, not the page.
    const status = manager.page.getByRole('region', { name: 'Status' });
    await status.getByText(LEAVE_APPROVED_BACK_FILL).waitFor();
    await expect.poll(() => status.evaluate((element) => element === document.activeElement)).toBe(true);
    const [decided] = await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.id, saved.id));
    expect(decided).toMatchObject({ status: LEAVE_APPROVED_BACK_FILL, back_fill_user_id: saved.back_fill_user_id });
    expect(decided.back_fill_user_id).not.toBeNull();

    // The engineer's list and bell update live.
    await page.getByRole('table').getByText(LEAVE_APPROVED_BACK_FILL).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('1');
    expect(await wasNotReloaded(page)).toBe(true);
    const told = await stack.app.db.select().from(notifications).where(eq(notifications.notifiable_id, engineerId));
    expect(told.map((n) => n.data.title)).toEqual(['Your leave was approved']);
    expect(manager.errors).toEqual([]);
    expect(engineer.errors).toEqual([]);
    await manager.context.close();
  });

  it('fits a phone: the list, the profile balance and the team calendar, which the keyboard can walk', async () => {
    // The engineer's page from the first test, still signed in, now at phone width.
    const { page, context, errors } = engineer;
    await page.setViewportSize({ width: 390, height: 844 });
    await goInApp(page, '/dashboard');
    await goInApp(page, '/leave-application');
    await page.getByText(LEAVE_APPROVED_BACK_FILL).first().waitFor();
    expect(await hasNoSidewaysScroll(page)).toBe(true);

    await goInApp(page, '/profile');
    const balance = page.getByRole('table', { name: /Leave balance/ });
    await balance.waitFor();
    expect(await balance.getByRole('row', { name: /Annual/ }).textContent()).toContain('20');
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    // Saved from the keyboard, the profile keeps the focus on Save: disabled while saving, it used to drop it to the page.
    const profileForm = page.getByRole('form', { name: 'Profile information' });
    await profileForm.getByLabel('Phone').fill('+44 7700 900123');
    await profileForm.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Profile updated successfully.').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save');

    await goInApp(page, '/leave-application');
    await page.getByRole('link', { name: 'Team calendar' }).click();
    await page.waitForURL('**/leave-application/calendar');
    await goInApp(page, '/leave-application/calendar?month=2030-03');
    const grid = page.getByRole('grid', { name: 'March 2030' });
    await grid.waitFor();
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    // From the 1st, the arrow keys walk to Tuesday 5 March, when Eli is away in the morning.
    await grid.locator('[tabindex="0"]').focus();
    expect(await grid.locator('[aria-selected="true"]').getAttribute('data-date')).toBe('2030-03-01');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-date'))).toBe('2030-03-05');
    const details = page.getByRole('region', { name: /Tuesday 2030-03-05/ });
    await details.getByText('Eli Engineer').waitFor();
    await details.getByText(/Morning · Annual/).waitFor();
    // Page Down moves to the same day next month, and the grid follows.
    await page.keyboard.press('PageDown');
    await page.getByRole('grid', { name: 'April 2030' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-date'))).toBe('2030-04-05');
    expect(errors).toEqual([]);
    await context.close();
  });
});
