// Issue 29: a person opts a device in to Web Push from their profile, sees the devices opted in and
// removes one. Staff and partner logins alike, each only their own devices.
import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pushSubscriptions } from '../../db/schema/push';
import { requireAccount, type Account } from '../../plugins/auth';
import { HttpError, validationError } from '../../plugins/errors';
import { messageResponse } from '../../../shared/schemas/responses';
import { type PushDevice, pushDeviceSavedResponse, pushDevicesResponse, pushKeyResponse, pushSubscriptionSchema } from '../../../shared/schemas/push';
import { deviceName } from './device-name';
import { endpointHash, sessionLive } from './send';
import { vapidKeys } from './vapid';

/** A person keeps a handful of devices; more is a script, not a person. */
const MAX_DEVICES = 20;

const idParams = z.object({ id: z.coerce.number().int().positive('The device id is not valid.') });

const ownedBy = (account: Account) => and(eq(pushSubscriptions.account_type, account.type), eq(pushSubscriptions.account_id, account.id));

const asDevice = (row: typeof pushSubscriptions.$inferSelect): PushDevice => ({
  id: row.id,
  device: deviceName(row.user_agent),
  endpoint_hash: endpointHash(row.endpoint),
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

export function registerPushRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'any' as const };

  app.get('/push/key', { config, schema: { response: { 200: pushKeyResponse } } }, async (request) => {
    requireAccount(request);
    return { data: { public_key: (await vapidKeys(parent)).publicKey } };
  });

  app.get('/push/subscriptions', { config, schema: { response: { 200: pushDevicesResponse } } }, async (request) => {
    // A device whose session ran out is not receiving anything: it is left out, and opting in again revives it.
    const rows = await parent.db.select().from(pushSubscriptions).where(and(ownedBy(requireAccount(request)), sessionLive)).orderBy(asc(pushSubscriptions.created_at), asc(pushSubscriptions.id));
    return { data: rows.map(asDevice) };
  });

  app.post('/push/subscriptions', { config, schema: { body: pushSubscriptionSchema, response: { 200: pushDeviceSavedResponse, 201: pushDeviceSavedResponse } } }, async (request, reply) => {
    const account = requireAccount(request);
    const { endpoint, keys } = request.body;
    const userAgent = request.headers['user-agent']?.slice(0, 500) ?? null;
    await refuseAnotherAccountsEndpoint(parent, account, endpoint);
    const [existing] = await parent.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(and(ownedBy(account), eq(pushSubscriptions.endpoint, endpoint))).limit(1);
    if (!existing) {
      const owned = await parent.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(ownedBy(account));
      if (owned.length >= MAX_DEVICES) throw validationError({ endpoint: `You already have ${MAX_DEVICES} devices receiving notifications. Remove one you no longer use first.` });
    }
    // The same browser again (its keys may have changed, or it is a new session on it): the entry is
    // updated, not doubled, and from now on ends with this session (decision 045).
    const [row] = await parent.db.insert(pushSubscriptions)
      .values({ account_type: account.type, account_id: account.id, token_id: account.tokenId, endpoint, p256dh: keys.p256dh, auth: keys.auth, user_agent: userAgent })
      .onConflictDoUpdate({
        target: [pushSubscriptions.account_type, pushSubscriptions.account_id, pushSubscriptions.endpoint],
        set: { token_id: account.tokenId, p256dh: keys.p256dh, auth: keys.auth, user_agent: userAgent },
      }).returning();
    reply.status(existing ? 200 : 201);
    return { data: asDevice(row), message: 'Notifications will now reach this device, even with the app closed.' };
  });

  app.delete('/push/subscriptions/:id', { config, schema: { params: idParams, response: { 200: messageResponse } } }, async (request) => {
    const account = requireAccount(request);
    const removed = await parent.db.delete(pushSubscriptions).where(and(ownedBy(account), eq(pushSubscriptions.id, request.params.id))).returning({ id: pushSubscriptions.id });
    if (!removed.length) throw new HttpError(404, 'That device is not receiving your notifications.');
    return { message: 'That device will no longer receive your notifications.' };
  });
}

/**
 * A browser's subscription carries one person's notifications per account type (decision 045). Another
 * login of the same type cannot add itself to an endpoint someone else registered: both would be pushed
 * to one browser, and the first person's notifications would show to whoever signs in there next. The
 * browser subscribes afresh instead (a new endpoint, which the push service gives only to that browser);
 * the app does so by itself on this answer. A staff login and a partner login may share one, both signed
 * in on that browser.
 */
async function refuseAnotherAccountsEndpoint(app: FastifyInstance, account: Account, endpoint: string): Promise<void> {
  const [held] = await app.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.account_type, account.type), eq(pushSubscriptions.endpoint, endpoint), ne(pushSubscriptions.account_id, account.id))).limit(1);
  if (held) throw new HttpError(409, 'This browser is set up for another person\'s notifications. Turn them on again to set it up for yours.');
}
