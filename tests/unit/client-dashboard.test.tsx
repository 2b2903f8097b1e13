// @vitest-environment jsdom
// Dashboard figures (issue 14): each figure links to the list it counts, only when the viewer may open it.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import Dashboard, { figureHref } from '../../src/client/features/dashboard/dashboard';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada Admin', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

beforeEach(async () => {
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.includes('/api/dashboard')) {
      return new Response(JSON.stringify({ data: { unread_notifications: 0, admins: 2, managers: 0, active_users: 5, open_positions: 3, unknown_figure: 7 } }), { status: 200 });
    }
    return new Response('{}', { status: 200 });
  }));
  await hydrateAuth();
  await clearAuth('app');
  window.history.replaceState(null, '', '/dashboard');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

describe('dashboard figures', () => {
  it('link to their lists, filtered like the count, for a viewer who may see them', async () => {
    await storeLogin('app', login(['can-view-dashboard', 'can-view-admin', 'can-view-active-user']));
    render(<Dashboard account="app" params={{}} routeName="dashboard" />);
    expect((await screen.findByRole('link', { name: 'Admins: 2' })).getAttribute('href')).toBe('/admin?status=active');
    expect(screen.getByRole('link', { name: /^Active users: 5$/i }).getAttribute('href')).toBe('/active-user');
    // Figures whose list the viewer may not open, or that have no list, stay plain text.
    expect(screen.queryByRole('link', { name: /Managers/i })).toBeNull();
    expect(screen.queryByRole('link', { name: /Open Positions/i })).toBeNull();
    expect(screen.getByText(/^Open Positions$/i)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Unknown Figure/i })).toBeNull();
  });

  it('say a zero as plain text rather than link to an empty list', async () => {
    await storeLogin('app', login(['can-view-dashboard', 'can-view-admin', 'can-view-manager']));
    render(<Dashboard account="app" params={{}} routeName="dashboard" />);
    expect(await screen.findByRole('link', { name: 'Admins: 2' })).toBeTruthy();
    // No managers: the viewer may open the list, but it would be empty.
    expect(screen.queryByRole('link', { name: /Managers/i })).toBeNull();
    const card = screen.getByText(/^Managers$/i).closest('[data-testid="dashboard-figures"] > *')!;
    expect(card.textContent).toBe('Managers0');
    expect(card.querySelector('a, svg')).toBeNull();
  });

  it('maps each figure the server sends to its list and permission', () => {
    expect(figureHref('open_positions', ['can-view-position'])).toBe('/position?status=open');
    expect(figureHref('open_positions', [])).toBeNull();
    expect(figureHref('users', ['can-view-user'])).toBe('/user?status=active');
    expect(figureHref('managers', ['can-view-manager'])).toBe('/manager?status=active');
    expect(figureHref('anything_else', ['can-view-admin'])).toBeNull();
  });
});

describe('the account card', () => {
  it('cuts a long email address to the account card on a phone and keeps it whole in its title', async () => {
    await storeLogin('app', login(['can-view-dashboard']));
    render(<Dashboard account="app" params={{}} routeName="dashboard" />);
    const email = await screen.findByText('ada@example.com');
    expect(email.className.split(' ')).toContain('truncate');
    expect(email.getAttribute('title')).toBe('ada@example.com');
  });
});
