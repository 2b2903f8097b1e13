// Issue 25: the answer of the deal pipeline (GET /api/deal-tracking/pipeline); DealPipeline is inferred from it.
import { z } from 'zod';
import { DEAL_STAGES } from '../resources/deal-tracking';

/** Amounts never add up across currencies: one line per currency. */
export const pipelineAmountSchema = z.object({ currency: z.string(), value: z.number(), weighted: z.number() });

export const dealPipelineSchema = z.object({
  by_stage: z.array(z.object({ stage: z.enum(DEAL_STAGES), probability: z.number(), count: z.number().int(), amounts: z.array(pipelineAmountSchema) })),
  /** Open deals only (lead to negotiation): what each owner may still win. */
  by_owner: z.array(z.object({ owner: z.object({ id: z.number().int(), name: z.string() }), count: z.number().int(), amounts: z.array(pipelineAmountSchema) })),
  /** Issue 24: why the lost deals were lost, the most frequent first (at most LOST_REASONS_SHOWN). */
  lost_reasons: z.array(z.object({ reason: z.string(), count: z.number().int(), amounts: z.array(pipelineAmountSchema) })),
});
