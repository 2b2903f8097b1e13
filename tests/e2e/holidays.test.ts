// Holidays as an admin meets them (issue 22): choose the firm's country, load the year's public holidays
// from the offline data set, remove a day the firm works (and see it kept as such), add the firm's own
// day; every control found by its label, as the first-run e2e will drive it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasBrowser, hasNoSidewaysScroll, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('holidays in the browser', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    await stack.createUser({ email: 'hr-admin@example.com', name: 'Hana Admin', user_type: 'admin' });
  });
  afterAll(async () => { await stack?.close(); });

  // This year, whichever it is: the screen offers the years around today.
  const year = new Date().getFullYear();
  /** The admin's page, signed in by the first \`it\` and kept for the phone after it (which reads its day). */
  let admin: Awaited<ReturnType<Stack['newPage']>> | undefined;

  it('an admin loads the United Kingdom\'s public holidays for this year, removes Christmas Day and adds the firm\'s own day', async () => {
    admin = await stack.newPage();
    const { page, errors } = admin;
    await loginThroughForm(page, 'hr-admin@example.com', PASSWORD);
    await page.waitForURL('**/dashboard');
    await page.getByRole('link', { name: 'Holiday' }).first().click();
    await page.waitForURL('**/holiday');
    await page.getByText('Choose a country', { exact: true }).waitFor();

    await page.getByLabel('Country').selectOption({ label: 'United Kingdom' });
    await page.getByLabel('Year').selectOption(String(year));
    await page.getByRole('button', { name: `Load public holidays for ${year}` }).click();
    await page.getByText(new RegExp(`^\\d+ public holidays loaded for ${year} \\(United Kingdom\\)\\.$`)).waitFor();
    const list = page.getByRole('list', { name: 'Holidays of the year' });
    await list.getByText('Christmas Day', { exact: true }).waitFor();
    expect(await list.getByRole('listitem').count()).toBeGreaterThan(5);

    await page.getByRole('button', { name: `Remove Christmas Day on ${year}-12-25` }).click();
    await page.getByRole('button', { name: `Restore Christmas Day on ${year}-12-25` }).waitFor();
    expect(await list.getByText('Removed: a working day').count()).toBe(1);
    // Loading again keeps it removed.
    await page.getByRole('button', { name: `Load public holidays for ${year}` }).click();
    await page.getByText('1 day the firm works stays removed.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: `Restore Christmas Day on ${year}-12-25` }).count()).toBe(1);

    await page.getByRole('textbox', { name: 'Date', exact: true }).fill(`${year}-12-23`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Office closed');
    await page.getByRole('button', { name: 'Add the day' }).click();
    await list.getByText('Office closed', { exact: true }).waitFor();
    expect(await list.getByText("Firm's own day").count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('fits a phone', async () => {
    // The same session (else, run alone, a sign-in), loaded again at phone width: the load reads the width.
    const { page } = admin ?? await stack.newPage({ width: 390, height: 844 });
    if (!admin) {
      await loginThroughForm(page, 'hr-admin@example.com', PASSWORD);
      await page.waitForURL('**/dashboard');
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/holiday');
    // The firm's first country and this year open by themselves.
    await page.getByRole('list', { name: 'Holidays of the year' }).getByText('Office closed', { exact: true }).waitFor();
    expect(await hasNoSidewaysScroll(page)).toBe(true);
  });
});
