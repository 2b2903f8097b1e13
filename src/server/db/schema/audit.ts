// The audit trail (issue 20): one row per create, update, delete and transition made through the
// API, written in the transaction of the change, so a rolled-back write leaves none.
import { bigserial, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { accountTypes } from './accounts';

export const auditActions = ['create', 'update', 'delete', 'transition'] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * One changed field. `old` / `new` are the stored values (files by name, references by id);
 * `old_text` / `new_text` what a person read on the screen when it changed (a reference's label, an
 * option's label, an amount with its currency), kept so the entry reads the same after a rename.
 * A secret (a password) is recorded as changed, never with a value (`is_secret`).
 */
export interface AuditChange {
  field: string;
  old?: unknown;
  new?: unknown;
  old_text?: string | null;
  new_text?: string | null;
  is_secret?: true;
}

export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Null for a change nobody signed in made (a candidate's public form, a job). */
  actor_type: varchar('actor_type', { length: 10, enum: accountTypes }),
  actor_id: integer('actor_id'),
  /** Kept as it was when acting: the trail reads the same after a rename or a deletion. */
  actor_name: varchar('actor_name', { length: 255 }),
  /** A decision made for a manager who delegated it (decision 036), named as then. */
  on_behalf_of_name: varchar('on_behalf_of_name', { length: 255 }),
  action: varchar('action', { length: 12, enum: auditActions }).notNull(),
  resource: varchar('resource', { length: 60 }).notNull(),
  /** Null for a record without an id of its own (a setting). */
  record_id: integer('record_id'),
  /** The record's name when it changed ("Taxi to the client"): a deleted record is still named. */
  record_title: varchar('record_title', { length: 255 }),
  changes: jsonb('changes').$type<AuditChange[]>().notNull(),
  /** The transition's name for action 'transition'. */
  transition: varchar('transition', { length: 60 }),
}, (t) => [
  // The list is newest first under each filter, so each filter has an index ending in (created_at, id):
  // the page is read in index order and stops after per_page rows (docs/benchmarks.md "Audit log").
  index('audit_log_created').on(t.created_at, t.id),
  index('audit_log_record').on(t.resource, t.record_id, t.created_at, t.id),
  index('audit_log_resource').on(t.resource, t.created_at, t.id),
  index('audit_log_actor').on(t.actor_type, t.actor_id, t.created_at, t.id),
]);
