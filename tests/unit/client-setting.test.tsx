// @vitest-environment jsdom
// The settings screen's announcement (issue 20): who it is for is chosen with a labelled select, sent
// with the save, and the staff member's own banner shows it only when it is for staff.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import Setting from '../../src/client/features/setting/setting';
import { auth, clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 1, name: 'Ada Admin', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions: ['can-view-setting', 'can-edit-setting'] },
  announcement: { status: 'on', message: 'Staff party on Friday' }, message: '', status: 'success',
};

let stored: Record<string, unknown>;
let sent: Record<string, unknown>[] = [];

beforeEach(async () => {
  stored = { status: 'on', message: 'Staff party on Friday', audience: 'staff' };
  sent = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (url.includes('/api/setting/announcement')) {
      if (method === 'PUT') {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        sent.push(body);
        stored = body;
        return new Response(JSON.stringify({ data: stored, message: 'Announcement updated successfully.' }), { status: 200 });
      }
      return new Response(JSON.stringify({ data: stored }), { status: 200 });
    }
    if (url.includes('/api/setting/expense')) return new Response(JSON.stringify({ data: { receipt_required_above: 0 } }), { status: 200 });
    return new Response('{}', { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

describe('announcement audience', () => {
  it('offers staff, partners or both, saves the choice and clears the staff banner for a partners-only announcement', async () => {
    render(<Setting account="app" params={{}} routeName="setting.index" />);
    const audience = await screen.findByLabelText(/Who sees it/) as HTMLSelectElement;
    expect(audience.value).toBe('staff');
    expect([...audience.options].filter((o) => o.value).map((o) => o.text)).toEqual(['Staff only', 'Partners only', 'Staff and partners']);
    expect(screen.getByText('On: the banner is shown to the firm\'s staff, not to partners.')).toBeTruthy();

    fireEvent.change(audience, { target: { value: 'partners' } });
    expect(screen.getByText('On: the banner is shown to partners in their portal, not to staff.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save the announcement' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ status: 'on', message: 'Staff party on Friday', audience: 'partners' });
    await waitFor(() => expect(auth.app.announcementAlert).toEqual({ status: 'off', message: '' }));
    // The save ends by resetting the form to the server's answer; a change made before then would be
    // overwritten and a click on the busy button ignored, so wait until the button is free again.
    const save = screen.getByRole('button', { name: 'Save the announcement' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    expect(audience.value).toBe('partners');

    fireEvent.change(audience, { target: { value: 'both' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the announcement' }));
    await waitFor(() => expect(auth.app.announcementAlert).toEqual({ status: 'on', message: 'Staff party on Friday' }));
    expect(sent[1]).toMatchObject({ audience: 'both' });
  });
});
