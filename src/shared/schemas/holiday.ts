// Answers of the holidays screen's routes (src/server/modules/holiday/routes.ts, issue 22). The
// screen's types (HolidayYear, HolidayCountryOption, ...) are inferred from these.
import { z } from 'zod';

const country = z.object({ id: z.number().int(), name: z.string(), code: z.string() });

/** GET /api/holiday/countries: a country whose holidays can be kept. */
export const holidayCountryOptionSchema = z.object({
  code: z.string(),
  name: z.string(),
  /** The row of the countries table, once there is one. */
  country_id: z.number().int().nullable(),
  /** One of the firm's countries: its public holidays are loaded, next year's by the yearly job. */
  is_firm: z.boolean(),
  /** The region whose holidays the firm loads, when it chose one. */
  region: z.string().nullable(),
  regions: z.array(z.object({ code: z.string(), name: z.string() })),
  /** Whether the data set has public holidays for it (a country added by hand may not). */
  has_data: z.boolean(),
});

/** One day of a year (POST /api/holiday/{id}/remove and /restore answer it too). */
export const holidayRowSchema = z.object({
  id: z.number().int(), date: z.string(), name: z.string(), source: z.enum(['public', 'firm']), is_removed: z.boolean(),
});

/** GET /api/holiday/year. */
export const holidayYearSchema = z.object({
  country: country.nullable(),
  region: z.string().nullable(),
  year: z.number().int(),
  holidays: z.array(holidayRowSchema),
});

/** What a load did, for its message (POST /api/holiday/load). */
export const holidayLoadResultSchema = z.object({
  country,
  region: z.string().nullable(),
  year: z.number().int(),
  /** Public holidays of the year in the data set (a removed one included). */
  loaded: z.number().int(),
  /** Of those, new rows. */
  added: z.number().int(),
  /** Removed earlier and left removed. */
  kept_removed: z.number().int(),
});
