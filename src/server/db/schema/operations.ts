// Operations (issue 13, part A): background-verification checks of a candidate or an employee with
// their components, deals with clients, and service requests with their comment thread.
import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { partners, users } from './accounts';
import { cities, clients, countries } from './master-data';
import { candidates } from './recruitment';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const bgvChecks = pgTable('bgv_checks', {
  id: serial('id').primaryKey(),
  /** The subject: a candidate or an employee, exactly one of them (the check constraint below). */
  candidate_id: integer('candidate_id').references(() => candidates.id, { onDelete: 'restrict' }),
  user_id: integer('user_id').references(() => users.id, { onDelete: 'restrict' }),
  vendor: varchar('vendor', { length: 255 }).notNull(),
  initiated_on: date('initiated_on').notNull(),
  completed_on: date('completed_on'),
  /** Derived from the components on every change (server only): pending, in progress, clear or discrepancy. */
  result: varchar('result', { length: 20 }).notNull().default('pending'),
  notes: text('notes'),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
}, (t) => [
  check('bgv_checks_one_subject', sql`num_nonnulls(${t.candidate_id}, ${t.user_id}) = 1`),
  index('bgv_checks_candidate_id_index').on(t.candidate_id),
  index('bgv_checks_user_id_index').on(t.user_id),
  index('bgv_checks_result_index').on(t.result, t.id),
  index('bgv_checks_initiated_on_index').on(t.initiated_on, t.id),
]);

export const bgvCheckComponents = pgTable('bgv_check_components', {
  id: serial('id').primaryKey(),
  bgv_check_id: integer('bgv_check_id').notNull().references(() => bgvChecks.id, { onDelete: 'cascade' }),
  component: varchar('component', { length: 30 }).notNull(),
  status: varchar('status', { length: 20 }).notNull().default('pending'),
  remarks: text('remarks'),
  ...timestamps,
}, (t) => [uniqueIndex('bgv_check_components_check_component').on(t.bgv_check_id, t.component)]);

export const deals = pgTable('deals', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 255 }).notNull(),
  /** Null while the deal is with a prospect that is not a client yet (issue 22). */
  client_id: integer('client_id').references(() => clients.id, { onDelete: 'restrict' }),
  /** The prospect company named as free text; winning the deal makes it a client (client_id set). */
  prospect_name: varchar('prospect_name', { length: 255 }),
  value: numeric('value', { precision: 14, scale: 2, mode: 'number' }).notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  stage: varchar('stage', { length: 20 }).notNull(),
  /** The stage's fixed probability (percent), stored with it so the weighted sums are one aggregate. */
  probability: smallint('probability').notNull(),
  expected_close_date: date('expected_close_date'),
  owner_id: integer('owner_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  next_step: varchar('next_step', { length: 255 }),
  next_step_date: date('next_step_date'),
  notes: text('notes'),
  /** Why a lost deal was lost (issue 24): required with the Lost stage, reported on the pipeline. */
  lost_reason: varchar('lost_reason', { length: 500 }),
  ...timestamps,
}, (t) => [
  index('deals_stage_index').on(t.stage, t.id),
  index('deals_owner_id_index').on(t.owner_id),
  index('deals_client_id_index').on(t.client_id),
  index('deals_expected_close_date_index').on(t.expected_close_date, t.id),
  // The pipeline's lost reasons (issue 27): only lost deals that give one, already in their groups' order.
  index('deals_lost_reasons').on(sql`lower(trim(${t.lost_reason}))`, t.currency).where(sql`${t.stage} = 'lost' and ${t.lost_reason} is not null`),
  // A deal is with someone: a client, or a prospect named until it is won.
  check('deals_client_or_prospect', sql`${t.client_id} is not null or ${t.prospect_name} is not null`),
]);

/**
 * The pipeline's totals per stage, owner and currency, kept by triggers on deals (migration 0015) in
 * the writing transaction, so the dashboard's unfiltered pipeline reads a few hundred rows rather
 * than every deal (docs/benchmarks.md "Background checks, deals and requests").
 */
export const dealPipelineTotals = pgTable('deal_pipeline_totals', {
  stage: varchar('stage', { length: 20 }).notNull(),
  owner_id: integer('owner_id').notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  count: integer('count').notNull(),
  value: numeric('value', { precision: 16, scale: 2, mode: 'number' }).notNull(),
  weighted: numeric('weighted', { precision: 16, scale: 2, mode: 'number' }).notNull(),
}, (t) => [primaryKey({ columns: [t.stage, t.owner_id, t.currency] })]);

export const requests = pgTable('requests', {
  id: serial('id').primaryKey(),
  created_by: integer('created_by').notNull().references(() => users.id, { onDelete: 'restrict' }),
  assign_to: integer('assign_to').references(() => users.id, { onDelete: 'set null' }),
  title: varchar('title', { length: 255 }).notNull(),
  status: varchar('status', { length: 30 }).notNull(),
  requesting_partner: varchar('requesting_partner', { length: 255 }),
  euc_or_network: varchar('euc_or_network', { length: 20 }).notNull(),
  support_model: varchar('support_model', { length: 100 }),
  client_name: varchar('client_name', { length: 255 }),
  gps_contact: varchar('gps_contact', { length: 255 }),
  delivery_contact: varchar('delivery_contact', { length: 255 }),
  contract_renewal_date: date('contract_renewal_date'),
  country_id: integer('country_id').references(() => countries.id, { onDelete: 'restrict' }),
  city_id: integer('city_id').references(() => cities.id, { onDelete: 'restrict' }),
  estimated_start_date: date('estimated_start_date'),
  estimated_end_date: date('estimated_end_date'),
  request_type: varchar('request_type', { length: 100 }),
  partner_id: integer('partner_id').references(() => partners.id, { onDelete: 'restrict' }),
  priority: varchar('priority', { length: 10 }).notNull(),
  labels: jsonb('labels').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  sow_start_date: date('sow_start_date'),
  sow_end_date: date('sow_end_date'),
  /** Rich text, sanitised by the machinery before it is stored. */
  description: text('description'),
  comment: text('comment'),
  /** Set on create and by every workflow transition. */
  last_status_updated_at: timestamp('last_status_updated_at', { withTimezone: true }).notNull().defaultNow(),
  ...timestamps,
}, (t) => [
  // A status's page in the default order (newest first), and the counts by status, from one index.
  index('requests_status_index').on(t.status, t.created_at, t.id),
  index('requests_assign_to_index').on(t.assign_to),
  index('requests_created_by_index').on(t.created_by),
  index('requests_partner_id_index').on(t.partner_id),
  index('requests_country_id_index').on(t.country_id),
  index('requests_city_id_index').on(t.city_id),
  index('requests_created_at_index').on(t.created_at, t.id),
  // The dashboard (0017): the requests assigned to the caller per status, and the counts by status
  // (the narrowest index to scan for a count of every request).
  index('requests_assign_to_status_index').on(t.assign_to, t.status),
  index('requests_status_count_index').on(t.status),
]);

export const requestComments = pgTable('request_comments', {
  id: serial('id').primaryKey(),
  request_id: integer('request_id').notNull().references(() => requests.id, { onDelete: 'cascade' }),
  user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  body: text('body').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('request_comments_request_id_index').on(t.request_id, t.id)]);
