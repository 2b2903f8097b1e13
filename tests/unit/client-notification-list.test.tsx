// @vitest-environment jsdom
// The notifications page (issue 14): an All / Unread filter kept in the url, and "Mark all as read"
// that reads every row and empties the bell's count.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { buildPageMeta } from '../../src/shared/pagination';
import NotificationList from '../../src/client/features/notification/notification-list';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { notifications, resetNotifications } from '../../src/client/stores/notifications';
import type { LoginResponse, NotificationItem } from '../../src/shared/schemas/auth';

const login: LoginResponse = {
  data: { id: 3, name: 'Uma User', email: 'uma@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['user'], permissions: [] }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
};

const note = (id: string, title: string, isRead: boolean): NotificationItem =>
  ({ id, type: 't', data: { title, message: '', url: '/profile' }, read_at: isRead ? '2024-01-02T00:00:00Z' : null, created_at: '2024-01-01T00:00:00Z' });

let calls: string[] = [];
let rows: NotificationItem[] = [];

beforeEach(async () => {
  calls = [];
  rows = [note('a', 'First unread', false), note('b', 'Second unread', false), note('c', 'Already read', true)];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url}`);
    if (url.startsWith('/sanctum')) return new Response(null, { status: 204 });
    if (method === 'PUT' && url.includes('/api/notification/read-all')) {
      const count = rows.filter((n) => !n.read_at).length;
      rows = rows.map((n) => ({ ...n, read_at: n.read_at ?? '2024-01-03T00:00:00Z' }));
      return new Response(JSON.stringify({ message: 'All notifications marked as read.', count }), { status: 200 });
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
  resetNotifications();
  window.history.replaceState(null, '', '/notification');
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

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
    notifications.unread = rows.filter((n) => !n.read_at);
    notifications.count = 2;
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    await screen.findByText('Already read');
    expect(screen.getAllByText('Unread', { selector: 'span' })).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(calls).toContain('PUT /api/notification/read-all'));
    await waitFor(() => expect(notifications.count).toBe(0));
    expect(notifications.unread).toHaveLength(0);
    await waitFor(() => expect(screen.queryAllByText('Unread', { selector: 'span' })).toHaveLength(0));
    expect(screen.getByText('Already read')).toBeTruthy();
  });

  it('shows the unread empty state once everything is read under "Unread"', async () => {
    rows = rows.map((n) => ({ ...n, read_at: '2024-01-02T00:00:00Z' }));
    window.history.replaceState(null, '', '/notification?type=unread');
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    expect(await screen.findByText('No unread notifications')).toBeTruthy();
  });
});
