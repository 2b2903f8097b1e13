// Answers of the partner-invoice routes beside the generic ones (src/server/modules/partner-invoice/routes.ts).
import { z } from 'zod';

/** An approved pre-billing no invoice bills yet: what the invoice form offers (GET …/billable). */
export const billablePreBillingSchema = z.object({
  id: z.number().int(), label: z.string(), month: z.string(), currency: z.string(), total: z.number(), is_supplementary: z.boolean(),
});
export type BillablePreBilling = z.infer<typeof billablePreBillingSchema>;
