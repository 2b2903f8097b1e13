import { z } from 'zod';
import { defineResource, emailField, optionalText, referenceId, requiredText, statusField } from './define';
import { createdAtColumn, statusColumn, statusFilter } from './common';

/**
 * A portal login of a partner firm (account type `partner`; issue 11), managed from the firm's page
 * in a dialog: it has no screens of its own. Creating one mails a set-password link to the partner
 * portal; deactivating one signs it out. The email is unique among partner logins. A firm admin login
 * (issue 28) also manages the firm's profile and its colleagues' logins from the portal.
 */
export const partnerAccount = defineResource({
  name: 'partner-account',
  grantsAccess: true,
  label: 'Login',
  pluralLabel: 'Logins',
  words: { created: 'Login created successfully. An invitation to set a password for the partner portal has been emailed.' },
  schema: z.object({
    partner_id: referenceId('partner'),
    name: requiredText('name'),
    email: emailField(),
    phone: optionalText('phone', 30),
    status: statusField(),
    // Issue 28: the firm's admin logins keep its profile and bank details and manage its logins from the
    // portal. Held as the `partner admin` role beside `partner`; the firm's first login is one.
    is_firm_admin: z.boolean({ error: 'The firm admin field must be true or false.' }).optional(),
  }),
  fields: {
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true },
    email: { label: 'Email', input: 'email', isColumn: true, isSortable: true, help: 'A link to set a password for the partner portal is mailed here.' },
    phone: { label: 'Phone', input: 'text', isColumn: true },
    partner_id: {
      label: 'Partner', input: 'reference',
      reference: { resource: 'ikk-partner', labelKey: 'name', relation: 'partner' },
    },
    status: { ...statusColumn, help: 'An inactive login is signed out and cannot sign in.' },
    is_firm_admin: {
      label: 'Firm Admin', input: 'boolean', isColumn: true,
      help: 'Keeps the firm\'s profile and bank details and invites or deactivates its other logins from the partner portal.',
    },
    email_verified_at: { label: 'Email Verified At', input: 'date', isInForm: false },
    last_activity_at: { label: 'Last Activity', input: 'date', isColumn: true, isSortable: true, isInForm: false },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'name',
  search: ['name', 'email'],
  filters: [statusFilter],
  defaultSort: { key: 'name', direction: 'asc' },
  // The logins are part of the firm: whoever may edit the firm manages them.
  permissions: { view: 'can-view-partner', add: 'can-edit-partner', edit: 'can-edit-partner', delete: 'can-edit-partner' },
  // Listed on the firm's page (its show route): no screens of its own, the form opens in a dialog.
  routes: { index: 'ikk-partner.show' },
  parent: { resource: 'ikk-partner', field: 'partner_id' },
});
