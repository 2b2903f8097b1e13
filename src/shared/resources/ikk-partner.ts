import { z } from 'zod';
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
  label: 'Partner',
  pluralLabel: 'Partners',
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
  related: [
    { resource: 'partner-account', field: 'partner_id', title: 'Logins' },
    { resource: 'partner-engineer', field: 'partner_id', title: 'Engineers and agreed rates' },
  ],
});
