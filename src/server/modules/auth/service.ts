// The named actions behind the auth calls of spec §7, for both account types.
import { hash, verify } from '@node-rs/argon2';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { type AccountType, emailChanges, users } from '../../db/schema/accounts';
import type { Account } from '../../plugins/auth';
import { recordOwnAccountChange } from '../../resources/audit';
import { HttpError, validationError } from '../../plugins/errors';
import type { BackoffPolicy, Throttle } from '../../plugins/limiter';
import { actionMail } from '../../plugins/mail';
import type { Announcement, LoginResponse } from '../../../shared/schemas/auth';
import { ALREADY_VERIFIED, VERIFICATION_LINK_SENT } from '../../../shared/schemas/auth';
import { nodeAnnouncement } from '../setting/announcement';
import {
  type AccountPermissions, type AccountRow, findAccountByEmail, findAccountById, issueToken, loadPermissions, revokeAllTokens, toAuthUser, updateAccount,
} from './accounts';
import { readKnownDevice, rememberDevice } from './devices';
import { consumeResetToken, createResetToken, emailHash, INVITATION_LINK_DAYS, isInvitationLink, VERIFICATION_LINK_MINUTES, verificationUrl } from './links';
import { firmName } from '../setting/firm-profile';
import { TWO_FACTOR_REQUIRED, type TwoFactorChallenge } from '../../../shared/schemas/two-factor';
import { challengeFor } from './two-factor';
import type { ResourceContext } from '../../resources/types';

/*
 * The login throttle (issue 15): nobody but the owner may keep an account's owner out. Wrong
 * passwords count per account *and address* (one guesser), per account from anywhere (guesses spread
 * over many addresses) and per address across accounts (spraying); each blocks with a backoff that
 * doubles. Successful logins count nowhere, so an office behind one address signs in freely. A device
 * that has signed in to the account before (devices.ts) is judged by its own failures only: a correct
 * password from it is never held back by what others did.
 */
const LOGIN_PER_ACCOUNT_AND_ADDRESS: BackoffPolicy = { after: 5, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 86_400 };
const LOGIN_PER_ACCOUNT: BackoffPolicy = { after: 20, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 86_400 };
const LOGIN_PER_ADDRESS: BackoffPolicy = { after: 50, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 3600 };
const LOGIN_PER_KNOWN_DEVICE: BackoffPolicy = { after: 10, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 86_400 };
/** Wrong current passwords (password change, email change): a stolen token is no licence to guess the password. */
const CURRENT_PASSWORD_FAILURES: BackoffPolicy = { after: 5, baseSeconds: 60, maxSeconds: 3600, forgetSeconds: 86_400 };
const RESET_LINKS_PER_ACCOUNT = { max: 1, windowSeconds: 60 };
const RESET_LINKS_PER_IP = { max: 10, windowSeconds: 60 };
// Laravel's throttle:6,1 on the resend route: enough for a lost mail, not enough to flood an inbox.
const VERIFICATION_LINKS_PER_ACCOUNT = { max: 6, windowSeconds: 60 };

export const tooManyAttempts = (seconds: number) =>
  new HttpError(429, `Too many attempts. Please try again in ${seconds} seconds.`);

/**
 * The login and /me answer (spec §3 "Login response"), with the roles and permissions the caller has
 * and the announcement as this node holds it (decision 053): built without a promise when it holds one.
 */
export function authPayload(
  app: FastifyInstance, type: AccountType, user: AccountRow, token: string, { twoFactorRequired, permissionSet }: Pick<AccountPermissions, 'twoFactorRequired' | 'permissionSet'>,
): Omit<LoginResponse, 'message'> | Promise<Omit<LoginResponse, 'message'>> {
  const answer = (announcement: Announcement) => ({
    data: toAuthUser(type, user, twoFactorRequired),
    access_token: token,
    permissions: permissionSet,
    announcement,
    status: 'success' as const,
  });
  const announcement = nodeAnnouncement(app, type);
  return announcement instanceof Promise ? announcement.then(answer) : answer(announcement);
}

