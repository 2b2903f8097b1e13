// Issue 28 in Chromium, short: the recruiter schedules an interview in its dialog, the interviewer
// submits their scorecard on the interview's page, the recruiter makes an offer letter on the
// candidate's page, and the candidate accepts it on the public page with their typed name (the
// candidate moves to Onboarding). With SCREENSHOTS=1 the screens go to /tmp/interview-shots/.
import { mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interviews, offerTemplates } from '../../src/server/db/schema/interviews';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { candidates } from '../../src/server/db/schema/recruitment';
import { goInApp, hasBrowser, hasNoSidewaysScroll, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

const SHOTS = '/tmp/interview-shots';
async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOTS) return;
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe.skipIf(!hasBrowser)('interviews, scorecards and offer letters in the browser', () => {
  let stack: Stack;
  let candidateId: number;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stack = await startStack();
    const [client] = await stack.app.db.insert(clients).values({ name: 'Contoso' }).returning();
    const [position] = await stack.app.db.insert(positions).values({ title: 'Java Engineer', client_id: client.id, location: 'Pune', count: 1, scorecard_criteria: ['Java', 'Communication'] }).returning();
    const [row] = await stack.app.db.insert(candidates).values({ name: 'Asha Rao', email: 'asha@example.com', phone: '+91 98000 22222', position_id: position.id, stage: 'Interview' }).returning();
    candidateId = row.id;
    await stack.app.db.insert(offerTemplates).values({ name: 'Contractor offer', body: 'Dear {{candidate_name}},\n\nWe offer you {{position}} at {{client}} from {{start_date}}, at {{rate}}.' });
    await stack.createUser({ email: 'recruiter@example.com', name: 'Rita Recruiter', user_type: 'admin' });
    await stack.createUser({ email: 'ivan@example.com', name: 'Ivan Interviewer', user_type: 'user' }, ['user']);
  });
  afterAll(async () => { await stack?.close(); });

  it('schedules, scores, offers and is accepted', { timeout: 300_000 }, async () => {
    const { page } = await stack.newPage();
    // The shared CI machine can be slow to draw a screen: waits are for the page, not a fixed time.
    page.setDefaultTimeout(60_000);
    await loginThroughForm(page, 'recruiter@example.com', PASSWORD);
    await page.waitForURL('**/dashboard');
    await goInApp(page, '/interview');
    await page.getByRole('button', { name: 'Add an interview' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Show Candidate choices' }).click();
    await page.getByRole('option', { name: 'Asha Rao' }).click();
    await dialog.locator('input[name="scheduled_on"]').fill('2031-03-04');
    await dialog.getByLabel('Start time').fill('14:30');
    await dialog.getByLabel('Duration').selectOption('60');
    await dialog.getByLabel('Time zone').fill('Asia/Kolkata');
    await dialog.getByRole('button', { name: 'Show Interviewers choices' }).click();
    await page.getByRole('option', { name: 'Ivan Interviewer' }).click();
    await dialog.getByLabel('Place or video link').fill('https://meet.example.com/asha');
    await dialog.getByRole('button', { name: 'Create interview' }).click();
    await page.getByText('Interview created successfully.').waitFor().catch(async (error: unknown) => { await page.screenshot({ path: `${SHOTS}/failure-create.png`, fullPage: true }); throw error; });
    await page.getByRole('cell', { name: 'Asha Rao' }).first().waitFor();
    await shoot(page, 'interviews-desktop-light');

    // The interviewer opens the interview and submits their scorecard.
    const interviewer = await stack.newPage({ width: 390, height: 844, colorScheme: 'dark' });
    interviewer.page.setDefaultTimeout(60_000);
    await loginThroughForm(interviewer.page, 'ivan@example.com', PASSWORD);
    await interviewer.page.waitForURL('**/dashboard');
    const [scheduled] = await stack.app.db.select({ id: interviews.id }).from(interviews).where(eq(interviews.candidate_id, candidateId));
    await goInApp(interviewer.page, `/interview/${scheduled.id}`);
    const card = interviewer.page.getByRole('form', { name: 'Your scorecard' });
    await card.waitFor().catch(async (error: unknown) => { await interviewer.page.screenshot({ path: `${SHOTS}/failure.png`, fullPage: true }); throw error; });
    await card.getByLabel('Java').selectOption('4');
    await card.getByLabel('Communication').selectOption('5');
    await card.getByLabel('Strengths').fill('Clear about trade-offs');
    await card.getByLabel('Recommendation').selectOption('yes');
    await shoot(interviewer.page, 'scorecard-phone-dark');
    await card.getByRole('button', { name: 'Submit scorecard' }).click();
    await interviewer.page.getByRole('heading', { name: 'Your scorecard' }).waitFor();
    expect(await hasNoSidewaysScroll(interviewer.page)).toBe(true);
    await interviewer.context.close();

    // At Offer Letter Review the recruiter makes the offer on the candidate's page.
    await stack.app.db.update(candidates).set({ stage: 'Offer Letter Review' }).where(eq(candidates.id, candidateId));
    await goInApp(page, `/candidate/${candidateId}`);
    await page.getByRole('article', { name: 'Scorecard of Ivan Interviewer' }).waitFor();
    const offer = page.getByRole('form', { name: 'New offer letter' });
    await offer.getByLabel('Template').selectOption({ label: 'Contractor offer' });
    await offer.getByLabel('Start date').fill('2031-04-01');
    await offer.getByLabel('Rate').fill('450');
    await offer.getByRole('button', { name: 'Make and send the offer' }).click();
    const link = await page.locator('[data-offer-link]').getAttribute('href');
    expect(link).toMatch(/\/offer-letter\?token=[A-Za-z0-9_-]{43}$/);
    await shoot(page, 'candidate-offer-desktop-light');

    // The candidate, on a phone without an account, accepts with their typed name.
    const candidate = await stack.newPage({ width: 390, height: 844 });
    candidate.page.setDefaultTimeout(60_000);
    await candidate.page.goto(new URL(link!).pathname + new URL(link!).search);
    await candidate.page.getByRole('heading', { name: 'Your offer for Java Engineer' }).waitFor();
    await candidate.page.getByText('We offer you Java Engineer at Contoso from 2031-04-01, at GBP 450.00 per day.').waitFor();
    expect(await hasNoSidewaysScroll(candidate.page)).toBe(true);
    await shoot(candidate.page, 'offer-phone-light');
    await candidate.page.getByLabel('Your full name, as your signature').fill('Asha Rao');
    await candidate.page.getByRole('button', { name: 'Sign and accept' }).click();
    await candidate.page.getByText('You have accepted the offer').waitFor();
    const [row] = await stack.app.db.select().from(candidates).where(eq(candidates.id, candidateId));
    expect(row.stage).toBe('Onboarding');
  });
});
