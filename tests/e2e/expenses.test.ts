// Issue 9 as people meet it: an engineer files an expense with a receipt through the generic form
// (opened from their home's quick action, where the claim then shows with what it waits for: issue 28),
// their manager approves it, finance reviews and approves it, and the engineer sees it approved;
// then (issue 21) finance pays it in a reimbursement batch with the bank CSV, and the engineer sees
// it Reimbursed; the list (with its totals) and the detail page at phone width.
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expenses } from '../../src/server/db/schema/hr';
import { expenseCategories } from '../../src/server/db/schema/master-data';
import { goInApp, hasBrowser, loginThroughForm, PASSWORD, PDF, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('expenses in the browser', () => {
  let stack: Stack;
  let engineerId: number;
  /** The claim the first test takes to Approved; the second pays it. */
  let approvedId = 0;
  /**
   * The engineer's and finance's pages, signed in once in the first test and kept for the next ones (a
   * new browser context and a sign-in cost Chromium about four in-app moves): the tests run in order.
   */
  let engineer: Awaited<ReturnType<Stack['newPage']>>;
  let finance: Awaited<ReturnType<Stack['newPage']>>;
  beforeAll(async () => {
    stack = await startStack();
    const manager = await stack.createUser({ email: 'manager@example.com', name: 'Maya Manager', user_type: 'manager' });
    engineerId = (await stack.createUser({ email: 'engineer@example.com', name: 'Eli Engineer', user_type: 'user', parent_id: manager.id })).id;
    await stack.createUser({ email: 'finance@example.com', name: 'Fiona Finance', user_type: 'user' }, ['finance']);
    await stack.app.db.insert(expenseCategories).values({ name: 'Travel' });
  });
  afterAll(async () => { await stack?.close(); });

  const signIn = async (email: string, size?: { width: number; height: number }) => {
    const opened = await stack.newPage(size);
    await loginThroughForm(opened.page, email, PASSWORD);
    await opened.page.waitForURL('**/dashboard');
    return opened;
  };

  /** Takes a transition from the detail page's buttons, confirmed in its dialog (optional comment left empty). */
  const decide = async (page: Page, label: string, state: string) => {
    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: label, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: label, exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(state, { exact: true }).first().waitFor();
  };

  it('goes from the engineer\'s form through the manager and finance to approved', async () => {
    engineer = await signIn('engineer@example.com');
    const { page } = engineer;
    // From the engineer's home (issue 28): its quick action opens the form.
    await page.getByTestId('quick-actions').getByRole('link', { name: 'File an expense' }).click();
    await page.waitForURL('**/expense/create');
    // The receipt rule is said before it bites.
    await page.getByText(/need at least one receipt/).waitFor();
    await page.getByLabel('Description').fill('Taxi from the airport');
    await page.getByRole('button', { name: 'Show Category choices' }).click();
    await page.getByRole('option', { name: 'Travel' }).click();
    await page.locator('input[name="expense_date"]').fill('2026-03-02');
    await page.getByLabel('Amount').fill('1250.50');
    await page.getByLabel('Currency').selectOption('INR');
    await page.locator('input[type="file"]').first().setInputFiles({ name: 'taxi.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByRole('button', { name: 'Create expense' }).click();
    await page.getByText('Expense created successfully.').waitFor();
    await page.waitForURL(/\/expense\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Waiting for the manager').first().waitFor();
    await page.getByText('taxi.pdf').first().waitFor();
    // Nothing for the claimant to decide.
    expect(await page.getByRole('button', { name: 'Approve', exact: true }).count()).toBe(0);
    const [row] = await stack.app.db.select().from(expenses).where(eq(expenses.id, id));
    expect(row).toMatchObject({ user_id: engineerId, amount: 1250.5, currency: 'INR', status: 'pending' });

    const manager = await signIn('manager@example.com');
    await goInApp(manager.page, `/expense/${id}`);
    await manager.page.getByRole('heading', { name: 'Taxi from the airport' }).waitFor();
    await decide(manager.page, 'Approve', 'Approved by manager');
    await manager.context.close();

    finance = await signIn('finance@example.com');
    await goInApp(finance.page, `/expense/${id}`);
    await decide(finance.page, 'Mark reviewed', 'Reviewed by accounting');
    await decide(finance.page, 'Approve', 'Approved');

    // The engineer's home holds the claim, approved, and says what comes next.
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
    await page.waitForURL('**/dashboard');
    const onHome = page.getByTestId('my-items').getByRole('link', { name: /“Taxi from the airport”, INR\s1,250\.50 on 2 March 2026/ });
    await onHome.getByText('Approved: it waits to be reimbursed.').waitFor();
    await onHome.getByText('Approved', { exact: true }).waitFor();
    await goInApp(page, '/expense');
    const listed = page.getByRole('table').getByRole('row').filter({ hasText: 'Taxi from the airport' });
    await listed.getByText('Approved', { exact: true }).waitFor();
    // The totals above the list count it.
    await page.getByRole('region', { name: 'Totals of the listed expenses' }).getByText(/^INR\s1,250\.50$/).waitFor();
    expect((await stack.app.db.select().from(expenses).where(eq(expenses.id, id)))[0].status).toBe('approved');
    expect(engineer.errors).toEqual([]);
    approvedId = id;
  });

  it('is paid by finance in a reimbursement batch: bank details added, the bank CSV downloaded, marked paid, Reimbursed', async () => {
    expect(approvedId).toBeGreaterThan(0);
    // Finance's page from the first test, still signed in.
    const { page } = finance;
    await goInApp(page, '/expense/reimbursement');
    await page.getByRole('link', { name: 'New batch' }).click();
    await page.waitForURL('**/expense/reimbursement/create');
    await page.getByRole('checkbox', { name: 'Select Taxi from the airport of Eli Engineer' }).check();
    await page.getByRole('region', { name: 'Selected claims' }).getByText(/no bank details yet/).waitFor();
    await page.getByRole('button', { name: 'Make batch' }).click();
    await page.waitForURL(/\/expense\/reimbursement\/\d+$/);
    const batchId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText(/Eli Engineer has no bank details yet, so the batch can be neither downloaded nor paid/).waitFor();

    // Finance adds the payee's bank details from the batch; the IBAN is checked.
    await page.getByRole('button', { name: 'Add bank details' }).click();
    const bank = page.getByRole('dialog');
    await bank.getByLabel('IBAN or account number').fill('GB82 WEST 1234 5698 7654 33');
    await bank.getByRole('button', { name: 'Save bank details' }).click();
    await bank.getByText('This IBAN is not valid: check it for a mistyped character.').waitFor();
    await bank.getByLabel('IBAN or account number').fill('GB82 WEST 1234 5698 7654 32');
    await bank.getByLabel('BIC or sort code').fill('WESTGB2L');
    await bank.getByRole('button', { name: 'Save bank details' }).click();
    await bank.waitFor({ state: 'hidden' });
    await page.getByText('On record').first().waitFor();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`reimbursement-RB-${batchId}.csv`);
    const csv = (await readFile(await download.path())).toString('utf8').trim().split('\r\n');
    expect(csv[0]).toBe('Payee name,Account holder,IBAN or account number,BIC or sort code,Amount,Currency,Reference,Batch date,Claims');
    expect(csv.slice(1)).toEqual([expect.stringMatching(new RegExp(`^Eli Engineer,Eli Engineer,GB82WEST12345698765432,WESTGB2L,1250\\.50,INR,RB-${batchId}-${engineerId}-INR,\\d{4}-\\d{2}-\\d{2},1$`))]);

    await page.getByRole('button', { name: 'Mark paid' }).click();
    const pay = page.getByRole('dialog');
    await pay.getByLabel("Bank's payment reference").fill('BATCH-12');
    await pay.getByRole('button', { name: 'Mark paid' }).click();
    await page.getByText(`Batch RB-${batchId} is marked paid: 1 claim reimbursed, and the claimant has been told.`).waitFor();
    await page.getByText(/Paid on \d{4}-\d{2}-\d{2} with the bank's reference BATCH-12\./).waitFor();
    expect((await stack.app.db.select().from(expenses).where(eq(expenses.id, approvedId)))[0].status).toBe('reimbursed');
    expect(finance.errors).toEqual([]);
    await finance.context.close();

    // The engineer's claim reads Reimbursed, and the notification says when and with which reference
    // (their page from the first test, still signed in).
    await goInApp(engineer.page, `/expense/${approvedId}`);
    await engineer.page.getByText('Reimbursed', { exact: true }).first().waitFor();
    await goInApp(engineer.page, '/notification');
    await engineer.page.getByText(/Your claim “Taxi from the airport” of INR\s1,250\.50 was reimbursed on \d{4}-\d{2}-\d{2}, reference BATCH-12\./).first().waitFor();
    expect(engineer.errors).toEqual([]);
  });

  it('fits a phone: the list as cards with its totals and duplicate flag, the detail page and the form', async () => {
    const [category] = await stack.app.db.select().from(expenseCategories).limit(1);
    const claim = { user_id: engineerId, expense_category_id: category.id, expense_date: '2026-04-10', amount: 30, currency: 'EUR', description: 'Lunch with the client', status: 'pending' };
    await stack.app.db.insert(expenses).values([claim, { ...claim, description: 'Lunch with the client (again)', is_possible_duplicate: true }]);
    // The engineer's page, now at phone width; the home is opened again to show the new claims.
    const { page, context, errors } = engineer;
    await page.setViewportSize({ width: 390, height: 844 });
    await goInApp(page, '/dashboard');
    const fitsWidth = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

    // The home first: a long title wraps within the phone's width (it once widened the panels past it).
    await page.getByTestId('my-items').getByText(/“Lunch with the client \(again\)”, EUR\s30\.00 on 10 April 2026/).waitFor();
    await page.getByTestId('my-items').getByText('Waits for your manager.').first().waitFor();
    expect(await fitsWidth()).toBe(true);

    await goInApp(page, '/expense');
    await page.getByText('Lunch with the client (again)').first().waitFor();
    await page.getByRole('region', { name: 'Totals of the listed expenses' }).getByText(/^EUR\s60\.00$/).waitFor();
    await page.getByText('Possible duplicate').first().waitFor();
    expect(await fitsWidth()).toBe(true);

    await page.getByRole('link', { name: 'Lunch with the client (again)' }).first().click();
    await page.waitForURL(/\/expense\/\d+$/);
    await page.getByText('Another claim of the same person has the same date and amount.').waitFor();
    expect(await fitsWidth()).toBe(true);

    await goInApp(page, '/expense/create');
    await page.getByText(/need at least one receipt/).waitFor();
    expect(await fitsWidth()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
    await finance.context.close();
  });
});
