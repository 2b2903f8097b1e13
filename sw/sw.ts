// The service worker (issue 5). Built by vite-plugin-pwa (injectManifest), registered by
// src/client/lib/pwa.ts through workbox-window.
//
// - Precache: the app shell (index.html, scripts, styles, svg). Navigations outside the API and the
//   socket paths are answered with the precached index.html, so the app opens offline.
// - Runtime cache: GET /api/* network-first with a 3 s timeout, so a list or detail opens offline
//   showing what this account last saw. A response served from the cache carries
//   `X-From-Cache: <ISO time it was fetched>` so screens can say "Offline — showing data from HH:MM".
// - Per-account caches: the cache name is derived from a SHA-256 of the request's bearer token
//   (`api-<hash>`). The SW sees the Authorization header of every API request, so no state has to be
//   posted to it, one account (or one session of the same user) can never read another's cached
//   answers, and a request without a token is never cached. Any sign-out (logout, a 401, a 503) posts FORGET_ACCOUNT with the
//   token; app start posts KEEP_ACCOUNTS with the live tokens, which drops caches of sessions that
//   ended while the app was closed (expiry, cleared site data).
// - Never cached: non-GET requests, auth calls (/api/login, /api/logout, /api/partner/login|logout),
//   /sanctum/*, anything that is not a 200 JSON answer.
// - Updates: a new version waits until the page posts SKIP_WAITING (the "Reload" button), never a
//   silent swap under a half-filled form.
// - Background Sync: the client registers the tag 'outbox' when a queued mutation could not be
//   delivered. On 'sync' the worker asks every open window to flush its outbox (OUTBOX_FLUSH); the
//   outbox and its replay rules (order, backoff, 401 pause, 422) live in one place, the client
//   (src/client/lib/outbox.ts). With no window open, the next app start flushes.
// - Web Push (issue 29, decision 038): a push carries a stored notification's title, message and link. With
//   a window of the app in focus, no system notification is shown (the live channel's pop-up already tells
//   of it; the window is told, PUSH_RECEIVED); otherwise the worker shows it, one per notification (its id is
//   the tag, so a coalesced update replaces it). A click opens its link in a window of the app (focused, and
//   told to go there without a reload, PUSH_OPEN), or in a new one when none is open; that window is sent the
//   same PUSH_OPEN (so it marks the notification read) once it says it listens (PUSH_LISTENING), since a
//   message posted while it is still loading and signing in would be lost.
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

// The DOM lib types this project; the few worker types used here are declared locally.
interface WorkerEvent extends Event { waitUntil(promise: Promise<unknown>): void }
interface SyncEvent extends WorkerEvent { tag: string }
interface WorkerMessageEvent extends WorkerEvent { data: unknown; source: { postMessage(message: unknown): void } | null }
interface WindowClientLike { url: string; focused: boolean; visibilityState: string; postMessage(message: unknown): void; focus(): Promise<unknown> }
interface PushEventLike extends WorkerEvent { data: { json(): unknown; text(): string } | null }
interface NotificationLike { data: unknown; close(): void }
interface NotificationClickEventLike extends WorkerEvent { notification: NotificationLike }
interface WorkerScope {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
  location: { origin: string };
  skipWaiting(): Promise<void>;
  registration: { showNotification(title: string, options: NotificationOptions & { data?: unknown }): Promise<void> };
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: 'message', listener: (event: WorkerMessageEvent) => void): void;
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationClickEventLike) => void): void;
}
const worker = globalThis as unknown as WorkerScope;

const API_CACHE_PREFIX = 'api-';
const NETWORK_TIMEOUT_SECONDS = 3;
const FETCHED_AT_HEADER = 'X-Fetched-At';
const FROM_CACHE_HEADER = 'X-From-Cache';

clientsClaim();
cleanupOutdatedCaches();
// Literally `self.__WB_MANIFEST`: the build replaces that expression with the precache list.
precacheAndRoute((self as unknown as WorkerScope).__WB_MANIFEST);

