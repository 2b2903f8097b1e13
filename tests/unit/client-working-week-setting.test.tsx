// @vitest-environment jsdom
// Issue 22, the settings screen: an admin ticks the firm's working days and saves them; no day ticked
// is refused before anything is sent; without can-edit-setting the days are shown but cannot change.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { WorkingWeekSettingCard } from '../../src/client/features/setting/working-week-setting';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01T00:00:00Z', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-view-setting', 'can-edit-setting'] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

let puts: unknown[] = [];
let refusal: Record<string, string[]> | null = null;
beforeEach(async () => {
  puts = [];
  refusal = null;
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (url.endsWith('/setting/working-week') && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { working_week: string[] };
      puts.push(body);
      if (refusal) return new Response(JSON.stringify({ message: 'The given data was invalid.', errors: refusal }), { status: 422 });
      return new Response(JSON.stringify({ data: body, message: 'Working week updated successfully.' }), { status: 200 });
    }
    if (url.endsWith('/setting/working-week')) {
      return new Response(JSON.stringify({ data: { working_week: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] } }), { status: 200 });
    }
    return new Response('{}', { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

describe('the working week setting', () => {
  it('ticks Monday to Friday, saves a Sunday-to-Thursday week in week order and says it', async () => {
    render(<WorkingWeekSettingCard account="app" canEdit />);
    const friday = await screen.findByRole('checkbox', { name: 'Friday' }) as HTMLInputElement;
    expect(friday.checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Sunday' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText(/The firm works Monday to Friday\./)).toBeTruthy();
    fireEvent.click(friday);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sunday' }));
    expect(screen.getByText(/The firm works Sunday to Thursday\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save the working week' }));
    await waitFor(() => expect(puts).toEqual([{ working_week: ['monday', 'tuesday', 'wednesday', 'thursday', 'sunday'] }]));
  });

  it('refuses a week without a working day before sending it', async () => {
    render(<WorkingWeekSettingCard account="app" canEdit />);
    await screen.findByRole('checkbox', { name: 'Monday' });
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) fireEvent.click(screen.getByRole('checkbox', { name: day }));
    fireEvent.click(screen.getByRole('button', { name: 'Save the working week' }));
    expect(await screen.findByText('Choose at least one working day.')).toBeTruthy();
    expect(puts).toEqual([]);
  });

  it('puts the server\'s refusal under the days, and one naming no field above them', async () => {
    refusal = { working_week: ['The working week must include a weekday.'] };
    render(<WorkingWeekSettingCard account="app" canEdit />);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Monday' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save the working week' }));
    expect(await screen.findByText('The working week must include a weekday.')).toBeTruthy();
    refusal = { holidays: ['Set the holidays first.'] };
    fireEvent.click(screen.getByRole('button', { name: 'Save the working week' }));
    expect(await screen.findByText('Set the holidays first.')).toBeTruthy();
    expect(puts).toHaveLength(2);
  });

  it('shows the days without a way to change them to someone who may only view settings', async () => {
    render(<WorkingWeekSettingCard account="app" canEdit={false} />);
    expect(((await screen.findByRole('checkbox', { name: 'Monday' })) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save the working week' })).toBeNull();
  });
});
