// Issue 5 in Chromium against the production build: the service worker installs and controls the
// page, the app passes the installability checks, opens offline from the worker with the offline
// indicator, and a mutation queued offline survives a reload and reaches the server exactly once.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/server/db/schema/idempotency';
import { getAnnouncementSetting } from '../../src/server/modules/setting/announcement';
import { goInApp, hasBrowser, type Stack, startStack } from './browser';

const waitForController = (page: Page) => page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 20_000 });

describe.skipIf(!hasBrowser)('offline-first PWA', () => {
  let stack: Stack;
  /**
   * The first test's page, at the login screen its first visit installed the worker on; the second signs in
   * there (a new context with the worker costs Chromium 5–6 s: docs/testing.md).
   */
  let visitor: Awaited<ReturnType<Stack['newPage']>>;
  beforeAll(async () => { stack = await startStack(); });
  afterAll(async () => { await stack?.close(); });

  it('serves a manifest and a service worker that Chromium finds installable', async () => {
    visitor = await stack.newPage({ serviceWorker: true });
    const { page, context } = visitor;
    await page.goto('/');
    await waitForController(page);
    const manifest = await (await page.request.get('/manifest.webmanifest')).json() as Record<string, unknown>;
    expect(manifest).toMatchObject({ start_url: '/dashboard', scope: '/', display: 'standalone', short_name: expect.any(String) });
    // Theme colours for light and for dark.
    expect(manifest).toMatchObject({ theme_color: '#4f46e5', user_preferences: { color_scheme: { dark: { theme_color: '#020617' } } } });
    const sw = await page.request.get('/sw.js');
    expect(sw.headers()['cache-control']).toBe('no-cache');
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors') as { installabilityErrors: Array<{ errorId: string }> };
    // Playwright's contexts are incognito profiles, where Chromium never offers installation; every other check passes.
    expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    await cdp.detach();
  });

  it('opens offline from the service worker and delivers an offline mutation exactly once', async () => {
    const { page, context } = visitor;
    await page.getByLabel('Email').fill('admin@example.com');
    await page.locator('input[name="password"]').fill('password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await waitForController(page);
    // Load the dashboard once under the worker's control, so its API answers are in this account's cache.
    await page.reload();
    await page.getByText('Your account').waitFor();
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('api-')).length)).toBe(1);
    // And the notification list once, so it can be shown offline too.
    await goInApp(page, '/notification');
    await page.getByText('No notifications').waitFor();
    await goInApp(page, '/dashboard');
    await page.getByText('Your account').waitFor();

    await context.setOffline(true);
    await page.reload();
    // The app, not the browser's offline page: the shell came from the precache, the account from IndexedDB
    // (auth answers are never cached), and no error toast for the failed background refresh.
    await page.getByText('Your account').waitFor();
    await page.getByTestId('offline-indicator').waitFor();
    expect(await page.getByText('admin@example.com').count()).toBeGreaterThan(0);
    const cachedAuth = await page.evaluate(async () => {
      const stored: string[] = [];
      for (const name of (await caches.keys()).filter((key) => key.startsWith('api-'))) {
        for (const request of await (await caches.open(name)).keys()) stored.push(new URL(request.url).pathname);
      }
      return stored.filter((path) => /\/api\/(partner\/)?(me|login|get-laravel-permission-to-vue-js)$/.test(path));
    });
    expect(cachedAuth).toEqual([]);
    expect(await page.getByText('Network error or server is unreachable.').count()).toBe(0);
    // A list served from the cache says when it was fetched.
    await goInApp(page, '/notification');
    await page.getByText('No notifications').waitFor();
    await page.getByTestId('cached-notice').waitFor();

    // Watch what reaches the network for this mutation from here on.
    const delivered: Array<{ status: number; replayed: boolean }> = [];
    page.on('response', (response) => {
      if (response.request().method() === 'PUT' && response.url().endsWith('/api/setting/announcement')) {
        delivered.push({ status: response.status(), replayed: response.headers()['idempotent-replayed'] === 'true' });
      }
    });

    const key = await page.evaluate(async () => {
      const hook = (window as unknown as { __outbox: { enqueueMutation(input: unknown): Promise<{ idempotencyKey: string }> } }).__outbox;
      const queued = await hook.enqueueMutation({ method: 'PUT', url: '/setting/announcement', body: { status: 'on', message: 'Queued while offline' }, label: 'Announcement' });
      return queued.idempotencyKey;
    });
    await expect.poll(() => page.getByTestId('outbox-count').textContent()).toBe('1');

    // Survives a reload while still offline.
    await page.reload();
    await page.getByTestId('offline-indicator').waitFor();
    await expect.poll(() => page.getByTestId('outbox-count').textContent()).toBe('1');
    await page.getByTestId('outbox-button').click();
    await page.getByTestId('outbox-list').getByText('Announcement').waitFor();
    await page.keyboard.press('Escape');
    expect((await getAnnouncementSetting(stack.app.db)).message).not.toBe('Queued while offline');

    await context.setOffline(false);
    await expect.poll(() => page.getByTestId('outbox-count').count(), { timeout: 20_000 }).toBe(0);
    await page.getByTestId('offline-indicator').waitFor({ state: 'detached' });

    expect(await getAnnouncementSetting(stack.app.db)).toMatchObject({ status: 'on', message: 'Queued while offline' });
    const rows = await stack.app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(rows).toHaveLength(1);
    expect(rows[0].status_code).toBe(200);
    expect(delivered.filter((answer) => answer.status === 200 && !answer.replayed)).toHaveLength(1);

    // Logout clears this account's cached API answers.
    await page.getByRole('button', { name: /account menu|user menu|profile menu|open user menu/i }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('api-')).length)).toBe(0);
    await context.close();
  });
});
