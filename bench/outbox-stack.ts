// What the two outbox replay benchmarks (outbox-replay.ts, outbox-mixed.ts) share: the real server on a
// free port with the built client, an engineer signed in through the real form in Chromium (service
// workers blocked, so page.route sees every request), a share of the answers dropped on the way back,
// and the wait until the page's outbox is empty after reconnecting.
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { hash } from '@node-rs/argon2';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../src/server/app';
import { users } from '../src/server/db/schema/accounts';
import { clients } from '../src/server/db/schema/master-data';
import { assignRoles } from '../src/server/db/seed';
import { testConfig } from '../tests/helpers/app';

/** A `--name=value` argument as a number, or the fallback. */
export const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

export async function startOutboxBench() {
  const app = await buildApp(testConfig({ clientDir: resolve(process.env.E2E_DIST || 'dist'), appEnv: 'testing' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const [client] = await app.db.insert(clients).values({ name: 'Bench Client' }).returning();
  const [engineer] = await app.db.insert(users).values({ name: 'Field Engineer', email: 'engineer@example.com', password: await hash('secret-password'), user_type: 'user', parent_id: 1, email_verified_at: new Date() }).returning();
  await assignRoles(app.db, 'app', engineer.id, ['user']);

  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ baseURL: base, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/');
  await page.fill('input[name=email]', 'engineer@example.com');
  await page.fill('input[name=password]', 'secret-password');
  await page.click('button[type=submit]');
  await page.waitForURL('**/dashboard');
  return {
    app, client, engineer, context, page,
    async close() { await browser.close(); await app.close(); },
  };
}

/**
 * Drops a share of the answers to `url` after the server has handled the request (the browser sees a
 * network error and retries under the same Idempotency-Key); returns how many were dropped so far.
 */
export async function dropAnswers(page: Page, url: string, rate: number): Promise<() => number> {
  let dropped = 0;
  await page.route(url, async (route) => {
    const response = await route.fetch();
    if (Math.random() < rate) { dropped++; return route.abort('connectionreset'); }
    return route.fulfill({ response });
  });
  return () => dropped;
}

/** Reconnects and waits until the page's outbox is empty; the milliseconds it took. */
export async function replayUntilEmpty(bench: Awaited<ReturnType<typeof startOutboxBench>>, minutes: number): Promise<number> {
  const reconnected = Date.now();
  await bench.context.setOffline(false);
  const pending = () => bench.page.evaluate(async () =>
    (await (window as unknown as { __outbox: { loadOutboxItems(): Promise<unknown[]> } }).__outbox.loadOutboxItems()).length);
  while (await pending() > 0) {
    if (Date.now() - reconnected > minutes * 60_000) throw new Error(`Replay did not finish in ${minutes} minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return Date.now() - reconnected;
}
