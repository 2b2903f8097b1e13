// @vitest-environment jsdom
// The notifications page (issue 14): an All / Unread filter kept in the url, and "Mark all as read"
// that reads every row and empties the bell's count.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import { buildPageMeta } from '../../src/shared/pagination';
import NotificationList from '../../src/client/features/notification/notification-list';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { unreadOf } from '../../src/client/lib/unread';
import { queryClient, queryKeys } from '../../src/client/lib/query';
import type { LoginResponse, NotificationItem } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 3, name: 'Uma User', email: 'uma@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['user'], permissions: [] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

const note = (id: string, title: string, isRead: boolean): NotificationItem =>
  ({ id, type: 't', data: { title, message: '', url: '/profile' }, read_at: isRead ? '2024-01-02T00:00:00Z' : null, created_at: '2024-01-01T00:00:00Z' });

let calls: string[] = [];
let rows: NotificationItem[] = [];
/** Answers the notification routes fail with (a server down); null answers as the server does. */
let failure: number | null = null;

beforeEach(async () => {
  calls = [];
  failure = null;
  rows = [note('a', 'First unread', false), note('b', 'Second unread', false), note('c', 'Already read', true)];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url}`);
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (failure && url.includes('/api/notification')) return new Response(JSON.stringify({ message: 'Server Error' }), { status: failure });
    if (method === 'PUT' && url.includes('/api/notification/read-all')) {
      const count = rows.filter((n) => !n.read_at).length;
      rows = rows.map((n) => ({ ...n, read_at: n.read_at ?? '2024-01-03T00:00:00Z' }));
      return new Response(JSON.stringify({ message: 'All notifications marked as read.', count }), { status: 200 });
    }
    const one = /\/api\/notification\/([a-z]+)$/.exec(url);
    if (one && method === 'GET') {
      // The notification as it is now: its url moved on since the list was read.
      const found = rows.find((n) => n.id === one[1])!;
      return new Response(JSON.stringify({ data: { ...found, data: { ...found.data, url: '/expense/7' } } }), { status: 200 });
    }
    if (one && method === 'PUT') {
      const body = JSON.parse(String(init?.body)) as { url: string };
      return new Response(JSON.stringify({ url: body.url, message: 'Notification marked as read.' }), { status: 200 });
    }
    if (url.includes('/api/notification')) {
      const shown = url.includes('type=unread') ? rows.filter((n) => !n.read_at) : rows;
      return new Response(JSON.stringify({ data: shown, meta: buildPageMeta(1, 15, shown.length, (p) => `http://localhost/api/notification?page=${p}`) }), { status: 200 });
    }
    return new Response('{}', { status: 200 });
  }));
  document.cookie = 'XSRF-TOKEN=x';
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login);
  // The bell's list as loaded at sign-in (lib/unread.ts): nothing unread until a test says so.
  setUnread([]);
  window.history.replaceState(null, '', '/notification');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

const setUnread = (unread: NotificationItem[]) => queryClient.setQueryData(queryKeys.unread('app'), { unread, count: unread.length });
const listCalls = () => calls.filter((c) => c.startsWith('GET /api/notification'));

describe('notification list', () => {
  it('filters All / Unread through the url and asks the API for that type', async () => {
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    expect(await screen.findByText('Already read')).toBeTruthy();
    expect(listCalls().at(-1)).toContain('type=all');
    expect(screen.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Unread' }));
    await waitFor(() => expect(window.location.search).toBe('?type=unread'));
    await waitFor(() => expect(screen.queryByText('Already read')).toBeNull());
    expect(listCalls().at(-1)).toContain('type=unread');
    expect(screen.getByText('First unread')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unread' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('marks all read: the rows lose their unread badge and the bell count drops to zero', async () => {
    setUnread(rows.filter((n) => !n.read_at));
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    await screen.findByText('Already read');
    expect(screen.getAllByTestId('unread-badge')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(calls).toContain('PUT /api/notification/read-all'));
    await waitFor(() => expect(unreadOf('app').count).toBe(0));
    expect(unreadOf('app').unread).toHaveLength(0);
    await waitFor(() => expect(screen.queryAllByText('Unread', { selector: 'li span' })).toHaveLength(0));
    expect(screen.getByText('Already read')).toBeTruthy();
  });

  it('shows the unread empty state once everything is read under "Unread"', async () => {
    rows = rows.map((n) => ({ ...n, read_at: '2024-01-02T00:00:00Z' }));
    window.history.replaceState(null, '', '/notification?type=unread');
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    expect(await screen.findByText('No unread notifications')).toBeTruthy();
  });

  it('opens a notification by reading it with GET /notification/{id}, then marking it read (spec §7)', async () => {
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    fireEvent.click(await screen.findByText('First unread'));
    await waitFor(() => expect(calls).toContain('PUT /api/notification/a'));
    expect(calls.indexOf('GET /api/notification/a')).toBeGreaterThan(-1);
    expect(calls.indexOf('GET /api/notification/a')).toBeLessThan(calls.indexOf('PUT /api/notification/a'));
    // The url it opens is the one read just now.
    await waitFor(() => expect(window.location.pathname).toBe('/expense/7'));
  });

  it('only logs a failure to load or to mark notifications, with no message to the user (spec §8)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    failure = 500;
    render(<><ToastContainer /><NotificationList account="app" params={{}} routeName="notification.index" /></>);
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Could not load notifications', expect.anything()));
    expect(await screen.findByText('No notifications')).toBeTruthy();
    expect(screen.queryByText(/could not|went wrong|error/i)).toBeNull();
    expect(document.querySelector('.Toastify__toast--error')).toBeNull();

    // Marking: the load worked, the marks fail.
    cleanup();
    failure = null;
    setUnread(rows.filter((n) => !n.read_at));
    render(<><ToastContainer /><NotificationList account="app" params={{}} routeName="notification.index" /></>);
    await screen.findByText('Already read');
    failure = 500;
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Could not mark the notifications read', expect.anything()));
    fireEvent.click(screen.getByText('First unread'));
    await waitFor(() => expect(logged).toHaveBeenCalledWith('Could not mark the notification read', expect.anything()));
    expect(screen.queryByText(/could not|went wrong|error/i)).toBeNull();
    expect(document.querySelector('.Toastify__toast--error')).toBeNull();
    logged.mockRestore();
  });

  it('hides the "Unread" badge on a phone, where the dot and the bold title say it, but not from a screen reader', async () => {
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    await screen.findByText('Already read');
    // jsdom applies no Tailwind: what hides the badge is an element whose only unprefixed display class is
    // "hidden". Passed to the Badge itself, "hidden" sat beside the badge's own "inline-flex", which won.
    const display = /^(hidden|block|inline|inline-block|flex|inline-flex|grid|inline-grid|contents)$/;
    for (const badge of screen.getAllByTestId('unread-badge')) {
      expect(badge.className.split(' ').filter((name) => display.test(name))).toEqual(['hidden']);
      expect(badge.className.split(' ')).toContain('sm:inline-flex');
      for (const inner of badge.querySelectorAll('*')) expect(inner.className.split(' ')).not.toContain('hidden');
    }
    expect(screen.getAllByText('Unread', { selector: '.sr-only' })).toHaveLength(2);
  });
});
