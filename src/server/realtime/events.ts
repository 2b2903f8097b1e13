// Domain events, broadcast under the names Laravel gives them so Echo's default namespace resolves them
// (spec §4 "Real-time events"). A named event's notifications are stored first (notify.ts) and it is
// broadcast after their commit: a client that refetches its unread list on the toast must find the new row.
import type { Db } from '../db/client';
import type { NotificationData } from '../db/schema/notifications';
import type { Recipient } from '../modules/notification/notify';
import type { Account } from '../plugins/auth';
import { announcementFor, type AnnouncementSetting } from '../../shared/schemas/setting';
import type { Broadcaster } from './broadcaster';

/** What raising an event needs of the app: its database and its broadcaster. */
export interface EventHost {
  db: Db;
  broadcaster: Broadcaster;
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

/** A notification just stored (or updated) for a reader who sees it in the app. */
export interface ShownNotification { id: string; recipient: Recipient; data: NotificationData }

/** How a named event reaches, after the commit, those of its notifications' readers who see them in the app. */
export type NamedBroadcast = (app: Pick<EventHost, 'broadcaster'>, shown: readonly ShownNotification[]) => Promise<void>;

/**
 * A named event of spec §4: the stored notification's type (Laravel's class name) and, from what happened
 * (the record, who acted), its broadcast. Its words are the definition's (`events.create`, `events.resubmit`
 * of time-sheet and pre-billing), and it goes the one way every notification goes (notify.ts): to
 * those who may open it, as each chose for its kind (in the app, by email, both, neither), coalesced
 * with an unread one about the same record, and mailed from the job queue.
 */
export interface NamedEvent {
  type: string;
  broadcast: (happened: { actor: Account }) => NamedBroadcast;
}

/** The stored notification's type for a time-sheet upload (Laravel's class name). */
export const TIME_SHEET_UPLOAD_NOTIFICATION = 'App\\Notifications\\TimeSheetUploadNotification';
export const PRE_BILLING_UPLOAD_NOTIFICATION = 'App\\Notifications\\PartnerPreBillingUploadNotification';

/** spec §4 TimeSheetUploadEvent: the uploader's manager (their parent user) is told on their own channel. */
const timeSheetUpload: NamedEvent = {
  type: TIME_SHEET_UPLOAD_NOTIFICATION,
  broadcast: ({ actor }) => async (app, shown) => {
    const uploader = actor.user as { id: number; name: string; parent_id: number | null };
    for (const { id, recipient, data } of shown) {
      // The client takes it when the uploader's parent_id is the reader (spec §4); it goes to no one else.
      if (recipient.type !== 'app' || recipient.id !== uploader.parent_id) continue;
      await app.broadcaster.publish([timeSheetUploadChannel(recipient.id)], 'App\\Events\\TimeSheetUploadEvent', {
        // Its id too, so the bell replaces the entry a coalesced notification updated rather than adding one.
        message: { ...data, id },
        user: { id: uploader.id, name: uploader.name, parent_id: uploader.parent_id },
      });
    }
  },
};

/** spec §4 PartnerPreBillingUploadEvent: finance and the firm's account manager, each on their own channel. */
const preBillingUpload: NamedEvent = {
  type: PRE_BILLING_UPLOAD_NOTIFICATION,
  broadcast: () => async (app, shown) => {
    const readers = shown.filter(({ recipient }) => recipient.type === 'app');
    if (!readers.length) return;
    // All who are told by the same words get one message: each reader's id is in `recipients`.
    const [{ data }] = readers;
    await app.broadcaster.publish(readers.map(({ recipient }) => partnerPreBillingUploadChannel(recipient.id)), 'App\\Events\\PartnerPreBillingUploadEvent', {
      message: data,
      recipients: readers.map(({ recipient }) => ({ id: recipient.id })),
    });
  },
};

const namedEvents: Readonly<Record<string, NamedEvent>> = {
  'time-sheet:created': timeSheetUpload,
  'pre-billing:created': preBillingUpload,
  'pre-billing:resubmitted': preBillingUpload,
};

/** The named event a workflow event of a definition raises (`notifyAbout`'s definition name and event), if any. */
export const namedEventOf = (definition: string, event: string): NamedEvent | undefined => namedEvents[`${definition}:${event}`];

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
