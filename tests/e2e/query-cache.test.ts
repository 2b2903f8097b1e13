// Issue 23 "One query cache" as people meet it: a summary on the page follows an action on the same
// page without a reload (a background check's Result, an onboarding's open and overdue tasks), and a
// live event refetches only the record it names and that resource's lists, not every list on screen; a
// pre-billing's comparison with the approved time sheets follows a time sheet approved elsewhere, heard live.
import { and, eq, ne } from 'drizzle-orm';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partners, users } from '../../src/server/db/schema/accounts';
import { partnerEngineers, preBillingLines, preBillings } from '../../src/server/db/schema/partner-billing';
import { timeSheets } from '../../src/server/db/schema/time-sheets';
import { candidates } from '../../src/server/db/schema/recruitment';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { onboardingTemplates } from '../../src/server/db/schema/onboarding';
import { bgvCheckComponents, bgvChecks } from '../../src/server/db/schema/operations';
import { inTransaction } from '../../src/server/lib/transaction';
import { notify } from '../../src/server/modules/notification/notify';
import { addDays, today } from '../../src/shared/dates';
import { goInApp, hasBrowser, loginThroughForm, markPage, type Stack, startStack, subscribed, wasNotReloaded } from './browser';

/**
 * How long a figure may take to follow (expect.poll's own second is too short on a busy CI machine: the
 * refetch is there, only later). Not a sleep: the poll ends as soon as the figure is right.
 */
const SETTLED = { timeout: 15_000 };
/** A page and its parts loading on that machine (the record, then the comparison it shows). */
const LOADED = { timeout: 60_000 };

/** The value beside a label in a record's fields (its <dt> / <dd> pair; the History tab has lists of its own, later on the page). */
const detailValue = (page: Page, label: string) =>
  page.locator('dl').first().locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).last().locator('dd');

