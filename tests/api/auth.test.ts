import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens, users } from '../../src/server/db/schema/accounts';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('login and session', () => {
  it('logs the seeded admin in with the login response of spec §3', async () => {
    const res = await t.call('POST', '/api/login', { body: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'Signed in successfully.',
      status: 'success',
      data: { email: ADMIN.email, user_type: 'admin', is_enable_2fa: false, two_fa_required: false, force_password_reset: false, doc_assigned: false },
      announcement: { status: 'off', message: '' },
    });
    expect(res.body.access_token).toMatch(/^\d+\|.{40,}$/);
    expect(res.body.permissions.roles).toEqual(['admin']);
    expect(res.body.permissions.permissions).toContain('can-view-dashboard');
    expect(res.body.data).not.toHaveProperty('password');
  });

  it('answers 422 with field errors for bad input and wrong credentials', async () => {
    const invalid = await t.call('POST', '/api/login', { body: { email: 'not-an-email', password: '' } });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['email', 'password']);
    const wrong = await t.call('POST', '/api/login', { body: { email: ADMIN.email, password: 'wrong-password' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.email).toEqual(['These credentials do not match our records.']);
  });

  it('calls an empty e-mail required, not invalid, on sign-in and forgot-password (issue 14)', async () => {
    const empty = await t.call('POST', '/api/login', { body: { email: '', password: 'x' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ email: ['The email field is required.'] });
    const missing = await t.call('POST', '/api/forgot-password', { body: {} });
    expect(missing.body.errors).toEqual({ email: ['The email field is required.'] });
    const blank = await t.call('POST', '/api/forgot-password', { body: { email: '  ' } });
    expect(blank.body.errors).toEqual({ email: ['The email field is required.'] });
  });

  it('me echoes the token with data, permissions and announcement; logout revokes it', async () => {
    const token = await t.login(ADMIN.email, ADMIN.password);
    const me = await t.call('GET', '/api/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ access_token: token, data: { email: ADMIN.email }, announcement: { status: 'off' } });
    const out = await t.call('POST', '/api/logout', { token });
    expect(out.body).toEqual({ message: 'Logout successfully!' });
    expect((await t.call('GET', '/api/me', { token })).status).toBe(401);
  });

  it('refuses anonymous callers, garbage tokens and inactive accounts', async () => {
    expect((await t.call('GET', '/api/me')).body).toEqual({ message: 'Unauthenticated.' });
    expect((await t.call('GET', '/api/me', { token: '1|forged' })).status).toBe(401);
    const user = await t.createUser({ email: 'leaver@example.com' });
    const token = await user.token();
    await t.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, user.id));
    expect((await t.call('GET', '/api/me', { token })).status).toBe(401);
    const relogin = await t.call('POST', '/api/login', { body: { email: 'leaver@example.com', password: 'secret-password' } });
    expect(relogin.status).toBe(422);
  });

  it('binds tokens to one account type', async () => {
    const partner = await t.createPartner({ email: 'partner@example.com' });
    const partnerToken = await partner.token();
    const appToken = await t.login(ADMIN.email, ADMIN.password);
    expect((await t.call('GET', '/api/partner/me', { token: partnerToken })).body.data.user_type).toBe('partner');
    expect((await t.call('GET', '/api/me', { token: partnerToken })).status).toBe(401);
    expect((await t.call('GET', '/api/partner/me', { token: appToken })).status).toBe(401);
    // The partner login does not accept app credentials either.
    expect((await t.call('POST', '/api/partner/login', { body: ADMIN })).status).toBe(422);
  });

  it('serves the permissions of the caller', async () => {
    const user = await t.createUser({ email: 'plain@example.com' });
    const res = await t.call('GET', '/api/get-laravel-permission-to-vue-js', { token: await user.token() });
    expect(res.body.roles).toEqual(['user']);
    expect(res.body.permissions).toContain('can-view-time-sheet');
    expect(res.body.permissions).not.toContain('can-view-setting');
  });
});

describe('pending states (spec §8, 409)', () => {
  it('forces a password reset before anything else, then lets the account through', async () => {
    const user = await t.createUser({ email: 'forced@example.com', force_password_reset: true });
    const token = await user.token();
    const blocked = await t.call('GET', '/api/dashboard', { token });
    expect(blocked.status).toBe(409);
    expect(blocked.body.status).toBe('FORCE_RESET_PASSWORD');
    expect((await t.call('GET', '/api/me', { token })).status).toBe(200);
    const same = await t.call('POST', '/api/force-reset-password', { token, body: { password: 'secret-password', password_confirmation: 'secret-password' } });
    expect(same.status).toBe(422);
    const mismatch = await t.call('POST', '/api/force-reset-password', { token, body: { password: 'new-password-1', password_confirmation: 'other' } });
    expect(mismatch.body.errors.password).toBeDefined();
    const done = await t.call('POST', '/api/force-reset-password', { token, body: { password: 'new-password-1', password_confirmation: 'new-password-1' } });
    expect(done.status).toBe(200);
    expect((await t.call('GET', '/api/dashboard', { token })).status).toBe(200);
    expect((await t.call('POST', '/api/login', { body: { email: 'forced@example.com', password: 'new-password-1' } })).status).toBe(200);
    // Once done, the forced route no longer changes a password without the current one.
    const again = await t.call('POST', '/api/force-reset-password', { token, body: { password: 'taken-over-1', password_confirmation: 'taken-over-1' } });
    expect(again.status).toBe(403);
    expect((await t.call('POST', '/api/login', { body: { email: 'forced@example.com', password: 'taken-over-1' } })).status).toBe(422);
  });

  it('verifies an email through the mailed signed link, once', async () => {
    const user = await t.createUser({ email: 'unverified@example.com', email_verified_at: null });
    const token = await user.token();
    const blocked = await t.call('GET', '/api/dashboard', { token });
    expect(blocked.body).toMatchObject({ status: 'EMAIL_IS_NOT_VERIFIED' });
    const sent = await t.call('POST', '/api/email/verification-notification', { token });
    expect(sent.body.status).toBe('VERIFICATION_LINK_SENT');

    const mail = await t.smtp.waitFor('unverified@example.com', /Verify Email/);
    const landing = new URL(mail.links.find((l) => l.includes('verification_url='))!);
    expect(landing.pathname).toBe('/dashboard');
    const apiUrl = new URL(landing.searchParams.get('verification_url')!);
    expect(apiUrl.pathname).toMatch(/^\/api\/email\/verify\/\d+\/[0-9a-f]{40}$/);

    const tampered = await t.call('GET', `${apiUrl.pathname}?expires=${apiUrl.searchParams.get('expires')}&signature=${'0'.repeat(64)}`);
    expect(tampered.status).toBe(403);
    const verified = await t.call('GET', apiUrl.pathname + apiUrl.search, { token });
    expect(verified.status).toBe(200);
    expect((await t.call('GET', '/api/dashboard', { token })).status).toBe(200);
    const again = await t.call('GET', apiUrl.pathname + apiUrl.search);
    expect(again.body.status).toBe('ALREADY_VERIFIED');
    expect((await t.call('POST', '/api/email/verification-notification', { token })).body.status).toBe('ALREADY_VERIFIED');
  });

  it('refuses an expired verification link', async () => {
    const user = await t.createUser({ email: 'late@example.com', email_verified_at: null });
    const res = await t.call('GET', `/api/email/verify/${user.id}/${'a'.repeat(40)}?expires=1&signature=${'0'.repeat(64)}`);
    expect(res.status).toBe(403);
  });
});

describe('password reset', () => {
  it('mails a single-use link that resets the password and signs out everywhere', async () => {
    const user = await t.createUser({ email: 'forgetful@example.com' });
    const oldToken = await user.token();
    const res = await t.call('POST', '/api/forgot-password', { body: { email: 'forgetful@example.com' } });
    expect(res.status).toBe(200);
    const mail = await t.smtp.waitFor('forgetful@example.com', /Reset Password/);
    const link = new URL(mail.links.find((l) => l.includes('/password-reset/'))!);
    const token = link.pathname.split('/').pop()!;
    expect(link.searchParams.get('email')).toBe('forgetful@example.com');

    const body = { token, email: 'forgetful@example.com', password: 'brand-new-pass', password_confirmation: 'brand-new-pass' };
    expect((await t.call('POST', '/api/reset-password', { body })).status).toBe(200);
    expect((await t.call('GET', '/api/me', { token: oldToken })).status).toBe(401);
    expect((await t.call('POST', '/api/login', { body: { email: 'forgetful@example.com', password: 'brand-new-pass' } })).status).toBe(200);
    const reused = await t.call('POST', '/api/reset-password', { body });
    expect(reused.status).toBe(422);
    expect(reused.body.errors.email).toBeDefined();
  });

  it('counts a used reset link as proof of the address: a new account is verified by setting its password', async () => {
    await t.createUser({ email: 'newcomer@example.com', email_verified_at: null, force_password_reset: true });
    await t.call('POST', '/api/forgot-password', { body: { email: 'newcomer@example.com' } });
    const mail = await t.smtp.waitFor('newcomer@example.com', /Reset Password/);
    const token = new URL(mail.links.find((l) => l.includes('/password-reset/'))!).pathname.split('/').pop()!;
    const body = { token, email: 'newcomer@example.com', password: 'first-own-pass', password_confirmation: 'first-own-pass' };
    expect((await t.call('POST', '/api/reset-password', { body })).status).toBe(200);
    const login = await t.call('POST', '/api/login', { body: { email: 'newcomer@example.com', password: 'first-own-pass' } });
    expect(login.body.data.email_verified_at).not.toBeNull();
    expect((await t.call('GET', '/api/dashboard', { token: login.body.access_token })).status).toBe(200);
  });

  it('refuses an expired reset link', async () => {
    await t.createUser({ email: 'slow@example.com' });
    await t.call('POST', '/api/forgot-password', { body: { email: 'slow@example.com' } });
    const mail = await t.smtp.waitFor('slow@example.com', /Reset Password/);
    const token = new URL(mail.links.find((l) => l.includes('/password-reset/'))!).pathname.split('/').pop()!;
    await t.app.db.update(passwordResetTokens).set({ created_at: new Date(Date.now() - 2 * 3600_000) }).where(eq(passwordResetTokens.email, 'slow@example.com'));
    const res = await t.call('POST', '/api/reset-password', { body: { token, email: 'slow@example.com', password: 'brand-new-pass', password_confirmation: 'brand-new-pass' } });
    expect(res.status).toBe(422);
  });

  it('answers the same for unknown emails and sends nothing', async () => {
    const before = t.smtp.messages.length;
    const res = await t.call('POST', '/api/forgot-password', { body: { email: 'nobody@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/If an account with that email exists/);
    await new Promise((r) => setTimeout(r, 100));
    expect(t.smtp.messages.length).toBe(before);
  });

  it('mails partner reset links to the partner portal', async () => {
    await t.createPartner({ email: 'p-reset@example.com' });
    await t.call('POST', '/api/partner/forgot-password', { body: { email: 'p-reset@example.com' } });
    const mail = await t.smtp.waitFor('p-reset@example.com', /Reset Password/);
    expect(mail.links.some((l) => new URL(l).pathname.startsWith('/partner/password-reset/'))).toBe(true);
  });
});

describe('rate limits', () => {
  it('limits failed logins per account with a 429 and a message', async () => {
    await t.createUser({ email: 'target@example.com' });
    const attempt = () => t.call('POST', '/api/login', { body: { email: 'target@example.com', password: 'guess-guess' } });
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(422);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many attempts/);
    // Even the right password waits until the window passes.
    expect((await t.call('POST', '/api/login', { body: { email: 'target@example.com', password: 'secret-password' } })).status).toBe(429);
  });

  it('limits reset-link requests per account', async () => {
    await t.createUser({ email: 'spam@example.com' });
    expect((await t.call('POST', '/api/forgot-password', { body: { email: 'spam@example.com' } })).status).toBe(200);
    expect((await t.call('POST', '/api/forgot-password', { body: { email: 'spam@example.com' } })).status).toBe(429);
  });

  it('limits verification-link requests per account', async () => {
    const user = await t.createUser({ email: 'resend@example.com', email_verified_at: null });
    const token = await user.token();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await t.call('POST', '/api/email/verification-notification', { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });

  it('limits failed login attempts per IP across accounts', async () => {
    const fresh = await createTestApp();
    try {
      let status = 0;
      for (let i = 0; i < 61 && status !== 429; i++) {
        status = (await fresh.call('POST', '/api/login', { body: { email: `nobody${i}@example.com`, password: 'x' } })).status;
      }
      expect(status).toBe(429);
      // A caller cannot start over by claiming another address: no proxy is trusted unless TRUST_PROXY says so.
      const forged = await fresh.call('POST', '/api/login', { body: { email: 'nobody@example.com', password: 'x' }, headers: { 'x-forwarded-for': '203.0.113.78' } });
      expect(forged.status).toBe(429);
    } finally { await fresh.close(); }
  });
});

describe('profile and password', () => {
  it('updates the profile, refuses a taken email, and moves to a new email only once its link is opened', async () => {
    const user = await t.createUser({ email: 'profile@example.com' });
    const token = await user.token();
    // Told only to someone who gives the current password (issue 20; tests/api/password-checks.test.ts).
    const taken = await t.call('PATCH', '/api/profile', { token, body: { name: 'P', email: ADMIN.email, current_password: TEST_PASSWORD } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors.email).toEqual(['The email has already been taken.']);
    const same = await t.call('PATCH', '/api/profile', { token, body: { name: 'New Name', email: 'profile@example.com', phone: '+44 1234' } });
    expect(same.body).toMatchObject({ data: { name: 'New Name', phone: '+44 1234' }, message: 'Profile updated successfully.' });
    const changed = await t.call('PATCH', '/api/profile', { token, body: { name: 'New Name', email: 'moved@example.com', current_password: 'secret-password' } });
    expect(changed.status).toBe(200);
    // Still the old, verified address until the new one is confirmed (issue 15).
    expect(changed.body.data).toMatchObject({ email: 'profile@example.com', email_verified_at: expect.any(String) });
    const mail = await t.smtp.waitFor('moved@example.com', /Verify Email/);
    expect((await t.call('GET', '/api/dashboard', { token })).status).toBe(200);
    const apiUrl = new URL(new URL(mail.links.find((l) => l.includes('verification_url='))!).searchParams.get('verification_url')!);
    expect((await t.call('GET', apiUrl.pathname + apiUrl.search)).body).toEqual({ message: 'Your email address has been changed.', status: 'VERIFIED' });
    expect((await t.call('GET', '/api/me', { token })).body.data).toMatchObject({ email: 'moved@example.com', email_verified_at: expect.any(String) });
  });

  it('changes the password only with the current one', async () => {
    const user = await t.createUser({ email: 'pw@example.com' });
    const token = await user.token();
    const wrong = await t.call('PUT', '/api/password', { token, body: { current_password: 'nope', password: 'another-pass', password_confirmation: 'another-pass' } });
    expect(wrong.body.errors.current_password).toBeDefined();
    const ok = await t.call('PUT', '/api/password', { token, body: { current_password: 'secret-password', password: 'another-pass', password_confirmation: 'another-pass' } });
    expect(ok.status).toBe(200);
    expect((await t.call('POST', '/api/login', { body: { email: 'pw@example.com', password: 'another-pass' } })).status).toBe(200);
  });

  it('records the heartbeat', async () => {
    const user = await t.createUser({ email: 'beat@example.com' });
    const res = await t.call('POST', '/api/last-activity', { token: await user.token() });
    expect(res.status).toBe(200);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row.last_activity_at).toBeInstanceOf(Date);
  });
});
