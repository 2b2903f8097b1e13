// @vitest-environment jsdom
// The authenticated layout's header rules (spec §1, §2): Beta badge, marquee, upload icon, profile menu, bell.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AuthenticatedLayout } from '../../src/client/layout/authenticated-layout';
import { auth, clearAuth, hydrateAuth, storeLogin, storeMe } from '../../src/client/stores/auth';
import { ui } from '../../src/client/stores/ui';
import { queryClient, queryKeys } from '../../src/client/lib/query';
import type { LoginResponse, NotificationItem } from '../../src/shared/schemas/auth';

const answer = (permissions: string[], extra: Partial<LoginResponse['data']> = {}, announcement: LoginResponse['announcement'] = { status: 'off', message: '' }): LoginResponse => ({
  data: { id: 3, name: 'Uma User', email: 'uma@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null, ...extra },
  access_token: 'tok', permissions: { roles: ['user'], permissions }, announcement, message: '', status: 'success',
});

const note = (id: string, title: string, message = ''): NotificationItem => ({ id, type: 't', data: { title, message, url: '/profile' }, read_at: null, created_at: '2024-01-01T00:00:00Z' });

let unread: NotificationItem[] = [];
let asked: string[] = [];

beforeEach(async () => {
  unread = [];
  asked = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    asked.push(new URL(url, 'http://localhost').pathname);
    if (url.includes('/api/notification')) {
      // Paged as the route pages it: 15 a page unless per_page says otherwise.
      const query = new URL(url, 'http://localhost').searchParams;
      const perPage = Number(query.get('per_page') ?? 15);
      const page = Number(query.get('page') ?? 1);
      const data = unread.slice((page - 1) * perPage, page * perPage);
      const meta = { total: unread.length, per_page: perPage, current_page: page, last_page: Math.max(1, Math.ceil(unread.length / perPage)), links: [] };
      return new Response(JSON.stringify({ data, meta }), { status: 200 });
    }
    if (url.includes('/api/me')) return new Response('{}', { status: 200 });
    return new Response('{"message":"ok"}', { status: 200 });
  }));
  await hydrateAuth();
  await clearAuth('app');
  ui.sidebarCollapsed = false;
  window.history.replaceState(null, '', '/dashboard');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const renderLayout = () => render(<AuthenticatedLayout account="app" routeName="dashboard"><p>content</p></AuthenticatedLayout>);

describe('authenticated layout', () => {
  it('shows the Beta Version badge outside production, the marquee when the announcement is on, and the upload icon when doc_assigned', async () => {
    await storeLogin('app', answer(['can-view-dashboard'], { doc_assigned: true }, { status: 'on', message: 'Office closed Friday' }));
    renderLayout();
    expect(screen.getByText('Beta Version')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Announcement' }).textContent).toContain('Office closed Friday');
    expect(screen.getByRole('link', { name: 'Upload assigned documents' }).getAttribute('href')).toBe('/document');
    expect(screen.getByText('content')).toBeTruthy();
  });

  it('hides the marquee when the announcement is off and the upload icon without doc_assigned', async () => {
    await storeLogin('app', answer(['can-view-dashboard']));
    renderLayout();
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Upload assigned documents' })).toBeNull();
  });

  it('lists Profile in the user menu only with can-edit-profile', async () => {
    await storeLogin('app', answer(['can-view-dashboard']));
    renderLayout();
    // Its name holds every word it shows (WCAG 2.5.3): the initials are drawn, not written.
    const menuButton = screen.getByRole('button', { name: 'Uma User, user menu' });
    expect(menuButton.textContent).toBe('Uma User');
    expect(menuButton.querySelector('[data-initials]')?.getAttribute('data-initials')).toBe('UU');
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Uma User, user menu' })); });
    expect(await screen.findByRole('menuitem', { name: 'Log Out' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Profile' })).toBeNull();
    cleanup();
    await storeLogin('app', answer(['can-view-dashboard', 'can-edit-profile']));
    renderLayout();
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Uma User, user menu' })); });
    expect(await screen.findByRole('menuitem', { name: 'Profile' })).toBeTruthy();
  });

  it('the bell links straight to the list with zero unread, and shows the count otherwise', async () => {
    await storeLogin('app', answer(['can-view-dashboard']));
    renderLayout();
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.unread('app'))?.status).toBe('success'));
    expect(screen.getByRole('link', { name: 'Notifications, none unread' }).getAttribute('href')).toBe('/notification');
    cleanup();
    queryClient.clear(); // a new sign-in starts from an empty cache
    unread = [note('a', 'Time sheet uploaded', 'Eli uploaded a time sheet for 2026-03-01'), note('b', 'Invoice approved')];
    renderLayout();
    await waitFor(() => expect(screen.getByTestId('unread-count').textContent).toBe('2'));
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Notifications, 2 unread' })); });
    expect(await screen.findByText('Time sheet uploaded')).toBeTruthy();
    // The message under the title tells one upload from another.
    expect(screen.getByText('Eli uploaded a time sheet for 2026-03-01')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See All' }).getAttribute('href')).toBe('/notification');
  });

  it('the bell\'s dropdown lists every unread notification, 18 of 18, scrolling inside itself (spec §2)', async () => {
    unread = Array.from({ length: 18 }, (_, i) => note(`n${i + 1}`, `Notice number ${i + 1}`));
    await storeLogin('app', answer(['can-view-dashboard']));
    renderLayout();
    await waitFor(() => expect(screen.getByTestId('unread-count').textContent).toBe('18'));
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Notifications, 18 unread' })); });
    const list = (await screen.findByText('Notice number 1')).closest('ul')!;
    expect(list.querySelectorAll('li')).toHaveLength(18);
    expect(screen.getByText('Notice number 18')).toBeTruthy();
    expect(list.className).toContain('overflow-y-auto');
  });

  it('a pending account (its role asks for a second factor not set up yet) loads neither the bell nor the offline options until it is through', async () => {
    // Someone who may apply for leave: the offline prefetch would fetch the leave form's options and balance.
    await storeLogin('app', answer(['can-view-dashboard', 'can-create-leave-application'], { two_fa_required: true }));
    renderLayout();
    // The layout's own calls on arrival (the heartbeat, /me) went out; the bell's and the prefetch's did not.
    await waitFor(() => expect(asked).toEqual(expect.arrayContaining(['/api/last-activity', '/api/me'])));
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 0)); });
    expect(asked.filter((path) => path.startsWith('/api/notification') || path.startsWith('/api/leave'))).toEqual([]);
    expect(screen.getByRole('link', { name: 'Notifications, none unread' })).toBeTruthy();

    // Set up (the set-up screen reads /me again): both load.
    unread = [note('a', 'Leave approved')];
    await act(async () => { await storeMe('app', { data: { ...auth.app.user!, two_fa_enabled_at: '2026-11-26T08:00:00Z', is_enable_2fa: true } }); });
    await waitFor(() => expect(screen.getByTestId('unread-count').textContent).toBe('1'));
    await waitFor(() => expect(asked).toEqual(expect.arrayContaining(['/api/leave-application/balance'])));
  });

  it('the sidebar toggle collapses and expands the 250 px sidebar', async () => {
    await storeLogin('app', answer(['can-view-dashboard']));
    renderLayout();
    const sidebar = document.getElementById('sidebar')!;
    expect(sidebar.dataset.collapsed).toBe('false');
    expect(sidebar.className).toContain('w-[250px]');
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    await act(async () => { fireEvent.click(screen.getByTestId('sidebar-toggle')); });
    expect(sidebar.dataset.collapsed).toBe('true');
  });
});
