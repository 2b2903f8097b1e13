// The server's VAPID key pair (RFC 8292), which signs every push and which browsers subscribe with.
// Made on the first start and kept in the database's settings, so every node of a cluster signs with
// the same key (a subscription is bound to the key it was made with) and the embedded database keeps it
// in DATA_DIR with everything else (decision 038).
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema/settings';

const KEY = 'web-push-vapid';

export interface VapidKeys { publicKey: string; privateKey: string }

/** Per database: each test app has its own. */
const cache = new WeakMap<Db, Promise<VapidKeys>>();

/** The key pair: the stored one, or a new one stored now. Two nodes starting at once agree: the first insert wins. */
export function vapidKeys(app: FastifyInstance): Promise<VapidKeys> {
  let keys = cache.get(app.db);
  if (!keys) {
    keys = loadOrCreate(app.db);
    // A failure is not kept: the next push asks again.
    keys.catch(() => cache.delete(app.db));
    cache.set(app.db, keys);
  }
  return keys;
}

async function loadOrCreate(db: Db): Promise<VapidKeys> {
  const generated = webpush.generateVAPIDKeys();
  await db.insert(settings).values({ key: KEY, value: generated }).onConflictDoNothing({ target: settings.key });
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)).limit(1);
  return row.value as VapidKeys;
}

/**
 * Who the push services may contact about our pushes (the JWT's `sub`): the app's https address, else the
 * mail sender's address. web-push accepts only https: or mailto:.
 */
export function vapidSubject(app: FastifyInstance): string {
  if (app.config.appUrl.startsWith('https://')) return app.config.appUrl;
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(app.config.mailFrom)?.[1] ?? (/^\S+@\S+$/.test(app.config.mailFrom) ? app.config.mailFrom : null);
  return `mailto:${address ?? 'no-reply@example.com'}`;
}
