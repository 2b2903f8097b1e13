// Issue 11 as people meet it: a partner logs in at /partner/login (on a phone) and submits last
// month's pre-billing with its spreadsheet; finance (desktop, dark) gets the toast and the bell live,
// sees the lines beside the approved time sheets and rejects it with a reason; the partner's open
// statement turns "Returned" live, is corrected and resubmitted; finance approves it; the partner
// invoices it with tax (issue 21: the net is compared with the statement, tax apart); the account
// manager and finance approve it and finance records two payments; the partner sees each with its
// reference, live, and reads "Paid on …". Then the key screens in light and dark, on a desktop and a phone, checked and (with SCREENSHOTS=1) screenshotted
// into /tmp/partner-shots/ for a human look. Last (issue 28), the firm's admin login keeps the firm's profile: its
// tax registration and address, new bank details that wait for finance (told through the bell) while the old stay
// in force, finance approving them, and a colleague invited and another deactivated.
import { mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerAccounts, partners } from '../../src/server/db/schema/accounts';
import { partnerBankChanges } from '../../src/server/db/schema/partner-profile';
import { assignRoles } from '../../src/server/db/seed';
import { clients } from '../../src/server/db/schema/master-data';
import { contractPeople, contracts } from '../../src/server/db/schema/onboarding';
import { partnerEngineers, partnerInvoices, preBillings, preBillingVersions } from '../../src/server/db/schema/partner-billing';
import { timeSheets } from '../../src/server/db/schema/time-sheets';
import { formatMoney, monthLabel } from '../../src/shared/resources/pre-billing';
import { today } from '../../src/shared/dates';
import { closeToasts, goInApp, hasBrowser, hasNoSidewaysScroll, loginThroughForm, markPage, PASSWORD, PDF, type Stack, startStack, subscribed, wasNotReloaded } from './browser';

