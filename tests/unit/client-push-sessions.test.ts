// @vitest-environment jsdom
// Issue 29 / decision 045: this browser's push subscription follows the sessions on it. Signing out ends
// it (unless the other account type is still signed in here); a new session of the login that turned it
// on registers it again by itself; a new session of another login of the same kind ends it, so nobody
// receives someone else's notifications. The server's side is tested in tests/api/web-push.test.ts.
import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { get } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { turnOnPush } from '../../src/client/lib/push';
import { readOwners, writeOwners } from '../../src/client/lib/push-owner';
import { resumePush } from '../../src/client/lib/push-resume';
import { logout } from '../../src/client/lib/session';
import { auth, clearAuth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import type { LoginResponse } from '../../src/shared/schemas/auth';

const KEY = Buffer.alloc(65, 4);
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

const loginAnswer = (id: number, token: string): LoginResponse => ({
  data: { id, name: 'Ada Admin', email: 'ada@example.com', user_type: 'admin', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null },
  access_token: token,
  permissions: { roles: ['admin'], permissions: ['can-view-dashboard'] },
  announcement: { status: 'off', message: '' },
  message: '', status: 'success',
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** What happened, in order: each API call as "METHOD /path token", and the browser's (un)subscribes. */
let steps: string[];
/** The endpoints the server lists for the caller, and the one it says another login holds. */
let listed: string[];
let heldByAnother: string | null;
let subscription: { endpoint: string } | null;
let made: number;

function fakeBrowser() {
  const makeSubscription = (endpoint: string) => ({
    endpoint,
    options: { applicationServerKey: new Uint8Array(KEY).buffer },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) } }),
    unsubscribe: async () => { steps.push(`unsubscribe ${endpoint}`); subscription = null; return true; },
  });
  const pushManager = {
    getSubscription: async () => subscription,
    subscribe: async () => {
      made += 1;
      subscription = makeSubscription(`https://push.example.test/send/browser-${made}`);
      steps.push(`subscribe ${subscription.endpoint}`);
      return subscription;
    },
  };
  subscription = makeSubscription('https://push.example.test/send/browser-0');
  const registration = { pushManager };
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', Object.assign(class {}, { permission: 'granted', requestPermission: async () => 'granted' }));
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration: async () => registration, ready: Promise.resolve(registration) } });
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname.includes('/sanctum/csrf-cookie')) return new Response(null, { status: 204 });
    const method = (init?.method ?? 'GET').toUpperCase();
    const token = String(new Headers(init?.headers).get('authorization')).replace('Bearer ', '');
    steps.push(`${method} ${url.pathname} ${token}`);
    if (url.pathname === '/api/push/key') return json(200, { data: { public_key: KEY.toString('base64url') } });
    if (method === 'GET' && url.pathname === '/api/push/subscriptions') {
      return json(200, { data: listed.map((endpoint, index) => ({ id: index + 1, device: 'Chrome on Linux', endpoint_hash: hashOf(endpoint), created_at: '2026-01-01T00:00:00Z', last_used_at: null })) });
    }
    if (method === 'POST' && url.pathname === '/api/push/subscriptions') {
      const { endpoint } = JSON.parse(String(init?.body)) as { endpoint: string };
      if (endpoint === heldByAnother) return json(409, { message: 'This browser is set up for another person\'s notifications.' });
      return json(201, { data: { id: 9, device: 'Chrome on Linux', endpoint_hash: hashOf(endpoint), created_at: '2026-01-01T00:00:00Z', last_used_at: null }, message: 'On.' });
    }
    return json(200, { message: 'Done.' });
  }));
}

beforeEach(async () => {
  steps = [];
  listed = [];
  heldByAnother = null;
  made = 0;
  fakeBrowser();
  window.history.replaceState(null, '', '/dashboard');
  await writeOwners({});
  await hydrateAuth();
  await storeLogin('app', loginAnswer(1, 'ada-token'));
});

afterEach(async () => {
  await clearAuth('app');
  await clearAuth('partner');
  vi.unstubAllGlobals();
  delete (navigator as unknown as { serviceWorker?: unknown }).serviceWorker;
  vi.restoreAllMocks();
});

const BROWSER = 'https://push.example.test/send/browser-0';

describe('turning notifications on', () => {
  it('remembers which login and session turned them on here', async () => {
    await turnOnPush('app');
    expect(steps).toEqual(['GET /api/push/key ada-token', 'POST /api/push/subscriptions ada-token']);
    expect(await readOwners()).toEqual({ app: { id: 1, session: hashOf('ada-token') } });
  });

  it('subscribes afresh when the server says another login registered this browser\'s subscription', async () => {
    heldByAnother = BROWSER;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await turnOnPush('app');
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^API 409/));
    expect(steps).toEqual(['GET /api/push/key ada-token', 'POST /api/push/subscriptions ada-token', `unsubscribe ${BROWSER}`,
      'subscribe https://push.example.test/send/browser-1', 'POST /api/push/subscriptions ada-token']);
    expect(await readOwners()).toEqual({ app: { id: 1, session: hashOf('ada-token') } });
  });
});

