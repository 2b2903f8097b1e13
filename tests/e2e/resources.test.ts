// The generic resource screens as people use them, in Chromium against the production build:
// master data CRUD with search, server 422s under their fields and refused deletes; people with
// the verification mail; roles whose permissions change what their users see.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, roleHasPermissions, roles, users } from '../../src/server/db/schema/accounts';
import { countries } from '../../src/server/db/schema/master-data';
import { goInApp, hasBrowser, hasNoSidewaysScroll, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('resource screens in the browser', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack(); });
  afterAll(async () => { await stack?.close(); });

  /**
   * The admin, signed in through the form once and kept for every \`it\` (none needs a fresh session:
   * each moves on from wherever the one before it left the page, through the app's own navigation).
   */
  let admin: Promise<Awaited<ReturnType<Stack['newPage']>>> | undefined;
  const signInAsAdmin = () => admin ??= (async () => {
    const opened = await stack.newPage();
    await loginThroughForm(opened.page, 'admin@example.com', 'password');
    await opened.page.waitForURL('**/dashboard');
    return opened;
  })();

  it('creates a country and a city under it, finds the city, edits it through a 422 and deletes it', async () => {
    const { page, errors } = await signInAsAdmin();

    // A country, through the list's Add button.
    await page.getByRole('link', { name: 'Country', exact: true }).click();
    await page.waitForURL('**/country');
    // The new page's heading takes focus, so keyboard and screen-reader users start there.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Countries');
    await page.getByRole('link', { name: 'Add a country' }).first().click();
    await page.waitForURL('**/country/create');
    await page.getByLabel('Name').fill('Zanaria');
    await page.getByLabel('Code').fill('zq');
    await page.getByRole('button', { name: 'Create country' }).click();
    await page.getByText('Country created successfully.').waitFor();
    await page.waitForURL(/\/country\/\d+$/);
    await page.getByRole('heading', { name: 'Zanaria' }).waitFor();
    // The code on the record, and again in its History card as what it was created with (issue 20).
    await page.getByText('ZQ', { exact: true }).first().waitFor();
    await page.getByRole('list', { name: 'History' }).getByText('ZQ', { exact: true }).waitFor();

    // A second country, to be chosen and then removed behind the form's back.
    await goInApp(page, '/country/create');
    await page.getByLabel('Name').fill('Templand');
    await page.getByLabel('Code').fill('TL');
    await page.getByRole('button', { name: 'Create country' }).click();
    await page.waitForURL(/\/country\/\d+$/);

    // A city under Zanaria: the country is a searchable select fed by /api/country/options.
    await goInApp(page, '/city/create');
    await page.getByLabel('Name').fill('Zanopolis');
    await page.getByRole('combobox', { name: 'Country' }).fill('Zana');
    await page.getByRole('option', { name: 'Zanaria' }).click();
    await page.getByRole('button', { name: 'Create city' }).click();
    await page.getByText('City created successfully.').waitFor();
    await page.waitForURL(/\/city\/\d+$/);
    await page.getByRole('link', { name: 'Zanaria', exact: true }).waitFor();

    // Found by search (debounced, kept in the url so a reload shows the same list).
    await goInApp(page, '/city');
    await page.getByRole('searchbox', { name: 'Search cities' }).fill('zanop');
    await page.waitForURL(/search=zanop/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.reload();
    await page.getByRole('link', { name: 'Zanopolis', exact: true }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search cities' }).inputValue()).toBe('zanop');

    // Edit: the client check first (same zod schema), then a 422 only the server can give.
    await page.getByRole('link', { name: 'Edit Zanopolis' }).click();
    await page.waitForURL(/\/city\/\d+\/edit$/);
    const name = page.getByLabel('Name');
    await name.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The name field is required.').waitFor();
    await name.fill('Zanopolis Nova');
    await page.getByRole('combobox', { name: 'Country' }).fill('Templ');
    await page.getByRole('option', { name: 'Templand' }).click();
    await stack.app.db.delete(countries).where(eq(countries.code, 'TL'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    const countryError = page.getByText('The country you chose has been removed or cannot be chosen here. Choose another.');
    await countryError.waitFor();
    // Under its own field: the Country input points at it.
    const describedBy = await page.getByRole('combobox', { name: 'Country' }).getAttribute('aria-describedby');
    const descriptions = await Promise.all((describedBy ?? '').split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(descriptions.join(' ')).toContain('The country you chose has been removed or cannot be chosen here. Choose another.');
    expect(page.url()).toMatch(/\/edit$/);
    await page.getByRole('combobox', { name: 'Country' }).fill('Zana');
    await page.getByRole('option', { name: 'Zanaria' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('City updated successfully.').waitFor();
    await page.getByRole('heading', { name: 'Zanopolis Nova' }).waitFor();

    // A country in use is refused with the server's message; the list stays as it was.
    await goInApp(page, '/country?search=zanaria');
    await page.getByRole('button', { name: 'Delete Zanaria' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/cannot be deleted because 1 city uses it/).waitFor();
    await page.getByRole('link', { name: 'Zanaria', exact: true }).waitFor();

    // Deleting the city, after confirmation, from its list.
    await goInApp(page, '/city?search=zanopolis');
    await page.getByRole('button', { name: 'Delete Zanopolis Nova' }).click();
    await page.getByRole('dialog').getByText('“Zanopolis Nova” will be deleted.', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('City deleted successfully.').waitFor();
    await page.getByText('No cities match').waitFor();
    // Focus lands on the list (not lost with the row), and the list says what it holds now.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('SECTION');
    await page.getByRole('status').filter({ hasText: '0 cities found' }).waitFor({ state: 'attached' });
    expect(errors).toEqual([]);
  });

  it('sorts by a column header and pages through the list, both in the url', async () => {
    const { page } = await signInAsAdmin();
    for (let i = 0; i < 17; i++) {
      await stack.app.db.insert(countries).values({ name: `Sortland ${String(i).padStart(2, '0')}`, code: `S${String.fromCharCode(65 + i)}`, status: 'active' });
    }
    await goInApp(page, '/country?search=sortland');
    await page.getByText('Page 1 of 2 (17)').waitFor();
    const header = page.getByRole('columnheader', { name: /Name/ });
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await header.getByRole('button').click();
    await page.waitForURL(/sort=name&direction=desc/);
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => page.locator('tbody tr').first().textContent()).toContain('Sortland 16');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    await page.getByText('Page 2 of 2 (17)').waitFor();
    await page.goBack();
    await page.getByText('Page 1 of 2 (17)').waitFor();
  });

  it('keeps the page from scrolling sideways at a laptop\'s width with the sidebar open: a wide list scrolls inside its card', async () => {
    const { page } = await signInAsAdmin();
    // A person whose columns are all filled with long words: the people list has twelve of them.
    await stack.app.db.insert(users).values({
      name: 'Priyanka Venkataraman-Subramaniam', email: 'priyanka.venkataraman-subramaniam@northwind-consulting.example',
      password: 'not-a-hash', phone: '+91 98450 12345', user_type: 'user', employee_id: 'NW-BLR-2026-000123',
      job_title: 'Principal Cloud Infrastructure Architect', department: 'Digital Transformation and Cloud Infrastructure',
    });
    await page.setViewportSize({ width: 1366, height: 768 });
    await goInApp(page, '/user');
    await page.getByText('Priyanka Venkataraman-Subramaniam').first().waitFor();
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    // The table scrolls inside its card, by keyboard too: its scroller takes focus and says what it is.
    const scroller = page.getByRole('region', { name: 'Users: scroll sideways for more columns' });
    await scroller.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    // The other lists named in the review, empty or not, at the same width.
    for (const path of ['/candidate', '/expense', '/leave-application', '/time-sheet', '/deal-tracking', '/ikk-partner/invoice', '/ikk-partner/pre-billing', '/document-assign-history']) {
      await goInApp(page, path);
      // Its rows are in once the list says how many it found (to screen readers).
      await page.locator('main p[role="status"]').filter({ hasText: /found$/ }).waitFor({ state: 'attached' });
      expect(await hasNoSidewaysScroll(page), path).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('creating a user sends one set-password invitation', async () => {
    const { page } = await signInAsAdmin();
    await goInApp(page, '/user');
    await page.getByRole('link', { name: 'Add a user' }).first().click();
    await page.waitForURL('**/user/create');
    await page.getByLabel('Name').fill('New Hire');
    await page.getByLabel('Email').fill('new.hire@example.com');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText(/User created/).waitFor();
    await page.waitForURL(/\/user\/\d+$/);
    await page.getByRole('heading', { name: 'New Hire' }).waitFor();
    const mail = await stack.smtp.waitFor('new.hire@example.com', /Set Your Password/);
    expect(mail.links.some((link) => link.includes('/password-reset/') && link.includes('welcome=1'))).toBe(true);

    // The same email again is refused by the server, under the Email field.
    await goInApp(page, '/user/create');
    await page.getByLabel('Name').fill('Twin');
    await page.getByLabel('Email').fill('new.hire@example.com');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText(/email has already been taken/i).waitFor();
    // The refused form still holds what was typed: leaving it asks first (issue 23's dirty guard), and the
    // next test starts from the dashboard.
    await goInApp(page, '/dashboard');
    await page.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard' }).click();
    await page.waitForURL('**/dashboard');
  });

  it("granting a role a permission shows the menu entry to that role's users after a reload", async () => {
    await stack.createUser({ email: 'clerk@example.com', name: 'Clerk' }, ['user']);
    const clerk = await stack.newPage();
    await loginThroughForm(clerk.page, 'clerk@example.com', PASSWORD);
    await clerk.page.waitForURL('**/dashboard');
    const countryLink = clerk.page.getByRole('link', { name: 'Country', exact: true });
    expect(await countryLink.count()).toBe(0);

    const { page, context } = await signInAsAdmin();
    await goInApp(page, '/role?search=user');
    await page.getByRole('button', { name: 'Edit user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: 'can-view-country' }).check();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/Role updated/).waitFor();

    // Issue 28: a role is cloned from the list: the same permissions (the one just granted too), nobody holding it.
    // A name in use is refused under the field; the dialog stays open with what was typed.
    await page.getByRole('button', { name: 'Clone user' }).click();
    const clone = page.getByRole('dialog');
    const cloneName = clone.getByLabel('Name of the new role');
    await expect.poll(() => cloneName.inputValue()).toBe('user (copy)');
    await clone.getByText('The new role starts with the same permissions as user. Nobody holds it until you give it to someone.').waitFor();
    await cloneName.fill('Manager');
    await clone.getByRole('button', { name: 'Clone role' }).click();
    await clone.getByText('The name has already been taken.').waitFor();
    await cloneName.fill('contractor');
    await clone.getByRole('button', { name: 'Clone role' }).click();
    await page.getByText('Role cloned: contractor has the same permissions and nobody holds it yet.').waitFor();
    const permissionsOf = async (name: string) => (await stack.app.db.select({ permission: permissions.name }).from(roleHasPermissions)
      .innerJoin(roles, eq(roles.id, roleHasPermissions.role_id)).innerJoin(permissions, eq(permissions.id, roleHasPermissions.permission_id))
      .where(eq(roles.name, name))).map((row) => row.permission).sort();
    const cloned = await permissionsOf('contractor');
    expect(cloned).toContain('can-view-country');
    expect(cloned).toEqual(await permissionsOf('user'));
    // A built-in role can be edited but never deleted, so the list offers no delete for it; a role made here can go.
    await stack.app.db.insert(roles).values({ name: 'auditor' });
    await goInApp(page, '/role');
    await page.getByRole('button', { name: 'Delete auditor' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete user' }).count()).toBe(0);
    // The copy is listed with as many permissions as the role it came from, and no holders; unlike its source, it can go.
    await page.getByRole('button', { name: 'Delete contractor' }).waitFor();
    const copyRow = page.getByRole('row').filter({ has: page.getByText('contractor', { exact: true }) });
    expect((await copyRow.textContent())?.replace(/\s+/g, ' ')).toMatch(new RegExp(`^contractor ?No ?${cloned.length} ?0 ?\\d{4}-`));

    await clerk.page.reload();
    await countryLink.waitFor();
    await countryLink.click();
    await clerk.page.waitForURL('**/country');
    await clerk.page.getByRole('heading', { name: 'Countries' }).waitFor();
    // Viewing is all the role allows: no add, edit or delete.
    expect(await clerk.page.getByRole('link', { name: 'Add a country' }).count()).toBe(0);
    await context.close();
    await clerk.context.close();
  });
});
