// Master data of the resource screens (issue 4): places, clients, employee types, expense
// categories, positions and the assessment question bank. Foreign keys restrict deletes: the
// API refuses a record in use with a clear message first, the constraint is the backstop.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
const status = varchar('status', { length: 10, enum: ['active', 'inactive'] }).notNull().default('active');

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  code: varchar('code', { length: 2 }).notNull(),
  status,
  ...timestamps,
}, (t) => [uniqueIndex('countries_name_unique').on(sql`lower(${t.name})`), uniqueIndex('countries_code_unique').on(t.code)]);

export const cities = pgTable('cities', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  country_id: integer('country_id').notNull().references(() => countries.id, { onDelete: 'restrict' }),
  status,
  ...timestamps,
}, (t) => [index('cities_country_id_index').on(t.country_id)]);

export const clients = pgTable('clients', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  email: varchar('email', { length: 255 }),
  phone: varchar('phone', { length: 30 }),
  address: varchar('address', { length: 500 }),
  country_id: integer('country_id').references(() => countries.id, { onDelete: 'restrict' }),
  status,
  ...timestamps,
}, (t) => [uniqueIndex('clients_name_unique').on(sql`lower(${t.name})`), index('clients_country_id_index').on(t.country_id)]);

export const employeeTypes = pgTable('employee_types', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  description: varchar('description', { length: 500 }),
  status,
  ...timestamps,
}, (t) => [uniqueIndex('employee_types_name_unique').on(sql`lower(${t.name})`)]);

export const expenseCategories = pgTable('expense_categories', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  description: varchar('description', { length: 500 }),
  status,
  ...timestamps,
}, (t) => [uniqueIndex('expense_categories_name_unique').on(sql`lower(${t.name})`)]);

/** A hiring requirement (spec §1 recruitment): how many people a client needs, where. */
export const positions = pgTable('positions', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 255 }).notNull(),
  client_id: integer('client_id').notNull().references(() => clients.id, { onDelete: 'restrict' }),
  location: varchar('location', { length: 150 }).notNull(),
  count: integer('count').notNull(),
  status: varchar('status', { length: 10, enum: ['open', 'on hold', 'closed'] }).notNull().default('open'),
  description: text('description'),
  /** Issue 28: what interviewers rate candidates for this position by; null or empty: the default criteria. */
  scorecard_criteria: jsonb('scorecard_criteria').$type<string[]>(),
  ...timestamps,
}, (t) => [index('positions_client_id_index').on(t.client_id), index('positions_status_index').on(t.status)]);

export const questionCategories = pgTable('question_categories', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 150 }).notNull(),
  description: varchar('description', { length: 500 }),
  status,
  ...timestamps,
}, (t) => [uniqueIndex('question_categories_name_unique').on(sql`lower(${t.name})`)]);

/** An assessment question: options offered, the correct one among them, spec §4 skill level 1-3. */
export const questions = pgTable('questions', {
  id: serial('id').primaryKey(),
  question_category_id: integer('question_category_id').notNull().references(() => questionCategories.id, { onDelete: 'restrict' }),
  question: text('question').notNull(),
  options: jsonb('options').$type<string[]>().notNull(),
  correct_answer: varchar('correct_answer', { length: 500 }).notNull(),
  skill_level: smallint('skill_level').notNull(),
  ...timestamps,
}, (t) => [index('questions_question_category_id_index').on(t.question_category_id)]);
