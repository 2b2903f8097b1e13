// Issue 11 as people meet it: a partner logs in at /partner/login (on a phone) and submits last
// month's pre-billing with its spreadsheet; finance (desktop, dark) gets the toast and the bell live,
// sees the lines beside the approved time sheets and rejects it with a reason; the partner's open
// statement turns "Returned" live, is corrected and resubmitted; finance approves it; the partner
// invoices it with tax (issue 21: the net is compared with the statement, tax apart); the account
// manager and finance approve it and finance records two payments; the partner sees each with its
// reference, live, and reads "Paid on …". Then the key screens in light and dark, on a desktop and a phone, checked and (with SCREENSHOTS=1) screenshotted
// into /tmp/partner-shots/ for a human look.
import { mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partners } from '../../src/server/db/schema/accounts';
import { clients } from '../../src/server/db/schema/master-data';
import { contractPeople, contracts } from '../../src/server/db/schema/onboarding';
import { partnerEngineers, partnerInvoices, preBillings, preBillingVersions } from '../../src/server/db/schema/partner-billing';
import { timeSheets } from '../../src/server/db/schema/time-sheets';
import { formatMoney, monthLabel } from '../../src/shared/resources/pre-billing';
import { today } from '../../src/shared/dates';
import { hasBrowser, hasNoSidewaysScroll, loginThroughForm, markPage, PASSWORD, PDF, type Stack, startStack, subscribed, wasNotReloaded } from './browser';

const SHOTS = '/tmp/partner-shots';
const PHONE = { width: 390, height: 844 };
// A zip's signature: what an xlsx is to the server's sniffing.
const XLSX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('xl/workbook.xml fake zip body')]);

/**
 * A full-page picture from the top (a sticky header would otherwise be drawn where the page was
 * scrolled to), for looking at; only with SCREENSHOTS=1, as they cost the suite half a minute.
 */
async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
/** Client-side navigation (as a link does): no reload of the app between the screens of one size and scheme. */
const visit = (page: Page, path: string) => page.evaluate((to) => {
  history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}, path);
const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

/** Picks `option` in a searchable select labelled `label` (within `scope`). */
async function choose(page: Page, label: string, option: string | RegExp, nth = 0) {
  await page.getByRole('button', { name: `Show ${label} choices` }).nth(nth).click();
  await page.getByRole('option', { name: option }).click();
}

/** Takes a transition from the detail page's buttons, with `comment` in its dialog. */
async function decide(page: Page, label: string, comment?: string) {
  await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (comment) await dialog.getByLabel('Comment').fill(comment);
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The first day of last month, YYYY-MM-01, and its YYYY-MM. */
function lastMonth(): { first: string; ym: string } {
  const [year, month] = today().split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 2, 1));
  const ym = date.toISOString().slice(0, 7);
  return { first: `${ym}-01`, ym };
}

