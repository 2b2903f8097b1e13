// Replay benchmark (issue 5): 500 time-sheet uploads queued offline in the real outbox are delivered
// after reconnect with zero duplicates and zero losses. To provoke the case idempotency exists for,
// a share of the server's answers is dropped on the way back (the server has stored the upload,
// the browser sees a network error and retries with the same Idempotency-Key).
// Run: npx vite build && node --import tsx bench/outbox-replay.ts [--uploads=500] [--drop=0.05]
import { eq, sql } from 'drizzle-orm';
import { idempotencyKeys } from '../src/server/db/schema/idempotency';
import { timeSheets } from '../src/server/db/schema/time-sheets';
import { arg, dropAnswers, replayUntilEmpty, startOutboxBench } from './outbox-stack';

const UPLOADS = arg('uploads', 500);
const DROP_RATE = arg('drop', 0.05);

const bench = await startOutboxBench();
const { app, client, engineer, context, page } = bench;

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

const dropped = await dropAnswers(page, '**/api/time-sheet', DROP_RATE);
const replayMs = await replayUntilEmpty(bench, 15);

const [{ rows, distinct }] = await app.db.select({ rows: sql<number>`count(*)::int`, distinct: sql<number>`count(distinct note)::int` })
  .from(timeSheets).where(eq(timeSheets.user_id, engineer.id));
const [{ replays }] = await app.db.select({ replays: sql<number>`count(*)::int` }).from(idempotencyKeys);
console.log(JSON.stringify({
  uploads: UPLOADS, dropRate: DROP_RATE, droppedResponses: dropped(), queueMs, replayMs,
  perUploadMs: +(replayMs / UPLOADS).toFixed(1), recordsOnServer: rows, distinctRecords: distinct,
  duplicates: rows - distinct, losses: UPLOADS - distinct, idempotencyKeysStored: replays,
}, null, 2));
await bench.close();
process.exit(rows === UPLOADS && distinct === UPLOADS ? 0 : 1);
