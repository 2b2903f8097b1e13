// @vitest-environment jsdom
// Spec §6, §7: the roles and permissions come from GET /get-laravel-permission-to-vue-js and are
// mirrored to one list per account, which the one check (`can`) reads.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auth, can, clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { refreshPermissions } from '../../src/client/lib/session';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 3, name: 'Uma User', email: 'uma@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['user'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

let calls: string[] = [];

beforeEach(async () => {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    if (url.includes('/get-laravel-permission-to-vue-js')) {
      return new Response(JSON.stringify({ roles: ['user', 'finance'], permissions: ['can-view-expense', 'can-add-expense'] }), { status: 200 });
    }
    return new Response('{}', { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await clearAuth('partner');
});
afterEach(() => { vi.unstubAllGlobals(); });

describe('permissions from the server', () => {
  it('replaces the one list with the route\'s answer, and the check reads it', async () => {
    await storeLogin('app', login(['can-add-expense']));
    expect(can('app', 'can-view-expense')).toBe(false);
    await refreshPermissions('app');
    expect(calls.some((url) => url.endsWith('/api/get-laravel-permission-to-vue-js'))).toBe(true);
    expect(auth.app.permissions).toEqual({ roles: ['user', 'finance'], permissions: ['can-view-expense', 'can-add-expense'] });
    expect(can('app', 'can-view-expense')).toBe(true);
    expect(can('app', 'can-view-expense&can-add-expense')).toBe(true);
    expect(can('app', 'can-edit-expense|can-delete-expense')).toBe(false);
    // No expression: no such action.
    expect(can('app', undefined)).toBe(false);
  });

  it('asks the partner portal\'s own route for a partner login, and nothing without a token', async () => {
    await refreshPermissions('partner');
    expect(calls).toEqual([]);
    await storeLogin('partner', login(['can-view-invoice']));
    await refreshPermissions('partner');
    expect(calls.some((url) => url.endsWith('/api/partner/get-laravel-permission-to-vue-js'))).toBe(true);
  });
});
