// Issue 29: the second factor's calls (TOTP, RFC 6238). The server validates with these; the forms reuse them.
import { z } from 'zod';
import type { TWO_FACTOR_REQUIRED } from './auth-status';

/** Six digits, as an authenticator app shows them; spaces typed or pasted between groups are dropped. */
export const totpCode = z.string({ error: 'Enter the 6-digit code from your authenticator app.' })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/** A recovery code as shown (xxxx-xxxx-xxxx); case, spaces and dashes do not matter. */
export const recoveryCode = z.string().max(40)
  .transform((value) => value.toLowerCase().replace(/[^a-z0-9]/g, ''))
  .pipe(z.string().regex(/^[a-z0-9]{12}$/, 'A recovery code has 12 letters and digits, like abcd-efgh-2345.'));

/** The second step of a sign-in: the challenge from the password step and either a code or a recovery code. */
export const twoFactorSignInSchema = z.object({
  two_factor_token: z.string().min(1).max(300),
  code: z.string().max(20).optional(),
  recovery_code: z.string().max(40).optional(),
}).superRefine((value, ctx) => {
  if (value.recovery_code) {
    const parsed = recoveryCode.safeParse(value.recovery_code);
    if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['recovery_code'], message: parsed.error.issues[0].message });
  } else {
    const parsed = totpCode.safeParse(value.code ?? '');
    if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['code'], message: parsed.error.issues[0].message });
  }
});

export const twoFactorConfirmSchema = z.object({ code: totpCode });

/** Turning the second factor off or making new recovery codes: the password and a current code. */
export const twoFactorGuardedSchema = z.object({
  current_password: z.string().min(1, 'The current password field is required.').max(128),
  code: totpCode,
});

/** An admin resets someone's second factor (they enrol again, or sign in with the password alone). */
export const twoFactorResetSchema = z.object({
  account_type: z.enum(['app', 'partner']),
  account_id: z.coerce.number().int().positive(),
});

/** The password step's answer when a second factor is on: no token yet. */
export { TWO_FACTOR_REQUIRED } from './auth-status';
export const twoFactorChallengeResponse = z.object({
  status: z.literal('TWO_FACTOR_REQUIRED' satisfies typeof TWO_FACTOR_REQUIRED),
  two_factor_token: z.string(),
  message: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeResponse>;

export const twoFactorStatusResponse = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  /** A role of the account asks for it: it cannot be turned off. */
  required: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponse>;

export const twoFactorSetupResponse = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as a QR code, an SVG data URL. */
  qr_code: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponse>;

/** New recovery codes, shown this once. */
export const recoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()), message: z.string() });

export const RECOVERY_CODE_COUNT = 10;
