// Whether a signed-in account is "pending": the server answers its ordinary routes 409 until it has
// changed its password, verified its email and set up the second factor a role asks for. This mirrors
// the server's allowPending rule (src/server/plugins/auth.ts `admit`), in the same order, so that what
// runs by itself after sign-in (the bell's unread list, the offline prefetch) waits instead of meeting
// the 409, which would send the person away from the screen they must be on.
import type { AuthUser } from '../../shared/schemas/auth';
import { FORCE_RESET_PASSWORD, EMAIL_IS_NOT_VERIFIED, TWO_FACTOR_SETUP_REQUIRED } from '../../shared/schemas/auth-status';

export type PendingStep = typeof FORCE_RESET_PASSWORD | typeof EMAIL_IS_NOT_VERIFIED | typeof TWO_FACTOR_SETUP_REQUIRED;

type PendingFields = Pick<AuthUser, 'force_password_reset' | 'email_verified_at' | 'two_fa_enabled_at' | 'two_fa_required'>;

/** The step the server asks for first (its 409 status), or null when the account may use every route. */
export function pendingStep(user: PendingFields): PendingStep | null {
  if (user.force_password_reset) return FORCE_RESET_PASSWORD;
  if (!user.email_verified_at) return EMAIL_IS_NOT_VERIFIED;
  if (user.two_fa_required && !user.two_fa_enabled_at) return TWO_FACTOR_SETUP_REQUIRED;
  return null;
}

/** Pending, or not known yet (no user before sign-in or /me): either way, not to be asked for anything else. */
export const isPending = (user: PendingFields | null | undefined): boolean => !user || pendingStep(user) !== null;