// SPA navigation: the shell from the precache. The API, the Pusher socket (/app) and its HTTP API (/apps) and
// Sanctum are server paths, never the shell (a file opened in a new tab from /api must reach the server).
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), {
  denylist: [/^\/api\//, /^\/app\//, /^\/apps\//, /^\/sanctum\//],
}));

// Auth answers are never stored (issue 5): /me carries the access token, permissions decide what is shown,
// and a verification link must reach the server. Offline, the signed-in state comes from IndexedDB instead.
const NEVER_CACHED = /^\/api\/(partner\/)?(login|logout|me|get-laravel-permission-to-vue-js|email\/verify)(\/|$)|^\/api\/broadcasting\//;

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const tokenOf = (authorization: string | null) => authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? null;

async function cacheNameForToken(token: string): Promise<string> {
  return `${API_CACHE_PREFIX}${(await sha256Hex(token)).slice(0, 24)}`;
}

/** Stamps the fetch time on what is stored, and turns it into X-From-Cache when a stored answer is used. */
const stampPlugin = {
  async cacheWillUpdate({ response }: { response: Response }) {
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !type.includes('json')) return null;
    const headers = new Headers(response.headers);
    headers.set(FETCHED_AT_HEADER, new Date().toISOString());
    return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  },
  async cachedResponseWillBeUsed({ cachedResponse }: { cachedResponse?: Response }) {
    if (!cachedResponse) return null;
    const headers = new Headers(cachedResponse.headers);
    headers.set(FROM_CACHE_HEADER, cachedResponse.headers.get(FETCHED_AT_HEADER) ?? new Date(0).toISOString());
    return new Response(await cachedResponse.blob(), { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  },
};

const strategies = new Map<string, NetworkFirst>();
function strategyFor(cacheName: string): NetworkFirst {
  let strategy = strategies.get(cacheName);
  if (!strategy) {
    strategy = new NetworkFirst({
      cacheName,
      networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
      // The cache is already one per token; ignoreVary keeps a Vary: Authorization from defeating the match.
      matchOptions: { ignoreVary: true },
      plugins: [stampPlugin, new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 7 * 24 * 3600, purgeOnQuotaError: true })],
    });
    strategies.set(cacheName, strategy);
  }
  return strategy;
}

registerRoute(
  ({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && url.pathname.startsWith('/api/') && !NEVER_CACHED.test(url.pathname),
  async (options) => {
    const token = tokenOf(options.request.headers.get('Authorization'));
    if (!token) return fetch(options.request);
    return strategyFor(await cacheNameForToken(token)).handle(options);
  },
  'GET',
);

async function deleteCaches(keep: (name: string) => boolean) {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(API_CACHE_PREFIX) && !keep(name)).map((name) => {
    strategies.delete(name);
    return caches.delete(name);
  }));
}

worker.addEventListener('message', (event) => {
  const message = (event.data ?? {}) as { type?: string; token?: string | null; tokens?: string[] };
  if (message.type === 'SKIP_WAITING') {
    event.waitUntil(worker.skipWaiting());
  } else if (message.type === 'FORGET_ACCOUNT') {
    // Logout: this session's cached answers go; without a token, all of them.
    event.waitUntil((async () => {
      const target = message.token ? await cacheNameForToken(message.token) : null;
      await deleteCaches((name) => target !== null && name !== target);
    })());
  } else if (message.type === 'PUSH_LISTENING') {
    handOverOpen(event.source);
  } else if (message.type === 'KEEP_ACCOUNTS') {
    event.waitUntil((async () => {
      const live = new Set(await Promise.all((message.tokens ?? []).map(cacheNameForToken)));
      await deleteCaches((name) => live.has(name));
    })());
  }
});

worker.addEventListener('sync', (event) => {
  if (event.tag !== 'outbox') return;
  event.waitUntil((async () => {
    const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
    // The replay runs in a window (it owns the session and the outbox's error handling). With none open,
    // failing the sync makes the browser try again later rather than count it as delivered.
    if (!windows.length) throw new Error('Outbox sync deferred: no window open');
    for (const client of windows) client.postMessage({ type: 'OUTBOX_FLUSH' });
  })());
});

