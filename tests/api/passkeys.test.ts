// Issue 29: passkeys (WebAuthn) for staff and partners. The authenticator is software (an EC P-256 key
// signing real authenticator data, tests/helpers/software-authenticator.ts), so the server's library
// checks real attestations and assertions; the relying party is the test app's APP_URL, http://localhost:8000.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema/audit';
import { personalAccessTokens, users } from '../../src/server/db/schema/accounts';
import { passkeys } from '../../src/server/db/schema/passkeys';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';
import { SoftwareAuthenticator } from '../helpers/software-authenticator';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

/** Registers a passkey on the authenticator for the token's account; returns the saved passkey. */
async function register(token: string, authenticator: SoftwareAuthenticator, name = 'Work laptop', prefix = '/api') {
  const options = await t.call('POST', `${prefix}/passkeys/options`, { token, body: {} });
  expect(options.status).toBe(200);
  const saved = await t.call('POST', `${prefix}/passkeys`, { token, body: { name, credential: authenticator.register(options.body.options) } });
  expect(saved.status).toBe(200);
  return saved.body.data as { id: number; name: string };
}

async function signInOptions(prefix = '/api') {
  const options = await t.call('POST', `${prefix}/login/passkey/options`, { body: {} });
  expect(options.status).toBe(200);
  return options.body.options as { challenge: string };
}

/** The token's sign-in, moved back past the window in which it stands for the password. */
async function ageToken(token: string) {
  await t.app.db.update(personalAccessTokens).set({ created_at: new Date(Date.now() - 11 * 60_000) })
    .where(eq(personalAccessTokens.id, Number(token.split('|')[0])));
}

