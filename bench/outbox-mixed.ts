// Replay benchmark (issue 26): a mix of self-service actions queued offline in the real outbox — expense
// claims as JSON and claims with a photo receipt of 1 to 5 MB (multipart, the file kept in IndexedDB) —
// delivered after reconnect in order, each once. A share of the server's answers is dropped on the way
// back, so retries under the same Idempotency-Key (multipart ones claimed by their parts' digest) happen.
// Run: npx vite build && node --import tsx bench/outbox-mixed.ts [--actions=200] [--files=50] [--drop=0.05]
import { and, eq, sql } from 'drizzle-orm';
import { expenses } from '../src/server/db/schema/hr';
import { expenseCategories } from '../src/server/db/schema/master-data';
import { attachments } from '../src/server/db/schema/workflow';
import { arg, dropAnswers, replayUntilEmpty, startOutboxBench } from './outbox-stack';

const ACTIONS = arg('actions', 200);
const FILES = Math.min(arg('files', 50), ACTIONS);
const DROP_RATE = arg('drop', 0.05);

const bench = await startOutboxBench();
const { app, client, engineer, context, page } = bench;
const [category] = await app.db.insert(expenseCategories).values({ name: 'Bench travel' }).returning();

await context.setOffline(true);
const queued = Date.now();
// Every (ACTIONS / FILES)th action carries a receipt of 1 to 5 MB; the others are JSON claims under the receipt threshold.
const queuedBytes = await page.evaluate(async ({ count, files, clientId, categoryId }) => {
  const hook = (window as unknown as { __outbox: { enqueueMutation(input: unknown): Promise<unknown> } }).__outbox;
  const every = Math.max(1, Math.floor(count / Math.max(files, 1)));
  let bytes = 0;
  let withFile = 0;
  for (let i = 0; i < count; i++) {
    const fields = { description: `item-${i}`, expense_category_id: categoryId, expense_date: '2026-03-02', currency: 'EUR', client_id: clientId };
    if (withFile < files && i % every === 0) {
      withFile++;
      const size = (1 + (withFile % 5)) * 1024 * 1024;
      const photo = new Uint8Array(size);
      photo.set([0xff, 0xd8, 0xff, 0xe0]);
      for (let b = 4; b < size; b += 4096) photo[b] = (b / 4096 + i) % 256;
      const form = new FormData();
      for (const [key, value] of Object.entries({ ...fields, amount: 120 })) form.append(`expense[${key}]`, String(value));
      form.append('expense[receipts][]', new Blob([photo], { type: 'image/jpeg' }), `receipt-${i}.jpg`);
      bytes += size;
      await hook.enqueueMutation({ method: 'POST', url: '/expense', formData: form, label: `Claim ${i} with receipt` });
    } else {
      await hook.enqueueMutation({ method: 'POST', url: '/expense', body: { ...fields, amount: 20 }, label: `Claim ${i}` });
    }
  }
  return bytes;
}, { count: ACTIONS, files: FILES, clientId: client.id, categoryId: category.id });
const queueMs = Date.now() - queued;

const dropped = await dropAnswers(page, '**/api/expense', DROP_RATE);
const replayMs = await replayUntilEmpty(bench, 20);

const rows = await app.db.select({ id: expenses.id, description: expenses.description }).from(expenses).where(eq(expenses.user_id, engineer.id)).orderBy(expenses.id);
const distinct = new Set(rows.map((row) => row.description)).size;
// In the order made: the ids follow the item numbers.
const inOrder = rows.every((row, i) => row.description === `item-${i}`);
const [{ receipts }] = await app.db.select({ receipts: sql<number>`count(*)::int` }).from(attachments).where(and(eq(attachments.resource, 'expense')));
console.log(JSON.stringify({
  actions: ACTIONS, withFiles: FILES, queuedMegabytes: +(queuedBytes / 1024 / 1024).toFixed(1), dropRate: DROP_RATE, droppedResponses: dropped(),
  queueMs, replayMs, perActionMs: +(replayMs / ACTIONS).toFixed(1), recordsOnServer: rows.length, distinctRecords: distinct,
  duplicates: rows.length - distinct, losses: ACTIONS - distinct, inOrder, receiptsStored: receipts,
}, null, 2));
await bench.close();
process.exit(rows.length === ACTIONS && distinct === ACTIONS && inOrder && receipts === FILES ? 0 : 1);
