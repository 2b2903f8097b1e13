// Answers of the partner self-service routes (issue 28, src/server/modules/partner/profile-routes.ts):
// the firm's profile and bank details (and finance's view of them), and the firm's logins.
import { z } from 'zod';
import { timestamp } from './responses';

export const bankAccountSchema = z.object({ account_holder: z.string(), account_number: z.string(), bank_code: z.string().nullable() });

/** One request to change the firm's bank details, as finance and the firm see it (old beside new). */
export const bankChangeSchema = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'approved', 'rejected', 'withdrawn']),
  requested: bankAccountSchema,
  previous: bankAccountSchema.nullable(),
  requested_by: z.string(),
  decided_by: z.string().nullable(),
  decided_at: timestamp.nullable(),
  reason: z.string().nullable(),
  created_at: timestamp,
});

/** GET /api/ikk-partner/{id}/bank-details, and the firm's `bank`. */
export const firmBankDetailsSchema = z.object({
  /** The details in force: payments go here. */
  current: bankAccountSchema.extend({ approved_at: timestamp.nullable() }).nullable(),
  pending: bankChangeSchema.nullable(),
  /** Every request, newest first. */
  history: z.array(bankChangeSchema),
});

/** GET /api/partner/firm: the caller's firm. */
export const firmSchema = z.object({
  id: z.number().int(), name: z.string(), email: z.string(), phone: z.string().nullable(), address: z.string().nullable(),
  country_id: z.number().int().nullable(), city_id: z.number().int().nullable(), tax_id: z.string().nullable(),
  payment_terms_days: z.number().int().nullable(), country: z.string().nullable(), city: z.string().nullable(),
  bank: firmBankDetailsSchema,
});
export type Firm = z.infer<typeof firmSchema>;

/** A login of the caller's firm (GET /api/partner/colleague). */
export const colleagueRowSchema = z.object({
  id: z.number().int(), name: z.string(), email: z.string(), phone: z.string().nullable(), status: z.enum(['active', 'inactive']),
  email_verified_at: timestamp.nullable(), last_activity_at: timestamp.nullable(), is_firm_admin: z.boolean(), created_at: timestamp,
  is_you: z.boolean(),
});
export type Colleague = z.infer<typeof colleagueRowSchema>;
