// The bell and the notification list (spec §2, §7): both account types read their own rows only.
import { and, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notifications } from '../../db/schema/notifications';
import { requireAccount, type Account } from '../../plugins/auth';
import { HttpError } from '../../plugins/errors';
import { pageMeta } from '../../lib/list';
import {
  markedAllResponse, markedResponse, type NotificationItem, markNotificationSchema, notificationItemSchema, notificationListQuery, notificationPageResponse,
} from '../../../shared/schemas/auth';
import { dataResponse, savedResponse } from '../../../shared/schemas/responses';
import { notificationPreferencesSchema } from '../../../shared/notification-kinds';
import { preferencesFor, savePreferences } from './preferences';

/** The caller's own notifications that show in the app (those of a kind they take by email only do not). */
const ownedBy = (account: Account): SQL =>
  and(eq(notifications.notifiable_type, account.type), eq(notifications.notifiable_id, account.id), eq(notifications.is_in_app, true))!;

const idParams = z.object({ id: z.string().uuid('The notification id is not valid.') });

export function registerNotificationRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'any' as const };

  app.get('/notification', { config, schema: { querystring: notificationListQuery, response: { 200: notificationPageResponse } } }, async (request) => {
    const account = requireAccount(request);
    const { type, page, per_page } = request.query;
    const where = type === 'unread' ? and(ownedBy(account), isNull(notifications.read_at)) : ownedBy(account);
    const [{ total }] = await parent.db.select({ total: count() }).from(notifications).where(where);
    const data = await parent.db.select().from(notifications).where(where)
      .orderBy(desc(notifications.created_at), desc(notifications.id)).limit(per_page).offset((page - 1) * per_page);
    // The rows' dates go out as ISO strings (JSON), as the declared item says.
    return { data: data as unknown as NotificationItem[], meta: pageMeta(request, page, per_page, total) };
  });

  // Issue 24: how the caller hears of each kind of notification (their profile page).
  app.get('/notification/preferences', { config, schema: { response: { 200: dataResponse(notificationPreferencesSchema) } } }, async (request) => ({ data: await preferencesFor(parent.db, requireAccount(request)) }));

  app.put('/notification/preferences', { config, schema: { body: notificationPreferencesSchema, response: { 200: savedResponse(notificationPreferencesSchema) } } }, async (request) => {
    const account = requireAccount(request);
    const data = await savePreferences(parent.db, account, request.body);
    return { data, message: 'Your notification choices are saved.' };
  });

  app.get('/notification/:id', { config, schema: { params: idParams, response: { 200: dataResponse(notificationItemSchema) } } }, async (request) => {
    const account = requireAccount(request);
    const [row] = await parent.db.select().from(notifications)
      .where(and(ownedBy(account), eq(notifications.id, request.params.id))).limit(1);
    if (!row) throw new HttpError(404, 'Notification not found.');
    return { data: row as unknown as NotificationItem };
  });

  // The notifications page's "Mark all as read": only the caller's own unread rows (issue 14).
  app.put('/notification/read-all', { config, schema: { response: { 200: markedAllResponse } } }, async (request) => {
    const account = requireAccount(request);
    const marked = await parent.db.update(notifications).set({ read_at: new Date() })
      .where(and(ownedBy(account), isNull(notifications.read_at))).returning({ id: notifications.id });
    const count = marked.length;
    return { message: count === 0 ? 'No unread notifications.' : 'All notifications marked as read.', count };
  });

  // Marks it read and answers the url the client navigates to (spec §2 bell).
  app.put('/notification/:id', { config, schema: { params: idParams, body: markNotificationSchema.optional(), response: { 200: markedResponse } } }, async (request) => {
    const account = requireAccount(request);
    const [row] = await parent.db.update(notifications).set({ read_at: new Date() })
      .where(and(ownedBy(account), eq(notifications.id, request.params.id))).returning();
    if (!row) throw new HttpError(404, 'Notification not found.');
    return { url: row.data.url ?? request.body?.url ?? null, message: 'Notification marked as read.' };
  });
}
