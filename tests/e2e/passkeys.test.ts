// Issue 29 in Chromium: a passkey made from the profile with the DevTools protocol's virtual
// authenticator (CTAP2, built in, resident keys, user verification), then, signed out, a sign-in with
// it alone. The page is opened at localhost: a relying party ID is a domain name, never an IP address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { passkeys } from '../../src/server/db/schema/passkeys';
import { goInApp, hasBrowser, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('passkeys in the browser', () => {
  let stack: Stack;
  let origin: string;
  beforeAll(async () => {
    stack = await startStack();
    origin = stack.base.replace('127.0.0.1', 'localhost');
    stack.app.config.appUrl = origin;
  });
  afterAll(async () => { await stack?.close(); });

  it('adds a passkey from the profile, and signs in with it after signing out', async () => {
    const person = await stack.createUser({ email: 'kim@example.com', name: 'Kim Key' }, ['user']);
    const { page, context, errors } = await stack.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    await loginThroughForm(page, 'kim@example.com', PASSWORD, `${origin}/`);
    await page.waitForURL('**/dashboard');
    await goInApp(page, '/profile');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByLabel('Name').last().fill('This laptop');
    await page.getByRole('button', { name: 'Create passkey' }).click();
    const list = page.getByRole('list', { name: 'Your passkeys' });
    await list.getByText('This laptop').waitFor();
    await list.getByText(/Not used yet/).waitFor();
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);

    // Signed out: no token, no cookie. The passkey alone signs in (no email, no password).
    await context.clearCookies();
    await page.evaluate(() => indexedDB.databases().then((all) => Promise.all(all.map((db) => new Promise((done) => {
      const request = indexedDB.deleteDatabase(db.name!); request.onsuccess = request.onerror = request.onblocked = done;
    })))));
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL('**/dashboard');
    const [row] = await stack.app.db.select().from(passkeys).where(eq(passkeys.account_id, person.id));
    expect(row).toMatchObject({ name: 'This laptop', account_type: 'app' });
    expect(row.last_used_at).toBeInstanceOf(Date);
    expect(errors).toEqual([]);
    await context.close();
  });
});
