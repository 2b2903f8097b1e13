// Timed online assessments (issue 12): a recruiter sends a candidate a link (an `assessments` row
// with its capability link); starting it creates the one attempt, whose questions are drawn from the
// bank at that moment and copied into `assessment_answers`, so the result keeps what the candidate
// saw even when the bank is edited later.
import { boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { candidates } from './recruitment';

/** Questions to draw per spec §4 skill level ('1' Beginner, '2' Intermediate, '3' Advanced). */
export type QuestionsPerLevel = Record<'1' | '2' | '3', number>;

export interface ScoreLine { correct: number; total: number }
export interface AttemptScores {
  overall: ScoreLine & { percent: number };
  by_category: (ScoreLine & { question_category_id: number; name: string })[];
  by_skill_level: (ScoreLine & { skill_level: number; label: string })[];
}

export const assessments = pgTable('assessments', {
  id: serial('id').primaryKey(),
  candidate_id: integer('candidate_id').notNull().references(() => candidates.id, { onDelete: 'cascade' }),
  question_category_ids: jsonb('question_category_ids').$type<number[]>().notNull(),
  questions_per_level: jsonb('questions_per_level').$type<QuestionsPerLevel>().notNull(),
  duration_minutes: integer('duration_minutes').notNull(),
  /** The capability link (purpose 'assessment') that starts it; its token went to the candidate only. */
  link_id: integer('link_id'),
  link_expires_at: timestamp('link_expires_at', { withTimezone: true }).notNull(),
  sent_by: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('assessments_candidate_id_index').on(t.candidate_id)]);

export const assessmentAttempts = pgTable('assessment_attempts', {
  id: serial('id').primaryKey(),
  assessment_id: integer('assessment_id').notNull().references(() => assessments.id, { onDelete: 'cascade' }),
  started_at: timestamp('started_at', { withTimezone: true }).notNull(),
  deadline: timestamp('deadline', { withTimezone: true }).notNull(),
  submitted_at: timestamp('submitted_at', { withTimezone: true }),
  /** 'submitted' by the candidate, or 'time-up' when the server closed it at the deadline. */
  closed_reason: varchar('closed_reason', { length: 20 }),
  tab_leaves: integer('tab_leaves').notNull().default(0),
  question_count: integer('question_count').notNull(),
  correct_count: integer('correct_count'),
  scores: jsonb('scores').$type<AttemptScores>(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // spec: one attempt per link.
  uniqueIndex('assessment_attempts_assessment_id_unique').on(t.assessment_id),
]);

export const assessmentAnswers = pgTable('assessment_answers', {
  id: serial('id').primaryKey(),
  attempt_id: integer('attempt_id').notNull().references(() => assessmentAttempts.id, { onDelete: 'cascade' }),
  /** The bank's question id, without a foreign key: the copy below outlives an edited or deleted question. */
  question_id: integer('question_id').notNull(),
  position: smallint('position').notNull(),
  question_category_id: integer('question_category_id').notNull(),
  category_name: varchar('category_name', { length: 150 }).notNull(),
  skill_level: smallint('skill_level').notNull(),
  question: text('question').notNull(),
  options: jsonb('options').$type<string[]>().notNull(),
  correct_answer: varchar('correct_answer', { length: 500 }).notNull(),
  answer: varchar('answer', { length: 500 }),
  answered_at: timestamp('answered_at', { withTimezone: true }),
  is_correct: boolean('is_correct'),
}, (t) => [
  uniqueIndex('assessment_answers_attempt_question_unique').on(t.attempt_id, t.question_id),
]);
