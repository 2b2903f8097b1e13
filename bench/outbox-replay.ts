// Replay benchmark (issue 5): 500 time-sheet uploads queued offline in the real outbox are delivered
// after reconnect with zero duplicates and zero losses. To provoke the case idempotency exists for,
// a share of the server's answers is dropped on the way back (the server has stored the upload,
// the browser sees a network error and retries with the same Idempotency-Key).
// Run: npx vite build && node --import tsx bench/outbox-replay.ts [--uploads=500] [--drop=0.05]
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/server/app';
import { clients } from '../src/server/db/schema/master-data';
import { idempotencyKeys } from '../src/server/db/schema/idempotency';
import { timeSheets } from '../src/server/db/schema/time-sheets';
import { users } from '../src/server/db/schema/accounts';
import { assignRoles } from '../src/server/db/seed';
import { hash } from '@node-rs/argon2';
import { testConfig } from '../tests/helpers/app';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const UPLOADS = arg('uploads', 500);
const DROP_RATE = arg('drop', 0.05);

const app = await buildApp(testConfig({ clientDir: resolve('dist'), appEnv: 'testing' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const [client] = await app.db.insert(clients).values({ name: 'Bench Client' }).returning();
const [engineer] = await app.db.insert(users).values({ name: 'Field Engineer', email: 'engineer@example.com', password: await hash('secret-password'), user_type: 'user', parent_id: 1, email_verified_at: new Date() }).returning();
await assignRoles(app.db, 'app', engineer.id, ['user']);

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
// Service workers blocked so page.route sees every request (the outbox itself lives in the page).
const context = await browser.newContext({ baseURL: base, serviceWorkers: 'block' });
const page = await context.newPage();
await page.goto('/');
await page.fill('input[name=email]', 'engineer@example.com');
await page.fill('input[name=password]', 'secret-password');
await page.click('button[type=submit]');
await page.waitForURL('**/dashboard');

await context.setOffline(true);
const queued = Date.now();
await page.evaluate(async ({ count, clientId }) => {
  const hook = (window as unknown as { __outbox: { enqueueMutation(input: unknown): Promise<unknown> } }).__outbox;
  const pdf = new Blob(['%PDF-1.4\n' + 'x'.repeat(2000) + '\n%%EOF\n'], { type: 'application/pdf' });
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append('client_id', String(clientId));
    form.append('period_type', 'week');
    // One week each, going back from March 2026: the server refuses a second sheet for the same period.
    form.append('period_start', new Date(Date.UTC(2026, 2, 2) - i * 7 * 86_400_000).toISOString().slice(0, 10));
    form.append('hours', '40');
    form.append('note', `item-${i}`);
    form.append('file', pdf, `week-${i}.pdf`);
    await hook.enqueueMutation({ method: 'POST', url: '/time-sheet', formData: form, label: `Time sheet ${i}` });
  }
}, { count: UPLOADS, clientId: client.id });
const queueMs = Date.now() - queued;

let dropped = 0;
await page.route('**/api/time-sheet', async (route) => {
  const response = await route.fetch();
  if (Math.random() < DROP_RATE) { dropped++; return route.abort('connectionreset'); }
  return route.fulfill({ response });
});

const reconnected = Date.now();
await context.setOffline(false);
const pending = () => page.evaluate(async () =>
  (await (window as unknown as { __outbox: { loadOutboxItems(): Promise<unknown[]> } }).__outbox.loadOutboxItems()).length);
while (await pending() > 0) {
  if (Date.now() - reconnected > 15 * 60_000) throw new Error('Replay did not finish in 15 minutes');
  await new Promise((r) => setTimeout(r, 250));
}
const replayMs = Date.now() - reconnected;

const [{ rows, distinct }] = await app.db.select({ rows: sql<number>`count(*)::int`, distinct: sql<number>`count(distinct note)::int` })
  .from(timeSheets).where(eq(timeSheets.user_id, engineer.id));
const [{ replays }] = await app.db.select({ replays: sql<number>`count(*)::int` }).from(idempotencyKeys);
console.log(JSON.stringify({
  uploads: UPLOADS, dropRate: DROP_RATE, droppedResponses: dropped, queueMs, replayMs,
  perUploadMs: +(replayMs / UPLOADS).toFixed(1), recordsOnServer: rows, distinctRecords: distinct,
  duplicates: rows - distinct, losses: UPLOADS - distinct, idempotencyKeysStored: replays,
}, null, 2));
await browser.close();
await app.close();
process.exit(rows === UPLOADS && distinct === UPLOADS ? 0 : 1);
