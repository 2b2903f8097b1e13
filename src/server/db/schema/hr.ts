// Leave applications and expenses (issue 9), with what they need: leave types and their yearly
// allowance, and public holidays per country.
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { clients, countries, expenseCategories } from './master-data';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const leaveTypes = pgTable('leave_types', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  /** Working days a person may take per calendar year; null: no limit (unpaid). */
  yearly_allowance: numeric('yearly_allowance', { precision: 5, scale: 1, mode: 'number' }),
  /** How the allowance is earned (issue 28): all on 1 January, or a twelfth at the start of each month. */
  accrual: varchar('accrual', { length: 10, enum: ['yearly', 'monthly'] }).notNull().default('yearly'),
  /** Unused days the yearly rollover carries into the next year, at most; 0: none carried. */
  carry_forward_cap: numeric('carry_forward_cap', { precision: 5, scale: 1, mode: 'number' }).notNull().default(0),
  /** Carried days not taken by the end of this month of the new year expire (1 = 31 January). */
  carry_forward_expiry_month: integer('carry_forward_expiry_month').notNull().default(3),
  status: varchar('status', { length: 10, enum: ['active', 'inactive'] }).notNull().default('active'),
  ...timestamps,
}, (t) => [uniqueIndex('leave_types_name_unique').on(sql`lower(${t.name})`)]);

/** The kinds of line a person's leave ledger stores; accrued, taken and expired lines are derived (service.ts). */
export const leaveLedgerKinds = ['carried', 'adjusted'] as const;

/**
 * Issue 28: what a person's leave entitlement holds beyond the yearly accrual. `carried` rows are
 * written once per person, type and year by the yearly rollover (the unique index makes a second run,
 * on any node, a no-op); `adjusted` rows by an admin, with a reason. Days are signed (an adjustment
 * may take days away).
 */
export const leaveLedger = pgTable('leave_ledger', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  leave_type_id: integer('leave_type_id').notNull().references(() => leaveTypes.id, { onDelete: 'restrict' }),
  year: integer('year').notNull(),
  kind: varchar('kind', { length: 10, enum: leaveLedgerKinds }).notNull(),
  days: numeric('days', { precision: 5, scale: 1, mode: 'number' }).notNull(),
  /** The day it counts from (carried: 1 January; adjusted: the day it was made). */
  effective_on: date('effective_on').notNull(),
  /** Carried days not taken by then expire. */
  expires_on: date('expires_on'),
  reason: text('reason'),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('leave_ledger_user_year_idx').on(t.user_id, t.year),
  // One carry per person, type and year, however many nodes run the rollover.
  uniqueIndex('leave_ledger_carried_unique').on(t.user_id, t.leave_type_id, t.year).where(sql`${t.kind} = 'carried'`),
]);

/** Where a holiday came from: the public holidays data set (date-holidays, loaded per year) or the firm's own day. */
export const holidaySources = ['public', 'firm'] as const;

export const holidays = pgTable('holidays', {
  id: serial('id').primaryKey(),
  country_id: integer('country_id').notNull().references(() => countries.id, { onDelete: 'restrict' }),
  date: date('date').notNull(),
  name: varchar('name', { length: 255 }).notNull(),
  source: varchar('source', { length: 10, enum: holidaySources }).notNull().default('firm'),
  /**
   * A day the firm works although it is a holiday: kept (not deleted) so that loading the year's public
   * holidays again does not bring it back; restoring clears it. Removed days are not days off.
   */
  is_removed: boolean('is_removed').notNull().default(false),
  ...timestamps,
}, (t) => [uniqueIndex('holidays_country_date').on(t.country_id, t.date)]);

/**
 * The firm's countries (issue 22): those whose public holidays it loads, with the region of the data
 * set whose holidays apply (a state or nation: England of the United Kingdom), if any. The yearly job
 * loads next year's public holidays for each of them.
 */
