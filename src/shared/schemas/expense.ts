// Answers of the expense routes beside the generic ones (src/server/modules/expense/routes.ts).
import { z } from 'zod';

const money = z.object({ currency: z.string(), amount: z.number() });

/** GET /api/expense/totals: sums of the filtered list, per currency and per status (workflow order). */
export const expenseTotalsSchema = z.object({
  /** Claims in the filtered list. */
  count: z.number().int(),
  /** Per currency: how many claims and their sum. */
  by_currency: z.array(money.extend({ count: z.number().int() })),
  /** Per status: how many claims and their sum per currency (amounts of different currencies never add up). */
  by_status: z.array(z.object({ status: z.string(), count: z.number().int(), amounts: z.array(money) })),
});
export type ExpenseTotals = z.infer<typeof expenseTotalsSchema>;

/** GET /api/expense/policy: what the form shows (the receipt threshold). */
export const expensePolicySchema = z.object({ receipt_threshold: z.number() });
