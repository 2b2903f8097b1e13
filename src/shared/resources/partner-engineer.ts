import { z } from 'zod';
import { dateField, defineResource, referenceId, type SelectOption } from './define';
import { createdAtColumn } from './common';
import { hasAtMostTwoDecimals } from '../money';

export const RATE_TYPES = ['day', 'hour'] as const;
export type RateType = (typeof RATE_TYPES)[number];
export const rateTypeOptions: SelectOption[] = [{ value: 'day', label: 'Day' }, { value: 'hour', label: 'Hour' }];
/** numeric(14, 2) holds this much. */
export const MAX_RATE = 999_999_999_999.99;

/**
 * An engineer a partner firm supplies and the rate agreed for them over a period (issue 11), listed
 * on the firm's page (dialog form, no screens of its own). The engineer is an internal user, so a
 * statement can be checked against their time sheets. Two periods of the same engineer at the same
 * firm never overlap (the server answers 422), so a statement's day has one agreed rate.
 * The firm's logins pick their own engineers for a statement under /api/partner/engineer/options.
 */
export const partnerEngineer = defineResource({
  name: 'partner-engineer',
  label: 'Engineer',
  pluralLabel: 'Engineers',
  schema: z.object({
    partner_id: referenceId('partner'),
    user_id: referenceId('engineer'),
    rate_type: z.enum(RATE_TYPES, { error: 'The selected rate type is invalid.' }),
    rate: z.number({ error: 'The rate field is required.' })
      .positive('The rate must be greater than 0.')
      .max(MAX_RATE, 'The rate is too large.')
      // Money in cents: 12.345 is refused rather than rounded behind anyone's back.
      .refine(hasAtMostTwoDecimals, 'The rate may have at most 2 decimals.'),
    currency: z.string({ error: 'The currency field is required.' }).trim().toUpperCase()
      .regex(/^[A-Z]{3}$/, 'The currency must be a 3-letter code (EUR, USD, INR).'),
    valid_from: dateField('valid from'),
    /** Open-ended when empty; not before valid_from (checked on the server: the schema has no refinements across fields). */
    valid_to: dateField('valid to').nullish(),
  }),
  fields: {
    user_id: {
      label: 'Engineer', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'user', labelKey: 'name', relation: 'engineer' },
    },
    rate_type: { label: 'Rate Type', input: 'select', options: rateTypeOptions, isColumn: true },
    rate: { label: 'Rate', input: 'number', currencyField: 'currency', isColumn: true, isSortable: true },
    // Issue 24: the firm's currency filled in as a real value to change, never a placeholder that looks like one.
    currency: { label: 'Currency', input: 'text', isColumn: true, initialFrom: 'firm-currency', help: 'The currency the rate is agreed in (a 3-letter code).' },
    valid_from: { label: 'Valid From', input: 'date', isColumn: true, isSortable: true },
    valid_to: { label: 'Valid To', input: 'date', isColumn: true, isSortable: true, help: 'Leave empty while the rate applies.' },
    partner_id: {
      label: 'Partner', input: 'reference',
      reference: { resource: 'ikk-partner', labelKey: 'name', relation: 'partner' },
    },
    /** The engineer's name, selected with the row (the server's `computed`): the label of the options partners pick from. */
    engineer_name: { label: 'Engineer', input: 'text', isInForm: false, isInDetail: false },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'engineer_name',
  search: ['engineer_name'],
  filters: [
    { key: 'user_id', label: 'Engineer', type: 'reference', reference: { resource: 'user', labelKey: 'name' } },
    { key: 'rate_type', label: 'Rate Type', type: 'select', options: rateTypeOptions },
  ],
  defaultSort: { key: 'valid_from', direction: 'desc' },
  permissions: { view: 'can-view-partner', add: 'can-edit-partner', edit: 'can-edit-partner', delete: 'can-edit-partner' },
  routes: { index: 'ikk-partner.show' },
  parent: { resource: 'ikk-partner', field: 'partner_id' },
  owner: { account: 'partner', column: 'partner_id', segment: 'engineer', permissions: { view: 'can-view-pre-billing' } },
});
