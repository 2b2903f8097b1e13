// @vitest-environment jsdom
// Issue 14, offline reads against a stubbed network: a queued form's options are fetched ahead while
// online and a typed search is answered from them offline; a list or notification page shown from
// the service worker's cache is fetched again when the connection returns; a record that could not be
// reached offline says it is not available offline (a 404 still says it may have been deleted).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import { buildPageMeta } from '../../src/shared/pagination';
import { country } from '../../src/shared/resources/country';
import { loadOptions, useOptionsOffline } from '../../src/client/ui/resources/resource-api';
import { ResourceDetail } from '../../src/client/ui/resources/resource-detail';
import { ResourceList } from '../../src/client/ui/resources/resource-list';
import NotificationList from '../../src/client/features/notification/notification-list';
import { clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { pwa } from '../../src/client/stores/pwa';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const login = (permissions: string[]): LoginResponse => ({
  data: { id: 1, name: 'Ada', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: 'tok', permissions: { roles: ['admin'], permissions }, announcement: { status: 'off', message: '' }, message: '', status: 'success',
});

const clients = [{ id: 1, label: 'Acme Corp' }, { id: 2, label: 'Globex' }, { id: 3, label: 'Acme Labs' }];
const india = { id: 1, name: 'India', code: 'IN', status: 'active', created_at: '2024-03-01T10:00:00.000Z' };

/** What the stubbed network does: answer (optionally "from the service worker's cache"), or fail like fetch offline. */
type Answer = { status: number; body: unknown; fromCache?: string } | 'no-network';
let answerFor: (url: string) => Answer;
let calls: string[] = [];

const json = (answer: Exclude<Answer, 'no-network'>) => new Response(JSON.stringify(answer.body), {
  status: answer.status, headers: { 'content-type': 'application/json', ...(answer.fromCache ? { 'x-from-cache': answer.fromCache } : {}) },
});

beforeEach(async () => {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    const answer = answerFor(url);
    if (answer === 'no-network') throw new TypeError('Failed to fetch');
    return json(answer);
  }));
  vi.spyOn(console, 'error').mockImplementation(() => {});
  document.cookie = 'XSRF-TOKEN=x';
  pwa.online = true;
  await hydrateAuth();
  await clearAuth('app');
  await storeLogin('app', login(['can-view-country', 'can-view-notification']));
});
afterEach(() => { cleanup(); vi.unstubAllGlobals(); vi.restoreAllMocks(); });

/** The connection drops and comes back, as stores/pwa.ts records it. */
const reconnect = () => act(() => { pwa.online = false; pwa.online = true; });
const goOffline = () => act(() => { pwa.online = false; });
const comeBack = () => act(() => { pwa.online = true; });

describe('options of a form queued offline', () => {
  it('fetches the unfiltered options ahead while online, and again when the connection returns', async () => {
    answerFor = () => ({ status: 200, body: { data: clients } });
    const { rerender } = renderHook(({ isWanted }) => useOptionsOffline(['client'], isWanted), { initialProps: { isWanted: false } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);

    rerender({ isWanted: true });
    // The very request a picker opened with an empty search makes, so the worker's cache answers it offline.
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(new URL(calls[0], 'http://localhost').pathname).toBe('/api/client/options');
    expect(new URL(calls[0], 'http://localhost').searchParams.get('search')).toBeNull();

    goOffline();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(1);
    comeBack();
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it('offline, narrows the cached unfiltered answer for a typed search', async () => {
    answerFor = (url) => (url.includes('search=') ? 'no-network' : { status: 200, body: { data: clients }, fromCache: '2024-03-01T10:00:00.000Z' });
    expect(await loadOptions('client', 'acme')).toEqual([{ id: 1, label: 'Acme Corp' }, { id: 3, label: 'Acme Labs' }]);
  });

  it('does not hide a server refusal of a search behind the cached answer', async () => {
    answerFor = (url) => (url.includes('search=') ? { status: 500, body: { message: 'Boom' } } : { status: 200, body: { data: clients } });
    await expect(loadOptions('client', 'acme')).rejects.toMatchObject({ status: 500 });
  });
});

describe('back online, what came from the cache is fetched again', () => {
  it('a list drops its "Offline — showing data from…" banner and shows the fresh rows', async () => {
    window.history.replaceState(null, '', '/country');
    let isOffline = true;
    answerFor = () => ({
      status: 200,
      body: { data: [isOffline ? india : { ...india, name: 'India (fresh)' }], meta: buildPageMeta(1, 15, 1, (p) => `http://localhost/api/country?page=${p}`) },
      ...(isOffline ? { fromCache: '2024-03-01T10:00:00.000Z' } : {}),
    });
    render(<ResourceList definition={country} account="app" />);
    await screen.findByTestId('cached-notice');
    await screen.findByRole('link', { name: 'India' });

    isOffline = false;
    reconnect();
    await screen.findByRole('link', { name: 'India (fresh)' });
    expect(screen.queryByTestId('cached-notice')).toBeNull();
  });

  it('a fresh list is not fetched again on a reconnect', async () => {
    window.history.replaceState(null, '', '/country');
    answerFor = () => ({ status: 200, body: { data: [india], meta: buildPageMeta(1, 15, 1, (p) => `http://localhost/api/country?page=${p}`) } });
    render(<ResourceList definition={country} account="app" />);
    await screen.findByRole('link', { name: 'India' });
    const listCalls = () => calls.filter((url) => url.startsWith('/api/country')).length;
    const before = listCalls();
    reconnect();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listCalls()).toBe(before);
  });

  it('the notification list does the same', async () => {
    window.history.replaceState(null, '', '/notification');
    let isOffline = true;
    const item = (title: string) => ({ id: 'n1', type: 'x', data: { title, message: 'm', url: null }, read_at: null, created_at: '2024-03-01T10:00:00.000Z' });
    answerFor = (url) => (url.startsWith('/api/notification')
      ? { status: 200, body: { data: [item(isOffline ? 'Old news' : 'Fresh news')], meta: buildPageMeta(1, 15, 1, (p) => `http://localhost/api/notification?page=${p}`) }, ...(isOffline ? { fromCache: '2024-03-01T10:00:00.000Z' } : {}) }
      : { status: 200, body: { data: [] } });
    render(<NotificationList account="app" params={{}} routeName="notification.index" />);
    await screen.findByTestId('cached-notice');
    await screen.findByText('Old news');
    isOffline = false;
    reconnect();
    await screen.findByText('Fresh news');
    expect(screen.queryByTestId('cached-notice')).toBeNull();
  });
});

describe('a record that cannot be reached', () => {
  it('offline, says it is not available offline, and loads once the connection returns', async () => {
    window.history.replaceState(null, '', '/country/1');
    let isOffline = true;
    answerFor = () => (isOffline ? 'no-network' : { status: 200, body: { data: india } });
    render(<ResourceDetail definition={country} account="app" id="1" />);
    await screen.findByText('Not available offline');
    expect(screen.queryByText(/may have been deleted/)).toBeNull();

    isOffline = false;
    // The failed request already marked the connection as lost; an answer from the network brings it back.
    comeBack();
    await screen.findByRole('heading', { name: 'India' });
  });

  it('a 404 still says it may have been deleted', async () => {
    answerFor = () => ({ status: 404, body: { message: 'Country not found.' } });
    render(<ResourceDetail definition={country} account="app" id="9" />);
    await screen.findByText('Country not found.');
    expect(screen.getByText('The country may have been deleted.')).toBeTruthy();
    expect(screen.queryByText('Not available offline')).toBeNull();
  });
});
