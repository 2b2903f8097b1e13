// The machinery's own tables (ARCHITECTURE "Workflows, files, notifications, jobs"): the history
// of every workflow record, attached files of any resource, the job queue and sent reminders.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { accountTypes } from './accounts';

/** One row per create and per transition, written in the transaction of the change. */
export const workflowHistory = pgTable('workflow_history', {
  id: serial('id').primaryKey(),
  resource: varchar('resource', { length: 60 }).notNull(),
  record_id: integer('record_id').notNull(),
  /** The transition's name; 'create' for the record's first state. */
  transition: varchar('transition', { length: 60 }).notNull(),
  from_status: varchar('from_status', { length: 100 }),
  to_status: varchar('to_status', { length: 100 }).notNull(),
  actor_type: varchar('actor_type', { length: 10, enum: accountTypes }),
  actor_id: integer('actor_id'),
  /** Kept as it was when acting: the history reads the same after a rename or a deletion. */
  actor_name: varchar('actor_name', { length: 255 }),
  /** A decision made for a manager who delegated it (decision 036): whose it was, named as then. */
  on_behalf_of_id: integer('on_behalf_of_id'),
  on_behalf_of_name: varchar('on_behalf_of_name', { length: 255 }),
  comment: text('comment'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('workflow_history_record').on(t.resource, t.record_id, t.id)]);

/** Files of a resource's file fields; the bytes live in the storage interface under `storage_key`. */
export const attachments = pgTable('attachments', {
  id: serial('id').primaryKey(),
  resource: varchar('resource', { length: 60 }).notNull(),
  record_id: integer('record_id').notNull(),
  field: varchar('field', { length: 60 }).notNull(),
  storage_key: varchar('storage_key', { length: 255 }).notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  size: integer('size').notNull(),
  /** The sniffed type (never the uploader's claim), so a download is served as what it is. */
  mime: varchar('mime', { length: 120 }).notNull(),
  uploaded_by_type: varchar('uploaded_by_type', { length: 10, enum: accountTypes }),
  uploaded_by: integer('uploaded_by'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('attachments_record').on(t.resource, t.record_id, t.field)]);

/** Work to run later on any node: claimed with FOR UPDATE SKIP LOCKED, so no two nodes run one job. */
export const jobs = pgTable('jobs', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  payload: jsonb('payload').notNull().default(sql`'{}'::jsonb`),
  /** A recurring run ('daily-reminders:2026-11-23') is enqueued once however many nodes try. */
  unique_key: varchar('unique_key', { length: 200 }).unique(),
  run_at: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
  attempts: integer('attempts').notNull().default(0),
  max_attempts: integer('max_attempts').notNull().default(5),
  /** Set while a node runs it; a node that dies lets it go when this passes. */
  locked_until: timestamp('locked_until', { withTimezone: true }),
  last_error: text('last_error'),
  done_at: timestamp('done_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('jobs_due').on(t.run_at).where(sql`${t.done_at} is null`)]);

/** A reminder declared on a definition is sent once per record: the insert that succeeds sends it. */
export const remindersSent = pgTable('reminders_sent', {
  resource: varchar('resource', { length: 60 }).notNull(),
  reminder: varchar('reminder', { length: 60 }).notNull(),
  record_id: integer('record_id').notNull(),
  sent_at: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.resource, t.reminder, t.record_id] })]);
