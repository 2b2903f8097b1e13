// Capability links (ARCHITECTURE "Capability links"): a link that is itself the permission, for the
// public pages of people without an account (the candidate form, an assessment). Only the token's
// hash is kept, so a copy of this table opens nothing.
import { index, integer, jsonb, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts';

export const capabilityLinks = pgTable('capability_links', {
  id: serial('id').primaryKey(),
  /** What the link opens ('candidate-form', 'assessment'...); a token of one purpose opens no other. */
  purpose: varchar('purpose', { length: 60 }).notNull(),
  /** The record the link is about (a position, an assessment): its meaning belongs to the purpose. */
  subject_id: integer('subject_id').notNull(),
  /** SHA-256 of the token, hex. */
  token_hash: varchar('token_hash', { length: 64 }).notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** null: any number of uses until it expires. */
  max_uses: integer('max_uses'),
  uses: integer('uses').notNull().default(0),
  revoked_at: timestamp('revoked_at', { withTimezone: true }),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  last_used_at: timestamp('last_used_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('capability_links_token_hash_unique').on(t.token_hash),
  index('capability_links_subject').on(t.purpose, t.subject_id),
]);
