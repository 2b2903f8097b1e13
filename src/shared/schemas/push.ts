// Issue 29: Web Push. A browser's subscription as PushSubscription.toJSON() gives it, and the devices a
// person has opted in, as their profile lists them.
import { z } from 'zod';

const base64url = (bytes: number, what: string) => z.string({ error: `The subscription's ${what} is missing.` })
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, `The subscription's ${what} is not valid.`)
  // Base64url of `bytes` bytes, without padding: ceil(bytes * 4 / 3) characters.
  .refine((value) => value.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3), `The subscription's ${what} is not valid.`);

export const pushSubscriptionSchema = z.object({
  // A push service is always reached over TLS (RFC 8030 §8).
  endpoint: z.string({ error: 'The subscription has no endpoint.' }).max(2000, 'The subscription endpoint is too long.')
    .url('The subscription endpoint is not a URL.').refine((value) => value.startsWith('https://'), 'The subscription endpoint must be an https address.'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // An uncompressed P-256 point (65 bytes) and a 16-byte auth secret (RFC 8291 §3).
    p256dh: base64url(65, 'public key'),
    auth: base64url(16, 'auth secret'),
  }, { error: 'The subscription has no keys.' }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const pushDeviceSchema = z.object({
  id: z.number().int(),
  /** The browser and system, as its user agent names them ("Chrome on Android"). */
  device: z.string(),
  /** The first 16 hex digits of the endpoint's SHA-256: a browser finds its own entry without the list showing endpoints. */
  endpoint_hash: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;

/** GET /api/push/key: the server's VAPID public key, the `applicationServerKey` a browser subscribes with. */
export const pushKeyResponse = z.object({ data: z.object({ public_key: z.string() }) });
export const pushDevicesResponse = z.object({ data: z.array(pushDeviceSchema) });
export const pushDeviceSavedResponse = z.object({ data: pushDeviceSchema, message: z.string() });

/** What the service worker receives in a push (encrypted on the way): a stored notification's words and link. */
export interface PushPayload {
  id: string;
  title: string;
  message: string;
  /** Where a click leads: the notification's link, else the reader's notification list. */
  url: string;
  /** Whose it is: an open window marks it read as that account when it is clicked. */
  account: 'app' | 'partner';
}