describe('registering a passkey', () => {
  it('asks for a resident, user-verified credential, keeps it under its name, and lists it with its last use', async () => {
    const person = await t.createUser({ email: 'paula@example.com', name: 'Paula Passkey' });
    const token = await person.token();
    const options = await t.call('POST', '/api/passkeys/options', { token, body: {} });
    expect(options.status).toBe(200);
    expect(options.body.options).toMatchObject({
      rp: { id: 'localhost' }, user: { name: 'paula@example.com', displayName: 'Paula Passkey' }, attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' }, excludeCredentials: [],
    });
    const authenticator = new SoftwareAuthenticator();
    const saved = await t.call('POST', '/api/passkeys', { token, body: { name: '  Work laptop ', credential: authenticator.register(options.body.options) } });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Passkey “Work laptop” added. Next time, sign in with it instead of your password.');

    const list = await t.call('GET', '/api/passkeys', { token });
    expect(list.body).toEqual({ data: [expect.objectContaining({ name: 'Work laptop', last_used_at: null, is_backed_up: false })], password_needed: false });
    // The same authenticator is left out of the next registration.
    const next = await t.call('POST', '/api/passkeys/options', { token, body: {} });
    expect(next.body.options.excludeCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
    const [entry] = await t.app.db.select().from(auditLog).where(and(eq(auditLog.record_id, person.id), eq(auditLog.resource, 'user')));
    expect(entry.changes).toEqual([expect.objectContaining({ field: 'passkeys', new_text: 'Passkey “Work laptop” added' })]);
  });

  it('refuses an answer from another origin, and a challenge used twice', async () => {
    const person = await t.createUser({ email: 'ovid@example.com', name: 'Ovid Origin' });
    const token = await person.token();
    const authenticator = new SoftwareAuthenticator();
    const options = await t.call('POST', '/api/passkeys/options', { token, body: {} });
    const phished = await t.call('POST', '/api/passkeys', { token, body: { name: 'Phone', credential: authenticator.register(options.body.options, { origin: 'https://evil.example' }) } });
    expect(phished.status).toBe(422);
    expect(phished.body.errors.credential).toEqual(['This passkey could not be added. Start again from "Add a passkey".']);
    // The challenge was used up by that attempt: the same options cannot register anything now.
    const replayed = await t.call('POST', '/api/passkeys', { token, body: { name: 'Phone', credential: authenticator.register(options.body.options) } });
    expect(replayed.status).toBe(422);
    // Another person's challenge is not this person's.
    const other = await (await t.createUser({ email: 'otto@example.com', name: 'Otto Other' })).token();
    const theirs = await t.call('POST', '/api/passkeys/options', { token: other, body: {} });
    expect((await t.call('POST', '/api/passkeys', { token, body: { name: 'Phone', credential: authenticator.register(theirs.body.options) } })).status).toBe(422);
    expect((await t.call('GET', '/api/passkeys', { token })).body.data).toEqual([]);
  });

  it('asks for the password once the sign-in is no longer recent', async () => {
    const person = await t.createUser({ email: 'petra@example.com', name: 'Petra Password' });
    const token = await person.token();
    await ageToken(token);
    expect((await t.call('GET', '/api/passkeys', { token })).body.password_needed).toBe(true);
    const bare = await t.call('POST', '/api/passkeys/options', { token, body: {} });
    expect(bare.status).toBe(422);
    expect(bare.body.errors.current_password).toEqual(['Enter your current password: you signed in more than 10 minutes ago.']);
    expect((await t.call('POST', '/api/passkeys/options', { token, body: { current_password: 'wrong-one' } })).status).toBe(422);
    expect((await t.call('POST', '/api/passkeys/options', { token, body: { current_password: TEST_PASSWORD } })).status).toBe(200);
  });
});

describe('signing in with a passkey', () => {
  it('yields the same answer as a password sign-in, records its use, and ends no other session', async () => {
    const person = await t.createUser({ email: 'sam@example.com', name: 'Sam Signin' });
    const token = await person.token();
    const authenticator = new SoftwareAuthenticator();
    await register(token, authenticator);
    const options = await signInOptions();
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    const signedIn = await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(options) } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ status: 'success', message: 'Signed in successfully.', data: { email: 'sam@example.com', user_type: 'user' } });
    expect((await t.call('GET', '/api/me', { token: signedIn.body.access_token })).status).toBe(200);
    expect((await t.call('GET', '/api/me', { token })).status).toBe(200);
    const [listed] = (await t.call('GET', '/api/passkeys', { token })).body.data;
    expect(listed.last_used_at).toEqual(expect.any(String));
    // A partner's portal does not know a staff passkey.
    expect((await t.call('POST', '/api/partner/login/passkey', { body: { credential: authenticator.assert(await signInOptions('/api/partner')) } })).status).toBe(401);
  });

  it('takes the place of the password and the code for an account with two-factor sign-in', async () => {
    const person = await t.createUser({ email: 'tia@example.com', name: 'Tia Totp' });
    const authenticator = new SoftwareAuthenticator();
    await register(await person.token(), authenticator);
    await t.app.db.update(users).set({ two_fa_enabled_at: new Date(), two_fa_secret: 'v1.x.y.z' }).where(eq(users.id, person.id));
    expect((await t.call('POST', '/api/login', { body: { email: 'tia@example.com', password: TEST_PASSWORD } })).body.status).toBe('TWO_FACTOR_REQUIRED');
    const signedIn = await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions()) } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ email: 'tia@example.com', is_enable_2fa: true });
  });

  it('refuses another origin, a replayed challenge and a counter that goes backwards', async () => {
    const person = await t.createUser({ email: 'rex@example.com', name: 'Rex Replay' });
    const authenticator = new SoftwareAuthenticator();
    await register(await person.token(), authenticator);

    const phished = await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions(), { origin: 'https://evil.example' }) } });
    expect(phished.status).toBe(401);
    expect(phished.body.message).toBe('This passkey did not sign you in. Try again, or sign in with your email and password.');

    const options = await signInOptions();
    const answer = authenticator.assert(options);
    expect((await t.call('POST', '/api/login/passkey', { body: { credential: answer } })).status).toBe(200);
    expect((await t.call('POST', '/api/login/passkey', { body: { credential: answer } })).status).toBe(401);
    // A fresh challenge signed with the answer of a copy that lags behind: the counter does not grow.
    const copied = await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions(), { counter: 1 }) } });
    expect(copied.status).toBe(401);
    expect(copied.body.message).toMatch(/^This passkey looks copied/);
    const [row] = await t.app.db.select().from(passkeys).where(eq(passkeys.credential_id, authenticator.id));
    expect(row.counter).toBe(authenticator.counter - 1);
    // The real authenticator, counting on, still signs in.
    expect((await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions()) } })).status).toBe(200);
  });

  it('is throttled after repeated failures, and refused to an inactive account', async () => {
    const person = await t.createUser({ email: 'ina@example.com', name: 'Ina Inactive' });
    const authenticator = new SoftwareAuthenticator();
    await register(await person.token(), authenticator);
    const stranger = new SoftwareAuthenticator();
    stranger.userHandle = authenticator.userHandle;
    for (let i = 0; i < 5; i++) {
      expect((await t.call('POST', '/api/login/passkey', { body: { credential: { ...stranger.assert(await signInOptions()), id: authenticator.id, rawId: authenticator.id } } })).status).toBe(401);
    }
    const held = await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions()) } });
    expect(held.status).toBe(429);

    const other = await t.createUser({ email: 'ivo@example.com', name: 'Ivo Inactive' });
    const theirs = new SoftwareAuthenticator();
    await register(await other.token(), theirs);
    await t.app.db.update(users).set({ status: 'inactive' }).where(eq(users.id, other.id));
    const refused = await t.call('POST', '/api/login/passkey', { body: { credential: theirs.assert(await signInOptions()) } });
    expect(refused.status).toBe(403);
  });
});

