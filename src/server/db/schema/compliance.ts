// The compliance document library (issue 10): library documents (their versions are the files of
// their `file` field in `attachments`), their assignments to people, and people's own documents.
import { date, index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const libraryDocuments = pgTable('library_documents', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 255 }).notNull(),
  category: varchar('category', { length: 20 }).notNull(),
  /** 'acknowledge' (read and acknowledge) or 'return' (a signed or completed copy). */
  action: varchar('action', { length: 20 }).notNull(),
  /** Sanitised HTML (rich text). */
  description: text('description'),
  expiry_date: date('expiry_date'),
  status: varchar('status', { length: 10, enum: ['active', 'inactive'] }).notNull().default('active'),
  /** How many versions (files) it has had; assignments record the one they ask about. */
  version: integer('version').notNull().default(1),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
}, (t) => [
  index('library_documents_title').on(t.title),
  index('library_documents_category').on(t.category),
  index('library_documents_expiry_date').on(t.expiry_date),
]);

export const documentAssignments = pgTable('document_assignments', {
  id: serial('id').primaryKey(),
  // Restrict: a document with assignments is made inactive, not deleted (they are the compliance record).
  document_id: integer('document_id').notNull().references(() => libraryDocuments.id, { onDelete: 'restrict' }),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  assigned_by: integer('assigned_by').references(() => users.id, { onDelete: 'set null' }),
  due_date: date('due_date').notNull(),
  message: text('message'),
  status: varchar('status', { length: 20 }).notNull(),
  /** The document version the person is asked about (a new version asks again). */
  version: integer('version').notNull(),
  acknowledged_at: timestamp('acknowledged_at', { withTimezone: true }),
  submitted_at: timestamp('submitted_at', { withTimezone: true }),
  decided_by: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  ...timestamps,
}, (t) => [
  index('document_assignments_user_status').on(t.user_id, t.status),
  index('document_assignments_document').on(t.document_id, t.status),
  index('document_assignments_status_due').on(t.status, t.due_date),
  index('document_assignments_created_at').on(t.created_at),
  index('document_assignments_assigned_by').on(t.assigned_by),
]);

export const ownDocuments = pgTable('own_documents', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  title: varchar('title', { length: 255 }).notNull(),
  document_type: varchar('document_type', { length: 30 }).notNull(),
  expiry_date: date('expiry_date'),
  notes: text('notes'),
  ...timestamps,
}, (t) => [
  index('own_documents_user').on(t.user_id, t.expiry_date),
  index('own_documents_expiry_date').on(t.expiry_date),
]);