describe.skipIf(!hasBrowser)('one query cache in the browser', () => {
  let stack: Stack;
  let adminId: number;
  let onboardingId = 0;
  beforeAll(async () => {
    stack = await startStack();
    const [admin] = await stack.app.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@example.com'));
    adminId = admin.id;
    // Three checklist tasks, each due the day after the start, all for the admin.
    await stack.app.db.insert(onboardingTemplates).values([1, 2, 3].map((n) => (
      { phase: 'onboarding' as const, title: `Task ${n}`, due_after_days: 1, assignee_id: adminId, sort_order: n })));
  });
  afterAll(async () => { await stack?.close(); });

  /**
   * The admin's page, signed in once (a new context and a sign-in cost Chromium about four in-app moves)
   * and kept through the tests, which run in order; subscribed to the admin's channel for the live ones.
   */
  let admin: Awaited<ReturnType<Stack['newPage']>>;
  const signIn = async () => {
    if (admin) return admin;
    admin = await stack.newPage();
    const isSubscribed = subscribed(admin.page, `private-App.Models.User.${adminId}`);
    await loginThroughForm(admin.page, 'admin@example.com', 'password');
    await admin.page.waitForURL('**/dashboard');
    await isSubscribed;
    return admin;
  };

  it('an onboarding reads "Open tasks 2 · 2 overdue" as soon as one of its three overdue tasks is marked done', async () => {
    const { page, errors } = await signIn();
    await goInApp(page, '/onboarding/create');
    await page.getByLabel('Name').fill('Asha Rao');
    await page.locator('input[name="start_date"]').fill(addDays(today(), -10));
    await page.getByRole('button', { name: 'Create onboarding' }).click();
    await page.waitForURL(/\/onboarding\/\d+$/);
    onboardingId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect.poll(() => detailValue(page, 'Open tasks').textContent(), SETTLED).toBe('3');
    await expect.poll(() => detailValue(page, 'Overdue').textContent(), SETTLED).toContain('3');
    await markPage(page);

    await page.getByRole('button', { name: 'Mark done Task 1' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mark done', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    // The onboarding's own figures, above the checklist, follow without a reload.
    await expect.poll(() => detailValue(page, 'Open tasks').textContent(), SETTLED).toBe('2');
    await expect.poll(() => detailValue(page, 'Overdue').textContent(), SETTLED).toContain('2');
    expect(await wasNotReloaded(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a background check reads Result "Clear" as soon as the last of its six components is set to Clear', async () => {
    const { db } = stack.app;
    const [client] = await db.insert(clients).values({ name: 'Globex' }).returning();
    const [position] = await db.insert(positions).values({ title: 'Desktop engineer', client_id: client.id, location: 'Pune', count: 1 }).returning();
    await db.insert(candidates).values({ name: 'Ravi Kumar', email: 'ravi@example.com', phone: '+91 98000 00002', position_id: position.id, stage: 'Background Check' });
    const { page, errors } = await signIn();
    await goInApp(page, '/bgv-check/create');
    await page.getByRole('button', { name: 'Show Candidate choices' }).click();
    await page.getByRole('option', { name: 'Ravi Kumar' }).click();
    await page.getByLabel('Vendor').fill('First Advantage');
    await page.locator('input[name="initiated_on"]').fill(today());
    await page.getByRole('button', { name: 'Create bgv check' }).click();
    await page.waitForURL(/\/bgv-check\/\d+$/);
    const checkId = Number(new URL(page.url()).pathname.split('/').pop());
    const components = page.getByRole('region', { name: 'Components' });
    await components.getByText('Criminal record').waitFor();

    // Five components cleared elsewhere (the vendor's report came in), then the page opened afresh.
    await db.update(bgvCheckComponents).set({ status: 'clear' })
      .where(and(eq(bgvCheckComponents.bgv_check_id, checkId), ne(bgvCheckComponents.component, 'criminal record')));
    await page.reload();
    await components.getByText('Criminal record').waitFor();
    expect(await detailValue(page, 'Result').textContent()).not.toContain('Clear');
    await markPage(page);

    // The sixth, set to Clear here: the check's Result follows without a reload.
    await components.getByRole('button', { name: 'Edit Criminal record' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Status').selectOption('clear');
    await dialog.getByRole('button', { name: /^(Save|Update)/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await db.select().from(bgvChecks).where(eq(bgvChecks.id, checkId)))[0].result, SETTLED).toBe('clear');
    await expect.poll(() => detailValue(page, 'Result').textContent(), SETTLED).toContain('Clear');
    expect(await wasNotReloaded(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a live event about a record refetches that record, and not the other list on screen', async () => {
    expect(onboardingId).toBeGreaterThan(0);
    const { page, errors } = await signIn();
    // The onboarding's page: its record, and the list of its checklist tasks below it.
    await goInApp(page, `/onboarding/${onboardingId}`);
    await page.getByText('Task 2').first().waitFor();
    await page.waitForLoadState('networkidle');

    const requested: string[] = [];
    const record = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) requested.push(`${request.method()} ${url.pathname}`);
    };
    page.on('request', record);
    await inTransaction(stack.app, (tx) => notify(tx, [adminId], {
      title: 'Onboarding updated', message: 'Asha Rao’s start date moved.', url: `/onboarding/${onboardingId}`,
    }));
    await page.getByTestId('realtime-toast').getByText('Onboarding updated').waitFor();
    await expect.poll(() => requested.includes(`GET /api/onboarding/${onboardingId}`), SETTLED).toBe(true);
    await page.waitForLoadState('networkidle');

    // The record (once), and nothing of the checklist's list, which the event did not name.
    expect(requested.filter((line) => line === `GET /api/onboarding/${onboardingId}`)).toHaveLength(1);
    expect(requested.filter((line) => line.startsWith('GET /api/onboarding-task'))).toEqual([]);
    // Nothing else but parts of that record (its history) was fetched.
    expect(requested.filter((line) => !line.startsWith(`GET /api/onboarding/${onboardingId}`))).toEqual([]);
    expect(errors).toEqual([]);
    page.off('request', record);
  });

  it('a pre-billing\'s comparison follows a time sheet approved elsewhere, heard live, without a reload', async () => {
    const { db } = stack.app;
    // Last month: a partner bills 10 days (80 h) of its engineer at Contoso; one of the two weeks is approved.
    const [year, month] = today().split('-').map(Number);
    const ym = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 7);
    const [contoso] = await db.insert(clients).values({ name: 'Contoso' }).returning();
    const engineer = await stack.createUser({ email: 'dev@example.com', name: 'Dev Dara', user_type: 'user' });
    const { partner_id: partnerId } = await stack.createPartner({ email: 'billing@acme.example', name: 'Paula Partner' });
    await db.update(partners).set({ name: 'Acme Engineering' }).where(eq(partners.id, partnerId));
    const [rate] = await db.insert(partnerEngineers).values({ partner_id: partnerId, user_id: engineer.id, rate_type: 'day', rate: 500, currency: 'EUR', valid_from: `${ym}-01` }).returning();
    const sheet = { user_id: engineer.id, client_id: contoso.id, period_type: 'week' as const, hours: 40, file_key: 'x', file_name: 'week.pdf', file_size: 1, file_mime: 'application/pdf' };
    const [, pending] = await db.insert(timeSheets).values([
      { ...sheet, status: 'approved' as const, period_start: `${ym}-01`, period_end: `${ym}-07` },
      { ...sheet, status: 'pending' as const, period_start: `${ym}-08`, period_end: `${ym}-14` },
    ]).returning();
    const [statement] = await db.insert(preBillings).values({ partner_id: partnerId, month: `${ym}-01`, currency: 'EUR', total: 5000 }).returning();
    await db.insert(preBillingLines).values({ pre_billing_id: statement.id, engineer_id: rate.id, client_id: contoso.id, quantity: 10, rate_type: 'day', rate: 500, amount: 5000 });

    const { page, context, errors } = await signIn();
    await goInApp(page, `/ikk-partner/pre-billing/${statement.id}`);
    const row = page.getByRole('table', { name: /beside the approved time-sheet hours/ }).getByRole('row', { name: /Dev Dara/ });
    await row.getByText('+40 h billed beyond the time sheets').waitFor(LOADED);
    await markPage(page);

    // The second week is approved by its reviewer, and the admin hears of it (a time sheet's url).
    await db.update(timeSheets).set({ status: 'approved' }).where(eq(timeSheets.id, pending.id));
    await inTransaction(stack.app, (tx) => notify(tx, [adminId], {
      title: 'Time sheet approved', message: 'Dev Dara’s second week at Contoso is approved.', url: `/time-sheet?highlight=${pending.id}`,
    }));
    await page.getByTestId('realtime-toast').getByText('Time sheet approved').waitFor(LOADED);
    await page.getByText('Every line matches the approved time sheets.').waitFor(LOADED);
    expect(await row.textContent()).toMatch(/80 h.*80 h/);
    expect(await wasNotReloaded(page)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
