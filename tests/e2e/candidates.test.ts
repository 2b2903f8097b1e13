// Issue 12 as people meet it: a recruiter makes a link to the public candidate form for a position
// and copies it; the candidate opens it on a phone (dark) without an account, fills in the details
// and uploads a CV; the recruiter's bell updates live and opens the new candidate in Screening. The
// recruiter moves the card on the board by keyboard and by drag and drop, rejects the candidate with
// a reason on the detail page (time per stage shown), and the spent link says so plainly. With
// SCREENSHOTS=1 the screens are saved in /tmp/candidate-shots/ (desktop and phone, light and dark).
import { mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { candidates } from '../../src/server/db/schema/recruitment';
import { goInApp, hasBrowser, hasNoSidewaysScroll, loginThroughForm, markPage, PASSWORD, PDF, type Stack, startStack, subscribed, wasNotReloaded } from './browser';

const SHOTS = '/tmp/candidate-shots';
const PHONE = { width: 390, height: 844 };

async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
const column = (page: Page, stage: string) => page.getByRole('region', { name: `${stage} column` });

describe.skipIf(!hasBrowser)('candidates and the public candidate form in the browser', () => {
  let stack: Stack;
  let recruiterId: number;
  /** The recruiter's page, signed in by the journey and kept for the look-over after it. */
  let recruiterPage: Awaited<ReturnType<Stack['newPage']>> | undefined;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startStack();
    const [contoso] = await stack.app.db.insert(clients).values({ name: 'Contoso' }).returning();
    await stack.app.db.insert(positions).values({ title: 'Java Engineer', client_id: contoso.id, location: 'Pune', count: 2 });
    recruiterId = (await stack.createUser({ email: 'recruiter@example.com', name: 'Rita Recruiter', user_type: 'admin' })).id;
  });
  afterAll(async () => { await stack?.close(); });

  it('takes a candidate from the public form to the recruiter live, then through the stages', async () => {
    // The recruiter, on a desktop, makes a one-candidate link for the position and copies it.
    const recruiter = await stack.newPage();
    const { page } = recruiter;
    const listening = subscribed(page, `private-App.Models.User.${recruiterId}`);
    await loginThroughForm(page, 'recruiter@example.com', PASSWORD);
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Candidate', exact: true }).click();
    await page.getByRole('link', { name: 'Candidate', exact: true }).click();
    await page.waitForURL('**/candidate');
    await listening;
    await page.getByRole('button', { name: 'Candidate form link' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Show Position choices' }).click();
    await page.getByRole('option', { name: 'Java Engineer' }).click();
    await dialog.getByRole('button', { name: 'Make and copy link' }).click();
    const url = await dialog.getByRole('textbox', { name: 'Candidate form link' }).inputValue();
    expect(url).toMatch(/\/add-candidate-details\?token=[A-Za-z0-9_-]{43}$/);
    await dialog.getByText('Active').waitFor();
    await shoot(page, 'link-dialog-desktop-light');
    await page.keyboard.press('Escape');
    await markPage(page);
    expect(await page.getByTestId('unread-count').count()).toBe(0);

    // The candidate, on a phone in dark mode and without an account, fills in the form.
    const candidatePage = await stack.newPage({ ...PHONE, colorScheme: 'dark' });
    const form = candidatePage.page;
    await form.goto(new URL(url).pathname + new URL(url).search);
    await form.getByRole('heading', { name: 'Candidate Details' }).waitFor();
    await form.getByText('Java Engineer').waitFor();
    // Sent empty: the checks say what is missing, nothing is sent.
    await form.getByRole('button', { name: 'Send my details' }).click();
    await form.getByText('The name field is required.').waitFor();
    await form.getByText('The CV field is required.').waitFor();
    await form.getByLabel('Full name').fill('Asha Rao');
    await form.getByLabel('Email').fill('asha.rao@example.com');
    await form.getByLabel('Phone').fill('+91 98000 11111');
    await form.getByLabel('Total experience (years)').fill('6');
    await form.getByLabel('Relevant experience (years)').fill('4.5');
    await form.getByLabel('Work status').selectOption('On Notice Period');
    await form.getByLabel('Skills').fill('Java, Spring, Kafka');
    await form.getByLabel('CV: choose a file').setInputFiles({ name: 'asha-rao-cv.pdf', mimeType: 'application/pdf', buffer: PDF });
    // Issue 24: the consent to keep the details is asked; the client is not named to the public.
    await form.getByText('Please agree that we keep your details, or we cannot consider your application.').waitFor();
    await form.getByLabel(/I agree that the firm keeps my details/).check();
    expect(await form.getByText('Contoso').count()).toBe(0);
    expect(await hasNoSidewaysScroll(form)).toBe(true);
    await shoot(form, 'public-form-phone-dark');
    await form.getByRole('button', { name: 'Send my details' }).click();
    await form.getByText('Thank you. Your details have been sent to the recruiter.').waitFor();

    // The recruiter's bell updates live, without a reload, and opens the candidate.
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('1');
    expect(await wasNotReloaded(page)).toBe(true);
    await page.getByRole('button', { name: /Notifications, 1 unread/ }).click();
    await page.getByRole('button', { name: 'New candidate' }).click();
    const [stored] = await stack.app.db.select().from(candidates).where(eq(candidates.email, 'asha.rao@example.com'));
    expect(stored).toMatchObject({ stage: 'Screening', recruiter_id: recruiterId, source: 'Candidate form' });
    await page.waitForURL(`**/candidate/${stored.id}`);
    await page.getByRole('heading', { name: 'Asha Rao' }).waitFor();
    await page.getByRole('button', { name: 'asha-rao-cv.pdf' }).or(page.getByText('asha-rao-cv.pdf')).first().waitFor();

    // The board: by keyboard to Interview (the card's Move menu), then dragged to Client Interview.
    await goInApp(page, '/candidate/board');
    const card = (stage: string) => column(page, stage).locator(`[data-candidate-id="${stored.id}"]`);
    await card('Screening').waitFor();
    await card('Screening').getByRole('button', { name: 'Move Asha Rao' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Move to Interview' }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Move to Interview' }).click();
    await card('Interview').waitFor();
    expect(await card('Screening').count()).toBe(0);
    await card('Interview').dragTo(column(page, 'Client Interview'));
    await page.getByRole('dialog').getByRole('button', { name: 'Move to Client Interview' }).click();
    await card('Client Interview').waitFor();
    expect((await stack.app.db.select().from(candidates).where(eq(candidates.id, stored.id)))[0].stage).toBe('Client Interview');
    await shoot(page, 'board-desktop-light');

    // Rejected on the detail page with its reason; the time per stage follows the history.
    await card('Client Interview').getByRole('link', { name: 'Asha Rao' }).click();
    await page.waitForURL(`**/candidate/${stored.id}`);
    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Reject', exact: true }).click();
    const reject = page.getByRole('dialog');
    await reject.getByRole('button', { name: 'Reject', exact: true }).click();
    await reject.getByText('The comment field is required.').waitFor();
    await reject.getByLabel('Comment').fill('The client chose another candidate');
    await reject.getByRole('button', { name: 'Reject', exact: true }).click();
    await reject.waitFor({ state: 'hidden' });
    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Reopen' }).waitFor();
    const times = page.getByRole('list', { name: 'Time in each stage' }).getByRole('listitem');
    await expect.poll(() => times.allTextContents()).toEqual([
      expect.stringMatching(/^Screening/), expect.stringMatching(/^Interview/), expect.stringMatching(/^Client Interview/), expect.stringMatching(/^Rejected.*now$/),
    ]);
    await shoot(page, 'detail-desktop-light');

    // The spent link says so plainly.
    await form.reload();
    await form.getByText('This link has already been used.').waitFor();
    expect(recruiter.errors).toEqual([]);
    expect(candidatePage.errors).toEqual([]);
    recruiterPage = recruiter;
  });

  it('reads well on a phone and a desktop, light and dark', async () => {
    // The recruiter still signed in from the journey (else, run alone, one sign-in); the size and scheme
    // change between the rounds, each starting with a full load (the load reads the scheme and the width).
    const { page, errors } = recruiterPage ?? await stack.newPage({ ...PHONE, colorScheme: 'light' });
    if (!recruiterPage) {
      await loginThroughForm(page, 'recruiter@example.com', PASSWORD);
      await page.waitForURL('**/dashboard');
    }
    for (const [size, scheme] of [['phone', 'light'], ['desktop', 'dark']] as const) {
      await page.setViewportSize(size === 'phone' ? PHONE : { width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/candidate');
      await page.getByRole('link', { name: 'Asha Rao' }).first().waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `list-${size}-${scheme}`);
      await goInApp(page, '/candidate/board');
      await column(page, 'Rejected').getByText('Asha Rao').waitFor();
      await shoot(page, `board-${size}-${scheme}`);
      const [row] = await stack.app.db.select().from(candidates);
      await goInApp(page, `/candidate/${row.id}`);
      await page.getByText('Time in each stage').waitFor();
      expect(await hasNoSidewaysScroll(page)).toBe(true);
      await shoot(page, `detail-${size}-${scheme}`);
      if (size === 'desktop') {
        // A person already known is refused with a link to their record.
        await goInApp(page, '/candidate/create');
        await page.locator('input[name="name"]').fill('Asha R.');
        await page.locator('input[name="email"]').fill('ASHA.RAO@example.com');
        await page.locator('input[name="phone"]').fill('+91 90000 22222');
        await page.getByRole('button', { name: 'Show Position choices' }).click();
        await page.getByRole('option', { name: 'Java Engineer' }).click();
        await page.getByRole('button', { name: 'Create candidate' }).click();
        const known = page.getByRole('alert').filter({ hasText: 'This person is already a candidate' });
        await known.getByRole('link', { name: 'Asha Rao' }).waitFor();
        await shoot(page, `form-duplicate-${size}-${scheme}`);
        // The typed details are not saved: the link asks first (issue 23's dirty guard).
        await known.getByRole('link', { name: 'Asha Rao' }).click();
        await page.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard' }).click();
        await page.waitForURL(`**/candidate/${row.id}`);
        expect((await stack.app.db.select().from(candidates)).length).toBe(1);
      }
      await page.goto('/add-candidate-details?token=not-a-real-token');
      await page.getByText('This link is invalid or has expired.').waitFor();
      await shoot(page, `invalid-link-${size}-${scheme}`);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
    }
    expect(errors).toEqual([]);
  });
});
