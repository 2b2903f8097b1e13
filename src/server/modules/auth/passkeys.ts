// Issue 29: passkeys (WebAuthn) through @simplewebauthn/server: registering one, signing in with one,
// and what a person does with theirs. Decision 037.
//
// - A challenge is stored, used once (deleted as it is checked) and good for five minutes; a
//   registration challenge belongs to the account that asked for it, a sign-in one to an account type.
// - The relying party is the app's address (APP_URL): its host is the RP ID, its origin the only origin.
// - User verification is required: a passkey stands for the password and the code together.
// - The signature counter must grow (a copied authenticator shows as a counter that does not): checked
//   by the library and again by a compare-and-set, so two answers of one assertion cannot both pass.
// - A passkey sign-in ends in the same signIn as a password (+ code) sign-in, under its own throttle.
import { createHmac } from 'node:crypto';
import {
  type AuthenticationResponseJSON, generateAuthenticationOptions, generateRegistrationOptions, type RegistrationResponseJSON,
  verifyAuthenticationResponse, verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { type AccountType, personalAccessTokens } from '../../db/schema/accounts';
import { passkeyChallenges, passkeys } from '../../db/schema/passkeys';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import type { BackoffPolicy, Throttle } from '../../plugins/limiter';
import { recordOwnAccountChange } from '../../resources/audit';
import type { LoginResponse } from '../../../shared/schemas/auth';
import type { Passkey, PasskeyList } from '../../../shared/schemas/passkeys';
import { firmName } from '../setting/firm-profile';
import { findAccountByEmail, findAccountById } from './accounts';
import { checkCurrentPassword, signIn, tooManyAttempts, withReservedAttempt } from './service';

const CHALLENGE_MINUTES = 5;
/** A sign-in this recent stands for the password when adding or removing a passkey. */
export const RECENT_SIGN_IN_MINUTES = 10;
const MAX_PASSKEYS = 20;
/** Failed passkey sign-ins per account: the password policy's backoff (five, then a wait that doubles). */
const PASSKEY_FAILURES: BackoffPolicy = { after: 5, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 86_400 };
/** Per address, across accounts (an office shares one): as the password login's. */
const PASSKEY_FAILURES_PER_ADDRESS: BackoffPolicy = { after: 50, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 3600 };
/** Sign-in options are free to ask for, but each is a row: 30 a minute per address. */
const OPTIONS_PER_ADDRESS = { max: 30, windowSeconds: 60 };

type Purpose = 'register' | 'sign-in';

/** The relying party: the app's own address. */
function relyingParty(app: FastifyInstance) {
  const url = new URL(app.config.appUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** The opaque user handle an authenticator stores for the account: stable, and telling nothing about it. */
const userHandle = (appKey: string, type: AccountType, id: number) =>
  createHmac('sha256', appKey).update(`passkey-user|${type}|${id}`).digest().subarray(0, 32);

async function storeChallenge(db: Db, challenge: string, purpose: Purpose, type: AccountType, accountId: number | null) {
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expires_at, new Date()));
  await db.insert(passkeyChallenges).values({
    challenge, purpose, account_type: type, account_id: accountId, expires_at: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
  });
}

/** Uses up a challenge: true once, for the purpose and account it was handed out to, before it expires. */
async function takeChallenge(db: Db, challenge: string, purpose: Purpose, type: AccountType, accountId: number | null): Promise<boolean> {
  const c = passkeyChallenges;
  const taken = await db.delete(c).where(and(
    eq(c.challenge, challenge), eq(c.purpose, purpose), eq(c.account_type, type),
    accountId === null ? sql`${c.account_id} is null` : eq(c.account_id, accountId), gt(c.expires_at, new Date()),
  )).returning({ challenge: c.challenge });
  return taken.length === 1;
}

/** Whether the token in use was issued within the last few minutes. */
async function isRecentSignIn(app: FastifyInstance, account: Account): Promise<boolean> {
  const [token] = await app.db.select({ created_at: personalAccessTokens.created_at }).from(personalAccessTokens)
    .where(eq(personalAccessTokens.id, account.tokenId)).limit(1);
  return !!token && Date.now() - token.created_at.getTime() < RECENT_SIGN_IN_MINUTES * 60_000;
}

/** Adding or removing a passkey: a recent sign-in, or the password (under its own throttle). */
async function checkRecentOrPassword(app: FastifyInstance, account: Account, currentPassword: string | null | undefined) {
  if (await isRecentSignIn(app, account)) return;
  if (!currentPassword) throw validationError({ current_password: 'Enter your current password: you signed in more than 10 minutes ago.' });
  await checkCurrentPassword(app, account, currentPassword);
}

const ownPasskeys = (account: Pick<Account, 'type' | 'id'>) => and(eq(passkeys.account_type, account.type), eq(passkeys.account_id, account.id));

const toPasskey = (row: typeof passkeys.$inferSelect): Passkey => ({
  id: row.id, name: row.name, created_at: row.created_at.toISOString(), last_used_at: row.last_used_at?.toISOString() ?? null, is_backed_up: row.is_backed_up,
});

export async function listPasskeys(app: FastifyInstance, account: Account): Promise<PasskeyList> {
  const rows = await app.db.select().from(passkeys).where(ownPasskeys(account)).orderBy(asc(passkeys.created_at), asc(passkeys.id));
  return { data: rows.map(toPasskey), password_needed: !(await isRecentSignIn(app, account)) };
}

/** The options for navigator.credentials.create(): a new challenge, and the person's passkeys to leave out. */
export async function registrationOptions(app: FastifyInstance, account: Account, currentPassword?: string | null) {
  await checkRecentOrPassword(app, account, currentPassword);
  const existing = await app.db.select({ id: passkeys.credential_id, transports: passkeys.transports }).from(passkeys).where(ownPasskeys(account));
  if (existing.length >= MAX_PASSKEYS) throw new HttpError(409, `You have ${MAX_PASSKEYS} passkeys, the most there can be. Remove one you no longer use first.`);
  const { rpID } = relyingParty(app);
  const options = await generateRegistrationOptions({
    rpName: await firmName(app), rpID,
    userName: account.user.email, userDisplayName: account.user.name,
    userID: userHandle(app.config.appKey, account.type, account.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: row.transports ? row.transports.split(',') : undefined })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_MINUTES * 60_000,
  });
  await storeChallenge(app.db, options.challenge, 'register', account.type, account.id);
  return { options: { ...options } };
}

