// Issue 28, partners look after themselves: every change of bank details a partner firm asks for.
// Bank details are a classic fraud path (a forged "our account has changed" letter), so a request
// waits for finance here and the firm's approved details (partners.bank_*) stay in force until then.
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { partnerAccounts, partners, users } from './accounts';

export const BANK_CHANGE_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;

export const partnerBankChanges = pgTable('partner_bank_changes', {
  id: serial('id').primaryKey(),
  partner_id: integer('partner_id').notNull().references(() => partners.id, { onDelete: 'cascade' }),
  /** The details asked for. */
  account_holder: varchar('account_holder', { length: 140 }).notNull(),
  account_number: varchar('account_number', { length: 42 }).notNull(),
  bank_code: varchar('bank_code', { length: 14 }),
  /** The details in force when it was asked for (finance compares old and new; the history keeps both). */
  previous_account_holder: varchar('previous_account_holder', { length: 140 }),
  previous_account_number: varchar('previous_account_number', { length: 42 }),
  previous_bank_code: varchar('previous_bank_code', { length: 14 }),
  status: varchar('status', { length: 10, enum: BANK_CHANGE_STATUSES }).notNull().default('pending'),
  requested_by_id: integer('requested_by_id').references(() => partnerAccounts.id, { onDelete: 'set null' }),
  /** Kept as written, so the history still names a login deleted since. */
  requested_by_name: varchar('requested_by_name', { length: 255 }).notNull(),
  decided_by_id: integer('decided_by_id').references(() => users.id, { onDelete: 'set null' }),
  decided_by_name: varchar('decided_by_name', { length: 255 }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  /** Finance's reason for a rejection (required then), told to the firm. */
  reason: text('reason'),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('partner_bank_changes_partner_id_index').on(t.partner_id, t.created_at),
  // One request waits at a time: a new one withdraws the one before, in the same transaction.
  uniqueIndex('partner_bank_changes_one_pending').on(t.partner_id).where(sql`${t.status} = 'pending'`),
]);
