// Accounts of both types, their roles and permissions, and their tokens (spec §3, §6).
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { cities, countries, employeeTypes } from './master-data';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Fields shared by internal users and partners: both log in, verify email and may be forced to reset. */
const loginFields = {
  name: varchar('name', { length: 255 }).notNull(),
  email: varchar('email', { length: 255 }).notNull(),
  password: text('password').notNull(),
  phone: varchar('phone', { length: 30 }),
  status: varchar('status', { length: 10, enum: ['active', 'inactive'] }).notNull().default('active'),
  email_verified_at: timestamp('email_verified_at', { withTimezone: true }),
  two_fa_enabled_at: timestamp('two_fa_enabled_at', { withTimezone: true }),
  // Issue 29: the TOTP secret, encrypted with the app key (modules/auth/two-factor.ts); set at
  // enrolment, in force once two_fa_enabled_at is set. The last time step accepted, so that no code
  // is accepted twice (a replayed code, or the same code typed on two tabs).
  two_fa_secret: text('two_fa_secret'),
  two_fa_last_step: integer('two_fa_last_step'),
  force_password_reset: boolean('force_password_reset').notNull().default(false),
  last_activity_at: timestamp('last_activity_at', { withTimezone: true }),
};

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  ...loginFields,
  user_type: varchar('user_type', { length: 10, enum: ['admin', 'manager', 'user'] }).notNull().default('user'),
  parent_id: integer('parent_id').references((): any => users.id, { onDelete: 'set null' }),
  doc_assigned: boolean('doc_assigned').notNull().default(false),
  employee_type_id: integer('employee_type_id').references(() => employeeTypes.id, { onDelete: 'restrict' }),
  country_id: integer('country_id').references(() => countries.id, { onDelete: 'restrict' }),
  city_id: integer('city_id').references(() => cities.id, { onDelete: 'restrict' }),
  // Issue 21: where the person's expense claims are paid. Seen only by the person and by finance
  // (src/server/modules/reimbursement/bank-details.ts); hidden from every user row the API sends.
  bank_account_holder: varchar('bank_account_holder', { length: 140 }),
  /** An IBAN (checksum checked) or a local account number, stored without spaces. */
  bank_account_number: varchar('bank_account_number', { length: 42 }),
  /** BIC, sort code, IFSC or routing number; may be empty beside an IBAN. */
  bank_code: varchar('bank_code', { length: 14 }),
  bank_details_updated_at: timestamp('bank_details_updated_at', { withTimezone: true }),
  // Issue 22: the HR record. The employee ID is the firm's own number for the person, unique
  // whatever its case; the work location is the city the person works from (its country's holidays).
  employee_id: varchar('employee_id', { length: 50 }),
  job_title: varchar('job_title', { length: 255 }),
  department: varchar('department', { length: 255 }),
  join_date: date('join_date', { mode: 'string' }),
  exit_date: date('exit_date', { mode: 'string' }),
  work_location_id: integer('work_location_id').references(() => cities.id, { onDelete: 'restrict' }),
  /** The last sign-in (a token issued): a person invited but never signed in shows as such on the people lists. */
  last_login_at: timestamp('last_login_at', { withTimezone: true }),
  ...timestamps,
}, (t) => [
  uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
  uniqueIndex('users_employee_id_unique').on(sql`lower(${t.employee_id})`),
  index('users_parent_id_index').on(t.parent_id),
  // The people lists (GET /api/user?search=): one trigram index over the search expression of the
  // admin / manager / user definitions (search: name, email, phone, employee ID, job title,
  // department), exactly as searchExpression() in src/server/resources/register.ts writes it, so
  // '%term%' is one index scan.
  index('users_search_trgm').using('gin', sql`lower(coalesce(${t.name}, '') || chr(1) || coalesce(${t.email}, '') || chr(1) || coalesce(${t.phone}, '') || chr(1) || coalesce(${t.employee_id}, '') || chr(1) || coalesce(${t.job_title}, '') || chr(1) || coalesce(${t.department}, '')) gin_trgm_ops`),
  index('users_type_name').on(t.user_type, t.name, t.id),
  index('users_employee_type_id_index').on(t.employee_type_id),
  index('users_country_id_index').on(t.country_id),
  index('users_city_id_index').on(t.city_id),
  index('users_work_location_id_index').on(t.work_location_id),
  index('users_department_index').on(sql`lower(${t.department})`),
]);

/**
 * A partner firm that supplies engineers (issue 11): the owner of pre-billing statements and
 * invoices. Its people sign in through `partner_accounts`; every login sees the firm's records only.
 */
