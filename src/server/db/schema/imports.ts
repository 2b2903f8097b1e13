// Issue 22: a bulk import from a CSV or XLSX file, kept so its screen can follow the invitations
// the background job sends after it (src/server/resources/importer.ts).
import { index, integer, jsonb, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';

export const imports = pgTable('imports', {
  id: serial('id').primaryKey(),
  /** The definition imported into (`user`, `city`, `question`). */
  resource: varchar('resource', { length: 60 }).notNull(),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  /** `all`: every row in one transaction; `valid`: the rows without errors. */
  mode: varchar('mode', { length: 10, enum: ['all', 'valid'] }).notNull(),
  rows_total: integer('rows_total').notNull(),
  rows_imported: integer('rows_imported').notNull(),
  /** The accounts created, in file order: the invitation job walks them from `invitations_sent` on. */
  record_ids: jsonb('record_ids').$type<number[]>().notNull(),
  invitations_total: integer('invitations_total').notNull().default(0),
  invitations_sent: integer('invitations_sent').notNull().default(0),
  invitations_done_at: timestamp('invitations_done_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('imports_created_by_index').on(t.created_by)]);
