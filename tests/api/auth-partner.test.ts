// The partner portal's auth calls (spec §3, §4, §7 "Partner portal", §8): the same flows as the app
// account type, under /api/partner/..., and never mixed up with app accounts.
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { modelHasRoles, partnerAccounts, passwordResetTokens, users } from '../../src/server/db/schema/accounts';
import { notifications } from '../../src/server/db/schema/notifications';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const BAD_CREDENTIALS = 'These credentials do not match our records.';
const RESET_SENT = 'If an account with that email exists, we have emailed a password reset link.';
const RESET_INVALID = 'This password reset link is invalid or has expired.';
const MISMATCH = 'The password field confirmation does not match.';
const TOO_MANY = /^Too many attempts\. Please try again in (\d+) seconds\.$/;

/** Like t.call, from a chosen client address (the rate limits count per address). */
async function callFrom(ip: string, method: InjectOptions['method'], url: string, options: { token?: string; body?: unknown } = {}) {
  const response = await t.app.inject({
    method, url, remoteAddress: ip,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body !== undefined ? { payload: options.body as InjectOptions['payload'] } : {}),
  });
  return { status: response.statusCode, body: response.json() };
}

const partnerLogin = (email: string, password: string) => t.call('POST', '/api/partner/login', { body: { email, password } });

/** Gives the mail server a moment, then answers whether any mail went to `to` matching `subject`. */
async function mailedTo(to: string, subject: RegExp): Promise<boolean> {
  await new Promise((r) => setTimeout(r, 150));
  return t.smtp.messages.some((m) => m.to.includes(to) && subject.test(m.subject));
}

async function resetLinkOf(email: string) {
  const mail = await t.smtp.waitFor(email, /^Reset Password Notification$/);
  const link = new URL(mail.links.find((l) => l.includes('/password-reset/'))!);
  return { link, token: link.pathname.split('/').pop()! };
}

/** The signed API url inside the mailed verification landing link. */
async function verificationLinkOf(email: string) {
  const mail = await t.smtp.waitFor(email, /^Verify Email Address$/);
  const landing = new URL(mail.links.find((l) => l.includes('verification_url='))!);
  return { landing, api: new URL(landing.searchParams.get('verification_url')!) };
}

