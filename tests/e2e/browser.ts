// The real server (buildApp with the built client) on a random port, a real SMTP server, and
// Debian's Chromium driven by playwright-core. Without a browser the suite says so and skips,
// except in CI, where a missing browser fails the run.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { buildApp } from '../../src/server/app';
import { partnerAccounts, partners, users } from '../../src/server/db/schema/accounts';
import { assignRoles } from '../../src/server/db/seed';
import { freshPostgresDatabase, testConfig } from '../helpers/app';
import { pooledDatabase } from '../helpers/pglite-pool';
import { pgliteSnapshot } from '../helpers/snapshot';
import { startSmtpServer } from '../helpers/smtp';
import { clientBuilt, clientDir } from './global-setup';

export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
export const hasBrowser = existsSync(CHROME_PATH);
if (!hasBrowser) {
  const message = `\n*** E2E SKIPPED: no Chromium at ${CHROME_PATH} (apt-get install chromium, or set CHROME_PATH) ***\n`;
  if (process.env.CI) throw new Error(message);
  console.warn(message);
}

export const PASSWORD = 'secret-password';

export interface StackOptions {
  /**
   * A new installation: an empty database (PostgreSQL when the run has one, else a data directory on
   * disk), migrated and seeded by the server's own start with this first admin (ADMIN_EMAIL / ADMIN_PASSWORD), so it gets the firm's starting lists
   * (issue 22). Without it, the run's snapshot, which leaves them out.
   */
  fresh?: { adminEmail: string; adminPassword: string };
}

let browserOfThisWorker: Promise<Browser> | undefined;

/**
 * One Chromium per worker, shared by the journeys that run one after another in it (the e2e project
 * does not isolate its files): each journey opens its own contexts (own cookies, storage, service
 * workers and cache) and closes them at the end, so only the browser's start-up is shared. A browser
 * that went away is started again.
 */
