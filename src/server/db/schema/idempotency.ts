// ARCHITECTURE "Idempotency": the first response per (account, key) is kept for 24 hours and replayed.
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { accountTypes } from './accounts';

export const idempotencyKeys = pgTable('idempotency_keys', {
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
  key: varchar('key', { length: 255 }).notNull(),
  /** Method, path and a hash of the body: the same key with another request is refused. */
  fingerprint: varchar('fingerprint', { length: 64 }).notNull(),
  /** Null while the first request is still running. */
  status_code: integer('status_code'),
  response: jsonb('response'),
  content_type: text('content_type'),
  /** When the key was claimed (or an expired or abandoned claim taken over); rows expire 24 hours on. */
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.account_type, t.account_id, t.key] }),
  // The periodic sweep deletes expired rows by age.
  index('idempotency_keys_created_at_index').on(t.created_at),
]);
