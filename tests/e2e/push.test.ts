// Issue 29 in Chromium: a person turns on notifications for this device from their profile, and the
// built service worker handles pushes. Chromium's incognito contexts (Playwright's) refuse a push
// subscription and there is no push service offline, so PushManager's subscribe is the one stand-in here
// (it hands back a subscription with real P-256 keys; the server's sending is tested against a stand-in
// push service in tests/api/web-push.test.ts). Pushes reach the real worker through the DevTools
// protocol (ServiceWorker.deliverPushMessage), its notifications are read with getNotifications(), and a
// click is a notificationclick dispatched in the worker. Headless Chromium draws no notification to click
// and the protocol has no click command, so that event is synthetic: Chromium then refuses the worker's
// clients.openWindow (only a click it dispatches itself may open a window), and with no window open the
// test stands in for that one call, opening the page the worker asked for (below).
import { createECDH, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../src/server/db/schema/notifications';
import { personalAccessTokens } from '../../src/server/db/schema/accounts';
import { pushSubscriptions } from '../../src/server/db/schema/push';
import { goInApp, hasBrowser, loginThroughForm, PASSWORD, type Stack, startStack } from './browser';

/**
 * Replaces PushManager's subscribe and getSubscription with a browser-made-looking subscription, kept
 * in localStorage so that it outlives a page load as a browser's does.
 */
function standInPushManager(keys: { p256dh: string; auth: string }) {
  const STORE = 'e2e-push-subscription';
  const make = (applicationServerKey: number[]) => ({
    endpoint: 'https://push.example.test/send/e2e-device',
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(applicationServerKey).buffer },
    toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys }; },
    unsubscribe: async () => { localStorage.removeItem(STORE); return true; },
  });
  PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
    const key = Array.from(new Uint8Array(options!.applicationServerKey as ArrayBuffer));
    localStorage.setItem(STORE, JSON.stringify(key));
    return make(key) as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async () => {
    const stored = localStorage.getItem(STORE);
    return stored ? make(JSON.parse(stored) as number[]) as unknown as PushSubscription : null;
  };
}

/** The few service worker globals these checks use (the DOM lib types the project). */
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  clients: { matchAll(options: { type: 'window' }): Promise<{ focused: boolean }[]>; openWindow(url: string): Promise<unknown> };
  dispatchEvent(event: Event): boolean;
  __opened?: string[];
  __clicked?: Promise<unknown>;
}

/** A click on the worker's one notification, as the browser dispatches it; resolves when the worker is done with it. */
const clickNotification = () => {
  const scope = self as unknown as WorkerScope;
  scope.__clicked = (async () => {
    const [notification] = await scope.registration.getNotifications();
    const event = new Event('notificationclick') as Event & { notification: Notification; waitUntil(promise: Promise<unknown>): void };
    const pending: Promise<unknown>[] = [];
    Object.assign(event, { notification, waitUntil: (promise: Promise<unknown>) => pending.push(promise) });
    scope.dispatchEvent(event);
    await Promise.all(pending);
  })();
};

/** Counts the page's calls to Notification.requestPermission (the browser's prompt). */
function countPermissionPrompts() {
  const asked = { count: 0 };
  (window as unknown as { __permissionAsked: typeof asked }).__permissionAsked = asked;
  const original = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => { asked.count += 1; return original(...args); };
}
const permissionPrompts = (page: Page) => page.evaluate(() => (window as unknown as { __permissionAsked: { count: number } }).__permissionAsked.count);

const messagesFromWorker = (page: Page) => page.evaluate(() => {
  const seen: unknown[] = [];
  (window as unknown as { __fromWorker: unknown[] }).__fromWorker = seen;
  navigator.serviceWorker.addEventListener('message', (event) => seen.push(event.data));
});