async function sharedBrowser(): Promise<Browser> {
  const running = await browserOfThisWorker?.catch(() => undefined);
  if (running?.isConnected()) return running;
  browserOfThisWorker = chromium.launch({
    executablePath: CHROME_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  return browserOfThisWorker;
}

export async function startStack(options: StackOptions = {}) {
  await clientBuilt();
  const smtp = await startSmtpServer();
  // PostgreSQL when the run has one (TEST_DATABASE_URL, as in CI; E2E_DB=pglite keeps the embedded one):
  // a copy of the run's template, and the server's queries then cost PostgreSQL's CPU rather than
  // WebAssembly's in this process, a third of a journey's server time (docs/testing.md). A fresh stack
  // gets an empty database, which the server migrates and seeds on its own start as a new installation
  // does; its embedded twin (an empty data directory, where PGlite's initdb alone costs 9 s of CPU) is
  // tests/api/first-run.test.ts, which runs on both.
  const postgres = process.env.TEST_DATABASE_URL && process.env.E2E_DB !== 'pglite'
    ? await freshPostgresDatabase({ empty: !!options.fresh }) : null;
  const config = testConfig({
    mailUrl: smtp.url, clientDir: resolve(clientDir()), appEnv: 'testing',
    ...(options.fresh ? { ...options.fresh, inMemoryDatabase: false } : {}),
    ...(postgres ? { databaseUrl: postgres.url, inMemoryDatabase: false } : {}),
  });
  // The run's migrated and seeded snapshot (helpers/snapshot.ts); buildApp leaves closing it to close().
  // A fresh stack has none: buildApp opens the data directory, migrates, seeds and closes it itself.
  const database = options.fresh || postgres ? undefined
    : await pooledDatabase(config.dataDir, () => pgliteSnapshot({ email: config.adminEmail, password: config.adminPassword }));
  const app: FastifyInstance = await buildApp(config, { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // Links in mail point at the server under test.
  config.appUrl = base;
  const browser = await sharedBrowser();
  const passwordHash = await hash(PASSWORD);

  return {
    app, smtp, base, browser,
    /**
     * A new person at a new browser: own cookies, storage and cache. Without the service worker unless
     * `serviceWorker` asks for it: on first load the worker precaches the whole client (about 110
     * files), which tripled Chromium's work for a context; only the journeys about offline use and
     * push need it (docs/testing.md).
     */
    async newPage(options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; serviceWorker?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
      const context = await browser.newContext({
        baseURL: base, viewport: { width: options.width ?? 1280, height: options.height ?? 800 }, colorScheme: options.colorScheme ?? 'light',
        serviceWorkers: options.serviceWorker ? 'allow' : 'block',
      });
      // Generous: CI shares two cores with other jobs; a wait only takes this long when something is wrong.
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // Kept for a failure's report: an unexpected sign-out shows up here first.
      const unauthorised: string[] = [];
      page.on('response', (response) => { if (response.status() === 401) unauthorised.push(`${response.request().method()} ${response.url()}`); });
      const trail: string[] = [];
      page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) trail.push(new URL(frame.url()).pathname); });
      const consoleErrors: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
      // A failed test leaves a screenshot of where the page was, to look at.
      onTestFailed(async ({ task }) => {
        await page.screenshot({ path: `test-results/${task.name.replace(/\W+/g, '-')}.png` }).catch(() => {});
        console.log(`failed at ${page.url()} (after ${trail.join(' > ')})${unauthorised.length ? `; 401 from ${unauthorised.join(', ')}` : ''}${consoleErrors.length ? `; console errors: ${consoleErrors.join(' | ')}` : ''}`);
      });
      return { context, page, errors };
    },
    async createUser(values: Partial<typeof users.$inferInsert> & { email: string }, roles?: string[]) {
      const [row] = await app.db.insert(users).values({ name: 'Test User', password: passwordHash, email_verified_at: new Date(), ...values }).returning();
      await assignRoles(app.db, 'app', row.id, roles ?? [row.user_type]);
      return row;
    },
    /** A partner login; of a new firm named like it unless `partner_id` names one. */
    async createPartner(values: Partial<typeof partnerAccounts.$inferInsert> & { email: string }) {
      const partnerId = values.partner_id ?? (await app.db.insert(partners).values({ name: `${values.name ?? 'Test Partner'} ${values.email}`, email: values.email }).returning())[0].id;
      const [row] = await app.db.insert(partnerAccounts).values({ name: 'Test Partner', password: passwordHash, email_verified_at: new Date(), ...values, partner_id: partnerId }).returning();
      await assignRoles(app.db, 'partner', row.id, ['partner']);
      return row;
    },
    async close() {
      // The journey's contexts (the browser stays for the next journey in this worker).
      await Promise.all(browser.contexts().map((context) => context.close().catch(() => undefined)));
      await app.close();
      await database?.close();
      await postgres?.drop();
      await smtp.close();
    },
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** Logs in through the real form. */
export async function loginThroughForm(page: Page, email: string, password: string, path = '/') {
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Moves a signed-in page to `path` the way the app's own links do (history and a popstate, which the
 * router follows), not by loading the page again: a full load costs Chromium about four times the CPU
 * of an in-app move (docs/testing.md, "Fourth pass"). Use `page.goto` where the load itself is tested
 * (a deep link, a reload, the service worker, the first visit).
 */
export const goInApp = (page: Page, path: string) => page.evaluate((to) => {
  history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}, path);

/**
 * Closes the toasts on show with their close buttons, as a person does whose next tap one covers (on a
 * phone they lie over the top of the page): else the tap waits out their five seconds.
 */
export async function closeToasts(page: Page) {
  const shown = page.locator('.Toastify__toast[data-in="true"]');
  // A toast that leaves by itself meanwhile is as good as closed.
  while (await shown.count()) await shown.first().getByRole('button', { name: 'close' }).click({ timeout: 2_000 }).catch(() => undefined);
  // Until its exit animation ends, a closed toast still takes the taps over it.
  await page.locator('.Toastify__toast').first().waitFor({ state: 'detached' });
}

/** A minimal PDF: what the server's sniffing takes for one. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Resolves once the page's websocket has confirmed the subscription to `channel`. */
export function subscribed(page: Page, channel: string): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        const text = typeof payload === 'string' ? payload : payload.toString();
        if (text.includes('pusher_internal:subscription_succeeded') && text.includes(`"channel":"${channel}"`)) resolve();
      });
    });
  });
}

/** Marks the page: the mark survives client-side navigation and live updates, and disappears on a reload. */
export const markPage = (page: Page) => page.evaluate(() => { (window as unknown as { __noReload: boolean }).__noReload = true; });
export const wasNotReloaded = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);
export const hasNoSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
