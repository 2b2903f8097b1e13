// Interviews, scorecards and offer letters (issue 28): a candidate's interviews with their calendar
// invitation's identity (uid, sequence), each interviewer's scorecard, the firm's offer letter
// templates and the letters sent, with the candidate's typed signature.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { capabilityLinks } from './capability';
import { candidates } from './recruitment';

export const interviews = pgTable('interviews', {
  id: serial('id').primaryKey(),
  candidate_id: integer('candidate_id').notNull().references(() => candidates.id, { onDelete: 'cascade' }),
  /** The candidate's stage when it was scheduled: Interview or Client Interview. */
  stage: varchar('stage', { length: 30 }).notNull(),
  scheduled_on: varchar('scheduled_on', { length: 10 }).notNull(),
  start_time: varchar('start_time', { length: 5 }).notNull(),
  duration_minutes: smallint('duration_minutes').notNull(),
  time_zone: varchar('time_zone', { length: 64 }).notNull(),
  /** The instant it starts (from the date, time and time zone): what the invitation carries, in UTC. */
  starts_at: timestamp('starts_at', { withTimezone: true }).notNull(),
  /** The staff who interview, as user ids. */
  interviewer_ids: jsonb('interviewer_ids').$type<number[]>().notNull(),
  location: varchar('location', { length: 500 }).notNull(),
  notes: text('notes'),
  status: varchar('status', { length: 20 }).notNull().default('scheduled'),
  /** The calendar event's UID: a reschedule and a cancellation name the same event. */
  ics_uid: varchar('ics_uid', { length: 100 }).notNull(),
  /** RFC 5545 SEQUENCE: 0 when sent, one more at each reschedule and at the cancellation. */
  sequence: integer('sequence').notNull().default(0),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('interviews_candidate_id_index').on(t.candidate_id, t.starts_at),
  uniqueIndex('interviews_ics_uid_unique').on(t.ics_uid),
]);

/** One interviewer's scorecard of one interview: written once, when submitted. */
export const scorecards = pgTable('scorecards', {
  id: serial('id').primaryKey(),
  interview_id: integer('interview_id').notNull().references(() => interviews.id, { onDelete: 'cascade' }),
  interviewer_id: integer('interviewer_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** Criterion -> 1..5. */
  ratings: jsonb('ratings').$type<Record<string, number>>().notNull(),
  strengths: text('strengths'),
  concerns: text('concerns'),
  recommendation: varchar('recommendation', { length: 20 }).notNull(),
  submitted_at: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('scorecards_interview_interviewer_unique').on(t.interview_id, t.interviewer_id)]);

export const offerTemplates = pgTable('offer_templates', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 150 }).notNull(),
  body: text('body').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('offer_templates_name_unique').on(sql`lower(${t.name})`)]);

/** An offer letter as sent: its text is frozen when made; the answer is the candidate's, through the link. */
export const offerLetters = pgTable('offer_letters', {
  id: serial('id').primaryKey(),
  candidate_id: integer('candidate_id').notNull().references(() => candidates.id, { onDelete: 'cascade' }),
  template_id: integer('template_id').references(() => offerTemplates.id, { onDelete: 'set null' }),
  /** The letter's text, placeholders filled. */
  body: text('body').notNull(),
  start_date: varchar('start_date', { length: 10 }).notNull(),
  rate: numeric('rate', { precision: 14, scale: 2, mode: 'number' }).notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  rate_period: varchar('rate_period', { length: 10 }).notNull(),
  /** sent, accepted, declined, withdrawn (a newer offer replaced it). */
  status: varchar('status', { length: 20 }).notNull().default('sent'),
  capability_link_id: integer('capability_link_id').references(() => capabilityLinks.id, { onDelete: 'set null' }),
  signed_name: varchar('signed_name', { length: 200 }),
  responded_at: timestamp('responded_at', { withTimezone: true }),
  responded_ip: varchar('responded_ip', { length: 64 }),
  decline_reason: text('decline_reason'),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('offer_letters_candidate_id_index').on(t.candidate_id)]);
