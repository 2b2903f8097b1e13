// Domain events, broadcast under the names Laravel gives them so Echo's default namespace resolves them
// (spec §4 "Real-time events"). Notifications are stored before broadcasting: a client that refetches its
// unread list on the toast must find the new row.
import type { Db } from '../db/client';
import { whoMayOpen } from '../modules/notification/can-open';
import { notifications, type NotificationData } from '../db/schema/notifications';
import { announcementFor, type AnnouncementSetting } from '../../shared/schemas/setting';
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
/**
 * Private (issue 15): the app key is in every page, so a public channel would be readable by anyone.
 * One per audience (issue 20): staff join the first, partner logins the second, so a partner's socket
 * never carries what is for staff only.
 */
export const announcementChannel = 'private-announcement-alert';
export const partnerAnnouncementChannel = 'private-partner-announcement-alert';
const announcementChannels = { app: announcementChannel, partner: partnerAnnouncementChannel } as const;

/** Tells the uploader's manager (their parent user) that a time sheet was uploaded. */
/** The stored notification's type for a time-sheet upload (Laravel's class name). */
export const TIME_SHEET_UPLOAD_NOTIFICATION = 'App\\Notifications\\TimeSheetUploadNotification';

export async function raiseTimeSheetUploadEvent(
  app: EventHost,
  { uploader, title, message, url }: NotificationContent & { uploader: { id: number; name: string; parent_id: number | null } },
): Promise<void> {
  // A user without a manager has no one to notify, nor a manager who could not open the link (issue 20).
  if (uploader.parent_id === null) return;
  const [[manager]] = await whoMayOpen(app.db, [{ url, recipients: [{ type: 'app', id: uploader.parent_id }] }]);
  if (!manager) return;
  const content: NotificationData = { title, message, url };
  await app.db.insert(notifications).values({
    notifiable_type: 'app',
    notifiable_id: uploader.parent_id,
    type: TIME_SHEET_UPLOAD_NOTIFICATION,
    kind: 'time-sheet',
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
  { recipients: intended, title, message, url }: NotificationContent & { recipients: { id: number }[] },
): Promise<void> {
  // Only those who may open the statement it links to (issue 20).
  const [allowed] = await whoMayOpen(app.db, [{ url, recipients: intended.map(({ id }) => ({ type: 'app' as const, id })) }]);
  const recipients = allowed.map(({ id }) => ({ id }));
  if (recipients.length === 0) return;
  const content: NotificationData = { title, message, url };
  await app.db.insert(notifications).values(recipients.map(({ id }) => ({
    notifiable_type: 'app' as const,
    notifiable_id: id,
    type: 'App\\Notifications\\PartnerPreBillingUploadNotification',
    kind: 'pre-billing',
    data: content,
  })));
  await app.broadcaster.publish(recipients.map(({ id }) => partnerPreBillingUploadChannel(id)), 'App\\Events\\PartnerPreBillingUploadEvent', {
    message: content,
    recipients: recipients.map(({ id }) => ({ id })),
  });
}

/**
 * Updates the announcement marquee of every open tab it is for. Each audience's channel gets what its
 * banner now shows, when it shows something or has just stopped (the announcement was theirs before):
 * a staff-only announcement sends partners nothing at all. The message must already be sanitised by the caller.
 */
export async function raiseAnnouncementMessageEvent(
  app: Pick<EventHost, 'broadcaster'>,
  announcement: AnnouncementSetting,
  previous?: AnnouncementSetting,
): Promise<void> {
  for (const account of ['app', 'partner'] as const) {
    const shown = announcementFor(announcement, account);
    const wasShown = previous ? announcementFor(previous, account) : null;
    const hasChanged = !wasShown || wasShown.status !== shown.status || wasShown.message !== shown.message;
    if (shown.status !== 'on' && !hasChanged) continue;
    await app.broadcaster.publish([announcementChannels[account]], 'App\\Events\\AnnouncementMessageEvent', { message: shown });
  }
}
