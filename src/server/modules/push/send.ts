// Web Push from the job queue (issue 29, decision 038). notify() queues one job per event with the ids
// of its notifications that show in the app and whose readers opted a device in; the job, run once by
// whichever node claims it, encrypts each notification for each of the reader's devices and sends it to
// the device's push service with web-push (RFC 8291 payload, RFC 8292 VAPID signature). A delivery row
// per (notification, device) makes a retried job send only what is left. A push service that answers
// 404 or 410 has forgotten the subscription: it is dropped.
import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import webpush from 'web-push';
import { notifications, type NotificationData } from '../../db/schema/notifications';
import { pushDeliveries, pushSubscriptions } from '../../db/schema/push';
import { type AccountType, personalAccessTokens } from '../../db/schema/accounts';
import { enqueue } from '../../jobs/queue';
import type { Transaction } from '../../lib/transaction';
import { PUSH_JOB } from '../../../shared/notification-kinds';
import type { PushPayload } from '../../../shared/schemas/push';
import { vapidKeys, vapidSubject } from './vapid';

/** How long a push service keeps a push for a device that is offline: a day, then it is stale news. */
const TTL_SECONDS = 24 * 3600;
/** A notification's message is cut to this in a push (a push payload holds about 4 KB). */
const MAX_MESSAGE = 1_000;

/** Tests reach their stand-in push service (a self-signed https server) through their own agent. */
const agents = new WeakMap<FastifyInstance, Agent>();
export const usePushAgent = (app: FastifyInstance, agent: Agent) => { agents.set(app, agent); };

export const endpointHash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex').slice(0, 16);

/**
 * A subscription whose session has not run out (decision 045). A signed-out or revoked session's rows are
 * already gone with its token; an expired token's row stays until the token is deleted, and gets nothing.
 */
export const sessionLive = sql`exists (select 1 from ${personalAccessTokens} where ${personalAccessTokens.id} = ${pushSubscriptions.token_id}
  and (${personalAccessTokens.expires_at} is null or ${personalAccessTokens.expires_at} > now()))`;

interface Shown { id: string; notifiable_type: AccountType; notifiable_id: number }

/**
 * In notify()'s transaction: queues the push of those notifications whose reader has a device opted in.
 * The queue is woken at the commit, as for mail.
 */
export async function enqueuePushes(tx: Transaction, shown: readonly Shown[]): Promise<void> {
  if (!shown.length) return;
  // Opted-in devices are few (one or two per person who wants them): the whole set of their owners is one small read.
  const owners = await tx.db.selectDistinct({ type: pushSubscriptions.account_type, id: pushSubscriptions.account_id }).from(pushSubscriptions).where(sessionLive);
  if (!owners.length) return;
  const subscribed = new Set(owners.map((owner) => `${owner.type}:${owner.id}`));
  const ids = shown.filter((row) => subscribed.has(`${row.notifiable_type}:${row.notifiable_id}`)).map((row) => row.id);
  if (!ids.length) return;
  await enqueue(tx.db, PUSH_JOB, { ids });
  const { app } = tx;
  tx.onCommit(() => { void app.jobs?.runDue().catch((error: unknown) => app.log.error({ err: error }, 'push job not run')); });
}

/** Where a click on a pushed notification leads: its link, else the reader's own notification list. */
const clickUrl = (row: { notifiable_type: AccountType; data: NotificationData }) =>
  row.data.url ?? (row.notifiable_type === 'partner' ? '/partner/notification' : '/notification');

/** The job: pushes each notification of `ids` to each device of its reader that has not had it yet. */
export async function sendPushes(app: FastifyInstance, payload: unknown): Promise<void> {
  const ids = (payload as { ids?: unknown }).ids;
  if (!Array.isArray(ids) || !ids.length) return;
  const rows = await app.db.select().from(notifications).where(and(inArray(notifications.id, ids as string[]), eq(notifications.is_in_app, true)));
  if (!rows.length) return;
  const devices = new Map<string, (typeof pushSubscriptions.$inferSelect)[]>();
  for (const type of ['app', 'partner'] as const) {
    const owners = [...new Set(rows.filter((row) => row.notifiable_type === type).map((row) => row.notifiable_id))];
    if (!owners.length) continue;
    const found = await app.db.select().from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.account_type, type), inArray(pushSubscriptions.account_id, owners), sessionLive));
    for (const device of found) devices.set(`${type}:${device.account_id}`, [...(devices.get(`${type}:${device.account_id}`) ?? []), device]);
  }
  const sent = await app.db.select().from(pushDeliveries).where(inArray(pushDeliveries.notification_id, rows.map((row) => row.id)));
  const sentFor = new Map(sent.map((delivery) => [`${delivery.notification_id}:${delivery.subscription_id}`, delivery.sent_for.getTime()]));
  const keys = await vapidKeys(app);
  const options: webpush.RequestOptions = {
    vapidDetails: { subject: vapidSubject(app), publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: TTL_SECONDS,
    timeout: 15_000,
    ...(agents.has(app) ? { agent: agents.get(app) } : {}),
  };
  const failures: string[] = [];
  for (const row of rows) {
    const body: PushPayload = { id: row.id, title: row.data.title, message: row.data.message.slice(0, MAX_MESSAGE), url: clickUrl(row), account: row.notifiable_type };
    const text = JSON.stringify(body);
    const owned = devices.get(`${row.notifiable_type}:${row.notifiable_id}`) ?? [];
    await Promise.all(owned.map(async (device) => {
      // Already pushed in this version (a retry, or a second job for the same event).
      if ((sentFor.get(`${row.id}:${device.id}`) ?? -1) >= row.created_at.getTime()) return;
      try {
        await webpush.sendNotification({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, text, options);
        await recordDelivery(app, row.id, device.id, row.created_at);
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) {
          // The push service no longer knows this browser (unsubscribed, uninstalled, expired).
          await app.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
          app.log.info({ subscription: device.id, status }, 'push subscription gone; dropped');
        } else if (status && status >= 400 && status < 500 && status !== 429) {
          // Refused for good (a malformed request, a key the service rejects): retrying sends the same.
          app.log.warn({ subscription: device.id, status, body: (error as { body?: string }).body?.slice(0, 300) }, 'push refused by the push service');
          await recordDelivery(app, row.id, device.id, row.created_at);
        } else {
          failures.push(`${device.id}: ${status ?? (error instanceof Error ? error.message : String(error))}`);
        }
      }
    }));
  }
  // Busy, down or unreachable push services: the job is retried later, and sends only those left.
  if (failures.length) throw new Error(`push not delivered to ${failures.length} device(s): ${failures.slice(0, 5).join('; ')}`);
}

async function recordDelivery(app: FastifyInstance, notificationId: string, subscriptionId: number, sentFor: Date): Promise<void> {
  try {
    await app.db.insert(pushDeliveries).values({ notification_id: notificationId, subscription_id: subscriptionId, sent_for: sentFor })
      .onConflictDoUpdate({ target: [pushDeliveries.notification_id, pushDeliveries.subscription_id], set: { sent_for: sentFor } });
    await app.db.update(pushSubscriptions).set({ last_used_at: new Date() }).where(eq(pushSubscriptions.id, subscriptionId));
  } catch (error) {
    // The device was removed while its push was on the way: nothing to record.
    app.log.debug({ err: error, subscription: subscriptionId }, 'push delivery not recorded');
  }
}
