// Issue 29: what a person does with their second factor (set up, confirm, turn off, new recovery
// codes), the code step of a sign-in, and an admin's reset. The primitives are in two-factor.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import type { AccountType } from '../../db/schema/accounts';
import { assertAdmin } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import type { BackoffPolicy } from '../../plugins/limiter';
import { accountResource, recordChange, recordOwnAccountChange } from '../../resources/audit';
import type { LoginResponse } from '../../../shared/schemas/auth';
import { recoveryCode, totpCode, type TwoFactorSetup, type TwoFactorStatus } from '../../../shared/schemas/two-factor';
import { findAccountByEmail, findAccountById, loadPermissions, revokeAllTokens, updateAccount } from './accounts';
import { checkCurrentPassword, signIn, withReservedAttempt } from './service';
import {
  acceptCode, accountOfChallenge, clearRecoveryCodes, newRecoveryCodes, newSecret, recoveryCodesLeft, sealSecret, useRecoveryCode,
} from './two-factor';
import { firmName } from '../setting/firm-profile';
import type { ResourceContext } from '../../resources/types';
import { countPasskeys, removeAllPasskeys } from './passkeys';

/** Wrong codes are throttled like wrong passwords: five, then a wait that doubles (per account, from anywhere). */
const CODE_FAILURES: BackoffPolicy = { after: 5, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 86_400 };
const codeThrottle = (type: AccountType, id: number) => `two-factor:${type}:${id}`;
const WRONG_CODE = 'This code is not right, or it was already used. Wait for the next code and try again.';

/** Checks a code (or a recovery code) for the account under the code throttle; a 422 on the field when wrong. */
async function checkSecondFactor(app: FastifyInstance, type: AccountType, accountId: number, input: { code?: string; recovery_code?: string }) {
  const key = codeThrottle(type, accountId);
  const isRight = await withReservedAttempt(app, [[key, CODE_FAILURES]], async () => {
    // Read inside the reservation: the last accepted step must be the one after any concurrent attempt.
    const account = await findAccountById(app.db, type, accountId);
    if (!account) return false;
    if (input.recovery_code) return useRecoveryCode(app.db, type, accountId, recoveryCode.parse(input.recovery_code));
    return acceptCode(app.db, app.config.appKey, type, account, totpCode.parse(input.code ?? ''));
  });
  if (!isRight) {
    throw validationError(input.recovery_code
      ? { recovery_code: 'This recovery code is not right, or it was already used.' }
      : { code: WRONG_CODE });
  }
  await app.limiter.clear(key);
}

/** The code step of a sign-in: the challenge from the password step, and a code or a recovery code. */
export async function signInWithSecondFactor(
  app: FastifyInstance, type: AccountType, input: { two_factor_token: string; code?: string; recovery_code?: string }, request: FastifyRequest, reply: FastifyReply,
): Promise<LoginResponse> {
  const challenged = await accountOfChallenge(app.db, app.config.appKey, type, input.two_factor_token);
  if (!challenged || !challenged.two_fa_enabled_at) {
    throw new HttpError(401, 'This sign-in has expired. Enter your email and password again.');
  }
  await checkSecondFactor(app, type, challenged.id, input);
  // Read again by address: a partner login reads as inactive while its firm is (accounts.ts).
  const user = await findAccountByEmail(app.db, type, challenged.email);
  if (!user || user.status !== 'active') throw validationError({ code: 'Your account is inactive. Please contact your administrator.' });
  const response = await signIn(app, type, user, request, reply);
  if (input.recovery_code) {
    const left = await recoveryCodesLeft(app.db, type, user.id);
    response.message = left === 0
      ? 'Signed in with your last recovery code. Make new recovery codes from your profile now.'
      : `Signed in with a recovery code. ${left === 1 ? 'One is' : `${left} are`} left.`;
  }
  return response;
}

export async function twoFactorStatus(ctx: ResourceContext): Promise<TwoFactorStatus> {
  const { app, account } = ctx;
  const user = await findAccountById(app.db, account.type, account.id);
  const enabledAt = user?.two_fa_enabled_at ?? null;
  return {
    enabled: enabledAt !== null,
    enabled_at: enabledAt?.toISOString() ?? null,
    required: account.twoFactorRequired,
    recovery_codes_left: enabledAt ? await recoveryCodesLeft(app.db, account.type, account.id) : 0,
  };
}

/** A new secret for the authenticator app, kept (encrypted) until a first code confirms it. */
export async function setUpTwoFactor(ctx: ResourceContext): Promise<TwoFactorSetup> {
  const { app, account } = ctx;
  if (account.user.two_fa_enabled_at) throw new HttpError(409, 'Two-factor sign-in is already on. Turn it off first to move it to another app.');
  const { secret, otpauthUrl, qrCode } = await newSecret(await firmName(app), account.user.email);
  await updateAccount(app.db, account.type, account.id, { two_fa_secret: sealSecret(app.config.appKey, secret), two_fa_last_step: null });
  return { secret, otpauth_url: otpauthUrl, qr_code: qrCode };
}

