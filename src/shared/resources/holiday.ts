import { z } from 'zod';
import type { holidayCountryOptionSchema, holidayLoadResultSchema, holidayRowSchema, holidayYearSchema } from '../schemas/holiday';
import { dateField, defineResource, referenceId, requiredText, type SelectOption } from './define';
import { createdAtColumn } from './common';

/** Where a holiday came from (issue 22): the public holidays data set, or a day the firm added. */
export const holidaySourceOptions: SelectOption[] = [
  { value: 'public', label: 'Public holiday' },
  { value: 'firm', label: "Firm's own day" },
];

/**
 * Holidays per country (issue 22): the public holidays of the firm's countries, loaded per year from an
 * offline data set, and the firm's own closing days. A removed day is kept (is_removed) so that loading
 * the year again leaves it removed; it is a working day again. A leave's working days do not count the
 * holidays of the applicant's work location (src/server/modules/holiday/working-calendar.ts).
 */
export const holiday = defineResource({
  name: 'holiday',
  label: 'Holiday',
  pluralLabel: 'Holidays',
  schema: z.object({
    date: dateField('date'),
    name: requiredText('name'),
    country_id: referenceId('country'),
  }),
  fields: {
    date: { label: 'Date', input: 'date', isColumn: true, isSortable: true },
    name: { label: 'Name', input: 'text', isColumn: true, isSortable: true, placeholder: 'e.g. Republic Day' },
    country_id: {
      label: 'Country', input: 'reference', isColumn: true, isSortable: true,
      reference: { resource: 'country', labelKey: 'name', relation: 'country' },
    },
    source: {
      label: 'Source', input: 'select', options: holidaySourceOptions, isColumn: true, isSortable: true, isInForm: false,
      badge: { public: 'gray', firm: 'green' },
    },
    created_at: { ...createdAtColumn, isColumn: false },
  },
  titleKey: 'name',
  search: ['name'],
  filters: [
    { key: 'country_id', label: 'Country', type: 'reference', reference: { resource: 'country', labelKey: 'name' } },
    { key: 'date', label: 'Date', type: 'date-range' },
    { key: 'source', label: 'Source', type: 'select', options: holidaySourceOptions },
  ],
  defaultSort: { key: 'date', direction: 'asc' },
  permissions: { view: 'can-view-holiday', add: 'can-add-holiday', edit: 'can-edit-holiday', delete: 'can-delete-holiday' },
  routes: { index: 'holiday.index', create: 'holiday.create', show: 'holiday.show', edit: 'holiday.edit' },
  menu: { icon: 'calendar', order: 90 },
});

/** A country's code as the data set and the countries table write it: ISO 3166-1 alpha-2, upper-case. */
const countryCode = z.string({ error: 'The country field is required.' }).trim().toUpperCase()
  .regex(/^[A-Z]{2}$/, 'The country field must be a two-letter country code, such as GB.');
const holidayYear = z.coerce.number({ error: 'The year field must be a year such as 2026.' })
  .int('The year field must be a year such as 2026.').min(2000, 'The year must be 2000 or later.').max(2100, 'The year must be 2100 or earlier.');

/**
 * POST /holiday/load: a country's public holidays for a year (without one: this year and next), of one
 * region of it when the data set has regions and one is chosen.
 */
export const holidayLoadSchema = z.object({
  country_code: countryCode,
  year: holidayYear.nullish().transform((value) => value ?? null),
  region: z.string().trim().toUpperCase().max(20, 'The region field must not be greater than 20 characters.')
    .nullish().transform((value) => value || null),
});
export type HolidayLoadRequest = z.output<typeof holidayLoadSchema>;
/** One year's load. */
export type HolidayLoad = HolidayLoadRequest & { year: number };

/** GET /holiday/year: one country's holidays of one year (by default the firm's first country, this year). */
export const holidayYearQuerySchema = z.object({ country_code: countryCode.optional(), year: holidayYear.optional() });

/** A country the holidays screen offers: from the data set (regions as it has them) or the firm's own list. */
export type HolidayCountryOption = z.infer<typeof holidayCountryOptionSchema>;
export type HolidayRow = z.infer<typeof holidayRowSchema>;
export type HolidayYear = z.infer<typeof holidayYearSchema>;
/** What a load did, for its message. */
export type HolidayLoadResult = z.infer<typeof holidayLoadResultSchema>;