export async function login(
  app: FastifyInstance, type: AccountType, credentials: { email: string; password: string }, request: FastifyRequest, reply: FastifyReply,
): Promise<LoginResponse | TwoFactorChallenge> {
  const email = credentials.email.toLowerCase();
  const user = await findAccountByEmail(app.db, type, email);
  const device = readKnownDevice(request, app.config.appKey, type);
  const knownDevice = user && device?.accountIds.includes(user.id) ? device : null;
  // The caller's own counter first (cleared by a success); an unknown email is throttled like a known one.
  const throttles: Throttle[] = user && knownDevice
    ? [[`login-device:${type}:${user.id}:${knownDevice.id}`, LOGIN_PER_KNOWN_DEVICE]]
    : [
      [`login:${type}:${email}:${request.ip}`, LOGIN_PER_ACCOUNT_AND_ADDRESS],
      [`login-account:${type}:${email}`, LOGIN_PER_ACCOUNT],
      [`login-ip:${request.ip}`, LOGIN_PER_ADDRESS],
    ];
  // Reserved before the password is evaluated, so concurrent guesses count against each other (issue 20).
  const isValid = await withReservedAttempt(app, throttles, async () => {
    // Verify against a dummy hash when the account is unknown, so timing does not reveal which emails exist.
    const isMatch = await verify(user?.password ?? DUMMY_HASH, credentials.password).catch(() => false);
    return isMatch && user !== undefined;
  });
  if (!user || !isValid) throw validationError({ email: 'These credentials do not match our records.' });
  if (user.status !== 'active') throw validationError({ email: 'Your account is inactive. Please contact your administrator.' });
  // Only the caller's own count is forgotten: the others are what strangers did, and must decay on their own.
  await app.limiter.clear(throttles[0][0]);
  // Issue 29: with a second factor on, the password alone yields no token, only the challenge for the code step.
  if (user.two_fa_enabled_at) {
    return { status: TWO_FACTOR_REQUIRED, two_factor_token: challengeFor(app.config.appKey, type, user), message: 'Enter the 6-digit code from your authenticator app.' };
  }
  return signIn(app, type, user, request, reply);
}

/** The end of every sign-in (password alone, or password and second factor): a token and the login response. */
export async function signIn(app: FastifyInstance, type: AccountType, user: AccountRow, request: FastifyRequest, reply: FastifyReply): Promise<LoginResponse> {
  const token = await issueToken(app.db, type, user.id);
  // Issue 22: the people lists tell who has never signed in.
  if (type === 'app') await app.db.update(users).set({ last_login_at: new Date() }).where(eq(users.id, user.id));
  rememberDevice(request, reply, app.config.appKey, type, user.id, readKnownDevice(request, app.config.appKey, type));
  return { ...(await authPayload(app, type, user, token, await loadPermissions(app.db, type, user.id))), message: 'Signed in successfully.' };
}

/**
 * Runs `attempt` (a password check: true when right) under a reservation on `throttles`: a 429 when
 * they refuse it, else a wrong answer counts as a failure under each. Whatever happens, the attempt
 * stops being pending, so an error cannot hold a key back.
 */
export async function withReservedAttempt(app: FastifyInstance, throttles: Throttle[], attempt: () => Promise<boolean>): Promise<boolean> {
  const reservation = await app.limiter.reserve(throttles);
  if (reservation.id === undefined) throw tooManyAttempts(reservation.retryAfter);
  let isRight = false;
  try {
    isRight = await attempt();
  } finally {
    await app.limiter.settle(reservation.id, throttles, !isRight);
  }
  return isRight;
}

/** Checks the current password of a signed-in account, under its own backoff. */
export async function checkCurrentPassword(app: FastifyInstance, account: Account, current: string): Promise<void> {
  const key = `current-password:${account.type}:${account.id}`;
  const isRight = await withReservedAttempt(app, [[key, CURRENT_PASSWORD_FAILURES]], () => verify(account.user.password, current).catch(() => false));
  if (!isRight) throw validationError({ current_password: 'The current password is incorrect.' });
  await app.limiter.clear(key);
}

const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$B76GreGt8eKL+edzUYhy8A$X/g3bZmDc5Eb6t+QGi1iSykzcq/QLUQB1XAbZDKbFoI';

const RESET_SENT = 'If an account with that email exists, we have emailed a password reset link.';

