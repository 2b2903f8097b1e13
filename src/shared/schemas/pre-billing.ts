// Answers of the pre-billing routes beside the generic ones (src/server/modules/pre-billing/routes.ts,
// issue 11): a statement's lines, its kept versions and its comparison with the time sheets.
import { z } from 'zod';
import { timestamp } from './responses';

const named = z.object({ id: z.number().int(), name: z.string() });
const rateType = z.enum(['day', 'hour']);

/** A priced line of a statement, as a row's `lines` carries it. */
export const pricedLineSchema = z.object({
  id: z.number().int(),
  engineer_id: z.number().int(),
  engineer: named,
  client_id: z.number().int(),
  client: named,
  quantity: z.number(),
  rate_type: rateType,
  rate: z.number(),
  amount: z.number(),
});

/** GET /api/pre-billing/{id}/versions (and the partner's): a statement as it was before a correction. */
export const preBillingVersionSchema = z.object({
  version: z.number().int(),
  total: z.number(),
  currency: z.string(),
  lines: z.array(pricedLineSchema.omit({ id: true })),
  created_at: timestamp,
});

/** One line of GET /api/pre-billing/{id}/comparison. */
export const preBillingComparisonLineSchema = z.object({
  line_id: z.number().int(),
  engineer: named.extend({ user_id: z.number().int() }),
  client: named,
  quantity: z.number(),
  rate_type: rateType,
  /** The quantity in hours (a day is HOURS_PER_DAY hours). */
  billed_hours: z.number(),
  /**
   * Hours the month's other statements bill for the same engineer and client (issue 21: a
   * supplementary statement's original, or an original's supplements); rejected ones do not count.
   */
  other_statements_hours: z.number(),
  /** Approved time-sheet hours of the engineer for the client, sheets starting within the month. */
  time_sheet_hours: z.number(),
  /** billed_hours + other_statements_hours - time_sheet_hours: positive when the month bills more than the sheets show. */
  difference: z.number(),
  /** How many approved sheets were counted. */
  time_sheets: z.number().int(),
});

/** GET /api/pre-billing/{id}/comparison. */
export const preBillingComparisonSchema = z.object({
  month: z.string(),
  hours_per_day: z.number(),
  lines: z.array(preBillingComparisonLineSchema),
  totals: z.object({ billed_hours: z.number(), other_statements_hours: z.number(), time_sheet_hours: z.number(), difference: z.number() }),
});
