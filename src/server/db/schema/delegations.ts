// Approvals while away (issue 28, decision 036): a manager hands their decisions over to another
// manager for a range of the firm's days. Nothing ends it but its last day (or a withdrawal): every
// check reads the range against today, so it lapses by itself.
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';

export const delegations = pgTable('delegations', {
  id: serial('id').primaryKey(),
  /** Whose decisions: the manager who is away. */
  manager_id: integer('manager_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** Who decides meanwhile: another manager. */
  delegate_id: integer('delegate_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** The first and last day (the firm's calendar), both included. */
  starts_on: date('starts_on', { mode: 'string' }).notNull(),
  ends_on: date('ends_on', { mode: 'string' }).notNull(),
  note: text('note'),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  /** Set when withdrawn before its end: it no longer counts from then on. */
  withdrawn_at: timestamp('withdrawn_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('delegations_delegate').on(t.delegate_id, t.ends_on),
  index('delegations_manager').on(t.manager_id, t.ends_on),
  check('delegations_range', sql`${t.ends_on} >= ${t.starts_on}`),
  check('delegations_not_self', sql`${t.delegate_id} <> ${t.manager_id}`),
]);
