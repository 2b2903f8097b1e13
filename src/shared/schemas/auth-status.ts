// Status values of 409 responses (spec §8), without zod: the API wrapper needs them on every screen,
// and the login screen loads zod only when the form is first used (issue 5, login bundle <= 110 KB).
export const FORCE_RESET_PASSWORD = 'FORCE_RESET_PASSWORD';
export const EMAIL_IS_NOT_VERIFIED = 'EMAIL_IS_NOT_VERIFIED';
/** Issue 29: a role of the account asks for a second factor that is not set up yet. */
export const TWO_FACTOR_SETUP_REQUIRED = 'TWO_FACTOR_SETUP_REQUIRED';
/** Issue 29: the password step's answer when the account has a second factor (no token yet). */
export const TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED';