describe('a person\'s passkeys', () => {
  it('are renamed and removed (with the password after a while), and a removed one no longer signs in', async () => {
    const person = await t.createUser({ email: 'remy@example.com', name: 'Remy Remove' });
    const token = await person.token();
    const authenticator = new SoftwareAuthenticator();
    const saved = await register(token, authenticator);
    const renamed = await t.call('PATCH', `/api/passkeys/${saved.id}`, { token, body: { name: 'Old phone' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Old phone');

    await ageToken(token);
    const bare = await t.call('POST', `/api/passkeys/${saved.id}/remove`, { token, body: {} });
    expect(bare.status).toBe(422);
    expect(Object.keys(bare.body.errors)).toEqual(['current_password']);
    const removed = await t.call('POST', `/api/passkeys/${saved.id}/remove`, { token, body: { current_password: TEST_PASSWORD } });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Passkey “Old phone” removed. It no longer signs you in.');
    expect((await t.call('GET', '/api/passkeys', { token })).body.data).toEqual([]);
    expect((await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions()) } })).status).toBe(401);
  });

  it('are gone when an admin resets the second factor', async () => {
    const person = await t.createUser({ email: 'lou@example.com', name: 'Lou Lost' });
    const authenticator = new SoftwareAuthenticator();
    await register(await person.token(), authenticator);
    const admin = await t.login(ADMIN.email, ADMIN.password);
    const reset = await t.call('POST', '/api/two-factor/reset', { token: admin, body: { account_type: 'app', account_id: person.id } });
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('Lou Lost\'s second factor is reset and their sessions are ended. They sign in with their password alone until they set up a new one.');
    expect((await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions()) } })).status).toBe(401);
    const [entry] = await t.app.db.select().from(auditLog)
      .where(and(eq(auditLog.record_id, person.id), eq(auditLog.resource, 'user'), eq(auditLog.actor_name, 'Administrator')));
    expect(entry.changes).toEqual([expect.objectContaining({ field: 'passkeys', new_text: 'Removed by an admin' })]);
  });
});

describe('partners', () => {
  it('register and sign in with a passkey on the portal, and never reach a staff member\'s passkeys', async () => {
    const partner = await t.createPartner({ email: 'pia@partner.example', name: 'Pia Partner' });
    const partnerToken = await partner.token();
    const authenticator = new SoftwareAuthenticator();
    await register(partnerToken, authenticator, 'Portal key', '/api/partner');
    const signedIn = await t.call('POST', '/api/partner/login/passkey', { body: { credential: authenticator.assert(await signInOptions('/api/partner')) } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data).toMatchObject({ user_type: 'partner', email: 'pia@partner.example' });
    // The staff login does not take a partner's passkey.
    expect((await t.call('POST', '/api/login/passkey', { body: { credential: authenticator.assert(await signInOptions()) } })).status).toBe(401);

    const staff = await t.createUser({ email: 'stan@example.com', name: 'Stan Staff' });
    const staffToken = await staff.token();
    const staffKey = await register(staffToken, new SoftwareAuthenticator());
    expect((await t.call('GET', '/api/partner/passkeys', { token: partnerToken })).body.data.map((p: { name: string }) => p.name)).toEqual(['Portal key']);
    expect((await t.call('PATCH', `/api/partner/passkeys/${staffKey.id}`, { token: partnerToken, body: { name: 'Mine now' } })).status).toBe(404);
    expect((await t.call('POST', `/api/partner/passkeys/${staffKey.id}/remove`, { token: partnerToken, body: {} })).status).toBe(404);
    expect((await t.call('GET', '/api/passkeys', { token: partnerToken })).status).toBe(401);
    expect((await t.call('GET', '/api/passkeys', { token: staffToken })).body.data).toEqual([expect.objectContaining({ name: 'Work laptop' })]);
  });
});
