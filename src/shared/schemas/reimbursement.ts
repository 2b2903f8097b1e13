// Answers of the reimbursement-batch and bank-details routes beside the generic ones
// (src/server/modules/reimbursement/routes.ts, issue 21). The batch screen reads these types.
import { z } from 'zod';
import { timestamp } from './responses';

const money = z.object({ currency: z.string(), amount: z.number() });

/** An approved claim as a batch holds it. */
export const batchClaimSchema = z.object({
  id: z.number().int(), description: z.string(), expense_date: z.string(), amount: z.number(), currency: z.string(), status: z.string(),
  user_id: z.number().int(), claimant: z.string(),
});
export type BatchClaim = z.infer<typeof batchClaimSchema>;

/** GET /api/reimbursement-batch/claimable: a claim free for a batch, with whether its claimant can be paid yet. */
export const claimableClaimSchema = batchClaimSchema.extend({ has_bank_details: z.boolean() });
export type ClaimableClaim = z.infer<typeof claimableClaimSchema>;

/** A line of the bank file: a payee's claims in one currency, summed. */
export const payeeTotalSchema = z.object({
  user_id: z.number().int(), payee: z.string(), currency: z.string(), claims_count: z.number().int(), amount: z.number(), amount_cents: z.number().int(),
  has_bank_details: z.boolean(),
});
export type PayeeTotal = z.infer<typeof payeeTotalSchema>;

/** GET /api/reimbursement-batch/{id}/claims. */
export const batchClaimsSchema = z.object({ claims: z.array(batchClaimSchema), payees: z.array(payeeTotalSchema), totals: z.array(money) });
export type BatchClaims = z.infer<typeof batchClaimsSchema>;


/** Stored bank details (null: none yet). */
export const storedBankDetailsSchema = z.object({
  account_holder: z.string(), account_number: z.string(), bank_code: z.string().nullable(), updated_at: timestamp.nullable(),
});

/** GET /api/bank-details/{userId}: the details and whose they are. */
export const bankDetailsAnswer = z.object({ data: storedBankDetailsSchema.nullable(), name: z.string() });
/** PUT /api/bank-details/{userId}: the same, and what happened. */
export const bankDetailsSaved = bankDetailsAnswer.extend({ message: z.string() });
export type BankDetailsAnswer = z.infer<typeof bankDetailsAnswer> & { message?: string };
