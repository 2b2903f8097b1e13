// Domain events, broadcast under the names Laravel gives them so Echo's default namespace resolves them
// (spec §4 "Real-time events"). Notifications are stored before broadcasting: a client that refetches its
// unread list on the toast must find the new row.
import type { Db } from '../db/client';
import { notifications, type NotificationData } from '../db/schema/notifications';
import type { Broadcaster } from './broadcaster';

/** What raising an event needs of the app: its database and its broadcaster. */
export interface EventHost {
  db: Db;
  broadcaster: Broadcaster;
}

interface NotificationContent {
  title: string;
  message: string;
  url: string | null;
}

export const timeSheetUploadChannel = (userId: number) => `private-time-sheet-upload-event.${userId}`;
export const partnerPreBillingUploadChannel = (userId: number) => `private-partner-pre-billing-upload-event.${userId}`;
/** Private (issue 15): the app key is in every page, so a public channel would be readable by anyone. */
export const announcementChannel = 'private-announcement-alert';

/** Tells the uploader's manager (their parent user) that a time sheet was uploaded. */
/** The stored notification's type for a time-sheet upload (Laravel's class name). */
export const TIME_SHEET_UPLOAD_NOTIFICATION = 'App\\Notifications\\TimeSheetUploadNotification';

export async function raiseTimeSheetUploadEvent(
  app: EventHost,
  { uploader, title, message, url }: NotificationContent & { uploader: { id: number; name: string; parent_id: number | null } },
): Promise<void> {
  // A user without a manager has no one to notify.
  if (uploader.parent_id === null) return;
  const content: NotificationData = { title, message, url };
  await app.db.insert(notifications).values({
    notifiable_type: 'app',
    notifiable_id: uploader.parent_id,
    type: TIME_SHEET_UPLOAD_NOTIFICATION,
    data: content,
  });
  await app.broadcaster.publish([timeSheetUploadChannel(uploader.parent_id)], 'App\\Events\\TimeSheetUploadEvent', {
    message: content,
    user: { id: uploader.id, name: uploader.name, parent_id: uploader.parent_id },
  });
}

/** Tells each recipient (internal users) that a partner uploaded a pre-billing. */
export async function raisePartnerPreBillingUploadEvent(
  app: EventHost,
  { recipients, title, message, url }: NotificationContent & { recipients: { id: number }[] },
): Promise<void> {
  if (recipients.length === 0) return;
  const content: NotificationData = { title, message, url };
  await app.db.insert(notifications).values(recipients.map(({ id }) => ({
    notifiable_type: 'app' as const,
    notifiable_id: id,
    type: 'App\\Notifications\\PartnerPreBillingUploadNotification',
    data: content,
  })));
  await app.broadcaster.publish(recipients.map(({ id }) => partnerPreBillingUploadChannel(id)), 'App\\Events\\PartnerPreBillingUploadEvent', {
    message: content,
    recipients: recipients.map(({ id }) => ({ id })),
  });
}

/** Updates every open tab's announcement marquee. The message must already be sanitised by the caller. */
export async function raiseAnnouncementMessageEvent(
  app: Pick<EventHost, 'broadcaster'>,
  announcement: { status: 'on' | 'off'; message: string },
): Promise<void> {
  await app.broadcaster.publish([announcementChannel], 'App\\Events\\AnnouncementMessageEvent', {
    message: { status: announcement.status, message: announcement.message },
  });
}
