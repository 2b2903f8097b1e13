// Database notifications (spec §3 "Notification"): one row per recipient, read_at marks it read.
// Issue 24: each person chooses per kind whether a notification shows in the app, is mailed, both or
// neither (notification_preferences); mail goes from the job queue, at once or in a daily digest.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { accountTypes } from './accounts';
import type { NotificationChannel } from '../../../shared/notification-kinds';

export interface NotificationData { title: string; message: string; url: string | null }

/** Where a notification's mail stands: to send now (a queued job), held for the daily digest, sent. */
export const mailStates = ['now', 'digest', 'sent'] as const;

export const notifications = pgTable('notifications', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  notifiable_type: varchar('notifiable_type', { length: 10, enum: accountTypes }).notNull(),
  notifiable_id: integer('notifiable_id').notNull(),
  /** The event that raised it, e.g. App\Notifications\TimeSheetUploadNotification. */
  type: varchar('type', { length: 255 }).notNull(),
  data: jsonb('data').$type<NotificationData>().notNull(),
  read_at: timestamp('read_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Its kind of notification (src/shared/notification-kinds.ts), which the recipient's preferences are kept by. */
  kind: varchar('kind', { length: 60 }).notNull().default('other'),
  /** Shown in the bell and the notification list; false when its reader wants this kind by email only. */
  is_in_app: boolean('is_in_app').notNull().default(true),
  /** Its mail: none (null), to send now, held for the digest, or sent. */
  mail: varchar('mail', { length: 10, enum: mailStates }),
}, (t) => [index('notifications_notifiable').on(t.notifiable_type, t.notifiable_id, t.read_at)]);

/** A person's choices: a channel per kind (kinds absent keep their default) and whether mail comes as a daily digest. */
export const notificationPreferences = pgTable('notification_preferences', {
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
  channels: jsonb('channels').$type<Record<string, NotificationChannel>>().notNull().default({}),
  is_digest: boolean('is_digest').notNull().default(false),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.account_type, t.account_id] })]);
