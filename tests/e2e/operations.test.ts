// Issue 13 as people meet it: a manager opens an onboarding whose checklist already has an overdue
// task, the assignee ticks it on a phone in dark mode; a contract is recorded and renewed with a new
// PO; the user manual is searched, signed out on a phone (dark) and from the profile menu on a
// desktop. With SCREENSHOTS=1 the screens are saved into /tmp/operations-shots/ for a human look.
import { mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema/master-data';
import { contracts, onboardingTasks, onboardingTemplates } from '../../src/server/db/schema/onboarding';
import { addDays, today } from '../../src/shared/dates';
import { goInApp, hasBrowser, loginThroughForm, PASSWORD, PDF, type Stack, startStack } from './browser';

const SHOTS = '/tmp/operations-shots';
const phone = { width: 390, height: 844 };

async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe.skipIf(!hasBrowser)('operations in the browser', () => {
  let stack: Stack;
  /** The manager's desktop page, signed in by the onboarding journey and kept for the manual at its end. */
  let managerPage: Awaited<ReturnType<Stack['newPage']>> | undefined;
  beforeAll(async () => {
    if (process.env.SCREENSHOTS) mkdirSync(SHOTS, { recursive: true });
    stack = await startStack();
    const manager = await stack.createUser({ email: 'manager@example.com', name: 'Maya Manager', user_type: 'manager' });
    const it = await stack.createUser({ email: 'it@example.com', name: 'Ivan IT', user_type: 'user', parent_id: manager.id });
    await stack.createUser({ email: 'admin2@example.com', name: 'Ada Admin', user_type: 'admin' }, ['admin']);
    await stack.app.db.insert(clients).values({ name: 'Contoso' });
    await stack.app.db.insert(onboardingTemplates).values([
      { phase: 'onboarding', title: 'Issue the laptop', due_after_days: 1, assignee_id: it.id, sort_order: 1 },
      { phase: 'onboarding', title: 'Client induction', due_after_days: 30, sort_order: 2 },
    ]);
  });
  afterAll(async () => { await stack?.close(); });

  const signIn = async (email: string, options?: Parameters<Stack['newPage']>[0]) => {
    const opened = await stack.newPage(options);
    await loginThroughForm(opened.page, email, PASSWORD);
    await opened.page.waitForURL('**/dashboard');
    return opened;
  };

  /** A transition's button, confirmed in its dialog. */
  const decide = async (page: Page, label: string, confirm: string) => {
    await page.getByRole('button', { name: label }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: confirm, exact: true }).click();
  };

  it('shows an onboarding with an overdue task, which its assignee ticks on a phone', async () => {
    const started = addDays(today(), -4);
    const manager = await signIn('manager@example.com');
    const { page, errors } = manager;
    await goInApp(page, '/onboarding');
    await page.getByText('No onboardings').or(page.getByText(/no .*yet/i)).first().waitFor().catch(() => {});
    await page.getByRole('link', { name: 'Add an onboarding' }).first().click();
    await page.waitForURL('**/onboarding/create');
    await page.getByLabel('Name').fill('Asha Rao');
    await page.locator('input[name="start_date"]').fill(started);
    await page.getByRole('button', { name: 'Create onboarding' }).click();
    await page.getByText('Onboarding created successfully.').waitFor();
    await page.waitForURL(/\/onboarding\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Onboarding is in progress').first().waitFor();
    // The checklist, copied from the templates: the laptop was due 3 days ago.
    const checklist = page.getByRole('region', { name: 'Checklist' }).or(page.locator('section', { hasText: 'Checklist' })).last();
    await checklist.getByText('Issue the laptop').first().waitFor();
    await checklist.getByText('3 days late').first().waitFor();
    // Issue 24: a late task says how late, never beside a countdown that contradicts it.
    expect(await checklist.getByText(/day\(s\)|days? left/).count()).toBe(0);
    await shoot(page, 'onboarding-desktop-light');
    // Not onboarded while the checklist is open.
    await decide(page, 'Mark onboarded', 'Mark onboarded');
    await page.getByText('2 onboarding tasks are not done yet.').first().waitFor();
    await page.keyboard.press('Escape');
    // The list flags it.
    await goInApp(page, '/onboarding');
    await page.getByText('1 overdue').first().waitFor();
    await shoot(page, 'onboarding-list-desktop-light');
    expect(errors).toEqual([]);
    managerPage = manager;

    const assignee = await signIn('it@example.com', { ...phone, colorScheme: 'dark' });
    await goInApp(assignee.page, `/onboarding/${id}`);
    await assignee.page.getByText('Issue the laptop').first().waitFor();
    // Only their own task on the checklist, with its tick.
    expect(await assignee.page.getByText('Client induction').count()).toBe(0);
    await shoot(assignee.page, 'onboarding-phone-dark');
    await decide(assignee.page, 'Mark done Issue the laptop', 'Mark done');
    await assignee.page.getByRole('dialog').waitFor({ state: 'hidden' });
    await assignee.page.getByText('Done', { exact: true }).first().waitFor();
    const [task] = await stack.app.db.select().from(onboardingTasks).where(eq(onboardingTasks.onboarding_id, id));
    expect(task).toMatchObject({ title: 'Issue the laptop', status: 'done', completion_date: today() });
    // Done 3 days late: still 3 days overdue, no longer red.
    expect(await assignee.page.getByText('3 days late').count()).toBe(0);
    expect(assignee.errors).toEqual([]);
    await assignee.context.close();
  });

  it('records a contract and renews it with a new PO', async () => {
    const { page, context, errors } = await signIn('admin2@example.com', { colorScheme: 'dark' });
    await goInApp(page, '/contract/create');
    await page.getByLabel('PO number').fill('PO-2026-0042');
    await page.getByRole('button', { name: 'Show Client choices' }).click();
    await page.getByRole('option', { name: 'Contoso' }).click();
    await page.locator('input[name="start_date"]').fill('2026-01-01');
    await page.locator('input[name="end_date"]').fill(addDays(today(), 10));
    await page.getByLabel('Value').fill('120000');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByRole('button', { name: 'Create contract' }).click();
    await page.getByText('Contract created successfully.').waitFor();
    await page.waitForURL(/\/contract\/\d+$/);
    const oldId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Active', { exact: true }).first().waitFor();
    await shoot(page, 'contract-desktop-dark');

    await page.getByRole('button', { name: 'Release new PO' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New PO number').fill('PO-2027-0007');
    // The new PO starts the day after the old one ends, as the form proposes.
    expect(await dialog.locator('input[name="start_date"]').inputValue()).toBe(addDays(today(), 11));
    await dialog.locator('input[name="end_date"]').fill(addDays(today(), 376));
    // A PO number already used is refused under its field.
    await dialog.getByLabel('Value').fill('130000');
    await dialog.getByLabel('New PO number').fill('PO-2026-0042');
    await dialog.getByRole('button', { name: 'Release new PO' }).click();
    await dialog.getByText('The PO number has already been taken.').waitFor();
    await dialog.getByLabel('New PO number').fill('PO-2027-0007');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'po-2027.pdf', mimeType: 'application/pdf', buffer: PDF });
    await shoot(page, 'contract-new-po-dialog-dark');
    await dialog.getByRole('button', { name: 'Release new PO' }).click();
    await page.getByText(`PO PO-2027-0007 released; it starts on ${addDays(today(), 11)}.`).waitFor();
    await page.waitForURL((url) => /\/contract\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${oldId}`));
    await page.getByRole('heading', { name: 'PO-2027-0007' }).waitFor();
    await page.getByText(`Starts on ${addDays(today(), 11)}`).first().waitFor();
    await page.getByText('po-2027.pdf').first().waitFor();
    const rows = await stack.app.db.select().from(contracts);
    // The old PO runs until its end date; the expiry moves it on then.
    expect(rows.map((row) => [row.po_number, row.status]).sort()).toEqual([['PO-2026-0042', 'Active'], ['PO-2027-0007', 'Active']]);

    await goInApp(page, `/contract/${oldId}`);
    await page.getByText('Renewed by PO-2027-0007').first().waitFor();
    expect(await page.getByRole('button', { name: 'Release new PO' }).count()).toBe(0);
    expect(errors).toEqual([]);

    // The list on a phone, light: the same session, loaded again at that size and scheme (the load reads both).
    await page.setViewportSize(phone);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/contract');
    await page.getByText('PO-2027-0007').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await shoot(page, 'contract-list-phone-light');
    await context.close();
  });

  it('searches the manual, signed out on a phone and from the profile menu on a desktop', async () => {
    const { page, context, errors } = await stack.newPage({ ...phone, colorScheme: 'dark' });
    await page.goto('/user-manual');
    await page.getByRole('heading', { name: 'PMO User Manual' }).waitFor();
    const all = await page.locator('article').count();
    expect(all).toBeGreaterThan(25);
    await page.getByLabel('Search the manual').fill('new PO');
    await page.getByText(/sections match “new PO”/).waitFor();
    const matching = await page.locator('article').count();
    expect(matching).toBeGreaterThan(0);
    expect(matching).toBeLessThan(all);
    await page.getByRole('heading', { name: 'Contract', exact: true }).waitFor();
    expect(await page.locator('article#operations-contract mark').count()).toBeGreaterThan(0);
    await shoot(page, 'manual-phone-dark');
    await page.getByLabel('Search the manual').fill('zebra crossing');
    await page.getByText('Nothing in the manual matches “zebra crossing”.').waitFor();
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await expect.poll(() => page.locator('article').count()).toBe(all);
    expect(errors).toEqual([]);
    await context.close();

    // The manager still signed in at a desk from the onboarding (else, run alone, a sign-in).
    const signedIn = managerPage ?? await signIn('manager@example.com');
    await signedIn.page.getByRole('button', { name: /user menu/ }).click();
    await signedIn.page.getByRole('menuitem', { name: 'User manual' }).click();
    await signedIn.page.waitForURL('**/user-manual');
    await signedIn.page.getByLabel('Search the manual').fill('overdue');
    await signedIn.page.getByRole('heading', { name: 'Onboarding', exact: true }).waitFor();
    await shoot(signedIn.page, 'manual-desktop-light');
    await signedIn.page.getByRole('link', { name: 'Back to the dashboard' }).waitFor();
    await signedIn.context.close();
  });
});
