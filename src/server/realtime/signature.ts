// Pusher signatures: channel authorisation (`key:hmac`) and the signed HTTP API requests.
// Every comparison goes through timingSafeEqual so a forger learns nothing from response times.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function md5Hex(payload: string | Buffer): string {
  return createHash('md5').update(payload).digest('hex');
}

/** Constant-time string equality; a length mismatch is answered without comparing bytes. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The `auth` value a channel subscription must carry: `key:HMAC(secret, socket_id:channel[:channel_data])`. */
export function channelAuth(key: string, secret: string, socketId: string, channel: string, channelData?: string): string {
  const payload = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${key}:${hmacSha256Hex(secret, payload)}`;
}

export function verifyChannelAuth(
  key: string, secret: string, socketId: string, channel: string, auth: unknown, channelData?: string,
): boolean {
  return typeof auth === 'string' && safeEqual(auth, channelAuth(key, secret, socketId, channel, channelData));
}

export interface SignedRequest {
  method: string;
  /** Path without the query string, as signed by the client (e.g. /apps/1/events). */
  path: string;
  /** Decoded query parameters. */
  query: Record<string, string | undefined>;
  /** The body exactly as received (undefined or '' when there is none); its MD5 is part of the signature. */
  rawBody?: string;
}

/** Seconds a signed request stays valid, as the Pusher HTTP API documents. */
const MAX_CLOCK_SKEW_SECONDS = 600;

/**
 * Checks a Pusher HTTP API signature; returns the reason for refusal, or null when the request is genuine.
 * String to sign: METHOD\npath\nk=v&... over every query parameter except auth_signature, keys lowercased and
 * sorted, values undecorated (the Pusher SDKs sign the decoded values).
 */
export function verifySignedRequest(request: SignedRequest, key: string, secret: string, nowSeconds = Date.now() / 1000): string | null {
  const { query } = request;
  if (query.auth_key !== key) return 'Invalid auth_key';
  const timestamp = Number(query.auth_timestamp);
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > MAX_CLOCK_SKEW_SECONDS) {
    return 'Timestamp expired: auth_timestamp must be within 600 seconds of the server time';
  }
  // A POST always carries body_md5, an empty body that of the empty string: were a missing body_md5 read as
  // "nothing to check", a body the caller failed to pass here would go unchecked. Other methods are checked
  // whenever they do carry a body.
  if (request.method.toUpperCase() === 'POST' || request.rawBody) {
    if (typeof query.body_md5 !== 'string' || !safeEqual(query.body_md5, md5Hex(request.rawBody ?? ''))) return 'Invalid body_md5';
  }
  if (typeof query.auth_signature !== 'string') return 'Missing auth_signature';
  const params = Object.entries(query)
    .filter(([name, value]) => name !== 'auth_signature' && value !== undefined)
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const expected = hmacSha256Hex(secret, `${request.method.toUpperCase()}\n${request.path}\n${params}`);
  return safeEqual(query.auth_signature, expected) ? null : 'Invalid signature';
}
