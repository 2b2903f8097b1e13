// The first admin's setup checklist (issue 22): GET /api/setup-checklist computes each step from the
// data (never from which screens were visited); the review steps are ticked by an explicit, recorded
// "Keep these" (POST /api/setup-checklist/{step}/confirm), because a fresh install starts with them filled.
import { z } from 'zod';
import { EXPENSE_CURRENCIES } from '../resources/expense';

export const SETUP_STEPS = ['firm-profile', 'holidays', 'expense-categories', 'leave-types', 'checklist-templates', 'roles', 'invite-people'] as const;
export type SetupStepKey = (typeof SETUP_STEPS)[number];

/** The steps whose lists a fresh install fills with defaults: done once an admin has reviewed them. */
export const REVIEW_STEPS = ['expense-categories', 'leave-types', 'checklist-templates', 'roles'] as const satisfies readonly SetupStepKey[];
export type ReviewStepKey = (typeof REVIEW_STEPS)[number];
export const isReviewStep = (key: string): key is ReviewStepKey => (REVIEW_STEPS as readonly string[]).includes(key);

export const setupStepSchema = z.object({
  key: z.enum(SETUP_STEPS),
  title: z.string(),
  /** What to do, in a sentence. */
  description: z.string(),
  /** The client route (name) of the screen that does it. */
  route: z.string(),
  is_done: z.boolean(),
  /** A review step not yet done whose list is ready to be kept as it is. */
  can_confirm: z.boolean(),
  /** Who kept the list and when, for a review step confirmed. */
  confirmed: z.object({ by: z.string(), at: z.string() }).nullable().optional(),
});
export type SetupStep = z.infer<typeof setupStepSchema>;

export const setupChecklistSchema = z.object({ is_done: z.boolean(), steps: z.array(setupStepSchema) });
export type SetupChecklist = z.infer<typeof setupChecklistSchema>;

export const setupStepParams = z.object({ step: z.enum(SETUP_STEPS, { error: 'There is no such setup step.' }) });

// ---- The firm profile (settings screen) ----

export const FIRM_LOGO_MAX_BYTES = 1024 * 1024;
export const FIRM_LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp'] as const;

export const firmProfileSchema = z.object({
  name: z.string({ error: 'The firm name field is required.' }).trim().min(1, 'The firm name field is required.')
    .max(100, 'The firm name may not be greater than 100 characters.'),
  default_currency: z.enum(EXPENSE_CURRENCIES, { error: 'The selected currency is invalid.' }),
});
export type FirmProfileInput = z.output<typeof firmProfileSchema>;

/** GET /api/firm (public: the sign-in page shows it too) and GET /api/setting/firm. */
export const firmProfileView = z.object({
  /** Null until an admin saves it. */
  name: z.string().nullable(),
  default_currency: z.enum(EXPENSE_CURRENCIES),
  /** The logo's address, changing with each upload; null without one. */
  logo_url: z.string().nullable(),
});
export type FirmProfile = z.infer<typeof firmProfileView>;

/** The currency a fresh install assumes until the admin chooses one. */
export { DEFAULT_FIRM_CURRENCY } from '../money';