describe.skipIf(!hasBrowser)('partners, pre-billing and invoices in the browser', () => {
  let stack: Stack;
  let financeId: number;
  let partnerLoginId: number;
  let partnerId: number;
  const { first, ym } = lastMonth();
  const month = monthLabel(first);
  let statementId: number;
  let invoiceId: number;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startStack();
    const { db } = stack.app;
    const [contoso] = await db.insert(clients).values({ name: 'Contoso' }).returning();
    const manager = await stack.createUser({ email: 'manager@example.com', name: 'Mona Manager', user_type: 'manager' });
    const engineer = await stack.createUser({ email: 'dev@example.com', name: 'Dev Dara', user_type: 'user' });
    financeId = (await stack.createUser({ email: 'finance@example.com', name: 'Fiona Finance', user_type: 'user' }, ['finance'])).id;
    const login = await stack.createPartner({ email: 'billing@acme.example', name: 'Paula Partner' });
    partnerLoginId = login.id;
    partnerId = login.partner_id;
    await db.update(partners).set({ name: 'Acme Engineering', account_manager_id: manager.id }).where(eq(partners.id, partnerId));
    await db.insert(partnerEngineers).values({ partner_id: partnerId, user_id: engineer.id, rate_type: 'day', rate: 500, currency: 'EUR', valid_from: first });
    // Placed with Contoso, so the firm may bill it (issue 20: a partner sees only its engineers' clients).
    const [contract] = await db.insert(contracts).values({
      po_number: 'PO-ACME-1', client_id: contoso.id, owner_id: manager.id, start_date: first, end_date: `${ym}-28`, value: 10_000, currency: 'EUR',
    }).returning();
    await db.insert(contractPeople).values({ contract_id: contract.id, user_id: engineer.id });
    // The firm's own record: two approved weeks of 40 h for Contoso (10 days), starting in the month.
    const sheet = { user_id: engineer.id, client_id: contoso.id, period_type: 'week' as const, hours: 40, status: 'approved' as const,
      file_key: 'x', file_name: 'week.pdf', file_size: 1, file_mime: 'application/pdf' };
    await db.insert(timeSheets).values([
      { ...sheet, period_start: `${ym}-01`, period_end: `${ym}-07` },
      { ...sheet, period_start: `${ym}-08`, period_end: `${ym}-14` },
    ]);
  });
  afterAll(async () => { await stack?.close(); });

  it('goes from the partner\'s statement through a rejection, a correction and approval to a paid invoice', async () => {
    // Finance waits on the pre-billing list (desktop, dark), subscribed to the upload channel.
    const finance = await stack.newPage({ colorScheme: 'dark' });
    const financeListening = subscribed(finance.page, `private-partner-pre-billing-upload-event.${financeId}`);
    await loginThroughForm(finance.page, 'finance@example.com', PASSWORD);
    await finance.page.waitForURL('**/dashboard');
    await finance.page.getByRole('button', { name: 'Partner', exact: true }).click();
    await finance.page.getByRole('link', { name: 'Pre Billing' }).first().click();
    await finance.page.waitForURL('**/ikk-partner/pre-billing');
    await financeListening;
    expect(await isDark(finance.page)).toBe(true);
    await markPage(finance.page);
    expect(await finance.page.getByTestId('unread-count').count()).toBe(0);

    // The partner, on a phone, logs in at /partner/login and files last month's statement.
    const partner = await stack.newPage(PHONE);
    const { page } = partner;
    const partnerListening = subscribed(page, `private-App.Models.Partner.${partnerLoginId}`);
    await loginThroughForm(page, 'billing@acme.example', PASSWORD, '/partner/login');
    await page.waitForURL('**/partner/dashboard');
    await partnerListening;
    await page.goto('/partner/pre-billing');
    await page.getByRole('link', { name: 'Add Pre-billing' }).first().click();
    await page.waitForURL('**/partner/pre-billing/create');
    await page.locator('input[name="month"]').fill(ym);
    await page.getByLabel('Currency').fill('eur');
    await choose(page, 'Engineer', 'Dev Dara');
    await choose(page, 'Client', 'Contoso');
    await page.getByLabel('Days or hours').fill('12');
    await page.locator('input[type="file"]').setInputFiles({ name: 'statement.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: XLSX });
    await page.getByLabel('Note').fill('Dev on site at Contoso');
    await page.getByText('statement.xlsx').first().waitFor();
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    await shoot(page, 'partner-form-phone-light');
    await page.getByRole('button', { name: 'Submit pre-billing' }).click();
    await page.waitForURL(/\/partner\/pre-billing\/\d+$/);
    statementId = Number(new URL(page.url()).pathname.split('/').pop());
    // In the partner's words, priced at the agreed rate.
    await page.getByText('Submitted', { exact: true }).first().waitFor();
    await page.getByRole('table', { name: 'Lines of the pre-billing' }).getByText(formatMoney(6000, 'EUR')).waitFor();
    const [stored] = await stack.app.db.select().from(preBillings).where(eq(preBillings.id, statementId));
    expect(stored).toMatchObject({ partner_id: partnerId, month: first, currency: 'EUR', total: 6000, status: 'pending', version: 1, submitted_by: partnerLoginId });
    await markPage(page);

    // Finance: the toast and the bell, live; the list shows the statement; the bell opens it.
    const toast = finance.page.getByTestId('realtime-toast');
    await toast.getByText('A statement waits for your check').waitFor();
    await toast.getByText(new RegExp(`statement for ${month} \\(`)).waitFor();
    await expect.poll(() => finance.page.getByTestId('unread-count').textContent()).toBe('1');
    // The open list shows it too.
    await finance.page.getByRole('table').getByText(month).waitFor();
    expect(await wasNotReloaded(finance.page)).toBe(true);
    // A click on the toast opens the statement, as the bell's entry would.
    await finance.page.getByRole('button', { name: /Notifications, 1 unread/ }).waitFor();
    await toast.click();
    await toast.waitFor({ state: 'detached' });
    await finance.page.waitForURL(`**/ikk-partner/pre-billing/${statementId}`);
    // Beside the time sheets: 12 days are 96 h against 80 h approved.
    const comparison = finance.page.getByRole('table', { name: /beside the approved time-sheet hours/ });
    await comparison.getByRole('row', { name: /Dev Dara/ }).getByText('+16 h billed beyond the time sheets').waitFor();
    expect(await comparison.getByRole('row', { name: /Dev Dara/ }).textContent()).toMatch(/12 days.*96 h.*80 h.*2 sheets/);
    await finance.page.getByText('1 of 1 lines differ from the time sheets.').waitFor();
    await finance.page.getByText('statement.xlsx').first().waitFor();
    await shoot(finance.page, 'app-detail-desktop-dark');
    await decide(finance.page, 'Reject', 'Dev worked 10 days in the time sheets, not 12.');
    await finance.page.getByText('Rejected', { exact: true }).first().waitFor();

    // The partner's open statement turns "Returned" live, with the reason, and the bell counts it.
    await page.getByText('Returned: please correct').first().waitFor();
    await page.getByText('Dev worked 10 days in the time sheets, not 12.').first().waitFor();
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('1');
    expect(await wasNotReloaded(page)).toBe(true);
    await page.getByRole('link', { name: 'Correct and resubmit' }).click();
    await page.waitForURL(`**/partner/pre-billing/${statementId}/edit`);
    await page.getByText(/Returned for correction/).waitFor();
    await page.getByLabel('Days or hours').fill('10');
    await page.getByRole('button', { name: 'Resubmit' }).click();
    await page.waitForURL(`**/partner/pre-billing/${statementId}`);
    await page.getByText('Submitted', { exact: true }).first().waitFor();
    await page.getByText('Earlier versions').waitFor();
    expect((await stack.app.db.select().from(preBillings).where(eq(preBillings.id, statementId)))[0]).toMatchObject({ status: 'pending', version: 2, total: 5000 });
    expect(await stack.app.db.select().from(preBillingVersions).where(eq(preBillingVersions.pre_billing_id, statementId))).toHaveLength(1);

    // Finance is told again, and its open detail page follows: now every line matches.
    await toast.getByText('A corrected statement waits for your check').waitFor();
    // Read and clicked away (it opens this same statement): stacked toasts would lie over the decision buttons.
    await toast.click();
    await finance.page.getByText('Every line matches the approved time sheets.').waitFor();
    await finance.page.getByText('Earlier versions').waitFor();
    await decide(finance.page, 'Mark reviewed');
    await finance.page.getByText('Reviewed by accounting', { exact: true }).first().waitFor();
    await decide(finance.page, 'Approve');
    await finance.page.getByText('Approved', { exact: true }).first().waitFor();

    // The partner invoices it, from the approved statement.
    await page.getByText('Approved', { exact: true }).first().waitFor();
    await page.goto('/partner/invoice');
    await page.getByRole('link', { name: 'Add Invoice' }).first().click();
    await page.waitForURL('**/partner/invoice/create');
    await page.getByLabel('Invoice number').fill('ACME-2026-001');
    await page.locator('input[name="invoice_date"]').fill(today());
    await choose(page, 'Pre-billing', new RegExp(month));
    // The net amount and the currency come from the statement chosen; the tax is the partner's.
    await expect.poll(() => page.getByLabel('Net amount').inputValue()).toBe('5000');
    expect(await page.getByLabel('Currency').inputValue()).toBe('EUR');
    await page.getByLabel('Tax').fill('1000');
    await page.locator('input[type="file"]').setInputFiles({ name: 'ACME-2026-001.pdf', mimeType: 'application/pdf', buffer: PDF });
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    await page.getByRole('button', { name: 'Submit invoice' }).click();
    await page.waitForURL(/\/partner\/invoice\/\d+$/);
    invoiceId = Number(new URL(page.url()).pathname.split('/').pop());
    await markPage(page);
    await page.getByText('Submitted', { exact: true }).first().waitFor();
    expect((await stack.app.db.select().from(partnerInvoices).where(eq(partnerInvoices.id, invoiceId)))[0])
      .toMatchObject({ partner_id: partnerId, pre_billing_id: statementId, amount: 5000, tax: 1000, total: 6000, currency: 'EUR', status: 'pending' });
    // Net 5,000 against the 5,000 statement: nothing differs, though the total with tax is 6,000.
    expect(await page.getByTestId('net-difference').count()).toBe(0);

    // The account manager takes the first step; finance approves and pays.
    const manager = await stack.newPage();
    await loginThroughForm(manager.page, 'manager@example.com', PASSWORD);
    await manager.page.waitForURL('**/dashboard');
    await manager.page.goto(`/ikk-partner/invoice/${invoiceId}`);
    await manager.page.getByRole('heading', { name: 'ACME-2026-001' }).waitFor();
    await decide(manager.page, 'Approve');
    await manager.page.getByText('Approved by manager', { exact: true }).first().waitFor();
    await manager.context.close();

    await finance.page.goto(`/ikk-partner/invoice/${invoiceId}`);
    await finance.page.getByRole('heading', { name: 'ACME-2026-001' }).waitFor();
    await decide(finance.page, 'Approve');
    await finance.page.getByText('Approved', { exact: true }).first().waitFor();
    expect(await finance.page.getByRole('button', { name: 'Mark paid' }).count()).toBe(0);

    // Finance records the payment in two parts; the amount offered is what is outstanding.
    const recordPayment = async (amount: string | null, reference: string, method?: string) => {
      await finance.page.getByRole('button', { name: 'Record payment' }).click();
      const dialog = finance.page.getByRole('dialog');
      await dialog.getByLabel('Reference').waitFor();
      if (amount) await dialog.getByLabel(/^Amount/).fill(amount);
      if (method) await dialog.getByLabel('Method').selectOption({ label: method });
      await dialog.getByLabel('Reference').fill(reference);
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    await finance.page.getByRole('button', { name: 'Record payment' }).click();
    expect(await finance.page.getByRole('dialog').getByLabel(/^Amount/).inputValue()).toBe('6000.00');
    await finance.page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await recordPayment('3000', 'RT-5521');
    await finance.page.getByTestId('payment-summary').getByText(/EUR.3,000\.00 paid of EUR.6,000\.00 with tax; EUR.3,000\.00 outstanding\./).waitFor();
    // The partner's open invoice shows the payment live, with its reference, still awaiting the rest.
    await page.getByTestId('payments').getByText('RT-5521').waitFor();
    await page.getByTestId('payment-summary').getByText(/EUR.3,000\.00 outstanding\./).waitFor();
    await recordPayment(null, 'RT-5522', 'Cheque');
    await finance.page.getByText('Paid', { exact: true }).first().waitFor();
    await finance.page.getByTestId('payment-summary').getByText(/Paid in full: EUR.6,000\.00 with tax in 2 payments\./).waitFor();

    // The partner's open invoice says so in its own words, both payments listed.
    await page.getByText('Paid', { exact: true }).first().waitFor();
    await page.getByTestId('payments').getByText('RT-5522').waitFor();
    expect(await wasNotReloaded(page)).toBe(true);
    await page.goto('/partner/invoice');
    await page.getByRole('table').getByText(`Paid on ${today()}`).waitFor();
    expect((await stack.app.db.select().from(partnerInvoices).where(eq(partnerInvoices.id, invoiceId)))[0]).toMatchObject({ status: 'paid', payment_date: today() });
    expect(finance.errors).toEqual([]);
    expect(partner.errors).toEqual([]);
    await finance.context.close();
    await partner.context.close();
  });

  it('reads well in light and dark, on a desktop and a phone', async () => {
    expect(invoiceId).toBeGreaterThan(0);
    // One sign-in each; the size and the colour scheme change between full loads of each screen.
    const partner = await stack.newPage();
    await loginThroughForm(partner.page, 'billing@acme.example', PASSWORD, '/partner/login');
    await partner.page.waitForURL('**/partner/dashboard');
    const finance = await stack.newPage();
    await loginThroughForm(finance.page, 'finance@example.com', PASSWORD);
    await finance.page.waitForURL('**/dashboard');

    for (const [size, scheme] of [['desktop', 'light'], ['phone', 'dark'], ['desktop', 'dark'], ['phone', 'light']] as const) {
      const tag = `${size}-${scheme}`;
      for (const { page } of [partner, finance]) {
        await page.setViewportSize(size === 'phone' ? PHONE : { width: 1280, height: 800 });
        await page.emulateMedia({ colorScheme: scheme });
      }
      const { page } = partner;
      await page.goto('/partner/dashboard');
      expect(await isDark(page)).toBe(scheme === 'dark');
      // Nothing left to correct; this year's amounts; the latest steps in the partner's words.
      const recent = page.getByTestId('partner-recent');
      await recent.getByText('Approved by manager').waitFor();
      // The latest first: each payment with its reference, the last one paying it in full.
      expect(await recent.textContent()).toMatch(/^Invoice ACME-2026-001PaidFiona Finance recorded a payment: “Payment of EUR.3,000\.00 received for invoice ACME-2026-001, reference RT-5522\. The invoice is now paid in full\./);
      expect(await recent.textContent()).toMatch(/reference RT-5521\. EUR.3,000\.00 remains outstanding\./);
      expect(await recent.textContent()).not.toMatch(/Reviewed by accounting|approve-manager/);
      // Like with like: the statements' net beside the invoice's net; the invoice's gross beside what was paid.
      expect(await page.getByTestId('partner-amounts-net').getByRole('row', { name: /EUR/ }).textContent()).toMatch(/EUR\s*5,000\.00\s*5,000\.00\s*5,000\.00/);
      expect(await page.getByTestId('partner-amounts-gross').getByRole('row', { name: /EUR/ }).textContent()).toMatch(/EUR\s*6,000\.00\s*6,000\.00\s*0\.00/);
      expect(await page.getByTestId('partner-to-correct').textContent()).toMatch(/to correct0.*to correct0/);
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-dashboard-${tag}`);

      await visit(page, '/partner/invoice');
      await page.getByText(`Paid on ${today()}`).first().waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-invoices-${tag}`);

      await visit(page, `/partner/pre-billing/${statementId}`);
      await page.getByRole('heading', { name: month, exact: true }).waitFor();
      await page.getByRole('table', { name: 'Lines of the pre-billing' }).waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-statement-${tag}`);

      await visit(page, '/partner/pre-billing/create');
      await page.getByLabel('Days or hours').waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-form-${tag}`);

      await finance.page.goto(`/ikk-partner/pre-billing/${statementId}`);
      await finance.page.getByRole('heading', { name: `${month} · Acme Engineering` }).waitFor();
      await finance.page.getByText('Every line matches the approved time sheets.').waitFor();
      expect(await hasNoSidewaysScroll(finance.page)).toBe(true);
      await shoot(finance.page, `app-detail-${tag}`);
      await visit(finance.page, `/ikk-partner/invoice/${invoiceId}`);
      await finance.page.getByRole('heading', { name: 'ACME-2026-001' }).waitFor();
      // Net, tax and total with the currency, as the partner billed them; paid in full, nothing outstanding.
      await finance.page.getByText(formatMoney(1000, 'EUR'), { exact: true }).waitFor();
      expect(await finance.page.getByText(formatMoney(5000, 'EUR'), { exact: true }).count()).toBe(1);
      // The total with tax and what was paid.
      expect(await finance.page.getByText(formatMoney(6000, 'EUR'), { exact: true }).count()).toBe(2);
      expect(await finance.page.getByTestId('payments').getByRole('listitem').count()).toBe(2);
      expect(await hasNoSidewaysScroll(finance.page)).toBe(true);
      await shoot(finance.page, `app-invoice-${tag}`);
    }
    expect(partner.errors).toEqual([]);
    expect(finance.errors).toEqual([]);
    await partner.context.close();
    await finance.context.close();
  });
});
