// Database notifications (spec §3 "Notification"): one row per recipient, read_at marks it read.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { accountTypes } from './accounts';

export interface NotificationData { title: string; message: string; url: string | null }

export const notifications = pgTable('notifications', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  notifiable_type: varchar('notifiable_type', { length: 10, enum: accountTypes }).notNull(),
  notifiable_id: integer('notifiable_id').notNull(),
  /** The event that raised it, e.g. App\Notifications\TimeSheetUploadNotification. */
  type: varchar('type', { length: 255 }).notNull(),
  data: jsonb('data').$type<NotificationData>().notNull(),
  read_at: timestamp('read_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('notifications_notifiable').on(t.notifiable_type, t.notifiable_id, t.read_at)]);
