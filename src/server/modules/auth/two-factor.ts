// Issue 29: the second factor. TOTP (RFC 6238, 30-second steps, 6 digits, SHA-1: what every
// authenticator app reads from a QR code) through otpauth; ten single-use recovery codes; and the
// challenge that carries a sign-in from the password step to the code step.
//
// - The secret is stored encrypted with the app key (AES-256-GCM), so a copy of the database alone
//   does not yield codes.
// - A code is accepted once: the time step it matched is written with a compare-and-set, and a code of
//   that step or an earlier one is refused afterwards (a replayed code, or the same code sent twice).
// - The challenge is signed, not stored: the account, an expiry and a MAC over both and the account's
//   password hash, so a password change voids challenges already handed out.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../../db/client';
import { type AccountType, twoFaRecoveryCodes } from '../../db/schema/accounts';
import { RECOVERY_CODE_COUNT } from '../../../shared/schemas/two-factor';
import { type AccountRow, accountTable, findAccountById } from './accounts';

const PERIOD_SECONDS = 30;
/** A code of the step before or after is accepted too: a phone's clock a little off, a code typed as it turned. */
const WINDOW_STEPS = 1;
const CHALLENGE_MINUTES = 5;

const boxKey = (appKey: string) => createHash('sha256').update(`two-factor-secret:${appKey}`).digest();

export function sealSecret(appKey: string, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', boxKey(appKey), iv);
  const sealed = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

export function openSecret(appKey: string, sealed: string): string {
  const [version, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !data || !tag) throw new Error('Unknown second-factor secret format');
  const decipher = createDecipheriv('aes-256-gcm', boxKey(appKey), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

const totp = (base32: string, label = '', issuer = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(base32) });

/** A new secret, and what the authenticator app is shown: the otpauth URL, as text and as a QR code. */
export async function newSecret(issuer: string, email: string): Promise<{ secret: string; otpauthUrl: string; qrCode: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const otpauthUrl = totp(secret, email, issuer).toString();
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** The time step a code belongs to (within the window), or null when it matches none. */
export function matchingStep(base32: string, code: string, now = Date.now()): number | null {
  const delta = totp(base32).validate({ token: code, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/**
 * Accepts a code for an account's stored secret (enrolled or being enrolled) once: true when it
 * matches a step later than the last one accepted, which it then becomes.
 */
export async function acceptCode(db: Db, appKey: string, type: AccountType, account: AccountRow, code: string): Promise<boolean> {
  if (!account.two_fa_secret) return false;
  const step = matchingStep(openSecret(appKey, account.two_fa_secret), code);
  if (step === null) return false;
  const table = accountTable(type);
  const taken = await db.update(table).set({ two_fa_last_step: step })
    .where(and(eq(table.id, account.id), or(isNull(table.two_fa_last_step), lt(table.two_fa_last_step, step))))
    .returning({ id: table.id });
  return taken.length === 1;
}

// Recovery codes: 12 characters from an alphabet without look-alikes (no 0/o, 1/l/i), shown in groups of four.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const hashRecovery = (normalised: string) => createHash('sha256').update(normalised).digest('hex');

/** Replaces an account's recovery codes with ten new ones, returned once as the person will read them. */
export async function newRecoveryCodes(db: Db, type: AccountType, accountId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join(''));
  await clearRecoveryCodes(db, type, accountId);
  await db.insert(twoFaRecoveryCodes).values(codes.map((code) => ({ account_type: type, account_id: accountId, code_hash: hashRecovery(code) })));
  return codes.map((code) => code.match(/.{4}/g)!.join('-'));
}

export async function clearRecoveryCodes(db: Db, type: AccountType, accountId: number): Promise<void> {
  await db.delete(twoFaRecoveryCodes).where(and(eq(twoFaRecoveryCodes.account_type, type), eq(twoFaRecoveryCodes.account_id, accountId)));
}

/** Uses up one recovery code (already normalised: 12 lowercase letters and digits); false when it is unknown or used. */
export async function useRecoveryCode(db: Db, type: AccountType, accountId: number, normalised: string): Promise<boolean> {
  const r = twoFaRecoveryCodes;
  const used = await db.update(r).set({ used_at: new Date() })
    .where(and(eq(r.account_type, type), eq(r.account_id, accountId), eq(r.code_hash, hashRecovery(normalised)), isNull(r.used_at)))
    .returning({ id: r.id });
  return used.length === 1;
}

export async function recoveryCodesLeft(db: Db, type: AccountType, accountId: number): Promise<number> {
  const r = twoFaRecoveryCodes;
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(r)
    .where(and(eq(r.account_type, type), eq(r.account_id, accountId), isNull(r.used_at)));
  return row?.count ?? 0;
}

const challengeMac = (appKey: string, type: AccountType, account: AccountRow, expires: number) =>
  createHmac('sha256', appKey).update(`two-factor-challenge|${type}|${account.id}|${expires}|${account.password}`).digest('base64url');

/** What the password step hands out instead of a token: good for one account, for a few minutes. */
export function challengeFor(appKey: string, type: AccountType, account: AccountRow, now = Date.now()): string {
  const expires = now + CHALLENGE_MINUTES * 60_000;
  return `${account.id}.${expires}.${challengeMac(appKey, type, account, expires)}`;
}

/** The account a challenge stands for, or undefined when it is malformed, forged, expired or its password changed. */
export async function accountOfChallenge(db: Db, appKey: string, type: AccountType, challenge: string): Promise<AccountRow | undefined> {
  const [id, expires, mac] = challenge.split('.');
  if (!/^\d{1,10}$/.test(id ?? '') || !/^\d{1,15}$/.test(expires ?? '') || !mac) return undefined;
  if (Number(expires) < Date.now()) return undefined;
  const account = await findAccountById(db, type, Number(id));
  if (!account) return undefined;
  const expected = Buffer.from(challengeMac(appKey, type, account, Number(expires)));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? account : undefined;
}