const SHOTS = '/tmp/partner-shots';
const PHONE = { width: 390, height: 844 };
const IBAN_OLD = 'DE89370400440532013000';
const IBAN_NEW = 'GB82WEST12345698765432';
type Opened = Awaited<ReturnType<Stack['newPage']>>;
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
  /**
   * The partner's and finance's pages, signed in by the first journey and kept for the look-over and
   * the profile after it (each \`it\` needs the one before it: the statement, the invoice, these pages).
   */
  let signedIn: { partner: Opened; finance: Opened } | undefined;

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
    // The firm's first login is its admin (issue 28); its bank details, as finance approved them, are in force.
    await assignRoles(db, 'partner', login.id, ['partner admin']);
    await db.update(partners).set({
      name: 'Acme Engineering', account_manager_id: manager.id,
      bank_account_holder: 'Acme Engineering', bank_account_number: IBAN_OLD, bank_code: 'COBADEFFXXX', bank_details_approved_at: new Date(),
    }).where(eq(partners.id, partnerId));
    await stack.createPartner({ email: 'pat@acme.example', name: 'Pat Plain', partner_id: partnerId });
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
    await goInApp(page, '/partner/pre-billing');
    await page.getByRole('link', { name: 'Add a pre-billing' }).first().click();
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
    await goInApp(page, '/partner/invoice');
    // The approval's toast lies over the phone's "Add an invoice".
    await closeToasts(page);
    await page.getByRole('link', { name: 'Add an invoice' }).first().click();
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
    await goInApp(manager.page, `/ikk-partner/invoice/${invoiceId}`);
    await manager.page.getByRole('heading', { name: 'ACME-2026-001' }).waitFor();
    await decide(manager.page, 'Approve');
    await manager.page.getByText('Approved by manager', { exact: true }).first().waitFor();
    await manager.context.close();

    await goInApp(finance.page, `/ikk-partner/invoice/${invoiceId}`);
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
    await goInApp(page, '/partner/invoice');
    await page.getByRole('table').getByText(`Paid on ${today()}`).waitFor();
    expect((await stack.app.db.select().from(partnerInvoices).where(eq(partnerInvoices.id, invoiceId)))[0]).toMatchObject({ status: 'paid', payment_date: today() });
    expect(finance.errors).toEqual([]);
    expect(partner.errors).toEqual([]);
    // Both stay signed in for the look-over: a new context and a sign-in each cost more than all the journey's moves.
    signedIn = { partner, finance };
  });

  it('reads well in light and dark, on a desktop and a phone', async () => {
    expect(invoiceId).toBeGreaterThan(0);
    // Still signed in from the journey; the size and the colour scheme change between full loads of each screen
    // (the theme and the sidebar's state are read when the page loads).
    const { partner, finance } = signedIn!;

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
      expect(await recent.textContent()).toMatch(/^Invoice ACME-2026-001PaidFiona Finance recorded a payment: “EUR.3,000\.00 by [a-z ]+ on [\d-]+, reference RT-5522\. The invoice is now paid in full\./);
      expect(await recent.textContent()).toMatch(/Partly paidFiona Finance recorded a payment: “EUR.3,000\.00 by [a-z ]+ on [\d-]+, reference RT-5521\. EUR.3,000\.00 remains outstanding\./);
      expect(await recent.textContent()).not.toMatch(/Reviewed by accounting|approve-manager/);
      // Like with like: the statements' net beside the invoice's net; the invoice's gross beside what was paid.
      expect(await page.getByTestId('partner-amounts-net').getByRole('row', { name: /EUR/ }).textContent()).toMatch(/EUR\s*5,000\.00\s*5,000\.00\s*5,000\.00/);
      expect(await page.getByTestId('partner-amounts-gross').getByRole('row', { name: /EUR/ }).textContent()).toMatch(/EUR\s*6,000\.00\s*6,000\.00\s*0\.00/);
      // Nothing to correct is said in plain text, not offered as links to empty lists.
      expect(await page.getByTestId('partner-to-correct').textContent()).toMatch(/to correctNone.*to correctNone/);
      expect(await page.getByTestId('partner-to-correct').getByRole('link').count()).toBe(0);
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-dashboard-${tag}`);

      await goInApp(page, '/partner/invoice');
      await page.getByText(`Paid on ${today()}`).first().waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-invoices-${tag}`);

      await goInApp(page, `/partner/pre-billing/${statementId}`);
      await page.getByRole('heading', { name: month, exact: true }).waitFor();
      await page.getByRole('table', { name: 'Lines of the pre-billing' }).waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-statement-${tag}`);

      await goInApp(page, '/partner/pre-billing/create');
      await page.getByLabel('Days or hours').waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `partner-form-${tag}`);

      await finance.page.goto(`/ikk-partner/pre-billing/${statementId}`);
      await finance.page.getByRole('heading', { name: `${month} · Acme Engineering` }).waitFor();
      await finance.page.getByText('Every line matches the approved time sheets.').waitFor();
      expect(await hasNoSidewaysScroll(finance.page)).toBe(true);
      await shoot(finance.page, `app-detail-${tag}`);
      await goInApp(finance.page, `/ikk-partner/invoice/${invoiceId}`);
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
  });

  it("keeps the firm's profile: details, new bank details that wait for finance while the old stay in force, colleagues' logins", async () => {
    const { db } = stack.app;
    const signIn = async (email: string, path: string, lands: string) => {
      const opened = await stack.newPage();
      await loginThroughForm(opened.page, email, PASSWORD, path);
      await opened.page.waitForURL(lands);
      return opened;
    };
    // Still signed in from the look-over (else, the profile run alone, one sign-in each): the partner on a phone, finance at a desk.
    const partner = signedIn?.partner ?? await signIn('billing@acme.example', '/partner/login', '**/partner/dashboard');
    const finance = signedIn?.finance ?? await signIn('finance@example.com', '/', '**/dashboard');
    const { page } = partner;
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: 'light' });
    await finance.page.setViewportSize({ width: 1280, height: 800 });
    await finance.page.emulateMedia({ colorScheme: 'dark' });
    const firmRow = async () => (await db.select().from(partners).where(eq(partners.id, partnerId)))[0];

    await page.getByRole('button', { name: 'Paula Partner, user menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/partner/profile');

    // The firm's tax registration and address, as its invoices carry them.
    const details = page.getByRole('form', { name: 'Your firm' });
    await details.getByLabel('Tax registration').fill('GSTIN-27AAAPL1234C1ZV');
    await details.getByLabel('Address').fill('12 MG Road\nPune 411001');
    await details.getByRole('button', { name: 'Save firm details' }).click();
    await page.getByText("Your firm's profile is saved.").waitFor();
    expect(await firmRow()).toMatchObject({ tax_id: 'GSTIN-27AAAPL1234C1ZV', address: '12 MG Road\nPune 411001', name: 'Acme Engineering' });

    // New bank details: checked as typed, then sent to finance; the old account stays in force.
    const bank = page.locator('section').filter({ has: page.locator('#firm-bank') });
    await bank.getByText('DE89 3704 0044 0532 0130 00').waitFor();
    await bank.getByRole('button', { name: 'Change bank details' }).click();
    const ask = bank.getByRole('form', { name: 'New bank details' });
    expect(await ask.getByLabel('Account holder').inputValue()).toBe('Acme Engineering');
    await ask.getByLabel('IBAN or account number').fill('GB82 WEST 1234 5698 7654 33');
    await ask.getByLabel('BIC or sort code').fill('WESTGB2L');
    await ask.getByRole('button', { name: 'Send to finance for approval' }).click();
    await ask.getByText('This IBAN is not valid: check it for a mistyped character.').waitFor();
    await ask.getByLabel('IBAN or account number').fill('GB82 WEST 1234 5698 7654 32');
    await ask.getByRole('button', { name: 'Send to finance for approval' }).click();
    await page.getByText('Your new bank details wait for approval by finance. Payments keep going to the current account until then.').waitFor();
    const waiting = bank.getByRole('region', { name: 'Change waiting for finance' });
    await waiting.getByText('GB82 WEST 1234 5698 7654 32').waitFor();
    // In force above, and again as the old beside the new.
    expect(await bank.getByText('DE89 3704 0044 0532 0130 00').count()).toBe(2);
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    await shoot(page, 'partner-profile-bank-waiting-phone-light');
    expect(await firmRow()).toMatchObject({ bank_account_number: IBAN_OLD, bank_code: 'COBADEFFXXX' });
    expect(await db.select().from(partnerBankChanges).where(eq(partnerBankChanges.partner_id, partnerId))).toEqual([expect.objectContaining({
      status: 'pending', account_number: IBAN_NEW, bank_code: 'WESTGB2L', previous_account_number: IBAN_OLD, requested_by_id: partnerLoginId,
    })]);

    // Finance's bell has it and opens the firm's page, where old and new stand side by side.
    const desk = finance.page;
    await desk.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    await desk.getByRole('button', { name: 'New bank details to approve' }).click();
    await desk.waitForURL(`**/ikk-partner/${partnerId}`);
    const panel = desk.locator('section').filter({ has: desk.locator(`#partner-bank-${partnerId}`) });
    const change = panel.getByRole('region', { name: 'Change waiting for finance' });
    await change.getByText(/^Asked by Paula Partner on /).waitFor();
    await change.getByText('GB82 WEST 1234 5698 7654 32').waitFor();
    await change.getByText('DE89 3704 0044 0532 0130 00').waitFor();
    await shoot(desk, 'app-partner-bank-waiting-desktop-dark');
    await change.getByRole('button', { name: 'Approve new details' }).click();
    const confirm = desk.getByRole('dialog');
    await confirm.getByText('Payments to the firm go to the new account from now on. The firm is told.').waitFor();
    await confirm.getByRole('button', { name: 'Approve new details' }).click();
    await desk.getByText('The new bank details are approved: payments now go to them. The firm has been told.').waitFor();
    await change.waitFor({ state: 'detached' });
    await panel.getByRole('region', { name: 'Bank details history' }).getByText(/^Approved by Fiona Finance on /).waitFor();
    expect(await firmRow()).toMatchObject({ bank_account_holder: 'Acme Engineering', bank_account_number: IBAN_NEW, bank_code: 'WESTGB2L' });
    expect((await db.select().from(partnerBankChanges).where(eq(partnerBankChanges.partner_id, partnerId)))[0]).toMatchObject({ status: 'approved', decided_by_id: financeId });

    // The partner's bell says so; its entry opens the profile, the new account in force.
    await page.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    await page.getByRole('button', { name: 'Your new bank details are approved' }).click();
    await page.waitForURL('**/partner/profile');
    await bank.getByText('GB82 WEST 1234 5698 7654 32').first().waitFor();
    await waiting.waitFor({ state: 'detached' });

    // A colleague invited: listed as invited, mailed a link to set a password.
    const colleagues = page.locator('section').filter({ has: page.locator('#firm-colleagues') });
    await colleagues.getByRole('button', { name: 'Invite a colleague' }).click();
    const invite = page.getByRole('form', { name: 'Invite a colleague' });
    await invite.getByLabel('Name').fill('Quinn Colleague');
    await invite.getByLabel('Email').fill('quinn@acme.example');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Quinn Colleague is invited: a link to set a password for the partner portal has been emailed to quinn@acme.example.').waitFor();
    await colleagues.getByRole('listitem').filter({ hasText: 'Quinn Colleague' }).getByText('Invited', { exact: true }).waitFor();
    const mail = await stack.smtp.waitFor('quinn@acme.example', /Set Your Password/);
    expect(mail.links.some((link) => link.includes('/password-reset/'))).toBe(true);
    expect((await db.select().from(partnerAccounts).where(eq(partnerAccounts.email, 'quinn@acme.example')))[0]).toMatchObject({ partner_id: partnerId, status: 'active' });

    // Another deactivated, after a confirmation that says what it does.
    await colleagues.getByRole('button', { name: 'Deactivate Pat Plain' }).click();
    const sure = page.getByRole('dialog');
    await sure.getByText('They are signed out everywhere at once and cannot sign in until the login is reactivated.').waitFor();
    await sure.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.getByText("Pat Plain's login is deactivated and signed out.").waitFor();
    await colleagues.getByRole('listitem').filter({ hasText: 'Pat Plain' }).getByText('Inactive', { exact: true }).waitFor();
    await colleagues.getByRole('button', { name: 'Reactivate Pat Plain' }).waitFor();
    expect((await db.select().from(partnerAccounts).where(eq(partnerAccounts.email, 'pat@acme.example')))[0].status).toBe('inactive');
    expect(await hasNoSidewaysScroll(page)).toBe(true);
    await shoot(page, 'partner-profile-colleagues-phone-light');
    expect(partner.errors).toEqual([]);
    expect(finance.errors).toEqual([]);
    await partner.context.close();
    await finance.context.close();
  });
});
