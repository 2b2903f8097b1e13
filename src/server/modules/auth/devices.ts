// Known devices (issue 15): a browser that has signed in to an account before carries a signed,
// httpOnly cookie naming that account, so the login throttle that strangers can trigger (wrong
// passwords from anywhere, or from the same office address) never keeps its owner out. The cookie
// proves nothing on its own: the password is checked as always. Nothing is stored on the server.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountType } from '../../db/schema/accounts';

/** Browsers cap a cookie's life at 400 days; an older one is not believed either. */
const DEVICE_DAYS = 400;
/** A shared computer remembers the last few accounts signed in on it. */
const ACCOUNTS_PER_DEVICE = 10;

/** Sent only to the login call of its account type. */
const cookieOf = (type: AccountType) => (type === 'partner'
  ? { name: 'known_partner_device', path: '/api/partner/login' }
  : { name: 'known_device', path: '/api/login' });

export interface KnownDevice {
  /** Random, per browser: failures from this device are counted under it. */
  id: string;
  issuedAt: number;
  accountIds: number[];
}

const sign = (appKey: string, type: AccountType, payload: string) =>
  createHmac('sha256', appKey).update(`known-device|${type}|${payload}`).digest('base64url');

/** The device cookie of this request when its signature holds and it has not outlived DEVICE_DAYS. */
export function readKnownDevice(request: FastifyRequest, appKey: string, type: AccountType): KnownDevice | null {
  const value = request.cookies?.[cookieOf(type).name];
  const match = /^(\d{1,12})\.([\w-]{16,64})\.([\d,]{0,200})\.([\w-]{43})$/.exec(value ?? '');
  if (!match) return null;
  const [, issuedAt, id, ids, signature] = match;
  const expected = Buffer.from(sign(appKey, type, `${issuedAt}.${id}.${ids}`));
  if (expected.length !== signature.length || !timingSafeEqual(expected, Buffer.from(signature))) return null;
  if (Number(issuedAt) * 1000 < Date.now() - DEVICE_DAYS * 86_400_000) return null;
  return { id, issuedAt: Number(issuedAt), accountIds: ids ? ids.split(',').map(Number) : [] };
}

/** After a successful login: this browser is now known for the account (first in the list). */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, appKey: string, type: AccountType, accountId: number, known: KnownDevice | null) {
  const id = known?.id ?? randomBytes(18).toString('base64url');
  const ids = [accountId, ...(known?.accountIds ?? []).filter((other) => other !== accountId)].slice(0, ACCOUNTS_PER_DEVICE).join(',');
  const issuedAt = Math.floor(Date.now() / 1000);
  const payload = `${issuedAt}.${id}.${ids}`;
  const { name, path } = cookieOf(type);
  reply.setCookie(name, `${payload}.${sign(appKey, type, payload)}`, {
    path, httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', maxAge: DEVICE_DAYS * 86_400,
  });
}
