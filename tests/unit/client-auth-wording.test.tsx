// @vitest-environment jsdom
// Issue 14, wording on the auth screens: the invitation link's page says "Set your password", a reset
// link's page "Reset password"; Tab on the sign-in form reaches the password before "Forgot password?";
// an empty e-mail is "required", not "must be a valid email address".
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import Login from '../../src/client/features/auth/login';
import ResetPassword from '../../src/client/features/auth/reset-password';
import { emailField } from '../../src/shared/resources/define';
import { forgotPasswordSchema, loginSchema, resetPasswordSchema } from '../../src/shared/schemas/auth';

afterEach(cleanup);

function visit(path: string) {
  window.history.replaceState(null, '', path);
}

describe('reset-password page (issue 14)', () => {
  it('says "Set your password" when opened from the new-account invitation', () => {
    visit('/password-reset/abc?email=neha%40example.com&welcome=1');
    render(<ResetPassword account="app" params={{ token: 'abc' }} routeName="reset-password" />);
    expect(screen.getByRole('heading', { name: 'Set your password' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set password' })).toBeTruthy();
    expect(screen.queryByText(/reset/i)).toBeNull();
  });

  it('says "Reset password" when opened from a forgot-password mail', () => {
    visit('/password-reset/abc?email=neha%40example.com');
    render(<ResetPassword account="app" params={{ token: 'abc' }} routeName="reset-password" />);
    expect(screen.getByRole('heading', { name: 'Reset password' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset password' })).toBeTruthy();
    expect(screen.queryByText(/set your password/i)).toBeNull();
  });
});

describe('sign-in form tab order (issue 14)', () => {
  it.each(['app', 'partner'] as const)('puts "Forgot password?" after the password field and the submit button (%s)', (account) => {
    visit(account === 'app' ? '/' : '/partner/login');
    render(<Login account={account} params={{}} routeName={account === 'app' ? 'login' : 'partner.login'} />);
    // Sequential focus follows DOM order here (no positive tabindex anywhere on the form).
    const focusable = [...document.querySelectorAll<HTMLElement>('a[href], input:not([type="hidden"]), button')];
    expect(focusable.some((element) => element.tabIndex > 0)).toBe(false);
    const email = focusable.indexOf(document.querySelector('input[name="email"]')!);
    const password = focusable.indexOf(document.querySelector('input[name="password"]')!);
    const submit = focusable.indexOf(document.querySelector('button[type="submit"]')!);
    const forgot = focusable.indexOf(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(email).toBeLessThan(password);
    expect(password).toBeLessThan(submit);
    expect(submit).toBeLessThan(forgot);
  });
});

describe('an empty e-mail field (issue 14)', () => {
  const errorsOf = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
    (result.error?.issues ?? []).filter((issue) => issue.path[0] === 'email' || issue.path.length === 0).map((issue) => issue.message);

  it('says the field is required, once, on every auth form and the people form', () => {
    const required = ['The email field is required.'];
    expect(errorsOf(loginSchema.safeParse({ email: '', password: 'x' }))).toEqual(required);
    expect(errorsOf(loginSchema.safeParse({ email: '   ', password: 'x' }))).toEqual(required);
    expect(errorsOf(forgotPasswordSchema.safeParse({ email: '' }))).toEqual(required);
    expect(errorsOf(resetPasswordSchema.safeParse({ token: 't', email: '', password: 'password1', password_confirmation: 'password1' }))).toEqual(required);
    expect(emailField().safeParse('').error?.issues.map((issue) => issue.message)).toEqual(required);
  });

  it('still says a malformed or too long address is not valid', () => {
    expect(errorsOf(loginSchema.safeParse({ email: 'not-an-email', password: 'x' }))).toEqual(['The email field must be a valid email address.']);
    expect(emailField().safeParse('nope').error?.issues.map((issue) => issue.message)).toEqual(['The email field must be a valid email address.']);
    expect(emailField().safeParse(`${'a'.repeat(250)}@example.com`).error?.issues.map((issue) => issue.message))
      .toEqual(['The email field must not be greater than 255 characters.']);
  });
});
