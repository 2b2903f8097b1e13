// Issue 26 as an engineer with a patchy connection meets it, at phone width: offline, a leave application
// and an expense claim with a photo of the receipt wait in the outbox, shown in their lists; they survive
// closing the app; online again each is sent once; a second leave that overlaps comes back refused, is
// corrected from the outbox and sent. A manager's decision is unavailable offline and says why.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expenses, leaveApplications } from '../../src/server/db/schema/hr';
import { expenseCategories } from '../../src/server/db/schema/master-data';
import { attachments } from '../../src/server/db/schema/workflow';
import { hasBrowser, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

const waitForController = (page: Page) => page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 20_000 });
/** The first bytes of a JPEG (what the server checks), as a phone's camera would send one. */
const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(40_000, 7)]);

describe.skipIf(!hasBrowser)('the outbox for self-service actions', () => {
  let stack: Stack;
  let engineerId: number;
  beforeAll(async () => {
    stack = await startStack();
    const manager = await stack.createUser({ email: 'manager@example.com', name: 'Maya Manager', user_type: 'manager' });
    engineerId = (await stack.createUser({ email: 'engineer@example.com', name: 'Eli Engineer', user_type: 'user', parent_id: manager.id })).id;
    await stack.app.db.insert(expenseCategories).values({ name: 'Travel' });
  });
  afterAll(async () => { await stack?.close(); });

  const outboxLabel = (page: Page) => page.getByTestId('outbox-button').getAttribute('aria-label');

  it('keeps leave and an expense with a receipt offline, across a reload, sends each once, and has a refused one fixed', async () => {
    const { page, context } = await stack.newPage({ width: 390, height: 844 });
    await loginThroughForm(page, 'engineer@example.com', PASSWORD);
    await page.waitForURL('**/dashboard');
    await waitForController(page);
    // Online, the lists fetch the choices their forms will need offline.
    const leaveTypes = page.waitForResponse((response) => response.url().includes('/api/leave-type/options'));
    await page.goto('/leave-application');
    await leaveTypes;
    const categories = page.waitForResponse((response) => response.url().includes('/api/expense-category/options'));
    await page.goto('/expense');
    await categories;

    await context.setOffline(true);
    await page.goto('/leave-application/create');
    await page.getByRole('button', { name: 'Show Leave Type choices' }).click();
    await page.getByRole('option', { name: 'Annual' }).click();
    await page.locator('input[name="from_date"]').fill('2030-03-04');
    await page.locator('input[name="to_date"]').fill('2030-03-05');
    await page.getByRole('button', { name: 'Submit leave application' }).click();
    await page.getByText(/saved on this device/).first().waitFor();
    await page.waitForURL('**/leave-application');
    await page.getByTestId('queued-item').filter({ hasText: 'Leave from 2030-03-04 to 2030-03-05' }).getByText('Waiting to send').waitFor();

    await page.goto('/expense/create');
    await page.getByLabel('Description').fill('Taxi from the airport');
    await page.getByRole('button', { name: 'Show Category choices' }).click();
    await page.getByRole('option', { name: 'Travel' }).click();
    await page.locator('input[name="expense_date"]').fill('2030-03-02');
    await page.getByLabel('Amount').fill('1250.50');
    await page.getByLabel('Currency').selectOption('INR');
    await page.locator('input[type="file"]').first().setInputFiles({ name: 'receipt.jpg', mimeType: 'image/jpeg', buffer: PHOTO });
    await page.getByRole('button', { name: 'Create expense' }).click();
    await page.waitForURL('**/expense');
    await page.getByTestId('queued-item').filter({ hasText: 'Taxi from the airport' }).waitFor();

    // A second leave that overlaps the first: the server will refuse it.
    await page.goto('/leave-application/create');
    await page.getByRole('button', { name: 'Show Leave Type choices' }).click();
    await page.getByRole('option', { name: 'Annual' }).click();
    await page.locator('input[name="from_date"]').fill('2030-03-05');
    await page.locator('input[name="to_date"]').fill('2030-03-06');
    await page.getByRole('button', { name: 'Submit leave application' }).click();
    await page.waitForURL('**/leave-application');

    // Closed and opened again, still offline: all three wait, in their lists and in the outbox with their size.
    await page.reload();
    await expect.poll(() => outboxLabel(page)).toMatch(/3 waiting to send/);
    await page.getByTestId('queued-item').filter({ hasText: 'Leave from 2030-03-05 to 2030-03-06' }).waitFor();
    await page.getByTestId('outbox-button').click();
    await page.getByTestId('outbox-list').getByText(/KB/).first().waitFor();
    await page.keyboard.press('Escape');
    expect(await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.user_id, engineerId))).toHaveLength(0);

    await context.setOffline(false);
    await expect.poll(() => outboxLabel(page), { timeout: 30_000 }).toMatch(/0 waiting to send, 1 not sent/);
    const leaves = await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.user_id, engineerId));
    expect(leaves.map((leave) => String(leave.from_date).slice(0, 10))).toEqual(['2030-03-04']);
    const claims = await stack.app.db.select().from(expenses).where(eq(expenses.user_id, engineerId));
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ description: 'Taxi from the airport', amount: 1250.5 });
    const receipts = await stack.app.db.select().from(attachments).where(eq(attachments.record_id, claims[0].id));
    expect(receipts.map((file) => file.name)).toContain('receipt.jpg');

    // The refusal stays with the server's message and opens in its form.
    await page.getByTestId('outbox-button').click();
    await page.getByRole('link', { name: 'Fix', exact: true }).click();
    await page.getByText('Not sent.').waitFor();
    await expect.poll(() => page.locator('input[name="from_date"]').inputValue()).toBe('2030-03-05');
    await page.locator('input[name="from_date"]').fill('2030-03-10');
    await page.locator('input[name="to_date"]').fill('2030-03-11');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.user_id, engineerId))).length, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => page.getByTestId('outbox-button').count()).toBe(0);
    const after = await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.user_id, engineerId));
    expect(after.map((leave) => String(leave.from_date).slice(0, 10)).sort()).toEqual(['2030-03-04', '2030-03-10']);
    expect(await stack.app.db.select().from(expenses).where(eq(expenses.user_id, engineerId))).toHaveLength(1);
    await context.close();
  });

  it('offline, a manager\'s decision is unavailable and says why', async () => {
    const { page, context } = await stack.newPage();
    await loginThroughForm(page, 'manager@example.com', PASSWORD);
    await page.waitForURL('**/dashboard');
    await waitForController(page);
    const [leave] = await stack.app.db.select().from(leaveApplications).where(eq(leaveApplications.user_id, engineerId));
    await page.goto(`/leave-application/${leave.id}`);
    const reject = page.getByRole('button', { name: 'Reject', exact: true });
    await reject.waitFor();
    expect(await reject.isDisabled()).toBe(false);
    await context.setOffline(true);
    await expect.poll(() => reject.isDisabled()).toBe(true);
    await page.getByText(/Decisions need the record as it is now/).waitFor();
    await context.close();
  });
});
