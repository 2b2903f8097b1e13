// Onboarding and offboarding of placed people with their checklists, and client contracts (issue 13).
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, date, index, integer, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { clients } from './master-data';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** spec §4 "Resource status". */
export const onboardingStatuses = ['Onboarding is in progress', 'Onboarded', 'Resigned', 'Offboarded'] as const;
/** A checklist belongs to the onboarding or to the offboarding of the person. */
export const checklistPhases = ['onboarding', 'offboarding'] as const;

/** One placed person's way in (and, later, out). */
export const onboardings = pgTable('onboardings', {
  id: serial('id').primaryKey(),
  person_name: varchar('person_name', { length: 255 }).notNull(),
  email: varchar('email', { length: 255 }),
  /** Their login, once they have one. */
  user_id: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  /** The candidate this onboarding was opened for (recruitment), when it came from one; one onboarding per candidate. */
  candidate_id: integer('candidate_id'),
  client_id: integer('client_id').references(() => clients.id, { onDelete: 'restrict' }),
  /** Who answers for it: overdue tasks escalate to them. */
  manager_id: integer('manager_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  start_date: date('start_date').notNull(),
  end_date: date('end_date'),
  status: varchar('status', { length: 40, enum: onboardingStatuses }).notNull().default('Onboarding is in progress'),
  notes: text('notes'),
  ...timestamps,
}, (t) => [
  index('onboardings_status').on(t.status, t.start_date),
  index('onboardings_start_date').on(t.start_date, t.id),
  index('onboardings_manager_id').on(t.manager_id),
  uniqueIndex('onboardings_candidate_id').on(t.candidate_id),
]);

/** A task every onboarding (or offboarding) starts with; admins maintain the list. */
export const onboardingTemplates = pgTable('onboarding_templates', {
  id: serial('id').primaryKey(),
  phase: varchar('phase', { length: 20, enum: checklistPhases }).notNull(),
  title: varchar('title', { length: 255 }).notNull(),
  description: text('description'),
  /** Due this many days after the start (onboarding) or the resignation (offboarding). */
  due_after_days: integer('due_after_days').notNull().default(0),
  /** Null: the onboarding's manager. */
  assignee_id: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
  sort_order: integer('sort_order').notNull().default(0),
  status: varchar('status', { length: 10 }).notNull().default('active'),
  ...timestamps,
}, (t) => [index('onboarding_templates_phase').on(t.phase, t.sort_order)]);

export const taskStatuses = ['pending', 'done'] as const;

/** One checklist task of one onboarding. */
export const onboardingTasks = pgTable('onboarding_tasks', {
  id: serial('id').primaryKey(),
  onboarding_id: integer('onboarding_id').notNull().references(() => onboardings.id, { onDelete: 'cascade' }),
  template_id: integer('template_id').references(() => onboardingTemplates.id, { onDelete: 'set null' }),
  phase: varchar('phase', { length: 20, enum: checklistPhases }).notNull(),
  title: varchar('title', { length: 255 }).notNull(),
  assignee_id: integer('assignee_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  due_date: date('due_date').notNull(),
  status: varchar('status', { length: 10, enum: taskStatuses }).notNull().default('pending'),
  completion_date: date('completion_date'),
  ...timestamps,
}, (t) => [
  index('onboarding_tasks_onboarding_id').on(t.onboarding_id, t.due_date),
  // The overdue job and the dashboard: pending tasks by due date.
  index('onboarding_tasks_status_due').on(t.status, t.due_date),
  // One person's open tasks by due date (the dashboard's "waiting for me").
  index('onboarding_tasks_assignee_id').on(t.assignee_id, t.status, t.due_date),
  // The dashboard's onboardings with an overdue task: the pending tasks past due, read from the index alone (0017).
  index('onboarding_tasks_pending_due').on(t.due_date, t.onboarding_id).where(sql`${t.status} = 'pending'`),
]);

/**
 * Kept by triggers on onboarding_tasks (migration 0040, issue 27): per onboarding with a pending task,
 * the earliest pending task's due date, so "has an overdue task" reads one row per onboarding instead
 * of every pending task (the onboarding list's has_overdue filter and the dashboard's figure).
 */
export const onboardingPendingDue = pgTable('onboarding_pending_due', {
  onboarding_id: integer('onboarding_id').primaryKey(),
  due_date: date('due_date').notNull(),
}, (t) => [index('onboarding_pending_due_date').on(t.due_date, t.onboarding_id)]);

/** spec §4 "Contract status". */
export const contractStatuses = ['Active', 'Expired', 'Renewal in progress', 'Expired New PO Released'] as const;

/** A client contract under one purchase order; a new PO is a new contract linked to the one it replaces. */
export const contracts = pgTable('contracts', {
  id: serial('id').primaryKey(),
  po_number: varchar('po_number', { length: 60 }).notNull(),
  client_id: integer('client_id').notNull().references(() => clients.id, { onDelete: 'restrict' }),
  /** Told 30 and 7 days before the end, and when it expires. */
  owner_id: integer('owner_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  start_date: date('start_date').notNull(),
  end_date: date('end_date').notNull(),
  value: numeric('value', { precision: 14, scale: 2, mode: 'number' }).notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  status: varchar('status', { length: 30, enum: contractStatuses }).notNull().default('Active'),
  /** The contract whose PO this one's replaced. */
  previous_contract_id: integer('previous_contract_id').references((): AnyPgColumn => contracts.id, { onDelete: 'set null' }),
  notes: text('notes'),
  ...timestamps,
}, (t) => [
  uniqueIndex('contracts_po_number').on(t.po_number),
  index('contracts_status_end').on(t.status, t.end_date),
  index('contracts_end_date').on(t.end_date, t.id),
  index('contracts_client_id').on(t.client_id),
  index('contracts_previous_contract_id').on(t.previous_contract_id),
]);

/** The people placed under a contract. */
export const contractPeople = pgTable('contract_people', {
  contract_id: integer('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.contract_id, t.user_id] }), index('contract_people_user_id').on(t.user_id)]);