/** What a push carries (src/shared/schemas/push.ts PushPayload), read defensively: a push is outside input. */
interface Pushed { id: string | null; title: string; message: string; url: string; account: 'app' | 'partner' }

/** Only a path of this app is opened (never another site), else the notification list. */
function appPath(url: unknown, account: 'app' | 'partner'): string {
  const list = account === 'partner' ? '/partner/notification' : '/notification';
  if (typeof url !== 'string') return list;
  try {
    const target = new URL(url, worker.location.origin);
    return target.origin === worker.location.origin ? `${target.pathname}${target.search}${target.hash}` : list;
  } catch {
    return list;
  }
}

function readPush(data: PushEventLike['data']): Pushed {
  let value: Record<string, unknown> = {};
  try {
    const parsed = data?.json();
    if (parsed && typeof parsed === 'object') value = parsed as Record<string, unknown>;
  } catch {
    value = { message: data?.text() ?? '' };
  }
  const account = value.account === 'partner' ? 'partner' : 'app';
  return {
    id: typeof value.id === 'string' ? value.id : null,
    title: typeof value.title === 'string' && value.title ? value.title : 'You have a new notification',
    message: typeof value.message === 'string' ? value.message : '',
    url: appPath(value.url, account),
    account,
  };
}

/**
 * A click that opened a new window: the PUSH_OPEN that window is to get when it first says PUSH_LISTENING
 * (its listener starts after it loads and signs in from its store, seconds later). The click's waitUntil
 * keeps the worker alive until then, or OPEN_HANDOVER_MS for a window that never listens (signed out).
 */
let pendingOpen: { message: unknown; handedOver: () => void } | null = null;
const OPEN_HANDOVER_MS = 60_000;

function handOverOpen(client: WorkerMessageEvent['source']) {
  if (!pendingOpen || !client) return;
  client.postMessage(pendingOpen.message);
  pendingOpen.handedOver();
  pendingOpen = null;
}

async function openInNewWindow(url: string, message: unknown) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const handedOver = new Promise<void>((resolve) => {
    pendingOpen = { message, handedOver: resolve };
    timer = setTimeout(resolve, OPEN_HANDOVER_MS);
  });
  const mine = pendingOpen;
  try {
    await worker.clients.openWindow(url);
    await handedOver;
  } finally {
    clearTimeout(timer);
    if (pendingOpen === mine) pendingOpen = null;
  }
}

const appWindows = () => worker.clients.matchAll({ type: 'window', includeUncontrolled: true });

worker.addEventListener('push', (event) => {
  const pushed = readPush(event.data);
  event.waitUntil((async () => {
    const focused = (await appWindows()).find((client) => client.focused);
    if (focused) {
      // The person is in the app: its live pop-up tells them; a system notification would say it twice.
      focused.postMessage({ type: 'PUSH_RECEIVED', id: pushed.id, account: pushed.account });
      return;
    }
    await worker.registration.showNotification(pushed.title, {
      body: pushed.message,
      icon: '/pwa-192x192.png',
      // One per notification: the same one pushed again (its words updated) replaces it.
      ...(pushed.id ? { tag: pushed.id } : {}),
      data: { id: pushed.id, url: pushed.url, account: pushed.account },
    });
  })());
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = (event.notification.data ?? {}) as { id?: unknown; url?: unknown; account?: unknown };
  const account = data.account === 'partner' ? 'partner' : 'app';
  const url = appPath(data.url, account);
  event.waitUntil((async () => {
    const windows = await appWindows();
    const target = windows.find((client) => client.focused) ?? windows.find((client) => client.visibilityState === 'visible') ?? windows[0];
    if (!target) {
      await openInNewWindow(url, { type: 'PUSH_OPEN', id: typeof data.id === 'string' ? data.id : undefined, url, account });
      return;
    }
    // Focusing is allowed with the click's user activation; without it (a synthetic click) the window still goes there.
    await target.focus().catch(() => undefined);
    target.postMessage({ type: 'PUSH_OPEN', id: typeof data.id === 'string' ? data.id : undefined, url, account });
  })());
});
