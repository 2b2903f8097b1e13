// The named actions behind the auth calls of spec §7, for both account types.
import { hash, verify } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import type { AccountType } from '../../db/schema/accounts';
import type { Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { actionMail } from '../../plugins/mail';
import type { LoginResponse } from '../../../shared/schemas/auth';
import { ALREADY_VERIFIED, VERIFICATION_LINK_SENT } from '../../../shared/schemas/auth';
import { getAnnouncement } from '../setting/announcement';
import {
  type AccountRow, findAccountByEmail, findAccountById, issueToken, loadPermissions, revokeAllTokens, toAuthUser, updateAccount,
} from './accounts';
import { consumeResetToken, createResetToken, emailHash, verificationUrl } from './links';

// Rate limits (per account and per IP): failed logins, reset-link and verification-link requests.
const LOGIN_FAILURES_PER_ACCOUNT = { max: 5, windowSeconds: 60 };
const LOGIN_ATTEMPTS_PER_IP = { max: 60, windowSeconds: 60 };
const RESET_LINKS_PER_ACCOUNT = { max: 1, windowSeconds: 60 };
const RESET_LINKS_PER_IP = { max: 10, windowSeconds: 60 };
// Laravel's throttle:6,1 on the resend route: enough for a lost mail, not enough to flood an inbox.
const VERIFICATION_LINKS_PER_ACCOUNT = { max: 6, windowSeconds: 60 };

const tooManyAttempts = (seconds: number) =>
  new HttpError(429, `Too many attempts. Please try again in ${seconds} seconds.`);

/** The login and /me answer (spec §3 "Login response"). */
export async function authPayload(app: FastifyInstance, type: AccountType, user: AccountRow, token: string): Promise<Omit<LoginResponse, 'message'>> {
  return {
    data: toAuthUser(type, user),
    access_token: token,
    permissions: await loadPermissions(app.db, type, user.id),
    announcement: await getAnnouncement(app.db),
    status: 'success',
  };
}

export async function login(app: FastifyInstance, type: AccountType, email: string, password: string, ip: string): Promise<LoginResponse> {
  const accountKey = `login:${type}:${email}`;
  const ipLimit = await app.limiter.hit(`login-ip:${ip}`, LOGIN_ATTEMPTS_PER_IP.max, LOGIN_ATTEMPTS_PER_IP.windowSeconds);
  if (!ipLimit.allowed) throw tooManyAttempts(ipLimit.retryAfter);
  const accountLimit = await app.limiter.isBlocked(accountKey, LOGIN_FAILURES_PER_ACCOUNT.max);
  if (accountLimit.blocked) throw tooManyAttempts(accountLimit.retryAfter);

  const user = await findAccountByEmail(app.db, type, email);
  // Verify against a dummy hash when the account is unknown, so timing does not reveal which emails exist.
  const isValid = await verify(user?.password ?? DUMMY_HASH, password).catch(() => false);
  if (!user || !isValid) {
    await app.limiter.hit(accountKey, LOGIN_FAILURES_PER_ACCOUNT.max, LOGIN_FAILURES_PER_ACCOUNT.windowSeconds);
    throw validationError({ email: 'These credentials do not match our records.' });
  }
  if (user.status !== 'active') throw validationError({ email: 'Your account is inactive. Please contact your administrator.' });
  await app.limiter.clear(accountKey);
  const token = await issueToken(app.db, type, user.id);
  return { ...(await authPayload(app, type, user, token)), message: 'Login successfully!' };
}

const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$B76GreGt8eKL+edzUYhy8A$X/g3bZmDc5Eb6t+QGi1iSykzcq/QLUQB1XAbZDKbFoI';

const RESET_SENT = 'If an account with that email exists, we have emailed a password reset link.';

export async function sendResetLink(app: FastifyInstance, type: AccountType, email: string, ip: string): Promise<string> {
  const ipLimit = await app.limiter.hit(`forgot-ip:${ip}`, RESET_LINKS_PER_IP.max, RESET_LINKS_PER_IP.windowSeconds);
  if (!ipLimit.allowed) throw tooManyAttempts(ipLimit.retryAfter);
  const accountLimit = await app.limiter.hit(`forgot:${type}:${email}`, RESET_LINKS_PER_ACCOUNT.max, RESET_LINKS_PER_ACCOUNT.windowSeconds);
  if (!accountLimit.allowed) throw tooManyAttempts(accountLimit.retryAfter);

  const user = await findAccountByEmail(app.db, type, email);
  if (!user || user.status !== 'active') return RESET_SENT;
  const token = await createResetToken(app.db, type, user.email);
  const url = `${app.config.appUrl}${type === 'partner' ? '/partner' : ''}/password-reset/${token}?email=${encodeURIComponent(user.email)}`;
  await app.mailer.send(actionMail(app.config.appName, user.email, 'Reset Password Notification',
    'You are receiving this email because we received a password reset request for your account.',
    'Reset Password', url, 'This password reset link will expire in 60 minutes. If you did not request a password reset, no further action is required.'));
  return RESET_SENT;
}

export async function resetPassword(app: FastifyInstance, type: AccountType, input: { token: string; email: string; password: string }): Promise<string> {
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
  return 'Your password has been reset.';
}

export async function forceResetPassword(app: FastifyInstance, account: Account, password: string): Promise<string> {
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

export async function updatePassword(app: FastifyInstance, account: Account, current: string, password: string): Promise<string> {
  if (!await verify(account.user.password, current).catch(() => false)) {
    throw validationError({ current_password: 'The current password is incorrect.' });
  }
  await updateAccount(app.db, account.type, account.id, { password: await hash(password) });
  return 'Password updated successfully.';
}

export async function sendVerificationLink(app: FastifyInstance, type: AccountType, user: AccountRow): Promise<void> {
  const apiUrl = verificationUrl(app.config.appUrl, app.config.appKey, type, user.id, user.email);
  const landing = `${app.config.appUrl}${type === 'partner' ? '/partner' : ''}/dashboard?verification_url=${encodeURIComponent(apiUrl)}`;
  await app.mailer.send(actionMail(app.config.appName, user.email, 'Verify Email Address',
    'Please click the button below to verify your email address.', 'Verify Email Address', landing,
    'This link expires in 60 minutes. If you did not create an account, no further action is required.'));
}

export async function resendVerification(app: FastifyInstance, account: Account): Promise<{ message: string; status: string }> {
  if (account.user.email_verified_at) return { message: 'Your email address is already verified.', status: ALREADY_VERIFIED };
  const limit = await app.limiter.hit(`verify:${account.type}:${account.id}`, VERIFICATION_LINKS_PER_ACCOUNT.max, VERIFICATION_LINKS_PER_ACCOUNT.windowSeconds);
  if (!limit.allowed) throw tooManyAttempts(limit.retryAfter);
  await sendVerificationLink(app, account.type, account.user);
  return { message: 'A new verification link has been sent to your email address.', status: VERIFICATION_LINK_SENT };
}

/** The signed link's target: marks the email verified when the hash still matches the account's email. */
export async function verifyEmail(app: FastifyInstance, type: AccountType, id: number, hashValue: string): Promise<{ message: string; status: string }> {
  const user = await findAccountById(app.db, type, id);
  if (!user || emailHash(user.email) !== hashValue) throw new HttpError(403, 'This verification link is invalid.');
  if (user.email_verified_at) return { message: 'Your email address is already verified.', status: ALREADY_VERIFIED };
  await updateAccount(app.db, type, id, { email_verified_at: new Date() });
  return { message: 'Your email address has been verified.', status: 'VERIFIED' };
}

export async function updateProfile(app: FastifyInstance, account: Account, input: { name: string; email: string; phone?: string | null }) {
  const existing = await findAccountByEmail(app.db, account.type, input.email);
  if (existing && existing.id !== account.id) throw validationError({ email: 'The email has already been taken.' });
  const emailChanged = input.email.toLowerCase() !== account.user.email.toLowerCase();
  const user = await updateAccount(app.db, account.type, account.id, {
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    ...(emailChanged ? { email_verified_at: null } : {}),
  });
  // A changed email must be verified again before the account is used further (spec §8, 409).
  if (emailChanged) await sendVerificationLink(app, account.type, user);
  return {
    data: toAuthUser(account.type, user),
    message: emailChanged ? 'Profile updated. Please verify your new email address.' : 'Profile updated successfully.',
  };
}