export async function sendResetLink(app: FastifyInstance, type: AccountType, email: string, ip: string): Promise<string> {
  const ipLimit = await app.limiter.hit(`forgot-ip:${ip}`, RESET_LINKS_PER_IP.max, RESET_LINKS_PER_IP.windowSeconds);
  if (!ipLimit.allowed) throw tooManyAttempts(ipLimit.retryAfter);
  const accountLimit = await app.limiter.hit(`forgot:${type}:${email}`, RESET_LINKS_PER_ACCOUNT.max, RESET_LINKS_PER_ACCOUNT.windowSeconds);
  if (!accountLimit.allowed) throw tooManyAttempts(accountLimit.retryAfter);

  // Everything that depends on whether the address has an account happens after the answer (the
  // next turn of the event loop), so a known and an unknown address cost the request the same and
  // its timing tells nothing (issue 14).
  setImmediate(() => {
    mailResetLink(app, type, email).catch((error: unknown) => app.log.error({ err: error }, 'password reset mail failed'));
  });
  return RESET_SENT;
}

async function mailResetLink(app: FastifyInstance, type: AccountType, email: string) {
  const user = await findAccountByEmail(app.db, type, email);
  if (!user || user.status !== 'active') return;
  const token = await createResetToken(app.db, type, user.email);
  const url = `${app.config.appUrl}${type === 'partner' ? '/partner' : ''}/password-reset/${token}?email=${encodeURIComponent(user.email)}`;
  await app.mailer.send(actionMail(app.config.appName, user.email, 'Reset Password Notification',
    'You are receiving this email because we received a password reset request for your account.',
    'Reset Password', url, 'This password reset link will expire in 60 minutes. If you did not request a password reset, no further action is required.'));
}

/**
 * A reset link worded as an invitation: a new account's only way to a password of its own (staff,
 * issue 14; partner logins, issue 11, to the partner portal). Setting the password through it also
 * verifies the address (resetPassword), so this is the account's one mail.
 */
export async function sendSetPasswordLink(app: FastifyInstance, type: AccountType, email: string): Promise<void> {
  // Issue 22: an invitation lasts a week; sending another replaces it, so the earlier link stops working.
  const token = await createResetToken(app.db, type, email, { isInvitation: true });
  // welcome=1: the page says "Set your password" rather than "Reset password" (issue 14).
  const url = `${app.config.appUrl}${type === 'partner' ? '/partner' : ''}/password-reset/${token}?email=${encodeURIComponent(email)}&welcome=1`;
  // Issue 22: the invitation names the firm once it has a name.
  const firm = await firmName(app);
  const where = type === 'partner' ? `the ${firm} partner portal` : firm;
  await app.mailer.send(actionMail(firm, email, 'Set Your Password',
    `You have been invited to ${where}: an account has been created for you. Choose a password to sign in; setting it also confirms your email address.`,
    'Set Password', url,
    `This link expires in ${INVITATION_LINK_DAYS} days. After that, ask your administrator to send a new invitation, or use "Forgot password" on the sign-in page.`));
}

export async function resetPassword(app: FastifyInstance, type: AccountType, input: { token: string; email: string; password: string }): Promise<string> {
  // Issue 24: someone setting their first password (an invitation) never had one to reset.
  const isFirstPassword = await isInvitationLink(app.db, type, input.email);
  const user = await findAccountByEmail(app.db, type, input.email);
  const isValid = user && await consumeResetToken(app.db, type, user.email, input.token);
  if (!user || !isValid) throw validationError({ email: 'This password reset link is invalid or has expired.' });
  // The link came by mail, so following it proves the address too: a new account that sets its first
  // password this way is not sent on to verify the same address again.
  await updateAccount(app.db, type, user.id, {
    password: await hash(input.password), force_password_reset: false, email_verified_at: user.email_verified_at ?? new Date(),
  });
  // A reset is often done because someone else may know the old password: sign out everywhere.
  await revokeAllTokens(app.db, type, user.id);
  return isFirstPassword ? 'Your password is set. Sign in with it.' : 'Your password has been reset.';
}