describe('a new session on a browser that receives notifications', () => {
  it('registers them again, silently, when the same login signs in again', async () => {
    await writeOwners({ app: { id: 1, session: hashOf('expired-token') } });
    await resumePush('app');
    expect(steps).toEqual(['GET /api/push/key ada-token', 'POST /api/push/subscriptions ada-token']);
    expect(subscription?.endpoint).toBe(BROWSER);
    expect(await readOwners()).toEqual({ app: { id: 1, session: hashOf('ada-token') } });
  });

  it('asks nothing of the server when the app opens on the session that registered them', async () => {
    await writeOwners({ app: { id: 1, session: hashOf('ada-token') } });
    await resumePush('app');
    expect(steps).toEqual([]);
    expect(subscription?.endpoint).toBe(BROWSER);
  });

  it('does not register them again when the browser no longer allows notifications', async () => {
    await writeOwners({ app: { id: 1, session: hashOf('expired-token') } });
    vi.stubGlobal('Notification', Object.assign(class {}, { permission: 'denied' }));
    await resumePush('app');
    expect(steps).toEqual([]);
  });

  it('ends the subscription when another login of the same kind signs in, and registers nothing for them', async () => {
    await writeOwners({ app: { id: 2, session: hashOf('ben-token') } });
    await resumePush('app');
    expect(steps).toEqual([`unsubscribe ${BROWSER}`]);
    expect(subscription).toBeNull();
    expect(await get('push:owners')).toBeUndefined();
  });

  it('gives the partner login still signed in here a fresh subscription when another staff login signs in', async () => {
    await storeLogin('partner', loginAnswer(5, 'pat-token'));
    await writeOwners({ app: { id: 2, session: hashOf('ben-token') }, partner: { id: 5, session: hashOf('pat-token') } });
    await resumePush('app');
    expect(steps).toEqual([`unsubscribe ${BROWSER}`, 'GET /api/push/key pat-token', 'subscribe https://push.example.test/send/browser-1', 'POST /api/push/subscriptions pat-token']);
    expect(await readOwners()).toEqual({ partner: { id: 5, session: hashOf('pat-token') } });
  });

  it('leaves alone a subscription only the other kind\'s login turned on', async () => {
    await writeOwners({ partner: { id: 5, session: hashOf('pat-token') } });
    await resumePush('app');
    expect(steps).toEqual([]);
    expect(subscription?.endpoint).toBe(BROWSER);
  });

  it('takes up a subscription from before the record when the server lists it as this login\'s, and only then', async () => {
    listed = ['https://push.example.test/send/elsewhere'];
    await resumePush('app');
    expect(await readOwners()).toEqual({});
    listed = ['https://push.example.test/send/elsewhere', BROWSER];
    await resumePush('app');
    expect(steps).toEqual(['GET /api/push/subscriptions ada-token', 'GET /api/push/subscriptions ada-token']);
    expect(await readOwners()).toEqual({ app: { id: 1, session: hashOf('ada-token') } });
  });

  it('forgets the record when the browser has no subscription any more', async () => {
    await writeOwners({ app: { id: 1, session: hashOf('ada-token') } });
    subscription = null;
    await resumePush('app');
    expect(steps).toEqual([]);
    expect(await readOwners()).toEqual({});
  });
});

describe('signing out on a device that receives notifications', () => {
  it('ends the browser\'s subscription and forgets its owner, then signs out (the server drops the entry with the session)', async () => {
    await writeOwners({ app: { id: 1, session: hashOf('ada-token') } });
    await logout('app');
    expect(steps).toEqual([`unsubscribe ${BROWSER}`, 'POST /api/logout ada-token']);
    expect(await readOwners()).toEqual({});
    expect(auth.app.token).toBeNull();
  });

  it('keeps the browser\'s subscription while a partner login is still signed in here', async () => {
    await storeLogin('partner', loginAnswer(5, 'pat-token'));
    await writeOwners({ app: { id: 1, session: hashOf('ada-token') }, partner: { id: 5, session: hashOf('pat-token') } });
    await logout('app');
    expect(steps).toEqual(['POST /api/logout ada-token']);
    expect(await readOwners()).toEqual({ partner: { id: 5, session: hashOf('pat-token') } });
    expect(auth.partner.token).toBe('pat-token');
  });

  it('only signs out when this browser has no subscription', async () => {
    subscription = null;
    await logout('app');
    expect(steps).toEqual(['POST /api/logout ada-token']);
  });
});
