// Recruitment (issue 12): candidates for client positions, moved through the hiring stages (spec §4)
// by the resource workflow; assessments and background checks refer to them.
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { cities, countries, positions } from './master-data';

/** Spec §4's hiring stages, in hiring order, then Rejected (reachable from any of them). */
export const candidateStages = ['Screening', 'Interview', 'Client Interview', 'Cost Negotiations', 'Background Check', 'Offer Letter Review', 'Onboarding', 'Rejected'] as const;
export type CandidateStage = (typeof candidateStages)[number];

export const candidates = pgTable('candidates', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  email: varchar('email', { length: 255 }).notNull(),
  phone: varchar('phone', { length: 30 }).notNull(),
  position_id: integer('position_id').notNull().references(() => positions.id, { onDelete: 'restrict' }),
  current_company: varchar('current_company', { length: 255 }),
  /** Years, one decimal. */
  total_experience: numeric('total_experience', { precision: 4, scale: 1, mode: 'number' }),
  relevant_experience: numeric('relevant_experience', { precision: 4, scale: 1, mode: 'number' }),
  skills: varchar('skills', { length: 1000 }),
  /** Spec §4: 1 Beginner, 2 Intermediate, 3 Advanced. */
  skill_level: smallint('skill_level'),
  /** B0 to B3. */
  grade_group: varchar('grade_group', { length: 2 }),
  currency: varchar('currency', { length: 3 }),
  current_cost: numeric('current_cost', { precision: 14, scale: 2, mode: 'number' }),
  expected_cost: numeric('expected_cost', { precision: 14, scale: 2, mode: 'number' }),
  /** '0' to '5' and '5+' (spec §4/§9). */
  cost_rating: varchar('cost_rating', { length: 2 }),
  notice_period_days: integer('notice_period_days'),
  /** Spec §4: At (Location), Resigned, On Notice Period. */
  work_status: varchar('work_status', { length: 30 }),
  country_id: integer('country_id').references(() => countries.id, { onDelete: 'restrict' }),
  city_id: integer('city_id').references(() => cities.id, { onDelete: 'restrict' }),
  source: varchar('source', { length: 100 }),
  notes: text('notes'),
  /** When the candidate agreed, on the public form, that the firm keeps their details (issue 24); null when a recruiter entered them. */
  data_consent_at: timestamp('data_consent_at', { withTimezone: true }),
  stage: varchar('stage', { length: 30 }).notNull().default('Screening'),
  /** When the candidate entered the current stage: the board shows the time since without reading the history. */
  stage_changed_at: timestamp('stage_changed_at', { withTimezone: true }).notNull().defaultNow(),
  /** The recruiter responsible: who created the candidate, or who made the public form link used. */
  recruiter_id: integer('recruiter_id').references(() => users.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // A person is one candidate: the API refuses a duplicate with a link, these are the backstop.
  uniqueIndex('candidates_email_unique').on(sql`lower(${t.email})`),
  uniqueIndex('candidates_phone_unique').on(sql`regexp_replace(${t.phone}, '[^0-9]', '', 'g')`),
  index('candidates_position_id_index').on(t.position_id, t.stage, t.created_at),
  // A board column: one stage, newest first (the list's default order), read from the index in order.
  index('candidates_stage_index').on(t.stage, t.created_at, t.id),
  index('candidates_recruiter_id_index').on(t.recruiter_id),
  index('candidates_country_id_index').on(t.country_id),
  index('candidates_city_id_index').on(t.city_id),
  // The dashboard's hiring funnel counts every candidate per stage: the narrowest index to scan (0017).
  index('candidates_stage_count_index').on(t.stage),
]);
