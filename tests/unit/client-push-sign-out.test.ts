// @vitest-environment jsdom
// Issue 29 / decision 045: signing out on a device that receives pushes stops them there, before the
// logout call (while the token still works): the account's entry for this browser is removed and the
// browser's subscription ends, unless another account type is signed in here. The server's side (the
// entry going with the session) is tested in tests/api/web-push.test.ts.
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout } from '../../src/client/lib/session';
import { auth, clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const ENDPOINT = 'https://push.example.test/send/this-browser';
const hashOf = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex').slice(0, 16);

const loginAnswer = (token: string): LoginResponse => ({
  data: { id: 1, name: 'Ada Admin', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: token,
  permissions: { roles: ['admin'], permissions: ['can-view-dashboard'] },
  announcement: { status: 'off', message: '' },
  message: '', status: 'success',
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** What happened, in order: each API call as "METHOD /path", and the browser's unsubscribe. */
let steps: string[];
let isPushServerDown: boolean;
let hasSubscription: boolean;

function fakeBrowser() {
  const subscription = { endpoint: ENDPOINT, unsubscribe: async () => { steps.push('unsubscribe'); return true; } };
  const registration = { pushManager: { getSubscription: async () => (hasSubscription ? subscription : null) } };
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', Object.assign(class {}, { permission: 'granted' }));
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration: async () => registration, ready: Promise.resolve(registration) } });
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname.includes('/sanctum/csrf-cookie')) return new Response(null, { status: 204 });
    const method = (init?.method ?? 'GET').toUpperCase();
    steps.push(`${method} ${url.pathname}`);
    if (url.pathname.startsWith('/api/push/') && isPushServerDown) throw new TypeError('Failed to fetch');
    if (method === 'GET' && url.pathname === '/api/push/subscriptions') {
      return json(200, { data: [
        { id: 3, device: 'Firefox on Windows', endpoint_hash: hashOf('https://push.example.test/send/another'), created_at: '2026-01-01T00:00:00Z', last_used_at: null },
        { id: 7, device: 'Chrome on Linux', endpoint_hash: hashOf(ENDPOINT), created_at: '2026-01-02T00:00:00Z', last_used_at: null },
      ] });
    }
    return json(200, { message: 'Done.' });
  }));
}

beforeEach(async () => {
  steps = [];
  isPushServerDown = false;
  hasSubscription = true;
  fakeBrowser();
  window.history.replaceState(null, '', '/dashboard');
  await hydrateAuth();
  await storeLogin('app', loginAnswer('app-token'));
});

afterEach(async () => {
  await clearAuth('app');
  await clearAuth('partner');
  vi.unstubAllGlobals();
  delete (navigator as unknown as { serviceWorker?: unknown }).serviceWorker;
  vi.restoreAllMocks();
});

describe('signing out on a device that receives pushes', () => {
  it('removes this browser\'s entry and ends its subscription, then signs out', async () => {
    await logout('app');
    expect(steps).toEqual(['GET /api/push/subscriptions', 'DELETE /api/push/subscriptions/7', 'unsubscribe', 'POST /api/logout']);
    expect(auth.app.token).toBeNull();
  });

  it('keeps the browser\'s subscription while a partner login is still signed in here', async () => {
    await storeLogin('partner', loginAnswer('partner-token'));
    await logout('app');
    expect(steps).toEqual(['GET /api/push/subscriptions', 'DELETE /api/push/subscriptions/7', 'POST /api/logout']);
    expect(auth.partner.token).toBe('partner-token');
  });

  it('still ends the subscription and signs out when the server cannot be reached for it', async () => {
    isPushServerDown = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await logout('app');
    expect(steps).toEqual(['GET /api/push/subscriptions', 'unsubscribe', 'POST /api/logout']);
    expect(auth.app.token).toBeNull();
  });

  it('asks nothing more of the server when this browser has no subscription', async () => {
    hasSubscription = false;
    await logout('app');
    expect(steps).toEqual(['POST /api/logout']);
  });
});