const REGISTRATION_FAILED = 'This passkey could not be added. Start again from "Add a passkey".';

/** The browser's answer to the registration options: the passkey is kept, under the person's name for it. */
export async function registerPasskey(app: FastifyInstance, account: Account, input: { name: string; credential: unknown }): Promise<{ data: Passkey; message: string }> {
  const { rpID, origin } = relyingParty(app);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.credential as RegistrationResponseJSON,
      expectedChallenge: (challenge) => takeChallenge(app.db, challenge, 'register', account.type, account.id),
      expectedOrigin: origin, expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch (error) {
    app.log.info({ err: error }, 'passkey registration refused');
    throw validationError({ credential: REGISTRATION_FAILED });
  }
  if (!verification.verified) throw validationError({ credential: REGISTRATION_FAILED });
  const { credential, credentialBackedUp } = verification.registrationInfo;
  const row = await app.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [saved] = await db.insert(passkeys).values({
      account_type: account.type, account_id: account.id, credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter,
      transports: credential.transports?.join(',') || null, name: input.name, is_backed_up: credentialBackedUp,
    }).onConflictDoNothing().returning();
    if (!saved) return undefined;
    await recordOwnAccountChange(db, account, [{ field: 'passkeys', old: null, new: saved.name, old_text: null, new_text: `Passkey “${saved.name}” added` }]);
    return saved;
  });
  if (!row) throw new HttpError(409, 'This passkey is already registered.');
  return { data: toPasskey(row), message: `Passkey “${row.name}” added. Next time, sign in with it instead of your password.` };
}

export async function renamePasskey(app: FastifyInstance, account: Account, id: number, name: string): Promise<{ data: Passkey; message: string }> {
  const [before] = await app.db.select().from(passkeys).where(and(eq(passkeys.id, id), ownPasskeys(account))).limit(1);
  if (!before) throw new HttpError(404, 'No such passkey.');
  const row = await app.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [saved] = await db.update(passkeys).set({ name }).where(and(eq(passkeys.id, id), ownPasskeys(account))).returning();
    if (before.name !== name) {
      await recordOwnAccountChange(db, account, [{ field: 'passkeys', old: before.name, new: name, old_text: `Passkey “${before.name}”`, new_text: `Passkey “${name}”` }]);
    }
    return saved;
  });
  return { data: toPasskey(row), message: 'Passkey renamed.' };
}

/** Removing a passkey takes a recent sign-in or the password: a stolen session cannot take away the owner's way in quietly. */
export async function removePasskey(app: FastifyInstance, account: Account, id: number, currentPassword?: string | null): Promise<string> {
  const [found] = await app.db.select({ id: passkeys.id }).from(passkeys).where(and(eq(passkeys.id, id), ownPasskeys(account))).limit(1);
  if (!found) throw new HttpError(404, 'No such passkey.');
  await checkRecentOrPassword(app, account, currentPassword);
  const removed = await app.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const [row] = await db.delete(passkeys).where(and(eq(passkeys.id, id), ownPasskeys(account))).returning();
    if (row) await recordOwnAccountChange(db, account, [{ field: 'passkeys', old: row.name, new: null, old_text: `Passkey “${row.name}”`, new_text: 'Removed' }]);
    return row;
  });
  if (!removed) throw new HttpError(404, 'No such passkey.');
  return `Passkey “${removed.name}” removed. It no longer signs you in.`;
}

