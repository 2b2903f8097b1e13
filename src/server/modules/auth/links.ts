// Reset and verification links: both expire, both work once.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type AccountType, passwordResetTokens } from '../../db/schema/accounts';
import { sha256 } from './accounts';

export const RESET_LINK_MINUTES = 60;
export const VERIFICATION_LINK_MINUTES = 60;
/** Issue 22: an invitation waits a week for its person (a reset link, asked for by its person, an hour). */
export const INVITATION_LINK_DAYS = 7;

/**
 * Creates (or replaces) the account's one pending reset token; returns the plain token for the link.
 * Replacing it is what makes an earlier link stop working (a resent invitation, a second reset).
 * `isInvitation`: valid for INVITATION_LINK_DAYS instead of RESET_LINK_MINUTES.
 */
export async function createResetToken(db: Db, type: AccountType, email: string, { isInvitation = false } = {}): Promise<string> {
  const token = randomBytes(32).toString('hex');
  const key = email.toLowerCase();
  const expires_at = isInvitation ? new Date(Date.now() + INVITATION_LINK_DAYS * 86_400_000) : null;
  await db.insert(passwordResetTokens).values({ account_type: type, email: key, token_hash: sha256(token), expires_at })
    .onConflictDoUpdate({ target: [passwordResetTokens.account_type, passwordResetTokens.email], set: { token_hash: sha256(token), created_at: new Date(), expires_at } });
  return token;
}

/** Whether the account's outstanding link is an invitation (its first password), not a reset. */
export async function isInvitationLink(db: Db, type: AccountType, email: string): Promise<boolean> {
  const [row] = await db.select({ expires_at: passwordResetTokens.expires_at }).from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.account_type, type), eq(passwordResetTokens.email, email.toLowerCase()))).limit(1);
  return !!row?.expires_at;
}

/** Deletes the token when it matches and is fresh: a link works once. */
export async function consumeResetToken(db: Db, type: AccountType, email: string, token: string): Promise<boolean> {
  const where = and(eq(passwordResetTokens.account_type, type), eq(passwordResetTokens.email, email.toLowerCase()));
  const [row] = await db.select().from(passwordResetTokens).where(where).limit(1);
  if (!row) return false;
  const expiresAt = row.expires_at?.getTime() ?? row.created_at.getTime() + RESET_LINK_MINUTES * 60_000;
  const isFresh = expiresAt > Date.now();
  const matches = safeEqual(row.token_hash, sha256(token));
  if (!matches) return false;
  // Only the request whose delete removed the row may use it: two at once cannot both reset.
  const deleted = await db.delete(passwordResetTokens).where(and(where, eq(passwordResetTokens.token_hash, row.token_hash)))
    .returning({ email: passwordResetTokens.email });
  return deleted.length === 1 && isFresh;
}

const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Laravel-style signed URL: /api[/partner]/email/verify/{id}/{sha1(email)}?expires=&signature= */
export function verificationUrl(appUrl: string, appKey: string, type: AccountType, id: number, email: string): string {
  const path = `/api${type === 'partner' ? '/partner' : ''}/email/verify/${id}/${emailHash(email)}`;
  const expires = Math.floor(Date.now() / 1000) + VERIFICATION_LINK_MINUTES * 60;
  return `${appUrl}${path}?expires=${expires}&signature=${sign(appKey, `${path}?expires=${expires}`)}`;
}

export function checkVerificationSignature(appKey: string, path: string, expires: number, signature: string): 'valid' | 'expired' | 'invalid' {
  if (!safeEqual(sign(appKey, `${path}?expires=${expires}`), signature)) return 'invalid';
  return expires * 1000 < Date.now() ? 'expired' : 'valid';
}

export const emailHash = (email: string) => createHmac('sha1', 'email').update(email.toLowerCase()).digest('hex');
const sign = (key: string, value: string) => createHmac('sha256', key).update(value).digest('hex');
