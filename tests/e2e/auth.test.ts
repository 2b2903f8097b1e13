// The foundation as a user meets it, in Chromium against the production build.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { sendVerificationLink } from '../../src/server/modules/auth/service';
import { hasBrowser, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

describe.skipIf(!hasBrowser)('foundation in the browser', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack(); });
  afterAll(async () => { await stack?.close(); });

  /**
   * The admin at a desktop, signed in through the form by the reload test's first attempt and kept for
   * the later checks that only need an admin already signed in (the partner route, the wide sidebar, the
   * unknown path): a new context and a sign-in each cost more Chromium time than the checks themselves.
   */
  let admin: Awaited<ReturnType<Stack['newPage']>> | undefined;
  const signInAdmin = async (options?: Parameters<Stack['newPage']>[0]) => {
    const opened = await stack.newPage(options);
    await loginThroughForm(opened.page, 'admin@example.com', 'password');
    await opened.page.waitForURL('**/dashboard');
    return opened;
  };
  const signedInAdmin = async () => (admin ??= await signInAdmin()).page;

  it('admin logs in, lands on the dashboard and logs out with the toast', async () => {
    const { page, context, errors } = await stack.newPage();
    await loginThroughForm(page, 'admin@example.com', 'password');
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.title()).toBe('Dashboard - Test Back Office');
    await page.getByText('Beta Version').first().waitFor();
    await page.getByRole('button', { name: /account menu|user menu|profile menu|open user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.getByText('Logout successfully!').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    // The session is gone: the dashboard sends us back to login.
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('stays signed in when the page is reloaded the moment the dashboard appears', async () => {
    // The token is in IndexedDB before the guards leave the login page, so no reload can lose it.
    for (let attempt = 0; attempt < 2; attempt++) {
      const opened = await signInAdmin();
      const { page, context } = opened;
      await page.goto('/profile');
      await page.waitForURL('**/profile');
      await page.getByRole('heading', { name: 'Profile' }).first().waitFor();
      // The first session stays for the tests below; the others go.
      if (attempt === 0 && !admin) admin = opened;
      else await context.close();
    }
  });

  it('brings a person who opened a page while signed out back to it once signed in', async () => {
    // As from a link in an email: the page asks for a sign-in first, then opens.
    const { page, context } = await stack.newPage();
    await page.goto('/profile');
    await page.getByText('Sign in, and the page you opened comes next.').waitFor();
    expect(new URL(page.url()).searchParams.get('return_to')).toBe('/profile');
    await page.getByLabel('Email').fill('admin@example.com');
    await page.locator('input[name="password"]').fill('password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Profile' }).first().waitFor();
    await context.close();
  });

  it('a forced password reset comes before anything else', async () => {
    await stack.createUser({ email: 'forced@example.com', force_password_reset: true });
    const { page, context } = await stack.newPage();
    await loginThroughForm(page, 'forced@example.com', PASSWORD);
    await page.waitForURL('**/force-reset-password');
    await page.locator('input[name="password"]').fill('a-brand-new-password');
    await page.locator('input[name="password_confirmation"]').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' || url.pathname === '/');
    const response = await page.request.post('/api/login', { data: { email: 'forced@example.com', password: 'a-brand-new-password' } });
    expect(response.status()).toBe(200);
    await context.close();
  });

  it('an unverified user verifies by the emailed link', async () => {
    await stack.createUser({ email: 'unverified@example.com', email_verified_at: null });
    const { page, context } = await stack.newPage();
    await loginThroughForm(page, 'unverified@example.com', PASSWORD);
    await page.waitForURL('**/verify-email');
    await page.getByRole('button', { name: /resend|send/i }).click();
    const mail = await stack.smtp.waitFor('unverified@example.com', /Verify Email/);
    const link = mail.links.find((l) => l.includes('verification_url='))!;
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.search.includes('verification_url'));
    await page.getByText('unverified@example.com').waitFor();
    await page.getByText('Verified', { exact: true }).waitFor();
    await context.close();
  });

  it('a new person sets their first password from the mailed link and signs straight in, verified', async () => {
    await stack.createUser({ email: 'newcomer@example.com', email_verified_at: null, force_password_reset: true });
    const { page, context } = await stack.newPage();
    // Opening the verification mail first, signed out and with no password yet: the sign-in page says what to do.
    await page.goto('/dashboard?verification_url=http%3A%2F%2Fexample.com%2Fverify');
    await page.getByText(/Sign in to finish verifying your email address/).waitFor();
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill('newcomer@example.com');
    await page.getByRole('button', { name: 'Email password reset link' }).click();
    const mail = await stack.smtp.waitFor('newcomer@example.com', /Reset Password/);
    await page.goto(mail.links.find((l) => l.includes('/password-reset/'))!);
    await page.locator('input[name="password"]').fill('my-first-password');
    await page.locator('input[name="password_confirmation"]').fill('my-first-password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    // Back on sign-in with the address filled in; the mailed link proved it, so no verify step follows.
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe('newcomer@example.com');
    await page.locator('input[name="password"]').fill('my-first-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Verified', { exact: true }).waitFor();
    await context.close();
  });

  it('a user who may not open the dashboard still verifies by the emailed link', async () => {
    const row = await stack.createUser({ email: 'no-dashboard@example.com', email_verified_at: null }, []);
    const { page, context } = await stack.newPage();
    await loginThroughForm(page, 'no-dashboard@example.com', PASSWORD);
    // No dashboard to land on, and access-denied makes no call that would meet the 409.
    await page.waitForURL('**/access-denied');
    await sendVerificationLink(stack.app, 'app', row);
    const mail = await stack.smtp.waitFor('no-dashboard@example.com', /Verify Email/);
    await page.goto(mail.links.find((l) => l.includes('verification_url='))!);
    await page.waitForURL((url) => url.pathname === '/notification' && !url.search.includes('verification_url'));
    await page.getByRole('heading', { name: 'Notifications' }).first().waitFor();
    const [stored] = await stack.app.db.select().from(users).where(eq(users.id, row.id));
    expect(stored.email_verified_at).not.toBeNull();
    await context.close();
  });

  it('a partner logs in to the partner dashboard', async () => {
    await stack.createPartner({ email: 'partner@example.com', name: 'Acme Partners' });
    const { page, context } = await stack.newPage();
    await loginThroughForm(page, 'partner@example.com', PASSWORD, '/partner/login');
    await page.waitForURL('**/partner/dashboard');
    await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();
    // Visiting /partner alone while signed in goes to the partner dashboard.
    await page.goto('/partner');
    await page.waitForURL('**/partner/dashboard');
    await context.close();
  });

  it('an app user opening a partner route lands on the dashboard', async () => {
    const page = await signedInAdmin();
    await page.goto('/partner/invoice');
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  it('a user without the permission lands on access-denied', async () => {
    await stack.createUser({ email: 'norole@example.com' }, []);
    const { page, context } = await stack.newPage();
    await loginThroughForm(page, 'norole@example.com', PASSWORD);
    await page.waitForURL('**/access-denied');
    await context.close();
  });

  it('starts with the sidebar collapsed at 600 px', async () => {
    const { page, context } = await stack.newPage({ width: 600, height: 900 });
    await loginThroughForm(page, 'admin@example.com', 'password');
    await page.waitForURL('**/dashboard');
    const toggle = page.getByRole('button', { name: /sidebar|menu/i }).first();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    // Opened from the keyboard, the drawer takes focus; Escape closes it and gives focus back.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('#sidebar'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    await context.close();
    // At 1280 px (the admin's session, loaded at that width) it starts open.
    const wide = await signedInAdmin();
    await wide.goto('/dashboard');
    await expect.poll(() => wide.getByRole('button', { name: /sidebar|menu/i }).first().getAttribute('aria-expanded')).toBe('true');
  });

  it('keeps the chosen theme across a reload', async () => {
    const { page, context } = await stack.newPage({ colorScheme: 'light' });
    await page.goto('/');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await page.getByRole('button', { name: /dark|theme/i }).first().click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await context.close();
  });

  it('shows not-found for unknown paths in both areas', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/no/such/page');
    await page.getByText(/not found/i).first().waitFor();
    await page.goto('/partner/no-such-page');
    await page.getByText(/not found/i).first().waitFor();
    await context.close();
    // Signed in (the admin's session), an unknown path still says so, title included.
    const signedIn = await signedInAdmin();
    await signedIn.goto('/document-repository/no/such/page');
    await signedIn.getByText(/not found/i).first().waitFor();
    await signedIn.waitForFunction(() => document.title.startsWith('Not Found - '));
  });
});