export async function forceResetPassword(ctx: ResourceContext, password: string): Promise<string> {
  const { app, account } = ctx;
  // Only a forced change skips the current password; otherwise a stolen token would be enough to take the account.
  if (!account.user.force_password_reset) {
    throw new HttpError(403, 'A password change is not required. Change your password from your profile.');
  }
  if (await verify(account.user.password, password).catch(() => false)) {
    throw validationError({ password: 'The new password must be different from your current password.' });
  }
  await updateAccount(app.db, account.type, account.id, { password: await hash(password), force_password_reset: false });
  return 'Your password has been changed.';
}

export async function updatePassword(ctx: ResourceContext, current: string, password: string): Promise<string> {
  const { app, account } = ctx;
  await checkCurrentPassword(app, account, current);
  const hashed = await hash(password);
  // The audit trail records that it changed (never a value), in the same transaction.
  await app.db.transaction(async (tx) => {
    await updateAccount(tx as unknown as Db, account.type, account.id, { password: hashed });
    await recordOwnAccountChange(tx as unknown as Db, account, [{ field: 'password', is_secret: true }]);
  });
  // Whoever else holds a session (a stolen token among them) is signed out, sockets included; this one stays.
  await revokeAllTokens(app.db, account.type, account.id, { except: account.tokenId });
  return 'Password updated successfully.';
}

/** Mails the signed link that verifies `email` for the account: its own address, or the one it asked to move to. */
export async function sendVerificationLink(app: FastifyInstance, type: AccountType, user: AccountRow, email = user.email): Promise<void> {
  const apiUrl = verificationUrl(app.config.appUrl, app.config.appKey, type, user.id, email);
  const landing = `${app.config.appUrl}${type === 'partner' ? '/partner' : ''}/dashboard?verification_url=${encodeURIComponent(apiUrl)}`;
  await app.mailer.send(actionMail(app.config.appName, email, 'Verify Email Address',
    'Please click the button below to verify your email address.', 'Verify Email Address', landing,
    `This link expires in ${VERIFICATION_LINK_MINUTES} minutes. If you did not create an account, no further action is required.`));
}

const pendingEmailOf = async (app: FastifyInstance, type: AccountType, id: number) => {
  const [change] = await app.db.select().from(emailChanges)
    .where(and(eq(emailChanges.account_type, type), eq(emailChanges.account_id, id))).limit(1);
  return change?.email;
};

export async function resendVerification(ctx: ResourceContext): Promise<{ message: string; status: string }> {
  const { app, account } = ctx;
  // A verified account may still wait for the link that confirms its new address: that one is sent again.
  const pending = account.user.email_verified_at ? await pendingEmailOf(app, account.type, account.id) : undefined;
  if (account.user.email_verified_at && !pending) return { message: 'Your email address is already verified.', status: ALREADY_VERIFIED };
  const limit = await app.limiter.hit(`verify:${account.type}:${account.id}`, VERIFICATION_LINKS_PER_ACCOUNT.max, VERIFICATION_LINKS_PER_ACCOUNT.windowSeconds);
  if (!limit.allowed) throw tooManyAttempts(limit.retryAfter);
  await sendVerificationLink(app, account.type, account.user, pending);
  return { message: 'A new verification link has been sent to your email address.', status: VERIFICATION_LINK_SENT };
}

/**
 * The signed link's target: verifies the account's email when the hash matches it, or moves the
 * account to the address it asked for (issue 15) when the hash matches that one.
 */