describe.skipIf(!hasBrowser)('notifications with the app closed', () => {
  let stack: Stack;
  beforeAll(async () => { stack = await startStack(); });
  afterAll(async () => { await stack?.close(); });

  it('turns on from the profile on request, shows a push only when the app is not in focus, a click opens its link in the open window or a new one, and signing out stops them', async () => {
    const ana = await stack.createUser({ email: 'ana@example.com', name: 'Ana Admin' }, ['admin']);
    const { page, context, errors } = await stack.newPage({ serviceWorker: true });
    await context.grantPermissions(['notifications'], { origin: stack.base });
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    await context.addInitScript(standInPushManager, { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') });
    await context.addInitScript(countPermissionPrompts);

    await loginThroughForm(page, 'ana@example.com', PASSWORD);
    await page.waitForURL('**/dashboard');
    await page.goto('/profile');
    // The worker installs (precaching the shell) after the first load: slow on a loaded machine.
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 60_000 });
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Notifications with the app closed' }) });
    await card.getByText('Off', { exact: true }).waitFor();
    // The browser's permission prompt comes only when the person asks: not on sign-in, nor on the profile.
    expect(await permissionPrompts(page)).toBe(0);
    await card.getByRole('button', { name: 'Turn on for this device' }).click();
    await card.getByText('On', { exact: true }).waitFor();
    expect(await permissionPrompts(page)).toBe(1);
    await card.getByRole('listitem').filter({ hasText: 'This device' }).getByText(/^Chrome on Linux/).waitFor();
    const [stored] = await stack.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.account_id, ana.id));
    expect(stored.endpoint).toBe('https://push.example.test/send/e2e-device');

    // Pushes go to the real worker through the DevTools protocol.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => { if (registrations[0]) resolve(registrations[0].registrationId); });
    });
    await cdp.send('ServiceWorker.enable');
    const deliver = async (data: object) => cdp.send('ServiceWorker.deliverPushMessage', { origin: stack.base, registrationId: await registrationId, data: JSON.stringify(data) });
    const worker = context.serviceWorkers()[0] ?? await context.waitForEvent('serviceworker');
    const shown = () => worker.evaluate(async () => (await (self as unknown as WorkerScope).registration.getNotifications())
      .map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown })));

    // With the app in focus, the live pop-up tells of it: no system notification, the window is told instead.
    await messagesFromWorker(page);
    await deliver({ id: 'in-focus', title: 'Seen in the app', message: 'Already on screen.', url: '/holiday', account: 'app' });
    await page.waitForFunction(() => (window as unknown as { __fromWorker: { type?: string }[] }).__fromWorker.some((m) => m.type === 'PUSH_RECEIVED'));
    expect(await shown()).toEqual([]);

    // The app no longer in focus (another window in front): the worker shows the notification.
    const [row] = await stack.app.db.insert(notifications).values({
      notifiable_type: 'app', notifiable_id: ana.id, type: 'App\\Notifications\\Test',
      data: { title: 'Your leave was approved', message: 'Enjoy your days off.', url: '/holiday' },
    }).returning();
    await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
    const other = await context.newPage();
    await other.bringToFront();
    await expect.poll(() => worker.evaluate(async () => (await (self as unknown as WorkerScope).clients.matchAll({ type: 'window' })).some((c) => c.focused)), { timeout: 15_000 }).toBe(false);
    await deliver({ id: row.id, title: 'Your leave was approved', message: 'Enjoy your days off.', url: '/holiday', account: 'app' });
    await expect.poll(shown, { timeout: 15_000 }).toEqual([{ title: 'Your leave was approved', body: 'Enjoy your days off.', tag: row.id, data: { id: row.id, url: '/holiday', account: 'app' } }]);

    // Its click: the open window goes to the link without a reload, and the notification is read.
    await page.evaluate(() => { (window as unknown as { __noReload: boolean }).__noReload = true; });
    await worker.evaluate(clickNotification);
    await worker.evaluate(() => (self as unknown as WorkerScope).__clicked);
    await page.waitForURL('**/holiday');
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(await shown()).toEqual([]);
    await expect.poll(async () => (await stack.app.db.select().from(notifications).where(eq(notifications.id, row.id)))[0].read_at, { timeout: 15_000 }).not.toBeNull();

    // With every window of the app closed (the worker stays registered in the browser), a push shows its
    // notification and its click opens the link in a new window, which marks it read. Deliveries now go
    // through a blank page's DevTools session, that page being no window of the app.
    const [closedRow] = await stack.app.db.insert(notifications).values({
      notifiable_type: 'app', notifiable_id: ana.id, type: 'App\\Notifications\\Test',
      data: { title: 'Your leave was cancelled', message: 'Your manager cancelled it.', url: '/leave-application/calendar' },
    }).returning();
    const blankCdp = await context.newCDPSession(other);
    await blankCdp.send('ServiceWorker.enable');
    await page.close();
    expect(await worker.evaluate(async () => (await (self as unknown as WorkerScope).clients.matchAll({ type: 'window' })).length)).toBe(0);
    await blankCdp.send('ServiceWorker.deliverPushMessage', { origin: stack.base, registrationId: await registrationId, data: JSON.stringify({ id: closedRow.id, title: 'Your leave was cancelled', message: 'Your manager cancelled it.', url: '/leave-application/calendar', account: 'app' }) });
    await expect.poll(async () => (await shown()).map((n) => n.tag), { timeout: 15_000 }).toEqual([closedRow.id]);
    // The synthetic click may not open a window (see the top of this file): the worker's one call to
    // clients.openWindow is recorded, and the test opens that page as the browser would on a real click.
    await worker.evaluate(() => {
      const scope = self as unknown as WorkerScope;
      const opened: string[] = [];
      scope.__opened = opened;
      scope.clients.openWindow = async (url: string) => { opened.push(url); return null; };
    });
    await worker.evaluate(clickNotification);
    await expect.poll(() => worker.evaluate(() => (self as unknown as WorkerScope).__opened), { timeout: 15_000 }).toEqual(['/leave-application/calendar']);
    expect(await shown()).toEqual([]);
    const opened = await context.newPage();
    opened.on('pageerror', (error) => errors.push(error.message));
    await opened.goto('/leave-application/calendar');
    // The new window signs in from its store, starts listening and is handed the click: it marks the notification read.
    await expect.poll(async () => (await stack.app.db.select().from(notifications).where(eq(notifications.id, closedRow.id)))[0].read_at, { timeout: 20_000 }).not.toBeNull();
    await worker.evaluate(() => (self as unknown as WorkerScope).__clicked);
    expect(new URL(opened.url()).pathname).toBe('/leave-application/calendar');
    // Opening signed in takes the device up (decision 045) without the browser's prompt.
    expect(await permissionPrompts(opened)).toBe(0);
    await other.close();

    // The session runs out; signing in again takes the device up again without turning it on (decision 045).
    await stack.app.db.update(personalAccessTokens).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(personalAccessTokens.id, stored.token_id));
    await opened.goto('/profile');
    await opened.waitForURL((url) => url.pathname === '/');
    await loginThroughForm(opened, 'ana@example.com', PASSWORD);
    await opened.waitForURL('**/dashboard');
    await expect.poll(async () => (await stack.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.account_id, ana.id))).map((r) => r.token_id !== stored.token_id), { timeout: 15_000 }).toEqual([true]);
    await goInApp(opened, '/profile');
    const openedCard = opened.locator('section', { has: opened.getByRole('heading', { name: 'Notifications with the app closed' }) });
    await openedCard.getByText('On', { exact: true }).waitFor();
    await openedCard.getByRole('listitem').filter({ hasText: 'This device' }).waitFor();

    // Signing out on this device stops its pushes (decision 045): the browser's subscription ends and the server forgets the device.
    await opened.getByRole('button', { name: 'Ana Admin, user menu' }).click();
    await opened.getByRole('menuitem', { name: 'Log Out' }).click();
    await opened.waitForURL((url) => url.pathname === '/');
    expect(await opened.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))!.pushManager.getSubscription())).toBeNull();
    expect(await stack.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.account_id, ana.id))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
