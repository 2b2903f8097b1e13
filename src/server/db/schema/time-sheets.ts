// Time sheets uploaded by engineers and reviewed by their manager (issue 5).
import { date, index, integer, numeric, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { clients } from './master-data';

export const timeSheets = pgTable('time_sheets', {
  id: serial('id').primaryKey(),
  // Restrict: a person with time sheets is deactivated, not deleted (the sheets are records of work done).
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  client_id: integer('client_id').notNull().references(() => clients.id),
  period_type: varchar('period_type', { length: 10, enum: ['month', 'week'] }).notNull(),
  period_start: date('period_start').notNull(),
  period_end: date('period_end').notNull(),
  hours: numeric('hours', { precision: 6, scale: 2, mode: 'number' }).notNull(),
  note: text('note'),
  /** Key of the stored file in the storage interface; never a path the client sees. */
  file_key: varchar('file_key', { length: 255 }).notNull(),
  file_name: varchar('file_name', { length: 255 }).notNull(),
  file_size: integer('file_size').notNull(),
  file_mime: varchar('file_mime', { length: 120 }).notNull(),
  status: varchar('status', { length: 20, enum: ['pending', 'approved', 'rejected', 'withdrawn'] }).notNull().default('pending'),
  comment: text('comment'),
  reviewed_by: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
  reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('time_sheets_user').on(t.user_id, t.created_at), index('time_sheets_status').on(t.status)]);
