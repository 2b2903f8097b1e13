// What partner firms bill (issue 11): the engineers each supplies with their agreed rates, the
// monthly pre-billing statement (lines per engineer and client) and the invoice for an approved one.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn, date, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';
import { partnerAccounts, partners, users } from './accounts';
import { clients } from './master-data';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });

/**
 * An engineer a partner supplies and the rate agreed for them over a period. The engineer is an
 * internal user (they fill in time sheets), so a statement can be checked against those sheets.
 */
export const partnerEngineers = pgTable('partner_engineers', {
  id: serial('id').primaryKey(),
  partner_id: integer('partner_id').notNull().references(() => partners.id, { onDelete: 'cascade' }),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
  rate_type: varchar('rate_type', { length: 10, enum: ['day', 'hour'] }).notNull(),
  rate: money('rate').notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  valid_from: date('valid_from').notNull(),
  /** Null: open-ended. */
  valid_to: date('valid_to'),
  ...timestamps,
}, (t) => [index('partner_engineers_partner').on(t.partner_id, t.user_id), index('partner_engineers_user_id_index').on(t.user_id)]);

export const preBillingStatuses = ['pending', 'reviewed by accounting', 'approved', 'on hold', 'rejected'] as const;

/** A partner's statement for one month: what its engineers worked, per client, at the agreed rates. */
export const preBillings = pgTable('pre_billings', {
  id: serial('id').primaryKey(),
  partner_id: integer('partner_id').notNull().references(() => partners.id, { onDelete: 'restrict' }),
  /** The first day of the month billed. */
  month: date('month').notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  /** The lines' amounts summed; set by the server. */
  total: money('total').notNull().default(0),
  note: text('note'),
  status: varchar('status', { length: 30, enum: preBillingStatuses }).notNull().default('pending'),
  /** 1, then one more each time the partner corrects and resubmits it. */
  version: integer('version').notNull().default(1),
  /**
   * A supplementary statement (issue 21): a line forgotten in a month whose statement is already
   * approved, billed on its own statement linked to that original. Null for the month's original.
   */
  supplements_id: integer('supplements_id').references((): AnyPgColumn => preBillings.id, { onDelete: 'restrict' }),
  submitted_by: integer('submitted_by').references(() => partnerAccounts.id, { onDelete: 'set null' }),
  decided_by: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  ...timestamps,
}, (t) => [
  // One original per firm and month; supplements of an approved one come beside it.
  uniqueIndex('pre_billings_partner_month').on(t.partner_id, t.month).where(sql`${t.supplements_id} is null`),
  index('pre_billings_supplements_id_index').on(t.supplements_id),
  index('pre_billings_status').on(t.status, t.month),
  index('pre_billings_month').on(t.month, t.id),
]);

export const preBillingLines = pgTable('pre_billing_lines', {
  id: serial('id').primaryKey(),
  pre_billing_id: integer('pre_billing_id').notNull().references(() => preBillings.id, { onDelete: 'cascade' }),
  engineer_id: integer('engineer_id').notNull().references(() => partnerEngineers.id, { onDelete: 'restrict' }),
  client_id: integer('client_id').notNull().references(() => clients.id, { onDelete: 'restrict' }),
  /** Days or hours, as the engineer's rate is agreed. */
  quantity: numeric('quantity', { precision: 7, scale: 2, mode: 'number' }).notNull(),
  rate_type: varchar('rate_type', { length: 10, enum: ['day', 'hour'] }).notNull(),
  rate: money('rate').notNull(),
  amount: money('amount').notNull(),
}, (t) => [index('pre_billing_lines_pre_billing').on(t.pre_billing_id), index('pre_billing_lines_engineer_id_index').on(t.engineer_id), index('pre_billing_lines_client_id_index').on(t.client_id)]);

/** The lines and total of a statement as they were before a correction (kept for the reviewers). */
export const preBillingVersions = pgTable('pre_billing_versions', {
  id: serial('id').primaryKey(),
  pre_billing_id: integer('pre_billing_id').notNull().references(() => preBillings.id, { onDelete: 'cascade' }),
  version: integer('version').notNull(),
  total: money('total').notNull(),
  lines: jsonb('lines').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('pre_billing_versions_version').on(t.pre_billing_id, t.version)]);

export const partnerInvoiceStatuses = ['pending', 'approved by manager', 'approved', 'paid', 'on hold', 'rejected'] as const;

/** A partner's invoice for one approved pre-billing; the PDF is an attachment (field `file`). */
export const partnerInvoices = pgTable('partner_invoices', {
  id: serial('id').primaryKey(),
  partner_id: integer('partner_id').notNull().references(() => partners.id, { onDelete: 'restrict' }),
  pre_billing_id: integer('pre_billing_id').notNull().references(() => preBillings.id, { onDelete: 'restrict' }),
  invoice_number: varchar('invoice_number', { length: 60 }).notNull(),
  invoice_date: date('invoice_date').notNull(),
  due_date: date('due_date').notNull(),
  amount: money('amount').notNull(),
  tax: money('tax').notNull().default(0),
  total: money('total').notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  status: varchar('status', { length: 30, enum: partnerInvoiceStatuses }).notNull().default('pending'),
  payment_date: date('payment_date'),
  submitted_by: integer('submitted_by').references(() => partnerAccounts.id, { onDelete: 'set null' }),
  decided_by: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  ...timestamps,
}, (t) => [
  uniqueIndex('partner_invoices_number').on(t.partner_id, sql`lower(${t.invoice_number})`),
  // One invoice bills one statement; a rejected invoice is corrected, not replaced.
  uniqueIndex('partner_invoices_pre_billing').on(t.pre_billing_id),
  // A partner's own list, newest first (the definition's default sort, then id): read in index order, so
  // a page reads its 15 rows, not every invoice of the firm (issue 27, migration 0041).
  index('partner_invoices_partner').on(t.partner_id, t.created_at, t.id),
  index('partner_invoices_status').on(t.status, t.due_date),
  // The dashboard's invoices awaiting payment: count and total per currency from the index alone (0017).
  index('partner_invoices_status_currency').on(t.status, t.currency, t.total),
]);

export const paymentMethods = ['bank transfer', 'cheque', 'card', 'other'] as const;

/**
 * A payment finance recorded against a partner invoice (issue 21): an invoice may be paid in parts;
 * it is paid when its payments reach its total (tax included).
 */
export const partnerInvoicePayments = pgTable('partner_invoice_payments', {
  id: serial('id').primaryKey(),
  invoice_id: integer('invoice_id').notNull().references(() => partnerInvoices.id, { onDelete: 'cascade' }),
  payment_date: date('payment_date').notNull(),
  amount: money('amount').notNull(),
  method: varchar('method', { length: 20, enum: paymentMethods }).notNull(),
  /** The bank's or the cheque's reference: the partner's remittance advice. */
  reference: varchar('reference', { length: 100 }).notNull(),
  recorded_by: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('partner_invoice_payments_invoice').on(t.invoice_id, t.payment_date)]);
