// Issue 29 in Chromium: a role that asks for two-factor sign-in sends its holder to the set-up before
// anything else; they scan (here: read) the key, confirm a code, save the recovery codes, and from then
// on sign in with a code after the password. Codes are made as an authenticator app makes them.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../src/server/db/schema/accounts';
import { hasBrowser, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

const codeAt = (secret: string, timestamp: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });

describe.skipIf(!hasBrowser)('two-factor sign-in in the browser', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack(); });
  afterAll(async () => { await stack?.close(); });

  it('sets up on first sign-in for a role that asks for it, then signs in with a code, at phone width in dark', async () => {
    await stack.app.db.insert(roles).values({ name: 'payroll', account_type: 'app', requires_two_fa: true });
    await stack.createUser({ email: 'pat@example.com', name: 'Pat Payroll' }, ['user', 'payroll']);
    const { page, context, errors } = await stack.newPage({ width: 390, height: 844, colorScheme: 'dark' });

    await loginThroughForm(page, 'pat@example.com', PASSWORD);
    await page.waitForURL('**/two-factor-setup');
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    const secret = (await page.locator('code').first().textContent())!.replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app').fill(codeAt(secret, Date.now()));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await page.screenshot({ path: 'test-results/two-factor-recovery-codes-phone-dark.png' });
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.waitForURL('**/dashboard');

    // Signed out and back: the password alone is not enough; the next code is.
    await context.clearCookies();
    await page.evaluate(() => indexedDB.databases().then((all) => Promise.all(all.map((db) => new Promise((done) => {
      const request = indexedDB.deleteDatabase(db.name!); request.onsuccess = request.onerror = request.onblocked = done;
    })))));
    await loginThroughForm(page, 'pat@example.com', PASSWORD);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    // The code just used is refused; the next step's code signs in.
    await page.getByLabel('Code').fill(codeAt(secret, Date.now() - 30_000));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByText(/not right, or it was already used/).waitFor();
    await page.getByLabel('Code').fill(codeAt(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL('**/dashboard');

    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Two-factor sign-in' }).or(page.locator('section', { has: page.getByRole('heading', { name: 'Two-factor sign-in' }) }));
    await card.first().getByText(/On since .* 10 recovery codes are left\. Your role asks for it, so it stays on\./).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
