// Issue 29: a second factor (TOTP, RFC 6238) for staff and partners. Codes are made here the way an
// authenticator app makes them (otpauth, from the secret the set-up shows), with the clock moved on by
// whole 30-second steps, since a code is accepted once and only a later step's code works after it.
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../src/server/db/schema/audit';
import { roles, twoFaRecoveryCodes, users } from '../../src/server/db/schema/accounts';
import { TWO_FACTOR_REQUIRED } from '../../src/shared/schemas/two-factor';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });
beforeEach(() => { vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-26T10:00:05Z') }); });
afterEach(() => { vi.useRealTimers(); });

/** The next 30-second step, as if the person waited for their app to show a new code. */
const nextStep = () => vi.setSystemTime(Date.now() + 30_000);
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

/** Sets up and confirms a second factor for the token's account; returns its secret and recovery codes. */
async function enrol(token: string, prefix = '/api') {
  const setup = await t.call('POST', `${prefix}/two-factor/setup`, { token });
  expect(setup.status).toBe(200);
  const confirm = await t.call('POST', `${prefix}/two-factor/confirm`, { token, body: { code: codeFor(setup.body.secret) } });
  expect(confirm.status).toBe(200);
  nextStep();
  return { secret: setup.body.secret as string, recoveryCodes: confirm.body.recovery_codes as string[] };
}

async function passwordStep(email: string, prefix = '/api') {
  const answer = await t.call('POST', `${prefix}/login`, { body: { email, password: TEST_PASSWORD } });
  expect(answer.status).toBe(200);
  return answer.body as { status: string; two_factor_token: string; access_token?: string; message: string };
}

describe('setting up a second factor', () => {
  it('shows a secret and its QR code, confirms with a first code, and gives ten recovery codes once', async () => {
    const person = await t.createUser({ email: 'erin@example.com', name: 'Erin Engineer' });
    const token = await person.token();
    expect((await t.call('GET', '/api/two-factor', { token })).body).toEqual({ enabled: false, enabled_at: null, required: false, recovery_codes_left: 0 });

    const setup = await t.call('POST', '/api/two-factor/setup', { token });
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*erin%40example\.com\?.*secret=/);
    expect(setup.body.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    // Stored encrypted, never as the secret itself.
    const [row] = await t.app.db.select({ secret: users.two_fa_secret }).from(users).where(eq(users.id, person.id));
    expect(row.secret).not.toContain(setup.body.secret);

    const wrong = await t.call('POST', '/api/two-factor/confirm', { token, body: { code: '000000' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.code[0]).toMatch(/not right/);
    const typo = await t.call('POST', '/api/two-factor/confirm', { token, body: { code: '12345' } });
    expect(typo.body.errors.code).toEqual(['Enter the 6-digit code from your authenticator app.']);

    const confirm = await t.call('POST', '/api/two-factor/confirm', { token, body: { code: codeFor(setup.body.secret) } });
    expect(confirm.status).toBe(200);
    expect(confirm.body.recovery_codes).toHaveLength(10);
    for (const code of confirm.body.recovery_codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(new Set(confirm.body.recovery_codes).size).toBe(10);

    const me = await t.call('GET', '/api/me', { token });
    expect(me.body.data).toMatchObject({ is_enable_2fa: true, two_fa_enabled_at: expect.any(String) });
    const status = await t.call('GET', '/api/two-factor', { token });
    expect(status.body).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // The recovery codes are shown once: never again, and stored only as hashes.
    const codes = confirm.body.recovery_codes as string[];
    const stored = await t.app.db.select({ hash: twoFaRecoveryCodes.code_hash }).from(twoFaRecoveryCodes)
      .where(and(eq(twoFaRecoveryCodes.account_type, 'app'), eq(twoFaRecoveryCodes.account_id, person.id)));
    expect(stored).toHaveLength(10);
    for (const code of codes) {
      expect(JSON.stringify(status.body)).not.toContain(code);
      expect(stored.some((row) => row.hash.includes(code) || row.hash.includes(code.replace(/-/g, '')))).toBe(false);
    }
    // The audit trail says it was turned on, and never holds the secret.
    const entries = await t.app.db.select().from(auditLog).where(and(eq(auditLog.record_id, person.id), eq(auditLog.resource, 'user')));
    expect(JSON.stringify(entries)).toContain('second_factor');
    expect(JSON.stringify(entries)).not.toContain(setup.body.secret);
    // A second set-up is refused while it is on.
    expect((await t.call('POST', '/api/two-factor/setup', { token })).status).toBe(409);
  });

  it('never sends the secret with a person\'s record', async () => {
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const list = await t.call('GET', '/api/user?per_page=100', { token: admin });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toMatch(/two_fa_secret|two_fa_last_step/);
  });
});

describe('signing in with a second factor', () => {
  it('gives no token for the password alone, then one for a right code; a code is never accepted twice', async () => {
    const person = await t.createUser({ email: 'sam@example.com', name: 'Sam Second' });
    const { secret } = await enrol(await person.token());

    const step = await passwordStep('sam@example.com');
    expect(step).toEqual({ status: TWO_FACTOR_REQUIRED, two_factor_token: expect.any(String), message: 'Enter the 6-digit code from your authenticator app.' });
    expect(step).not.toHaveProperty('access_token');

    const code = codeFor(secret);
    const signedIn = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: step.two_factor_token, code } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ status: 'success', message: 'Signed in successfully.', data: { email: 'sam@example.com', is_enable_2fa: true } });
    expect((await t.call('GET', '/api/notification', { token: signedIn.body.access_token })).status).toBe(200);

    // The same code again (a replay, or a second tab) is refused, even with a new password step.
    const again = await passwordStep('sam@example.com');
    const replay = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: again.two_factor_token, code } });
    expect(replay.status).toBe(422);
    expect(replay.body.errors.code[0]).toMatch(/already used/);
  });

  it('refuses a forged, expired or outdated challenge', async () => {
    const person = await t.createUser({ email: 'cora@example.com', name: 'Cora Challenge' });
    const { secret } = await enrol(await person.token());
    const step = await passwordStep('cora@example.com');
    const [id, expires] = step.two_factor_token.split('.');
    const forged = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: `${id}.${expires}.forged`, code: codeFor(secret) } });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe('This sign-in has expired. Enter your email and password again.');
    vi.setSystemTime(Date.now() + 6 * 60_000);
    const late = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: step.two_factor_token, code: codeFor(secret) } });
    expect(late.status).toBe(401);
    // A staff challenge is no challenge on the partner portal.
    const fresh = await passwordStep('cora@example.com');
    expect((await t.call('POST', '/api/partner/login/two-factor', { body: { two_factor_token: fresh.two_factor_token, code: codeFor(secret) } })).status).toBe(401);
  });

  it('accepts each recovery code once and says how many are left', async () => {
    const person = await t.createUser({ email: 'rory@example.com', name: 'Rory Recovery' });
    const { recoveryCodes } = await enrol(await person.token());
    const step = await passwordStep('rory@example.com');
    const used = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: step.two_factor_token, recovery_code: recoveryCodes[3].toUpperCase() } });
    expect(used.status).toBe(200);
    expect(used.body.message).toBe('Signed in with a recovery code. 9 are left.');
    const again = await passwordStep('rory@example.com');
    const reused = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: again.two_factor_token, recovery_code: recoveryCodes[3] } });
    expect(reused.status).toBe(422);
    expect(reused.body.errors.recovery_code).toEqual(['This recovery code is not right, or it was already used.']);
  });

  it('throttles wrong codes like wrong passwords: after five, even a right code waits', async () => {
    const person = await t.createUser({ email: 'gus@example.com', name: 'Gus Guesser' });
    const { secret } = await enrol(await person.token());
    const step = await passwordStep('gus@example.com');
    for (let i = 0; i < 5; i += 1) {
      const wrong = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: step.two_factor_token, code: String(100000 + i) } });
      expect(wrong.status).toBe(422);
    }
    const held = await t.call('POST', '/api/login/two-factor', { body: { two_factor_token: step.two_factor_token, code: codeFor(secret) } });
    expect(held.status).toBe(429);
    expect(held.body.message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
  });
});