/** A first code proves the app holds the secret: the second factor is on, with ten recovery codes shown this once. */
export async function confirmTwoFactor(ctx: ResourceContext, code: string): Promise<{ recovery_codes: string[]; message: string }> {
  const { app, account } = ctx;
  const user = await findAccountById(app.db, account.type, account.id);
  if (user?.two_fa_enabled_at) throw new HttpError(409, 'Two-factor sign-in is already on.');
  if (!user?.two_fa_secret) throw validationError({ code: 'Start the set-up again: no authenticator app is waiting to be confirmed.' });
  await checkSecondFactor(app, account.type, account.id, { code });
  const codes = await app.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await updateAccount(db, account.type, account.id, { two_fa_enabled_at: new Date() });
    await recordOwnAccountChange(db, account, [secondFactorChange('off', 'on')]);
    return newRecoveryCodes(db, account.type, account.id);
  });
  return { recovery_codes: codes, message: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: each works once, if your phone is not at hand.' };
}

/** Turning it off takes the password and a current code: a stolen session alone cannot weaken the account. */
export async function turnOffTwoFactor(ctx: ResourceContext, input: { current_password: string; code: string }): Promise<string> {
  const { app, account } = ctx;
  if (account.twoFactorRequired) throw new HttpError(403, 'Your role asks for two-factor sign-in, so it cannot be turned off. An admin can reset it if you lose your phone.');
  if (!account.user.two_fa_enabled_at) throw new HttpError(409, 'Two-factor sign-in is already off.');
  await checkCurrentPassword(app, account, input.current_password);
  await checkSecondFactor(app, account.type, account.id, { code: input.code });
  await app.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await updateAccount(db, account.type, account.id, { two_fa_enabled_at: null, two_fa_secret: null, two_fa_last_step: null });
    await clearRecoveryCodes(db, account.type, account.id);
    await recordOwnAccountChange(db, account, [secondFactorChange('on', 'off')]);
  });
  return 'Two-factor sign-in is off. You sign in with your password alone.';
}

export async function renewRecoveryCodes(ctx: ResourceContext, input: { current_password: string; code: string }) {
  const { app, account } = ctx;
  if (!account.user.two_fa_enabled_at) throw new HttpError(409, 'Turn on two-factor sign-in first.');
  await checkCurrentPassword(app, account, input.current_password);
  await checkSecondFactor(app, account.type, account.id, { code: input.code });
  const codes = await newRecoveryCodes(app.db, account.type, account.id);
  return { recovery_codes: codes, message: 'Here are your new recovery codes. The old ones no longer work.' };
}

/**
 * An admin resets someone's second factor (a lost phone): it is off, their recovery codes are gone,
 * their sessions end, and the audit trail says who did it. If a role of theirs asks for one, they set
 * up a new one at their next sign-in.
 */
export async function resetTwoFactor(ctx: ResourceContext, target: { account_type: AccountType; account_id: number }): Promise<string> {
  assertAdmin(ctx.account, 'Only an admin can reset someone\'s second factor.');
  const { app, account: admin } = ctx;
  const { account_type: type, account_id: id } = target;
  const person = await findAccountById(app.db, type, id);
  if (!person) throw new HttpError(404, 'No such account.');
  // Issue 29: their passkeys go too (a lost phone holds those as well), decision 037.
  const passkeyCount = await countPasskeys(app.db, type, id);
  if (!person.two_fa_enabled_at && !person.two_fa_secret && passkeyCount === 0) return `${person.name} has no second factor to reset.`;
  await app.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await updateAccount(db, type, id, { two_fa_enabled_at: null, two_fa_secret: null, two_fa_last_step: null });
    await clearRecoveryCodes(db, type, id);
    const removed = await removeAllPasskeys(db, type, id);
    await recordChange(db, {
      account: admin, action: 'update', recordId: id, title: person.name,
      changes: [
        ...(person.two_fa_enabled_at || person.two_fa_secret ? [secondFactorChange('on', 'reset')] : []),
        ...(removed ? [{ field: 'passkeys', old: removed, new: 0, old_text: removed === 1 ? 'One passkey' : `${removed} passkeys`, new_text: 'Removed by an admin' }] : []),
      ],
      resource: accountResource(person),
    });
  });
  await revokeAllTokens(app.db, type, id);
  const { twoFactorRequired } = await loadPermissions(app.db, type, id);
  return twoFactorRequired
    ? `${person.name}'s second factor is reset and their sessions are ended. They set up a new one at their next sign-in.`
    : `${person.name}'s second factor is reset and their sessions are ended. They sign in with their password alone until they set up a new one.`;
}

const WORDS = { on: 'On', off: 'Off', reset: 'Reset by an admin' } as const;
/** The audit trail's entry for the second factor: whether it is on, never its secret. */
const secondFactorChange = (before: keyof typeof WORDS, after: keyof typeof WORDS) =>
  ({ field: 'second_factor', old: before, new: after, old_text: WORDS[before], new_text: WORDS[after] });