export async function verifyEmail(app: FastifyInstance, type: AccountType, id: number, hashValue: string): Promise<{ message: string; status: string }> {
  const user = await findAccountById(app.db, type, id);
  if (user && emailHash(user.email) === hashValue) {
    if (user.email_verified_at) return { message: 'Your email address is already verified.', status: ALREADY_VERIFIED };
    await updateAccount(app.db, type, id, { email_verified_at: new Date() });
    return { message: 'Your email address has been verified.', status: 'VERIFIED' };
  }
  const pending = user && await pendingEmailOf(app, type, id);
  if (!pending || emailHash(pending) !== hashValue) throw new HttpError(403, 'This verification link is invalid.');
  const taken = await findAccountByEmail(app.db, type, pending);
  if (taken) throw new HttpError(409, 'Another account uses this email address now. Choose another address from your profile.');
  try {
    await updateAccount(app.db, type, id, { email: pending, email_verified_at: new Date() });
  } catch (error) {
    // Taken at the same moment by another account (the unique index): the same answer as above.
    if ((error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
      throw new HttpError(409, 'Another account uses this email address now. Choose another address from your profile.');
    }
    throw error;
  }
  await app.db.delete(emailChanges).where(and(eq(emailChanges.account_type, type), eq(emailChanges.account_id, id)));
  return { message: 'Your email address has been changed.', status: 'VERIFIED' };
}

/**
 * The address an account asked to move to (or an admin moved it to): it stays the old one, for
 * sign-in and reset links, until the link mailed to the new one is opened (verifyEmail).
 */
export async function recordEmailChange(db: Db, type: AccountType, id: number, email: string) {
  await db.insert(emailChanges).values({ account_type: type, account_id: id, email })
    .onConflictDoUpdate({ target: [emailChanges.account_type, emailChanges.account_id], set: { email, created_at: new Date() } });
}

/** The link that confirms the new address, and the old address told who asked and how to undo it. */
export async function mailEmailChange(app: FastifyInstance, type: AccountType, user: AccountRow, email: string, requestedBy: 'self' | 'admin') {
  await sendVerificationLink(app, type, user, email);
  const portal = `${app.config.appUrl}${type === 'partner' ? '/partner' : ''}`;
  const asked = requestedBy === 'self'
    ? `Someone signed in to your account asked to change its email address to ${email}.`
    : `An admin changed the email address of your account to ${email}, and signed out your sessions.`;
  await app.mailer.send(actionMail(app.config.appName, user.email, 'Email Address Change Requested',
    `${asked} Nothing changes until the link we sent to that address is opened.`,
    'Reset Password', `${portal}/forgot-password`,
    requestedBy === 'self'
      ? 'If this was not you, reset your password now: that signs out every session, and the reset link comes to this address.'
      : 'If you did not expect this, reset your password now and tell your admin: until the new address is confirmed, the reset link comes to this address.'));
}

/**
 * Name and phone change at once. A new email needs the current password (a stolen token alone must
 * not move the address that reset links go to); the old address stays the account's, for sign-in
 * and reset links, until the link mailed to the new one is opened, and it is told of the request.
 */
export async function updateProfile(ctx: ResourceContext, input: { name: string; email: string; phone?: string | null; current_password?: string | null }) {
  const { app, account } = ctx;
  const { type, id } = account;
  const isEmailChanged = input.email.toLowerCase() !== account.user.email.toLowerCase();
  if (isEmailChanged) {
    // The password first (issue 20): whether another account has the address is told only to someone
    // who proved they own this one, and a taken and a free address cost the same password check.
    if (!input.current_password) throw validationError({ current_password: 'Enter your current password to change your email address.' });
    await checkCurrentPassword(app, account, input.current_password);
    if (await findAccountByEmail(app.db, type, input.email)) throw validationError({ email: 'The email has already been taken.' });
  }
  const phone = input.phone ?? null;
  const user = await app.db.transaction(async (tx) => {
    const saved = await updateAccount(tx as unknown as Db, type, id, { name: input.name, phone });
    const before = account.user as { name: string; phone?: string | null };
    await recordOwnAccountChange(tx as unknown as Db, account, [
      ...(before.name !== input.name ? [{ field: 'name', old: before.name, new: input.name, old_text: before.name, new_text: input.name }] : []),
      ...((before.phone ?? null) !== phone ? [{ field: 'phone', old: before.phone ?? null, new: phone, old_text: before.phone ?? null, new_text: phone }] : []),
    ]);
    return saved;
  });
  if (!isEmailChanged) return { data: toAuthUser(type, user, account.twoFactorRequired), message: 'Profile updated successfully.' };

  await recordEmailChange(app.db, type, id, input.email);
  await mailEmailChange(app, type, user, input.email, 'self');
  return {
    data: toAuthUser(type, user, account.twoFactorRequired),
    message: `Profile updated. We have emailed a link to ${input.email}: your email address changes when you open it.`,
  };
}