describe('turning it off, new recovery codes', () => {
  it('needs the password and a current code; then the password alone signs in', async () => {
    const person = await t.createUser({ email: 'olly@example.com', name: 'Olly Off' });
    const token = await person.token();
    const { secret, recoveryCodes } = await enrol(token);

    const wrongPassword = await t.call('POST', '/api/two-factor/disable', { token, body: { current_password: 'nope-nope', code: codeFor(secret) } });
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body.errors).toHaveProperty('current_password');

    const renewed = await t.call('POST', '/api/two-factor/recovery-codes', { token, body: { current_password: TEST_PASSWORD, code: codeFor(secret) } });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    expect(renewed.body.recovery_codes).not.toContain(recoveryCodes[0]);
    nextStep();

    const off = await t.call('POST', '/api/two-factor/disable', { token, body: { current_password: TEST_PASSWORD, code: codeFor(secret) } });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe('Two-factor sign-in is off. You sign in with your password alone.');
    const step = await passwordStep('olly@example.com');
    expect(step.access_token).toEqual(expect.any(String));
    expect((await t.call('GET', '/api/two-factor', { token })).body).toMatchObject({ enabled: false, recovery_codes_left: 0 });
  });
});

describe('a role that asks for a second factor', () => {
  it('sends its holders to set one up before anything else, and keeps it on', async () => {
    // An admin asks for it on the role's form.
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const created = await t.call('POST', '/api/role', { token: admin, body: { name: 'payroll', permission_ids: [], requires_two_fa: true } });
    expect(created.status).toBe(201);
    const [payroll] = await t.app.db.select().from(roles).where(eq(roles.name, 'payroll'));
    expect(payroll.requires_two_fa).toBe(true);
    const person = await t.createUser({ email: 'pat@example.com', name: 'Pat Payroll' }, ['user', 'payroll']);
    const token = await person.token();

    const blocked = await t.call('GET', '/api/notification', { token });
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ message: 'Your role asks for two-factor sign-in. Set it up to continue.', status: 'TWO_FACTOR_SETUP_REQUIRED' });
    expect((await t.call('GET', '/api/two-factor', { token })).body).toMatchObject({ enabled: false, required: true });
    // The user the client holds says so too (lib/pending.ts waits with what would meet the 409).
    expect((await t.call('GET', '/api/me', { token })).body.data).toMatchObject({ two_fa_required: true, two_fa_enabled_at: null });

    const { secret } = await enrol(token);
    expect((await t.call('GET', '/api/notification', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/me', { token })).body.data).toMatchObject({ two_fa_required: true, is_enable_2fa: true });
    const off = await t.call('POST', '/api/two-factor/disable', { token, body: { current_password: TEST_PASSWORD, code: codeFor(secret) } });
    expect(off.status).toBe(403);
    expect(off.body.message).toMatch(/^Your role asks for two-factor sign-in, so it cannot be turned off\./);
  });
});

describe('an admin resets a lost second factor', () => {
  it('turns it off, ends the sessions, records who did it, and is refused to anyone else', async () => {
    const person = await t.createUser({ email: 'lena@example.com', name: 'Lena Lost' });
    const token = await person.token();
    await enrol(token);
    const manager = await t.createUser({ email: 'mo@example.com', name: 'Mo Manager', user_type: 'manager' });
    const refused = await t.call('POST', '/api/two-factor/reset', { token: await manager.token(), body: { account_type: 'app', account_id: person.id } });
    expect(refused.status).toBe(403);

    const admin = await t.login(ADMIN.email, ADMIN.password);
    const reset = await t.call('POST', '/api/two-factor/reset', { token: admin, body: { account_type: 'app', account_id: person.id } });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('Lena Lost\'s second factor is reset and their sessions are ended. They sign in with their password alone until they set up a new one.');
    expect((await t.call('GET', '/api/me', { token })).status).toBe(401);
    expect((await passwordStep('lena@example.com')).access_token).toEqual(expect.any(String));
    const [entry] = await t.app.db.select().from(auditLog)
      .where(and(eq(auditLog.record_id, person.id), eq(auditLog.resource, 'user'), eq(auditLog.actor_name, 'Administrator')));
    expect(entry.changes).toEqual([expect.objectContaining({ field: 'second_factor', new_text: 'Reset by an admin' })]);
  });
});

describe('partners', () => {
  it('set up and sign in with a second factor on the portal, and cannot reset anyone\'s', async () => {
    const partner = await t.createPartner({ email: 'pia@partner.example', name: 'Pia Partner' });
    const token = await partner.token();
    const { secret } = await enrol(token, '/api/partner');
    const step = await passwordStep('pia@partner.example', '/api/partner');
    expect(step.status).toBe(TWO_FACTOR_REQUIRED);
    const signedIn = await t.call('POST', '/api/partner/login/two-factor', { body: { two_factor_token: step.two_factor_token, code: codeFor(secret) } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ user_type: 'partner', is_enable_2fa: true });
    expect((await t.call('POST', '/api/two-factor/reset', { token, body: { account_type: 'app', account_id: 1 } })).status).toBe(401);
  });
});