export const holidayCountries = pgTable('holiday_countries', {
  id: serial('id').primaryKey(),
  country_id: integer('country_id').notNull().references(() => countries.id, { onDelete: 'cascade' }),
  region: varchar('region', { length: 20 }),
  ...timestamps,
}, (t) => [uniqueIndex('holiday_countries_country').on(t.country_id)]);

export const leaveApplications = pgTable('leave_applications', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  leave_type_id: integer('leave_type_id').notNull().references(() => leaveTypes.id, { onDelete: 'restrict' }),
  from_date: date('from_date').notNull(),
  to_date: date('to_date').notNull(),
  /** The first day starts at noon / the last day ends at noon. */
  is_half_day_start: boolean('is_half_day_start').notNull().default(false),
  is_half_day_end: boolean('is_half_day_end').notNull().default(false),
  /** Working days: weekends and the applicant's country's holidays not counted; set by the server. */
  days: numeric('days', { precision: 5, scale: 1, mode: 'number' }).notNull(),
  reason: text('reason'),
  client_id: integer('client_id').references(() => clients.id, { onDelete: 'restrict' }),
  back_fill_user_id: integer('back_fill_user_id').references(() => users.id, { onDelete: 'set null' }),
  status: varchar('status', { length: 100 }).notNull(),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  decided_by: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  ...timestamps,
}, (t) => [
  index('leave_applications_user').on(t.user_id, t.from_date),
  index('leave_applications_status_from').on(t.status, t.from_date),
]);

export const expenses = pgTable('expenses', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  expense_category_id: integer('expense_category_id').notNull().references(() => expenseCategories.id, { onDelete: 'restrict' }),
  expense_date: date('expense_date').notNull(),
  amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  description: text('description').notNull(),
  client_id: integer('client_id').references(() => clients.id, { onDelete: 'restrict' }),
  is_rebillable: boolean('is_rebillable').notNull().default(false),
  status: varchar('status', { length: 40 }).notNull(),
  /** Same person, date and amount as another claim when saved: shown, not refused. */
  is_possible_duplicate: boolean('is_possible_duplicate').notNull().default(false),
  ...timestamps,
}, (t) => [
  index('expenses_user').on(t.user_id, t.expense_date),
  index('expenses_status').on(t.status),
]);

/**
 * Issue 21: approved expense claims paid together. Open until finance marks it paid (with the bank's
 * date and reference) or cancels it; `reference` (RB-<id>) names it on the bank file and in sentences.
 */
export const reimbursementBatches = pgTable('reimbursement_batches', {
  id: serial('id').primaryKey(),
  reference: varchar('reference', { length: 20 }).notNull(),
  status: varchar('status', { length: 20, enum: ['open', 'paid', 'cancelled'] }).notNull().default('open'),
  paid_on: date('paid_on'),
  payment_reference: varchar('payment_reference', { length: 60 }),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  decided_by: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  ...timestamps,
}, (t) => [
  uniqueIndex('reimbursement_batches_reference_unique').on(t.reference),
  index('reimbursement_batches_status').on(t.status, t.created_at),
]);

/**
 * The claims of a batch. A claim is in at most one live batch: the partial unique index refuses a
 * second live row for it even when two batches are created at once; cancelling a batch releases
 * its rows (kept, so the cancelled batch still shows what it held).
 */
export const reimbursementBatchClaims = pgTable('reimbursement_batch_claims', {
  id: serial('id').primaryKey(),
  batch_id: integer('batch_id').notNull().references(() => reimbursementBatches.id, { onDelete: 'cascade' }),
  expense_id: integer('expense_id').notNull().references(() => expenses.id, { onDelete: 'restrict' }),
  is_released: boolean('is_released').notNull().default(false),
}, (t) => [
  uniqueIndex('reimbursement_batch_claims_live_unique').on(t.expense_id).where(sql`${t.is_released} = false`),
  index('reimbursement_batch_claims_batch').on(t.batch_id),
]);
