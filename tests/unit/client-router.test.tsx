// @vitest-environment jsdom
// The router applies decideRoute with the hydrated auth state; unbuilt routes fall to not-found.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { clear } from 'idb-keyval';
import { RouterView } from '../../src/client/app';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { isEntryActive, SidebarNav } from '../../src/client/layout/sidebar';
import { appMenu, filterMenu } from '../../src/shared/menu';
import { routes } from '../../src/shared/routes';
import { isBuilt } from '../../src/client/routes';
import { hasPermission } from '../../src/shared/permissions';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada Admin', email: 'a@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 't', permissions: { roles: ['admin'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

function visit(path: string) {
  window.history.replaceState(null, '', path);
  return render(<RouterView />);
}

beforeEach(async () => {
  await clear();
  await hydrateAuth();
  await clearAuth('app');
  await clearAuth('partner');
});
afterEach(cleanup);

describe('router', () => {
  it('shows the login screen at / with the page title rule', async () => {
    visit('/');
    expect(await screen.findByRole('heading', { name: 'Sign in to your account' })).toBeTruthy();
    expect(document.title).toBe('Login - Staffing Back Office');
    expect(document.querySelector('input[name="email"]')).toBeTruthy();
    expect(document.querySelector('input[name="password"]')).toBeTruthy();
    expect(document.querySelector('button[type="submit"]')).toBeTruthy();
  });

  it('sends a visitor of an auth route to login, keeping verification_url', async () => {
    visit('/dashboard?verification_url=http%3A%2F%2Flocalhost%2Fapi%2Femail%2Fverify%2F1%2Fabc');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(new URLSearchParams(window.location.search).get('verification_url')).toBe('http://localhost/api/email/verify/1/abc');
  });

  it('sends a signed-out visitor of a page to login, which says so and keeps the page to come back to', async () => {
    visit('/expense/12?tab=history');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(new URLSearchParams(window.location.search).get('return_to')).toBe('/expense/12?tab=history');
    expect(await screen.findByText('Sign in, and the page you opened comes next.')).toBeTruthy();
    cleanup();
    // The home page needs no return: signing in goes there anyway.
    visit('/dashboard');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(window.location.search).toBe('');
    expect(await screen.findByText('Welcome back. Enter your details to continue.')).toBeTruthy();
  });

  it('redirects /partner to partner.login', async () => {
    visit('/partner');
    await waitFor(() => expect(window.location.pathname).toBe('/partner/login'));
    expect(await screen.findByRole('heading', { name: 'Partner sign in' })).toBeTruthy();
  });

  it('answers unknown paths with not-found, and unknown /partner paths with not-found-partner', async () => {
    visit('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toBeTruthy();
    cleanup();
    visit('/partner/no-such-page');
    expect(await screen.findByRole('link', { name: 'Go to the partner portal' })).toBeTruthy();
  });

  it('has a screen for every route of the table (a route without one would answer not found)', () => {
    expect(routes.filter((route) => !isBuilt(route.name)).map((route) => route.name)).toEqual([]);
  });

  it('sends a logged-in app user from a guest route to the dashboard, and without permission to access-denied', async () => {
    await storeLogin('app', login(['can-edit-profile']));
    visit('/');
    await waitFor(() => expect(window.location.pathname).toBe('/access-denied'));
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeTruthy();
  });

  it('sends an app user opening a partner route to the dashboard', async () => {
    await storeLogin('app', login(['can-view-dashboard']));
    visit('/partner/dashboard');
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
  });
});

describe('sidebar', () => {
  const everything = () => true;

  it('highlights the entry by route-name prefix', () => {
    expect(isEntryActive('city.index', 'city.edit')).toBe(true);
    expect(isEntryActive('city.index', 'city.index')).toBe(true);
    expect(isEntryActive('expense.index', 'category-expense.index')).toBe(false);
    expect(isEntryActive('partner.dashboard', 'partner.profile')).toBe(false);
    expect(isEntryActive('partner.pre-billing.index', 'partner.pre-billing.edit')).toBe(true);
  });

  it('keeps a group with one permitted child and toggles it open and closed', () => {
    const entries = filterMenu(appMenu, ['can-view-dashboard', 'can-assign-document'], everything, hasPermission);
    expect(entries.map((e) => e.label)).toEqual(['Dashboard', 'Compliance Library']);
    window.history.replaceState(null, '', '/dashboard');
    render(<SidebarNav entries={entries} current="dashboard" />);
    const group = screen.getByRole('button', { name: 'Compliance Library' });
    expect(group.getAttribute('aria-expanded')).toBe('false');
    act(() => { fireEvent.click(group); });
    expect(group.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Assign Document' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Document Repository' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
  });

  it('opens the group holding the active route', () => {
    const entries = filterMenu(appMenu, ['can-view-role', 'can-view-permission'], everything, hasPermission);
    render(<SidebarNav entries={entries} current="role.edit" />);
    expect(screen.getByRole('button', { name: 'Role & Permission' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('link', { name: 'Role' }).getAttribute('aria-current')).toBe('page');
  });
});