export const partners = pgTable('partners', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  contact_name: varchar('contact_name', { length: 255 }),
  email: varchar('email', { length: 255 }).notNull(),
  phone: varchar('phone', { length: 30 }),
  address: text('address'),
  country_id: integer('country_id').references(() => countries.id, { onDelete: 'restrict' }),
  city_id: integer('city_id').references(() => cities.id, { onDelete: 'restrict' }),
  tax_id: varchar('tax_id', { length: 60 }),
  /** Days between an invoice's date and its due date, unless the invoice says otherwise. */
  payment_terms_days: integer('payment_terms_days').notNull().default(30),
  /** The firm's account manager: told with finance when the partner submits (PartnerPreBillingUploadEvent). */
  account_manager_id: integer('account_manager_id').references(() => users.id, { onDelete: 'set null' }),
  status: varchar('status', { length: 10, enum: ['active', 'inactive'] }).notNull().default('active'),
  // Issue 28: the account the firm is paid to, as finance last approved it (partner_bank_changes holds
  // every request, pending or decided). A change the firm asks for waits there: these stay in force.
  bank_account_holder: varchar('bank_account_holder', { length: 140 }),
  bank_account_number: varchar('bank_account_number', { length: 42 }),
  bank_code: varchar('bank_code', { length: 14 }),
  bank_details_approved_at: timestamp('bank_details_approved_at', { withTimezone: true }),
  ...timestamps,
}, (t) => [
  uniqueIndex('partners_name_unique').on(sql`lower(${t.name})`),
  index('partners_country_id_index').on(t.country_id),
  index('partners_city_id_index').on(t.city_id),
  index('partners_account_manager_id_index').on(t.account_manager_id),
]);

/** A login of a partner firm (account type `partner`); a firm may have several. */
export const partnerAccounts = pgTable('partner_accounts', {
  id: serial('id').primaryKey(),
  ...loginFields,
  partner_id: integer('partner_id').notNull().references(() => partners.id, { onDelete: 'cascade' }),
  ...timestamps,
}, (t) => [uniqueIndex('partner_accounts_email_unique').on(sql`lower(${t.email})`), index('partner_accounts_partner_id_index').on(t.partner_id)]);

export const accountTypes = ['app', 'partner'] as const;
export type AccountType = (typeof accountTypes)[number];

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull().unique(),
  /** Which account type may hold the role: app roles for users, the partner role for partners. */
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull().default('app'),
  /** Issue 29: whoever holds the role signs in with a second factor, and enrols before anything else. */
  requires_two_fa: boolean('requires_two_fa').notNull().default(false),
  ...timestamps,
});

/** Issue 29: the single-use recovery codes of a second factor, stored as SHA-256 hashes (they are random, 60 bits each). */
export const twoFaRecoveryCodes = pgTable('two_fa_recovery_codes', {
  id: serial('id').primaryKey(),
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
  code_hash: varchar('code_hash', { length: 64 }).notNull(),
  used_at: timestamp('used_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('two_fa_recovery_codes_account').on(t.account_type, t.account_id)]);

export const permissions = pgTable('permissions', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 150 }).notNull().unique(),
  ...timestamps,
});

export const roleHasPermissions = pgTable('role_has_permissions', {
  role_id: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  permission_id: integer('permission_id').notNull().references(() => permissions.id, { onDelete: 'cascade' }),
}, (t) => [primaryKey({ columns: [t.role_id, t.permission_id] })]);

/** Role membership of either account type (a polymorphic pair, as Laravel's model_has_roles). */
export const modelHasRoles = pgTable('model_has_roles', {
  role_id: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
}, (t) => [primaryKey({ columns: [t.role_id, t.account_type, t.account_id] }), index('model_has_roles_account').on(t.account_type, t.account_id)]);

/** Bearer tokens: only a SHA-256 of the secret is stored; each is bound to one account type. */
export const personalAccessTokens = pgTable('personal_access_tokens', {
  id: serial('id').primaryKey(),
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
  token_hash: varchar('token_hash', { length: 64 }).notNull().unique(),
  last_used_at: timestamp('last_used_at', { withTimezone: true }),
  expires_at: timestamp('expires_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('personal_access_tokens_account').on(t.account_type, t.account_id)]);

/** One pending reset link per account; the token is stored hashed and deleted when used. */
export const passwordResetTokens = pgTable('password_reset_tokens', {
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  email: varchar('email', { length: 255 }).notNull(),
  token_hash: varchar('token_hash', { length: 64 }).notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Issue 22: an invitation lasts 7 days; null for a reset link, which lasts RESET_LINK_MINUTES from created_at. */
  expires_at: timestamp('expires_at', { withTimezone: true }),
}, (t) => [primaryKey({ columns: [t.account_type, t.email] })]);

/**
 * A requested change of an account's email (issue 15): the old address stays the account's, for
 * sign-in and reset links, until the link mailed to the new one is opened. One per account.
 */
export const emailChanges = pgTable('email_changes', {
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
  email: varchar('email', { length: 255 }).notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.account_type, t.account_id] })]);
