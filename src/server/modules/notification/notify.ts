// The one way to tell people something (ARCHITECTURE "Notifications"): a stored notification per
// recipient (spec §3 shape) written in the caller's transaction, then, after the commit, a live
// broadcast on Laravel's per-account channel that Echo's `.notification()` receives, and optional mail.
// Only those who may open the notification's link receive it (can-open.ts).
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AccountType } from '../../db/schema/accounts';
import { partnerAccounts, users } from '../../db/schema/accounts';
import { notifications, type NotificationData } from '../../db/schema/notifications';
import type { Transaction } from '../../lib/transaction';
import { actionMail } from '../../plugins/mail';
import { whoMayOpen } from './can-open';
import { firmName } from '../setting/firm-profile';

export interface Recipient { type: AccountType; id: number }

/** Laravel's per-account notification channel (`App.Models.User.{id}`, with the `private-` prefix). */
export const notificationChannel = ({ type, id }: Recipient) =>
  `private-App.Models.${type === 'partner' ? 'Partner' : 'User'}.${id}`;

/** The event Echo's `.notification()` listens for. */
export const NOTIFICATION_EVENT = 'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated';

/** A generic type; workflows name their own (`App\Notifications\LeaveApplicationSubmitted`). */
export const DEFAULT_NOTIFICATION_TYPE = 'App\\Notifications\\WorkflowNotification';

export interface NotifyOptions {
  /** Stored as the notification's type (Laravel's class name). */
  type?: string;
  /** Also mail each recipient (links absolute to APP_URL). */
  isMailed?: boolean;
}

/** Stores one notification per distinct recipient; broadcasts (and mails) after the commit. Returns their ids. */
export async function notify(tx: Transaction, recipients: readonly (Recipient | number)[], content: NotificationData, options: NotifyOptions = {}): Promise<string[]> {
  const [ids] = await notifyEach(tx, [{ recipients, content }], options);
  return ids;
}

/** One message and whom it is for. */
export interface NotificationItem { recipients: readonly (Recipient | number)[]; content: NotificationData }

/** Rows per INSERT (about 1.5 MB of JSON). */
const INSERT_CHUNK = 10_000;
/** Broadcasts in flight at once after the commit (each may be a Redis PUBLISH). */
const BROADCAST_CHUNK = 1_000;

/**
 * `notify` for many messages at once (the daily reminders: one per record): multi-row inserts in
 * chunks, broadcasts after the commit. Returns the ids of each item's notifications, in item order.
 */
export async function notifyEach(tx: Transaction, items: readonly NotificationItem[], options: NotifyOptions = {}): Promise<string[][]> {
  const type = options.type ?? DEFAULT_NOTIFICATION_TYPE;
  const rows: { id: string; notifiable_type: AccountType; notifiable_id: number; data: NotificationData }[] = [];
  const ids: string[][] = [];
  const intended = items.map(({ recipients, content }) => {
    const distinct = new Map<string, Recipient>();
    for (const entry of recipients) {
      const recipient = typeof entry === 'number' ? { type: 'app' as const, id: entry } : entry;
      distinct.set(`${recipient.type}:${recipient.id}`, recipient);
    }
    return { url: content.url, recipients: [...distinct.values()] };
  });
  const allowed = await whoMayOpen(tx.db, intended);
  for (const [index, { content }] of items.entries()) {
    const itemIds: string[] = [];
    // Stored and broadcast alike: a missing url is null (spec §3), never an absent key.
    const data: NotificationData = { title: content.title, message: content.message, url: content.url ?? null };
    for (const recipient of allowed[index]) {
      // Ids made here rather than returned by the insert: the broadcast needs each row's id and content, and
      // RETURNING a large batch would only send back what we already hold.
      const id = randomUUID();
      itemIds.push(id);
      rows.push({ id, notifiable_type: recipient.type, notifiable_id: recipient.id, data });
    }
    ids.push(itemIds);
  }
  if (!rows.length) return ids;
  // One JSON parameter per chunk rather than `insert().values()`: building and binding five parameters
  // a row took eight times as long for the daily reminders' 100,000 (docs/benchmarks.md "Daily reminders").
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + INSERT_CHUNK));
    await tx.db.execute(sql`insert into ${notifications} (id, notifiable_type, notifiable_id, type, data)
      select row.id, row.notifiable_type, row.notifiable_id, ${type}, row.data
      from jsonb_to_recordset(${chunk}::jsonb) as row(id uuid, notifiable_type varchar, notifiable_id integer, data jsonb)`);
  }
  const { app } = tx;
  tx.onCommit(async () => {
    for (let i = 0; i < rows.length; i += BROADCAST_CHUNK) {
      await Promise.all(rows.slice(i, i + BROADCAST_CHUNK).map(({ id, notifiable_type, notifiable_id, data }) => app.broadcaster.publish(
        [notificationChannel({ type: notifiable_type, id: notifiable_id })],
        NOTIFICATION_EVENT,
        { id, type, title: data.title, message: data.message, url: data.url },
      )));
    }
  });
  if (options.isMailed) {
    const emails = await recipientEmails(tx, rows.map((row) => ({ type: row.notifiable_type, id: row.notifiable_id })));
    // Signed with the firm's name once it has one (issue 22).
    const signature = await firmName(app, tx.db);
    tx.onCommit(() => Promise.all(rows.map(({ notifiable_type, notifiable_id, data }) => {
      const to = emails.get(`${notifiable_type}:${notifiable_id}`);
      if (!to) return undefined;
      // Without a url the mail opens the recipient's own list (a partner's lives under /partner).
      const url = absoluteUrl(app.config.appUrl, data.url ?? (notifiable_type === 'partner' ? '/partner/notification' : '/notification'));
      return app.mailer.send(actionMail(signature, to, data.title, data.message, 'Open', url, ''))
        .catch((error: unknown) => app.log.error({ err: error, to }, 'notification mail not sent'));
    })));
  }
  return ids;
}

/** APP_URL joined to an app path, keeping APP_URL's own path (`new URL('/x', base)` would drop it). */
function absoluteUrl(appUrl: string, url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  return `${appUrl.replace(/\/$/, '')}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** The email of each active recipient, by `type:id`. */
async function recipientEmails(tx: Transaction, recipients: Recipient[]): Promise<Map<string, string>> {
  const ids = (type: AccountType) => [...new Set(recipients.filter((r) => r.type === type).map((r) => r.id))];
  const found = new Map<string, string>();
  for (const [type, table] of [['app', users], ['partner', partnerAccounts]] as const) {
    if (!ids(type).length) continue;
    const rows = await tx.db.select({ id: table.id, email: table.email }).from(table).where(and(inArray(table.id, ids(type)), eq(table.status, 'active')));
    for (const row of rows) found.set(`${type}:${row.id}`, row.email);
  }
  return found;
}
