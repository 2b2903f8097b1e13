// @vitest-environment jsdom
// The role form (issue 20): a non-admin may tick only permissions they hold; an admin ticks any.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { role } from '../../src/shared/resources/role';
import { RoleForm } from '../../src/client/features/resources/role-form';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (roles: string[], permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles, permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

const groups = [{ area: 'country', permissions: [{ id: 1, name: 'can-add-country' }, { id: 2, name: 'can-view-country' }] }];

beforeEach(async () => {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ data: groups }), { status: 200 })));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('RoleForm', () => {
  it('lets a non-admin tick only the permissions they hold, and says why', async () => {
    await storeLogin('app', login(['clerk'], ['can-edit-role', 'can-view-country']));
    render(<RoleForm definition={role} row={null} onSaved={() => {}} onCancel={() => {}} />);
    expect(await screen.findByRole('checkbox', { name: 'can-view-country' })).toBeTruthy();
    expect(box('can-view-country').disabled).toBe(false);
    expect(box('can-add-country').disabled).toBe(true);
    expect(screen.getByText('You can only give a role permissions you hold yourself.')).toBeTruthy();
  });

  it('lets an admin tick any permission', async () => {
    await storeLogin('app', login(['admin'], ['can-edit-role']));
    render(<RoleForm definition={role} row={null} onSaved={() => {}} onCancel={() => {}} />);
    expect(await screen.findByRole('checkbox', { name: 'can-add-country' })).toBeTruthy();
    expect(box('can-add-country').disabled).toBe(false);
    expect(screen.queryByText('You can only give a role permissions you hold yourself.')).toBeNull();
  });
});
