import { z } from 'zod';
import type { bankAccountSchema, bankChangeSchema, firmBankDetailsSchema } from '../schemas/partner';
import {
  defineResource, emailField, optionalReferenceId, optionalText, requiredText, statusField,
} from './define';
import { createdAtColumn, createdAtFilter, statusColumn, statusFilter } from './common';

/** How long a partner has to be paid unless an invoice says otherwise; most firms agree 30 days. */
export const MAX_PAYMENT_TERMS_DAYS = 365;

/**
 * A partner firm (spec §2 /ikk-partner, issue 11): the supplier of engineers and the owner of
 * pre-billing statements and invoices. Creating one also creates the first portal login for its
 * contact, who is mailed a set-password link; its logins and engineers (with the agreed rates) are
 * listed on its page. Deactivating it signs every login out and keeps them out.
 */
export const ikkPartner = defineResource({
  name: 'ikk-partner',
  grantsAccess: true,
  label: 'Partner',
  pluralLabel: 'Partners',
  // Its first login is invited with it (modules/partner); deactivating it signs its logins out.
  words: {
    created: 'Partner created successfully. An invitation to set a password for the partner portal has been emailed.',
    updated: (row) => (row.status === 'inactive' ? 'Partner updated successfully. Its logins are signed out.' : 'Partner updated successfully.'),
  },
  schema: z.object({
    name: requiredText('name'),
    contact_name: optionalText('contact name'),
    email: emailField(),
    phone: optionalText('phone', 30),
    address: optionalText('address', 500),
    country_id: optionalReferenceId('country'),
    city_id: optionalReferenceId('city'),
    tax_id: optionalText('tax id', 60),
    payment_terms_days: z.number({ error: 'The payment terms field is required.' })
      .int('The payment terms field must be an integer.')
      .min(0, 'The payment terms field must be at least 0.')
      .max(MAX_PAYMENT_TERMS_DAYS, `The payment terms field must not be greater than ${MAX_PAYMENT_TERMS_DAYS}.`),
    account_manager_id: optionalReferenceId('account manager'),
    status: statusField(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    contact_name: { label: 'Contact Name', input: 'text', isColumn: true, help: 'Their first portal login is created for this person.' },
    email: { label: 'Email', input: 'email', isColumn: true, isSortable: true, help: 'The first login signs in with this address; a link to set a password is mailed to it.' },
    phone: { label: 'Phone', input: 'text' },
    address: { label: 'Address', input: 'textarea' },
    country_id: {
      label: 'Country', input: 'reference', isColumn: true,
      reference: { resource: 'country', labelKey: 'name', relation: 'country' },
    },
    city_id: {
      label: 'City', input: 'reference',
      reference: { resource: 'city', labelKey: 'name', relation: 'city', dependsOn: { country_id: 'country_id' } },
    },
    tax_id: { label: 'Tax ID', input: 'text' },
    payment_terms_days: { label: 'Payment Terms (days)', input: 'number', isSortable: true, initial: 30, help: 'Days from an invoice\'s date to its due date.' },
    account_manager_id: {
      label: 'Account Manager', input: 'reference', isColumn: true,
      reference: { resource: 'manager', labelKey: 'name', relation: 'account_manager' },
      help: 'Told with finance when the partner submits a pre-billing statement.',
    },
    status: { ...statusColumn, help: 'An inactive partner\'s logins are signed out and cannot sign in.' },
    created_at: createdAtColumn,
  },
  titleKey: 'name',
  search: ['name', 'email'],
  filters: [
    statusFilter,
    { key: 'country_id', label: 'Country', type: 'reference', reference: { resource: 'country', labelKey: 'name' } },
    { key: 'account_manager_id', label: 'Account Manager', type: 'reference', reference: { resource: 'manager', labelKey: 'name' } },
    createdAtFilter,
  ],
  defaultSort: { key: 'name', direction: 'asc' },
  permissions: { view: 'can-view-partner', add: 'can-add-partner', edit: 'can-edit-partner', delete: 'can-delete-partner' },
  routes: { index: 'ikk-partner.index', create: 'ikk-partner.create', show: 'ikk-partner.show', edit: 'ikk-partner.edit' },
  menu: { icon: 'handshake', group: 'Partner', order: 10 },
  related: [
    { resource: 'partner-account', field: 'partner_id', title: 'Logins' },
    { resource: 'partner-engineer', field: 'partner_id', title: 'Engineers and agreed rates' },
  ],
});

// ---- Issue 28: the firm keeps its own profile from the partner portal (/partner/profile) ----

/** PATCH /api/partner/firm: what a firm's admin login may change itself (its name and email are the firm's identity: staff change those). */
export const firmProfileSchema = z.object({
  phone: optionalText('phone', 30),
  address: optionalText('address', 500),
  country_id: optionalReferenceId('country'),
  city_id: optionalReferenceId('city'),
  tax_id: optionalText('tax registration', 60),
});
export type FirmProfileInput = z.infer<typeof firmProfileSchema>;

/** POST /api/ikk-partner/{id}/bank-changes/{changeId}/reject: the reason is told to the firm. */
export const rejectBankChangeSchema = z.object({
  reason: requiredText('reason', 1000),
});

/** POST /api/partner/colleague: a new login of the caller's own firm, invited by mail. */
export const colleagueSchema = z.object({
  name: requiredText('name'),
  email: emailField(),
  phone: optionalText('phone', 30),
});

/** PATCH /api/partner/colleague/{id}: deactivate or reactivate a colleague's login. */
export const colleagueStatusSchema = z.object({ status: statusField() });

export type BankChangeStatus = BankChange['status'];

/** Bank details as the firm's pages show them. */
export type BankAccount = z.infer<typeof bankAccountSchema>;

/** One request to change the firm's bank details, as finance and the firm see it (old beside new). */
export type BankChange = z.infer<typeof bankChangeSchema>;

/** GET /api/partner/firm and GET /api/ikk-partner/{id}/bank-details. */
export type FirmBankDetails = z.infer<typeof firmBankDetailsSchema>;

/** Status words of a bank change, as both sides read them. */
export const BANK_CHANGE_LABELS: Record<BankChangeStatus, string> = {
  pending: 'Waiting for finance',
  approved: 'Approved',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};

/**
 * The sentences of a bank change (decision 020: declared words, one per reader). `firm` is the firm's
 * name, `actor` who acted.
 */
export const bankChangeWords = {
  /** To finance when a firm asks. */
  requested: ({ firm, actor }: { firm: string; actor: string }) => ({
    title: 'New bank details to approve',
    message: `${actor} of ${firm} asked to change the firm's bank details. Payments keep going to the old account until you approve.`,
  }),
  /** To the firm's admin logins and whoever asked, after finance decides. */
  approved: ({ actor }: { actor: string }) => ({
    title: 'Your new bank details are approved',
    message: `${actor} approved your new bank details: payments now go to the new account.`,
  }),
  rejected: ({ actor, reason }: { actor: string; reason: string }) => ({
    title: 'Your new bank details were not approved',
    message: `${actor} did not approve your new bank details, and gave this reason: “${reason.replace(/[.\s]+$/, '')}”. Payments keep going to the account already approved.`,
  }),
  /** The answers of the routes. */
  answers: {
    requested: 'Your new bank details wait for approval by finance. Payments keep going to the current account until then.',
    withdrawn: 'Your request to change the bank details is withdrawn.',
    approved: 'The new bank details are approved: payments now go to them. The firm has been told.',
    rejected: 'The new bank details are rejected. The firm has been told why.',
  },
} as const;