describe('partner login, me and logout', () => {
  it('logs a partner in with the login response of spec §3', async () => {
    const partner = await t.createPartner({ email: 'p-login@example.com', phone: '+44 100' });
    const res = await partnerLogin('p-login@example.com', TEST_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: 'Signed in successfully.',
      status: 'success',
      data: {
        id: partner.id, name: 'Test Partner', email: 'p-login@example.com', user_type: 'partner', status: 'active',
        doc_assigned: false, is_enable_2fa: false, two_fa_enabled_at: null, force_password_reset: false, phone: '+44 100', parent_id: null,
      },
      announcement: { status: 'off', message: '' },
    });
    expect(res.body.data.email_verified_at).toEqual(expect.any(String));
    expect(res.body.data).not.toHaveProperty('password');
    expect(res.body.access_token).toMatch(/^\d+\|.{40,}$/);
    expect(res.body.permissions.roles).toEqual(['partner']);
    expect(res.body.permissions.permissions).toEqual(expect.arrayContaining(['can-edit-profile', 'can-view-invoice', 'can-view-pre-billing']));
    expect(res.body.permissions.permissions).not.toContain('can-view-setting');
    expect(res.body.permissions.permissions).not.toContain('can-view-partner');
    // The email is matched without regard to case.
    expect((await partnerLogin('P-Login@Example.COM', TEST_PASSWORD)).status).toBe(200);
  });

  it('answers 422 for bad input, a wrong password, an unknown email and an inactive partner', async () => {
    await t.createPartner({ email: 'p-wrong@example.com' });
    const invalid = await t.call('POST', '/api/partner/login', { body: { email: 'not-an-email', password: '' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({
      email: ['The email field must be a valid email address.'],
      password: ['The password field is required.'],
    });
    const wrong = await partnerLogin('p-wrong@example.com', 'wrong-password');
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ message: BAD_CREDENTIALS, errors: { email: [BAD_CREDENTIALS] } });
    const unknown = await partnerLogin('p-nobody@example.com', TEST_PASSWORD);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.email).toEqual([BAD_CREDENTIALS]);

    await t.createPartner({ email: 'p-inactive@example.com', status: 'inactive' });
    const inactive = await partnerLogin('p-inactive@example.com', TEST_PASSWORD);
    expect(inactive.status).toBe(422);
    expect(inactive.body.errors.email).toEqual(['Your account is inactive. Please contact your administrator.']);
  });

  it('refuses an app account on the partner login, and logs in the partner when both share an email', async () => {
    const admin = await t.call('POST', '/api/partner/login', { body: ADMIN });
    expect(admin.status).toBe(422);
    expect(admin.body.errors.email).toEqual([BAD_CREDENTIALS]);
    expect(admin.body).not.toHaveProperty('access_token');

    // Same email and password in both tables: each login answers its own account type.
    await t.createUser({ email: 'both@example.com', name: 'Staff Member' });
    const partner = await t.createPartner({ email: 'both@example.com', name: 'Partner Firm' });
    const res = await partnerLogin('both@example.com', TEST_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: partner.id, name: 'Partner Firm', user_type: 'partner' });
    expect(res.body.permissions.roles).toEqual(['partner']);
  });

  it('me echoes the token with data, permissions and announcement', async () => {
    const partner = await t.createPartner({ email: 'p-me@example.com' });
    const token = await partner.token();
    const me = await t.call('GET', '/api/partner/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      access_token: token,
      status: 'success',
      data: { id: partner.id, email: 'p-me@example.com', user_type: 'partner' },
      permissions: { roles: ['partner'] },
      announcement: { status: 'off', message: '' },
    });
    expect(me.body.permissions.permissions).toContain('can-edit-profile');
    expect(me.body.data).not.toHaveProperty('password');
    expect(await t.call('GET', '/api/partner/me')).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect(await t.call('GET', '/api/partner/me', { token: '1|forged-token-value' })).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });

  it('logout revokes only the token it was called with', async () => {
    const partner = await t.createPartner({ email: 'p-logout@example.com' });
    const token = await partner.token();
    const otherDevice = await partner.token();
    const out = await t.call('POST', '/api/partner/logout', { token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: 'Logout successfully!' });
    expect(await t.call('GET', '/api/partner/me', { token })).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect((await t.call('POST', '/api/partner/logout', { token })).status).toBe(401);
    expect((await t.call('GET', '/api/partner/me', { token: otherDevice })).status).toBe(200);
  });

  it('throttles guesses at a partner account from many addresses after 20, without locking the app account of the same email', async () => {
    await t.createPartner({ email: 'p-guess@example.com' });
    await t.createUser({ email: 'p-guess@example.com' });
    const attempt = (i: number, password: string) =>
      callFrom(`192.0.2.${10 + i}`, 'POST', '/api/partner/login', { body: { email: 'p-guess@example.com', password } });
    // Five wrong passwords no longer lock the account for everyone (issue 15): one per address, twenty in all.
    for (let i = 0; i < 20; i++) expect((await attempt(i, 'guess-guess')).status).toBe(422);
    const limited = await attempt(20, 'guess-guess');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(TOO_MANY);
    expect((await attempt(21, TEST_PASSWORD)).status).toBe(429);
    // The counter is per account type.
    expect((await callFrom('192.0.2.90', 'POST', '/api/login', { body: { email: 'p-guess@example.com', password: TEST_PASSWORD } })).status).toBe(200);
  });
});