/** The options for navigator.credentials.get(): a challenge any passkey of this account type may answer. */
export async function signInOptions(app: FastifyInstance, type: AccountType, request: FastifyRequest) {
  const limit = await app.limiter.hit(`passkey-options:${request.ip}`, OPTIONS_PER_ADDRESS.max, OPTIONS_PER_ADDRESS.windowSeconds);
  if (!limit.allowed) throw tooManyAttempts(limit.retryAfter);
  const options = await generateAuthenticationOptions({ rpID: relyingParty(app).rpID, userVerification: 'required', timeout: CHALLENGE_MINUTES * 60_000 });
  await storeChallenge(app.db, options.challenge, 'sign-in', type, null);
  return { options: { ...options } };
}

const SIGN_IN_FAILED = 'This passkey did not sign you in. Try again, or sign in with your email and password.';
const COPIED = 'This passkey looks copied (its counter went backwards), so it was refused. Sign in with your password and remove it from your profile.';

/** The browser's answer to the sign-in options: the same token and answer as a password (+ code) sign-in. */
export async function signInWithPasskey(
  app: FastifyInstance, type: AccountType, credential: AuthenticationResponseJSON, request: FastifyRequest, reply: FastifyReply,
): Promise<LoginResponse> {
  const [stored] = await app.db.select().from(passkeys)
    .where(and(eq(passkeys.credential_id, credential.id), eq(passkeys.account_type, type))).limit(1);
  const throttles: Throttle[] = [[`passkey-login-ip:${request.ip}`, PASSKEY_FAILURES_PER_ADDRESS]];
  if (stored) throttles.unshift([`passkey-login:${type}:${stored.account_id}`, PASSKEY_FAILURES]);
  let refusal = SIGN_IN_FAILED;
  const isValid = await withReservedAttempt(app, throttles, async () => {
    if (!stored) return false;
    // The handle the authenticator keeps with the passkey must be its owner's (it is, unless the rows were tampered with).
    const handle = credential.response.userHandle;
    if (handle && handle !== userHandle(app.config.appKey, type, stored.account_id).toString('base64url')) return false;
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: (challenge) => takeChallenge(app.db, challenge, 'sign-in', type, null),
        expectedOrigin: relyingParty(app).origin, expectedRPID: relyingParty(app).rpID,
        credential: {
          id: stored.credential_id, publicKey: new Uint8Array(Buffer.from(stored.public_key, 'base64url')), counter: stored.counter,
          transports: stored.transports ? stored.transports.split(',') as never : undefined,
        },
        requireUserVerification: true,
      });
    } catch (error) {
      if (error instanceof Error && /counter/i.test(error.message)) refusal = COPIED;
      app.log.info({ err: error }, 'passkey sign-in refused');
      return false;
    }
    if (!verification.verified) return false;
    // Compare-and-set: a counter that does not grow (unless the authenticator keeps none: 0 and 0) is refused.
    const { newCounter } = verification.authenticationInfo;
    const taken = await app.db.update(passkeys).set({ counter: newCounter, last_used_at: new Date() })
      .where(and(eq(passkeys.id, stored.id), or(lt(passkeys.counter, newCounter), and(eq(passkeys.counter, 0), sql`${newCounter} = 0`))))
      .returning({ id: passkeys.id });
    if (taken.length !== 1) refusal = COPIED;
    return taken.length === 1;
  });
  if (!isValid || !stored) throw new HttpError(401, refusal);
  await app.limiter.clear(throttles[0][0]);
  const account = await findAccountById(app.db, type, stored.account_id);
  // Read again by address: a partner login reads as inactive while its firm is (accounts.ts).
  const user = account && await findAccountByEmail(app.db, type, account.email);
  if (!user || user.status !== 'active') throw new HttpError(403, 'Your account is inactive. Please contact your administrator.');
  return signIn(app, type, user, request, reply);
}

/** An admin's reset of someone's second factor takes their passkeys too (a lost phone holds both). */
export async function removeAllPasskeys(db: Db, type: AccountType, accountId: number): Promise<number> {
  const removed = await db.delete(passkeys).where(and(eq(passkeys.account_type, type), eq(passkeys.account_id, accountId))).returning({ id: passkeys.id });
  return removed.length;
}

export async function countPasskeys(db: Db, type: AccountType, accountId: number): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(passkeys).where(and(eq(passkeys.account_type, type), eq(passkeys.account_id, accountId)));
  return row?.count ?? 0;
}
