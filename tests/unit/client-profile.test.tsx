// @vitest-environment jsdom
// Issue 15, the profile screen: changing the email asks for the current password and sends it; the
// answer keeps the old address (the new one is only requested), and the form shows that address again.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import Profile from '../../src/client/features/profile/profile';
import { queryClient } from '../../src/client/lib/query';
import { auth, clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { AuthUser, LoginResponse } from '../../src/shared/schemas/auth';

const ada: AuthUser = {
  id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'user', email_verified_at: '2024-01-01T00:00:00Z', doc_assigned: false,
  status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null,
};
const login: LoginResponse = {
  data: ada, access_token: 'tok', permissions: { roles: ['user'], permissions: ['can-edit-profile'] },
  announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

let patches: unknown[] = [];
beforeEach(async () => {
  patches = [];
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (init?.method === 'PATCH' && url.endsWith('/profile')) {
      patches.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ data: { ...ada, name: 'Ada L.' }, message: 'Profile updated. We have emailed a link to ada@new.example: your email address changes when you open it.' }), { status: 200 });
    }
    // The device and passkey cards list none.
    if (/\/(push\/subscriptions|passkeys)$/.test(url)) return new Response(JSON.stringify({ data: [] }), { status: 200 });
    return new Response('{}', { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

describe('profile details (issue 15)', () => {
  it('asks for the current password only when the email changes, sends it, and shows the address the account keeps', async () => {
    render(<QueryClientProvider client={queryClient}><Profile account="app" params={{}} routeName="profile" /></QueryClientProvider>);
    const email = screen.getByRole('textbox', { name: /Email/ }) as HTMLInputElement;
    expect(screen.getAllByLabelText(/Current password/)).toHaveLength(1); // the password card's own
    fireEvent.change(email, { target: { value: 'ada@new.example' } });
    const fields = screen.getAllByLabelText(/Current password/) as HTMLInputElement[];
    expect(fields).toHaveLength(2);
    fireEvent.change(fields[0], { target: { value: 'my-password' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Ada L.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ name: 'Ada L.', email: 'ada@new.example', current_password: 'my-password' });
    await waitFor(() => expect(email.value).toBe('ada@example.com'));
    expect(screen.getAllByLabelText(/Current password/)).toHaveLength(1);
    expect(auth.app.user?.email).toBe('ada@example.com');
  });

  it('sends no password when the email stays', async () => {
    render(<QueryClientProvider client={queryClient}><Profile account="app" params={{}} routeName="profile" /></QueryClientProvider>);
    fireEvent.change(screen.getByRole('textbox', { name: /Name/ }), { target: { value: 'Ada L.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ name: 'Ada L.', email: 'ada@example.com', current_password: null });
  });
});