describe('account types do not mix (spec §6)', () => {
  it('refuses a partner token on app routes and does not revoke it there', async () => {
    const partner = await t.createPartner({ email: 'p-cross@example.com' });
    const token = await partner.token();
    const appRoutes: Array<[InjectOptions['method'], string, unknown?]> = [
      ['GET', '/api/me'],
      ['GET', '/api/dashboard'],
      ['GET', '/api/get-laravel-permission-to-vue-js'],
      ['PATCH', '/api/profile', { name: 'X', email: 'p-cross@example.com' }],
      ['PUT', '/api/password', { current_password: TEST_PASSWORD, password: 'other-password', password_confirmation: 'other-password' }],
      ['POST', '/api/last-activity'],
      ['POST', '/api/email/verification-notification'],
      ['POST', '/api/force-reset-password', { password: 'other-password', password_confirmation: 'other-password' }],
      ['POST', '/api/logout'],
    ];
    for (const [method, url, body] of appRoutes) {
      const res = await t.call(method, url, { token, body });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 401, body: UNAUTHENTICATED });
    }
    // Nothing above touched the partner: the token still works and the password is unchanged.
    expect((await t.call('GET', '/api/partner/me', { token })).status).toBe(200);
    expect((await partnerLogin('p-cross@example.com', TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses an app token on /api/partner/* routes', async () => {
    const user = await t.createUser({ email: 'staff-cross@example.com' });
    const token = await user.token();
    const partnerRoutes: Array<[InjectOptions['method'], string, unknown?]> = [
      ['GET', '/api/partner/me'],
      ['GET', '/api/partner/dashboard'],
      ['GET', '/api/partner/get-laravel-permission-to-vue-js'],
      ['PATCH', '/api/partner/profile', { name: 'X', email: 'staff-cross@example.com' }],
      ['PUT', '/api/partner/password', { current_password: TEST_PASSWORD, password: 'other-password', password_confirmation: 'other-password' }],
      ['POST', '/api/partner/last-activity'],
      ['POST', '/api/partner/email/verification-notification'],
      ['POST', '/api/partner/force-reset-password', { password: 'other-password', password_confirmation: 'other-password' }],
      ['POST', '/api/partner/logout'],
    ];
    for (const [method, url, body] of partnerRoutes) {
      const res = await t.call(method, url, { token, body });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 401, body: UNAUTHENTICATED });
    }
    expect((await t.call('GET', '/api/me', { token })).status).toBe(200);
  });
});

describe('partner password reset', () => {
  it('mails a partner-portal link that resets the password once and signs out everywhere', async () => {
    const partner = await t.createPartner({ email: 'p-forgot@example.com' });
    const oldToken = await partner.token();
    const res = await t.call('POST', '/api/partner/forgot-password', { body: { email: 'p-forgot@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: RESET_SENT });

    const { link, token } = await resetLinkOf('p-forgot@example.com');
    expect(link.origin).toBe('http://localhost:8000');
    expect(link.pathname).toMatch(/^\/partner\/password-reset\/[0-9a-f]{64}$/);
    expect(link.searchParams.get('email')).toBe('p-forgot@example.com');

    // A validation failure does not use the link up.
    const mismatch = await t.call('POST', '/api/partner/reset-password', {
      body: { token, email: 'p-forgot@example.com', password: 'brand-new-pass', password_confirmation: 'different-pass' },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password: [MISMATCH] });
    const short = await t.call('POST', '/api/partner/reset-password', {
      body: { token, email: 'p-forgot@example.com', password: 'short', password_confirmation: 'short' },
    });
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toEqual(['The password field must be at least 8 characters.']);

    const body = { token, email: 'p-forgot@example.com', password: 'brand-new-pass', password_confirmation: 'brand-new-pass' };
    const done = await t.call('POST', '/api/partner/reset-password', { body });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Your password has been reset.' });
    expect(await t.call('GET', '/api/partner/me', { token: oldToken })).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect((await partnerLogin('p-forgot@example.com', TEST_PASSWORD)).status).toBe(422);
    expect((await partnerLogin('p-forgot@example.com', 'brand-new-pass')).status).toBe(200);

    const reused = await t.call('POST', '/api/partner/reset-password', { body: { ...body, password: 'third-password', password_confirmation: 'third-password' } });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ message: RESET_INVALID, errors: { email: [RESET_INVALID] } });
    expect((await partnerLogin('p-forgot@example.com', 'brand-new-pass')).status).toBe(200);
  });

  it('refuses a garbage token, another account\'s email, the app endpoint, and an expired link', async () => {
    await t.createPartner({ email: 'p-slow@example.com' });
    await t.createPartner({ email: 'p-bystander@example.com' });
    await t.createUser({ email: 'p-slow@example.com' });
    await t.call('POST', '/api/partner/forgot-password', { body: { email: 'p-slow@example.com' } });
    const { token } = await resetLinkOf('p-slow@example.com');
    const reset = (url: string, values: { token: string; email: string }) =>
      t.call('POST', url, { body: { ...values, password: 'brand-new-pass', password_confirmation: 'brand-new-pass' } });

    const garbage = await reset('/api/partner/reset-password', { token: 'f'.repeat(64), email: 'p-slow@example.com' });
    expect(garbage.status).toBe(422);
    expect(garbage.body.errors).toEqual({ email: [RESET_INVALID] });
    const otherAccount = await reset('/api/partner/reset-password', { token, email: 'p-bystander@example.com' });
    expect(otherAccount.status).toBe(422);
    expect(otherAccount.body.errors).toEqual({ email: [RESET_INVALID] });
    // A partner's link is no good for the app account that has the same email.
    const appSide = await reset('/api/reset-password', { token, email: 'p-slow@example.com' });
    expect(appSide.status).toBe(422);
    expect(appSide.body.errors).toEqual({ email: [RESET_INVALID] });
    expect((await t.call('POST', '/api/login', { body: { email: 'p-slow@example.com', password: TEST_PASSWORD } })).status).toBe(200);

    // Past 60 minutes the genuine token is refused too.
    await t.app.db.update(passwordResetTokens).set({ created_at: new Date(Date.now() - 61 * 60_000) })
      .where(and(eq(passwordResetTokens.account_type, 'partner'), eq(passwordResetTokens.email, 'p-slow@example.com')));
    const expired = await reset('/api/partner/reset-password', { token, email: 'p-slow@example.com' });
    expect(expired.status).toBe(422);
    expect(expired.body.errors).toEqual({ email: [RESET_INVALID] });
    expect((await partnerLogin('p-slow@example.com', TEST_PASSWORD)).status).toBe(200);
    expect((await partnerLogin('p-slow@example.com', 'brand-new-pass')).status).toBe(422);
  });

  it('answers the same for unknown and app-only emails and mails nothing', async () => {
    const unknown = await t.call('POST', '/api/partner/forgot-password', { body: { email: 'p-ghost@example.com' } });
    expect(unknown).toMatchObject({ status: 200, body: { message: RESET_SENT } });
    const appOnly = await t.call('POST', '/api/partner/forgot-password', { body: { email: ADMIN.email } });
    expect(appOnly).toMatchObject({ status: 200, body: { message: RESET_SENT } });
    expect(await mailedTo('p-ghost@example.com', /Reset Password/)).toBe(false);
    expect(await mailedTo(ADMIN.email, /Reset Password/)).toBe(false);
    const invalid = await t.call('POST', '/api/partner/forgot-password', { body: { email: 'nope' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({ email: ['The email field must be a valid email address.'] });
  });

  it('limits reset-link requests per IP: the 11th email from one address gets 429, another address is still served', async () => {
    const ip = '198.51.100.23';
    await t.createPartner({ email: 'p-flood-target@example.com' });
    // RESET_LINKS_PER_IP allows 10 requests per address per minute, whatever the emails.
    for (let i = 0; i < 10; i++) {
      const res = await callFrom(ip, 'POST', '/api/partner/forgot-password', { body: { email: `p-flood-${i}@example.com` } });
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
    }
    const limited = await callFrom(ip, 'POST', '/api/partner/forgot-password', { body: { email: 'p-flood-target@example.com' } });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(TOO_MANY);
    const seconds = Number(TOO_MANY.exec(limited.body.message)![1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await mailedTo('p-flood-target@example.com', /Reset Password/)).toBe(false);

    const elsewhere = await callFrom('198.51.100.24', 'POST', '/api/partner/forgot-password', { body: { email: 'p-flood-target@example.com' } });
    expect(elsewhere).toEqual({ status: 200, body: { message: RESET_SENT } });
    await t.smtp.waitFor('p-flood-target@example.com', /Reset Password/);
  });

  it('limits reset-link requests per partner account', async () => {
    await t.createPartner({ email: 'p-spam@example.com' });
    expect((await callFrom('198.51.100.40', 'POST', '/api/partner/forgot-password', { body: { email: 'p-spam@example.com' } })).status).toBe(200);
    const again = await callFrom('198.51.100.41', 'POST', '/api/partner/forgot-password', { body: { email: 'p-spam@example.com' } });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(TOO_MANY);
  });
});

describe('pending states for partnerAccounts (spec §8, 409)', () => {
  it('forces a password reset before anything else, then lets the partner through', async () => {
    const partner = await t.createPartner({ email: 'p-forced@example.com', force_password_reset: true });
    const token = await partner.token();
    const FORCED = { message: 'You must change your password before continuing.', status: 'FORCE_RESET_PASSWORD' };
    expect(await t.call('GET', '/api/partner/dashboard', { token })).toMatchObject({ status: 409, body: FORCED });
    expect(await t.call('GET', '/api/notification', { token })).toMatchObject({ status: 409, body: FORCED });
    expect(await t.call('PATCH', '/api/partner/profile', { token, body: { name: 'X', email: 'p-forced@example.com' } }))
      .toMatchObject({ status: 409, body: FORCED });
    expect(await t.call('PUT', '/api/partner/password', { token, body: { current_password: TEST_PASSWORD, password: 'sneaky-pass', password_confirmation: 'sneaky-pass' } }))
      .toMatchObject({ status: 409, body: FORCED });
    // The pending-state calls still answer.
    const me = await t.call('GET', '/api/partner/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.data.force_password_reset).toBe(true);
    expect((await t.call('POST', '/api/partner/last-activity', { token })).status).toBe(200);

    const same = await t.call('POST', '/api/partner/force-reset-password', { token, body: { password: TEST_PASSWORD, password_confirmation: TEST_PASSWORD } });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual({ password: ['The new password must be different from your current password.'] });
    const mismatch = await t.call('POST', '/api/partner/force-reset-password', { token, body: { password: 'new-password-1', password_confirmation: 'other' } });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password: [MISMATCH] });
    const short = await t.call('POST', '/api/partner/force-reset-password', { token, body: { password: 'short', password_confirmation: 'short' } });
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toEqual(['The password field must be at least 8 characters.']);
    expect((await t.call('GET', '/api/partner/dashboard', { token })).status).toBe(409);

    const done = await t.call('POST', '/api/partner/force-reset-password', { token, body: { password: 'new-password-1', password_confirmation: 'new-password-1' } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Your password has been changed.' });
    const dashboard = await t.call('GET', '/api/partner/dashboard', { token });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.data).toMatchObject({ unread_notifications: 0 });
    expect((await t.call('GET', '/api/partner/me', { token })).body.data.force_password_reset).toBe(false);
    expect((await partnerLogin('p-forced@example.com', TEST_PASSWORD)).status).toBe(422);
    expect((await partnerLogin('p-forced@example.com', 'new-password-1')).status).toBe(200);
  });

  it('blocks an unverified partner with 409, mails a signed link that verifies once and lands on the partner dashboard', async () => {
    const partner = await t.createPartner({ email: 'p-unverified@example.com', email_verified_at: null });
    const token = await partner.token();
    const UNVERIFIED = { message: 'Your email address is not verified.', status: 'EMAIL_IS_NOT_VERIFIED' };
    expect(await t.call('GET', '/api/partner/dashboard', { token })).toMatchObject({ status: 409, body: UNVERIFIED });
    expect(await t.call('GET', '/api/notification', { token })).toMatchObject({ status: 409, body: UNVERIFIED });
    expect(await t.call('PATCH', '/api/partner/profile', { token, body: { name: 'X', email: 'p-unverified@example.com' } }))
      .toMatchObject({ status: 409, body: UNVERIFIED });
    expect((await t.call('GET', '/api/partner/me', { token })).body.data.email_verified_at).toBeNull();

    const sent = await t.call('POST', '/api/partner/email/verification-notification', { token });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ message: 'A new verification link has been sent to your email address.', status: 'VERIFICATION_LINK_SENT' });

    const { landing, api } = await verificationLinkOf('p-unverified@example.com');
    expect(landing.origin).toBe('http://localhost:8000');
    expect(landing.pathname).toBe('/partner/dashboard');
    expect(api.pathname).toMatch(new RegExp(`^/api/partner/email/verify/${partner.id}/[0-9a-f]{40}$`));
    expect(Number(api.searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000);
    expect(api.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);

    // The signed link is its own proof: it works without a token.
    const verified = await t.call('GET', api.pathname + api.search);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ message: 'Your email address has been verified.', status: 'VERIFIED' });
    expect((await t.call('GET', '/api/partner/dashboard', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/partner/me', { token })).body.data.email_verified_at).toEqual(expect.any(String));

    const again = await t.call('GET', api.pathname + api.search, { token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: 'Your email address is already verified.', status: 'ALREADY_VERIFIED' });
    const resend = await t.call('POST', '/api/partner/email/verification-notification', { token });
    expect(resend.status).toBe(200);
    expect(resend.body).toEqual({ message: 'Your email address is already verified.', status: 'ALREADY_VERIFIED' });
  });

  it('refuses a tampered signed link, and the partner stays unverified', async () => {
    const partner = await t.createPartner({ email: 'p-tamper@example.com', email_verified_at: null });
    const victim = await t.createPartner({ email: 'p-victim@example.com', email_verified_at: null });
    const token = await partner.token();
    await t.call('POST', '/api/partner/email/verification-notification', { token });
    const { api } = await verificationLinkOf('p-tamper@example.com');
    const expires = Number(api.searchParams.get('expires'));
    const signature = api.searchParams.get('signature')!;
    const [, , , , , , hash] = api.pathname.split('/');
    const INVALID = { message: 'This verification link is invalid.' };

    const attempts = [
      `${api.pathname}?expires=${expires}&signature=${'0'.repeat(64)}`,
      `${api.pathname}?expires=${expires + 3600}&signature=${signature}`,
      `/api/partner/email/verify/${victim.id}/${hash}?expires=${expires}&signature=${signature}`,
      // The partner link replayed on the app account type's route.
      `${api.pathname.replace('/api/partner/', '/api/')}?expires=${expires}&signature=${signature}`,
    ];
    for (const url of attempts) {
      const res = await t.call('GET', url, { token });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 403, body: INVALID });
    }
    const noSignature = await t.call('GET', `${api.pathname}?expires=${expires}`);
    expect(noSignature.status).toBe(422);
    expect(noSignature.body.errors.signature).toBeDefined();

    expect((await t.call('GET', '/api/partner/dashboard', { token })).body.status).toBe('EMAIL_IS_NOT_VERIFIED');
    const [victimRow] = await t.app.db.select().from(partnerAccounts).where(eq(partnerAccounts.id, victim.id));
    expect(victimRow.email_verified_at).toBeNull();
  });

  it('refuses a correctly signed link once it has expired', async () => {
    const partner = await t.createPartner({ email: 'p-late@example.com', email_verified_at: null });
    const token = await partner.token();
    // The link is minted "two hours ago", so its 60 minutes are over.
    const realNow = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(realNow - 2 * 3600_000);
    try {
      expect((await t.call('POST', '/api/partner/email/verification-notification', { token })).body.status).toBe('VERIFICATION_LINK_SENT');
    } finally { clock.mockRestore(); }
    const { api } = await verificationLinkOf('p-late@example.com');
    expect(Number(api.searchParams.get('expires'))).toBeLessThan(Date.now() / 1000);
    const res = await t.call('GET', api.pathname + api.search);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'This verification link has expired. Please request a new one.' });
    expect((await t.call('GET', '/api/partner/dashboard', { token })).body.status).toBe('EMAIL_IS_NOT_VERIFIED');
  });
});

describe('partner profile, password and heartbeat', () => {
  it('updates the profile and answers data and message', async () => {
    const partner = await t.createPartner({ email: 'p-profile@example.com' });
    const token = await partner.token();
    const res = await t.call('PATCH', '/api/partner/profile', { token, body: { name: '  Acme Staffing  ', email: 'p-profile@example.com', phone: '+44 1234' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      data: { id: partner.id, name: 'Acme Staffing', email: 'p-profile@example.com', phone: '+44 1234', user_type: 'partner' },
      message: 'Profile updated successfully.',
    });
    expect(res.body.data.email_verified_at).toEqual(expect.any(String));
    expect(res.body.data).not.toHaveProperty('password');
    expect((await t.call('GET', '/api/partner/me', { token })).body.data).toMatchObject({ name: 'Acme Staffing', phone: '+44 1234' });
    const [row] = await t.app.db.select().from(partnerAccounts).where(eq(partnerAccounts.id, partner.id));
    expect(row).toMatchObject({ name: 'Acme Staffing', phone: '+44 1234' });
  });

  it('validates the profile and refuses another partner\'s email', async () => {
    const partner = await t.createPartner({ email: 'p-validate@example.com' });
    await t.createPartner({ email: 'p-taken@example.com' });
    const token = await partner.token();
    const invalid = await t.call('PATCH', '/api/partner/profile', { token, body: { name: '   ', email: 'not-an-email' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({
      name: ['The name field is required.'],
      email: ['The email field must be a valid email address.'],
    });
    const taken = await t.call('PATCH', '/api/partner/profile', { token, body: { name: 'P', email: 'P-Taken@example.com', current_password: TEST_PASSWORD } });
    expect(taken.status).toBe(422);
    expect(taken.body).toEqual({ message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    const [row] = await t.app.db.select().from(partnerAccounts).where(eq(partnerAccounts.id, partner.id));
    expect(row).toMatchObject({ name: 'Test Partner', email: 'p-validate@example.com' });
  });

  it('moves a partner to a new email through a link mailed to it from the partner portal', async () => {
    const partner = await t.createPartner({ email: 'p-mover@example.com' });
    const token = await partner.token();
    const changed = await t.call('PATCH', '/api/partner/profile', { token, body: { name: 'Mover', email: 'p-moved@example.com', current_password: TEST_PASSWORD } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      data: { name: 'Mover', email: 'p-mover@example.com', email_verified_at: expect.any(String) },
      message: 'Profile updated. We have emailed a link to p-moved@example.com: your email address changes when you open it.',
    });
    const { landing, api } = await verificationLinkOf('p-moved@example.com');
    expect(landing.pathname).toBe('/partner/dashboard');
    // Until then the partner works on with the old address.
    expect((await t.call('GET', '/api/partner/dashboard', { token })).status).toBe(200);
    expect((await partnerLogin('p-mover@example.com', TEST_PASSWORD)).status).toBe(200);
    expect((await t.call('GET', api.pathname + api.search)).body.status).toBe('VERIFIED');
    expect((await t.call('GET', '/api/partner/dashboard', { token })).status).toBe(200);
    expect((await partnerLogin('p-moved@example.com', TEST_PASSWORD)).status).toBe(200);
    expect((await partnerLogin('p-mover@example.com', TEST_PASSWORD)).status).toBe(422);
  });

  it('needs can-edit-profile to edit the profile', async () => {
    const partner = await t.createPartner({ email: 'p-noroles@example.com' });
    const token = await partner.token();
    await t.app.db.delete(modelHasRoles).where(and(eq(modelHasRoles.account_type, 'partner'), eq(modelHasRoles.account_id, partner.id)));
    const res = await t.call('PATCH', '/api/partner/profile', { token, body: { name: 'X', email: 'p-noroles@example.com' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'This action is unauthorized.' });
  });

  it('changes the password only with the current one and a matching confirmation', async () => {
    const partner = await t.createPartner({ email: 'p-pw@example.com' });
    const token = await partner.token();
    const put = (body: Record<string, string>) => t.call('PUT', '/api/partner/password', { token, body });

    const wrong = await put({ current_password: 'not-my-password', password: 'another-pass', password_confirmation: 'another-pass' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ message: 'The current password is incorrect.', errors: { current_password: ['The current password is incorrect.'] } });
    const mismatch = await put({ current_password: TEST_PASSWORD, password: 'another-pass', password_confirmation: 'another-pazz' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password: [MISMATCH] });
    const missing = await put({ current_password: '', password: 'another-pass', password_confirmation: 'another-pass' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.current_password).toEqual(['The current password field is required.']);
    const short = await put({ current_password: TEST_PASSWORD, password: 'short', password_confirmation: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toEqual(['The password field must be at least 8 characters.']);
    expect((await partnerLogin('p-pw@example.com', TEST_PASSWORD)).status).toBe(200);

    const ok = await put({ current_password: TEST_PASSWORD, password: 'another-pass', password_confirmation: 'another-pass' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'Password updated successfully.' });
    expect((await partnerLogin('p-pw@example.com', TEST_PASSWORD)).status).toBe(422);
    expect((await partnerLogin('p-pw@example.com', 'another-pass')).status).toBe(200);
  });

  it('records the heartbeat on the partner, not on the app user with the same id', async () => {
    // Far above the sequences, so both rows exist with the same id.
    const partner = await t.createPartner({ id: 9001, email: 'p-beat@example.com' });
    await t.createUser({ id: 9001, email: 'staff-beat@example.com' });
    const token = await partner.token();
    const res = await t.call('POST', '/api/partner/last-activity', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Activity recorded.' });
    const [row] = await t.app.db.select().from(partnerAccounts).where(eq(partnerAccounts.id, partner.id));
    expect(row.last_activity_at).toBeInstanceOf(Date);
    expect(Math.abs(row.last_activity_at!.getTime() - Date.now())).toBeLessThan(60_000);
    const [staff] = await t.app.db.select().from(users).where(eq(users.id, 9001));
    expect(staff.last_activity_at).toBeNull();
    expect((await t.call('POST', '/api/partner/last-activity')).status).toBe(401);
  });
});

describe('partner notifications', () => {
  it('GET /notification lists the partner\'s own unread notifications only', async () => {
    const partner = await t.createPartner({ email: 'p-bell@example.com' });
    const token = await partner.token();
    const data = (title: string) => ({ title, message: `${title} message`, url: '/partner/pre-billing/1' });
    await t.app.db.insert(notifications).values([
      { notifiable_type: 'partner', notifiable_id: partner.id, type: 'App\\Notifications\\Test', data: data('Mine unread') },
      { notifiable_type: 'partner', notifiable_id: partner.id, type: 'App\\Notifications\\Test', data: data('Mine read'), read_at: new Date() },
      // Same id, other account type: not the partner's.
      { notifiable_type: 'app', notifiable_id: partner.id, type: 'App\\Notifications\\Test', data: data('Staff member') },
    ]);
    const unread = await t.call('GET', '/api/notification', { token });
    expect(unread.status).toBe(200);
    expect(unread.body.data.map((n: { data: { title: string } }) => n.data.title)).toEqual(['Mine unread']);
    expect(unread.body.data[0]).toMatchObject({ data: data('Mine unread'), read_at: null });
    expect(unread.body.meta).toMatchObject({ total: 1 });
    const all = await t.call('GET', '/api/notification?type=all', { token });
    expect(all.body.data.map((n: { data: { title: string } }) => n.data.title).sort()).toEqual(['Mine read', 'Mine unread']);
    expect((await t.call('GET', '/api/partner/dashboard', { token })).body.data).toMatchObject({ unread_notifications: 1 });
    expect((await t.call('GET', '/api/notification')).status).toBe(401);
  });
});
