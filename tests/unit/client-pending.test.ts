// lib/pending.ts mirrors the server's allowPending rule (plugins/auth.ts): the step it asks for first, in its order.
import { describe, expect, it } from 'vitest';
import { isPending, pendingStep } from '../../src/client/lib/pending';

const through = { force_password_reset: false, email_verified_at: '2024-01-01T00:00:00Z', two_fa_enabled_at: null, two_fa_required: false };

describe('whether an account is pending', () => {
  it('asks for the password, then the email, then the second factor a role asks for, as the server does', () => {
    expect(pendingStep(through)).toBeNull();
    expect(pendingStep({ ...through, two_fa_required: true })).toBe('TWO_FACTOR_SETUP_REQUIRED');
    expect(pendingStep({ ...through, two_fa_required: true, two_fa_enabled_at: '2024-02-01T00:00:00Z' })).toBeNull();
    expect(pendingStep({ ...through, two_fa_required: true, email_verified_at: null })).toBe('EMAIL_IS_NOT_VERIFIED');
    expect(pendingStep({ ...through, two_fa_required: true, email_verified_at: null, force_password_reset: true })).toBe('FORCE_RESET_PASSWORD');
  });

  it('reads an answer that does not say whether a role asks for it (the spec\'s shape) as not asked, and no user yet as pending', () => {
    expect(isPending({ force_password_reset: false, email_verified_at: '2024-01-01T00:00:00Z', two_fa_enabled_at: null })).toBe(false);
    expect(isPending(null)).toBe(true);
  });
});
