// @vitest-environment jsdom
// Issue 21, the settings screen: an admin picks the firm's time zone from the IANA names and saves it;
// without can-edit-setting the choice is shown but cannot be changed.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TimeZoneSettingCard } from '../../src/client/features/setting/time-zone-setting';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01T00:00:00Z', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-view-setting', 'can-edit-setting'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

let puts: unknown[] = [];
beforeEach(async () => {
  puts = [];
  vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/[^\w-]/g, (c) => `\\${c}`) });
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (url.endsWith('/setting/time-zone') && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { time_zone: string };
      puts.push(body);
      return new Response(JSON.stringify({ data: { time_zone: body.time_zone, default_time_zone: 'Europe/London', today: '2026-12-04' }, message: 'Time zone updated successfully.' }), { status: 200 });
    }
    if (url.endsWith('/setting/time-zone')) {
      return new Response(JSON.stringify({ data: { time_zone: 'Europe/London', default_time_zone: 'Europe/London', today: '2026-12-05' } }), { status: 200 });
    }
    return new Response('{}', { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

describe('the time zone setting', () => {
  it('offers the IANA zones, saves the one chosen and shows the firm’s today in it', async () => {
    render(<TimeZoneSettingCard account="app" canEdit />);
    const select = await screen.findByRole('combobox', { name: /Time zone/ }) as HTMLSelectElement;
    expect(select.value).toBe('Europe/London');
    expect([...select.options].map((option) => option.value)).toEqual(expect.arrayContaining(['America/Los_Angeles', 'Pacific/Auckland', 'UTC']));
    expect(screen.getByText(/Today is 2026-12-05 there/)).toBeTruthy();
    fireEvent.change(select, { target: { value: 'America/Los_Angeles' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the time zone' }));
    await waitFor(() => expect(puts).toEqual([{ time_zone: 'America/Los_Angeles' }]));
    expect(await screen.findByText(/Today is 2026-12-04 there/)).toBeTruthy();
  }, 20_000); // some 400 zones in a select take a while to render in jsdom on a busy machine

  it('shows the zone without a way to change it to someone who may only view settings', async () => {
    render(<TimeZoneSettingCard account="app" canEdit={false} />);
    const select = await screen.findByRole('combobox', { name: /Time zone/ }) as HTMLSelectElement;
    expect(select.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save the time zone' })).toBeNull();
  });
});
