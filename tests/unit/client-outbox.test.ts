// @vitest-environment jsdom
// The outbox (issue 5): order, backoff on no response and 5xx, 401 pause, 422 failure, new keys for
// refused items — through the real lib/api.ts against a mocked fetch and fake-indexeddb.
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn(), onChange: vi.fn(), isActive: vi.fn(() => false) }));
vi.mock('react-toastify', () => ({ toast: toasts }));

import { ApiError, resetCsrfState } from '../../src/client/lib/api';
import {
  BACKOFF_BASE_MS, BACKOFF_MAX_MS, backoffDelay, discardOutboxItem, enqueueMutation, flushOutbox, getOutboxItem,
  loadOutboxItems, loadOutboxState, outboxEnvironment, resetOutboxForTests, resubmitOutboxItem, retryOutboxItem, sendOrQueue,
} from '../../src/client/lib/outbox';
import { auth, hydrateAuth, storeLogin } from '../../src/client/stores/auth';
import { outbox } from '../../src/client/stores/outbox';
import { onChange, type Change } from '../../src/client/lib/changes';
import type { LoginResponse } from '../../src/shared/schemas/auth';
import { loadToasts } from '../../src/client/lib/toast';

// Toasts load with the first one (lib/toast); here they are loaded up front so each toast is shown at once.
beforeAll(async () => { await loadToasts(); });

const user = { id: 7, name: 'Eve Engineer', email: 'eve@example.com', user_type: 'user', email_verified_at: '2024-01-01', doc_assigned: false, status: 'active', two_fa_enabled_at: null, is_enable_2fa: false, force_password_reset: false, phone: null, parent_id: null } as const;
const loginAnswer = (token: string): LoginResponse => ({
  data: { ...user }, access_token: token, permissions: { roles: ['user'], permissions: [] },
  announcement: { status: 'off', message: '' }, message: 'Signed in successfully.', status: 'success',
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Sent { url: string; method: string; key: string; authorization: string; body: unknown }
let sent: Sent[];
/** Answers per call, in order; a function may throw to simulate "no response". */
let answers: Array<() => Response>;
let now: number;

beforeEach(async () => {
  sent = [];
  answers = [];
  now = Date.UTC(2025, 2, 1, 9, 0, 0);
  outboxEnvironment.now = () => now;
  outboxEnvironment.random = () => 0.5; // no jitter
  outboxEnvironment.autoFlush = false;
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL, init: RequestInit & { headers: Record<string, string> }) => {
    const url = String(input);
    if (url.includes('/sanctum/csrf-cookie')) return new Response(null, { status: 204 });
    sent.push({ url, method: String(init.method), key: init.headers['idempotency-key'], authorization: init.headers.authorization, body: init.body });
    const answer = answers.shift();
    return answer ? answer() : json(200, { data: { ok: true } });
  }));
  Object.values(toasts).forEach((fn) => fn.mockReset());
  resetCsrfState();
  window.history.replaceState(null, '', '/dashboard');
  await hydrateAuth();
  await storeLogin('app', loginAnswer('token-1'));
  resetOutboxForTests();
  for (const item of await loadOutboxItems()) await discardOutboxItem(item.id);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const offline = () => { throw new TypeError('Failed to fetch'); };
const enqueue = (n: number, extra: Partial<Parameters<typeof enqueueMutation>[0]> = {}) =>
  enqueueMutation({ method: 'POST', url: '/time-sheet', body: { hours: n }, label: `Sheet ${n}`, ...extra });

describe('outbox delivery', () => {
  it('delivers queued mutations in order, each with its own Idempotency-Key, and empties the queue', async () => {
    const queued = [await enqueue(1), await enqueue(2), await enqueue(3)];
    expect(outbox.items.map((item) => item.label)).toEqual(['Sheet 1', 'Sheet 2', 'Sheet 3']);
    const changes: Change[] = [];
    const stop = onChange((change) => changes.push(change));
    await flushOutbox();
    stop();
    // One change per resource and record for the whole run, so the lists on screen refetch once.
    expect(changes).toEqual([{ resource: 'time-sheet', id: null, origin: 'write' }]);
    expect(sent.map((request) => JSON.parse(String(request.body)).hours)).toEqual([1, 2, 3]);
    expect(sent.map((request) => request.key)).toEqual(queued.map((item) => item.idempotencyKey));
    expect(new Set(sent.map((request) => request.key)).size).toBe(3);
    expect(sent[0]).toMatchObject({ url: '/api/time-sheet', method: 'POST', authorization: 'Bearer token-1' });
    expect(await loadOutboxItems()).toEqual([]);
    expect(outbox.items).toEqual([]);
    await expect(queued[0].result).resolves.toEqual({ status: 'delivered', data: { data: { ok: true } } });
  });

  it('keeps the queue in IndexedDB: a fresh page load reads it back in order', async () => {
    await enqueue(1);
    await enqueue(2);
    resetOutboxForTests();
    expect(outbox.items).toEqual([]);
    await loadOutboxState();
    expect(outbox.items.map((item) => item.label)).toEqual(['Sheet 1', 'Sheet 2']);
  });

  it('stores files as blobs and sends them as multipart form data', async () => {
    // jsdom's Blob does not survive Node's structured clone (fake-indexeddb); a browser's does, as Node's own does.
    const { Blob: NodeBlob } = await import('node:buffer');
    vi.stubGlobal('Blob', NodeBlob);
    vi.stubGlobal('FormData', (await new Response(new URLSearchParams('a=1')).formData()).constructor);
    const formData = new FormData();
    formData.append('hours', '40');
    formData.append('file', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'march.pdf');
    const queued = await enqueueMutation({ method: 'POST', url: '/time-sheet', formData, label: 'Upload' });
    const stored = await getOutboxItem(queued.id);
    expect(stored?.form?.map((entry) => entry.name)).toEqual(['hours', 'file']);
    await flushOutbox();
    const body = sent[0].body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('hours')).toBe('40');
    const file = body.get('file') as File;
    expect(file.name).toBe('march.pdf');
    expect(await file.text()).toBe('%PDF-1.4');
  });
});

describe('outbox failures', () => {
  it('stops at an item with no response and retries it with the same key after an exponential backoff', async () => {
    const first = await enqueue(1);
    await enqueue(2);
    answers = [offline];
    await flushOutbox();
    expect(sent).toHaveLength(1); // strictly in order: item 2 waits behind item 1
    let [item] = await loadOutboxItems();
    expect(item).toMatchObject({ attempts: 1, status: 'pending', nextAttemptAt: now + BACKOFF_BASE_MS, idempotencyKey: first.idempotencyKey });
    expect(toasts.error).not.toHaveBeenCalled(); // background replays do not toast a network error

    await flushOutbox(); // before the backoff has passed: nothing goes out
    expect(sent).toHaveLength(1);

    now += BACKOFF_BASE_MS;
    answers = [() => json(502, { message: 'Bad gateway' })];
    await flushOutbox();
    [item] = await loadOutboxItems();
    expect(item).toMatchObject({ attempts: 2, nextAttemptAt: now + 2 * BACKOFF_BASE_MS, message: 'Bad gateway' });
    expect(sent.map((request) => request.key)).toEqual([first.idempotencyKey, first.idempotencyKey]);

    await flushOutbox({ force: true }); // the 'online' event skips the wait
    expect(sent.map((request) => JSON.parse(String(request.body)).hours)).toEqual([1, 1, 1, 2]);
    expect(sent[2].key).toBe(first.idempotencyKey);
    expect(await loadOutboxItems()).toEqual([]);
  });

  it('tries nothing while the browser says it is offline, and spends no attempt', async () => {
    await enqueue(1);
    outboxEnvironment.isOffline = () => true;
    try {
      await flushOutbox();
    } finally {
      outboxEnvironment.isOffline = () => false;
    }
    expect(sent).toEqual([]);
    expect((await loadOutboxItems())[0]).toMatchObject({ attempts: 0, status: 'pending' });
    await flushOutbox();
    expect(sent).toHaveLength(1);
  });

  it('waits out a 503 without signing the user out', async () => {
    await enqueue(1);
    answers = [() => json(503, { message: 'Service Unavailable' })];
    await flushOutbox();
    const [item] = await loadOutboxItems();
    expect(item).toMatchObject({ attempts: 1, status: 'pending', nextAttemptAt: now + BACKOFF_BASE_MS });
    expect(auth.app.token).toBe('token-1');
  });

  it('grows the backoff exponentially up to a cap', () => {
    expect([1, 2, 3, 4].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelay(40)).toBe(BACKOFF_MAX_MS);
  });

  it('pauses on 401 without dropping anything and resumes with the same key after the next login', async () => {
    const first = await enqueue(1);
    await enqueue(2);
    answers = [() => json(401, { message: 'Unauthenticated.' })];
    await flushOutbox();
    expect(sent).toHaveLength(1);
    expect(auth.app.token).toBeNull(); // the error catalogue ended the session
    expect(window.location.pathname).toBe('/');
    expect(outbox.paused.app).toBe(true);
    expect((await loadOutboxItems()).map((item) => [item.label, item.status])).toEqual([['Sheet 1', 'pending'], ['Sheet 2', 'pending']]);

    await flushOutbox({ force: true }); // still signed out: nothing is sent
    expect(sent).toHaveLength(1);

    await storeLogin('app', loginAnswer('token-2'));
    await flushOutbox();
    expect(sent.slice(1).map((request) => [request.authorization, JSON.parse(String(request.body)).hours])).toEqual([['Bearer token-2', 1], ['Bearer token-2', 2]]);
    expect(sent[1].key).toBe(first.idempotencyKey);
    expect(outbox.paused.app).toBe(false);
    expect(await loadOutboxItems()).toEqual([]);
  });

  it('marks a 422 item failed with its field errors and goes on with the rest', async () => {
    const first = await enqueue(1);
    await enqueue(2);
    answers = [() => json(422, { message: 'The hours field must be at least 8.', errors: { hours: ['The hours field must be at least 8.'] } })];
    await flushOutbox();
    expect(sent).toHaveLength(2);
    const items = await loadOutboxItems();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ label: 'Sheet 1', status: 'failed', fieldErrors: { hours: ['The hours field must be at least 8.'] } });
    expect(outbox.items[0]).toMatchObject({ status: 'failed', message: 'The hours field must be at least 8.' });
    await expect(first.result).resolves.toMatchObject({ status: 'failed', httpStatus: 422, errors: { hours: ['The hours field must be at least 8.'] } });

    await flushOutbox({ force: true }); // a failed item waits for the user, it is not resent on its own
    expect(sent).toHaveLength(2);
  });

  it('resubmits a fixed item with a new key and the edited body', async () => {
    const first = await enqueue(1);
    answers = [() => json(422, { message: 'Invalid', errors: { hours: ['Too few.'] } })];
    await flushOutbox();
    const again = await resubmitOutboxItem(first.id, { body: { hours: 40 } });
    expect(again?.idempotencyKey).not.toBe(first.idempotencyKey);
    await flushOutbox();
    expect(sent[1]).toMatchObject({ key: again!.idempotencyKey });
    expect(JSON.parse(String(sent[1].body))).toEqual({ hours: 40 });
    await expect(again!.result).resolves.toMatchObject({ status: 'delivered' });
  });

  it('retries a refused item with a new key, and an unanswered one with the same key', async () => {
    const refused = await enqueue(1);
    answers = [() => json(403, { message: 'Forbidden' })];
    await flushOutbox();
    const retried = await retryOutboxItem(refused.id);
    expect(retried?.idempotencyKey).not.toBe(refused.idempotencyKey);
    await flushOutbox();
    expect(await loadOutboxItems()).toEqual([]);

    const unanswered = await enqueue(2);
    answers = [offline];
    await flushOutbox();
    expect((await retryOutboxItem(unanswered.id))?.idempotencyKey).toBe(unanswered.idempotencyKey);
  });

  it('discards an item on request', async () => {
    const first = await enqueue(1);
    answers = [() => json(422, { message: 'Invalid', errors: { hours: ['Too few.'] } })];
    await flushOutbox();
    await discardOutboxItem(first.id);
    expect(await loadOutboxItems()).toEqual([]);
    expect(outbox.items).toEqual([]);
  });

  it('never sends an item with another user\'s session', async () => {
    await enqueue(1);
    await storeLogin('app', { ...loginAnswer('someone-else'), data: { ...user, id: 99 } });
    await flushOutbox({ force: true });
    expect(sent).toHaveLength(0);
  });
});

describe('outbox for self-service actions (issue 26)', () => {
  it('refuses a 409 that is not "still being processed" and keeps it with the server message; retries the in-progress one', async () => {
    const claim = await enqueue(1);
    await enqueue(2);
    answers = [
      () => json(409, { message: 'A request with this Idempotency-Key is still being processed.', status: 'IDEMPOTENCY_IN_PROGRESS' }),
    ];
    await flushOutbox();
    expect(sent).toHaveLength(1);
    expect((await loadOutboxItems()).map((item) => item.status)).toEqual(['pending', 'pending']);

    answers = [() => json(409, { message: 'The status of this expense is “Approved”, so it can no longer be edited.' })];
    await flushOutbox({ force: true });
    const items = await loadOutboxItems();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: claim.id, status: 'failed', message: 'The status of this expense is “Approved”, so it can no longer be edited.' });
    await expect(claim.result).resolves.toMatchObject({ status: 'failed', httpStatus: 409 });
  });

  it('records what an item weighs, and the resource and record it changes', async () => {
    const form = new FormData();
    form.append('expense[description]', 'Taxi');
    form.append('expense[receipts][]', new Blob(['x'.repeat(2048)], { type: 'image/jpeg' }), 'receipt.jpg');
    await enqueueMutation({ method: 'PUT', url: '/expense/12', formData: form, label: 'Changes to the expense claim', preview: { description: 'Taxi' } });
    const [item] = outbox.items;
    expect(item).toMatchObject({ resource: 'expense', recordId: null, preview: { description: 'Taxi' } });
    expect(item.size).toBeGreaterThanOrEqual(2048);
    await enqueueMutation({ method: 'POST', url: '/leave-application/4/transitions/withdraw', body: {}, label: 'Withdraw', resource: 'leave-application', recordId: 4 });
    expect(outbox.items[1]).toMatchObject({ resource: 'leave-application', recordId: '4' });
  });

  it('says before accepting an item that the device has no room for it, and stores nothing', async () => {
    Object.defineProperty(navigator, 'storage', { value: { estimate: async () => ({ quota: 1000, usage: 900 }) }, configurable: true });
    try {
      await expect(enqueueMutation({ method: 'POST', url: '/expense', body: { description: 'x'.repeat(500) }, label: 'Big' }))
        .rejects.toThrow(/not enough storage on this device/);
      expect(await loadOutboxItems()).toEqual([]);
    } finally {
      delete (navigator as { storage?: unknown }).storage;
    }
  });

  it('changes a waiting item in its place, keeping its key; a refused one gets a new key', async () => {
    const first = await enqueue(1);
    await enqueue(2);
    const changed = await resubmitOutboxItem(first.id, { body: { hours: 12 }, label: 'Sheet 1, corrected' });
    expect(changed?.idempotencyKey).toBe(first.idempotencyKey);
    expect((await loadOutboxItems()).map((item) => item.label)).toEqual(['Sheet 1, corrected', 'Sheet 2']);
    await flushOutbox();
    expect(JSON.parse(String(sent[0].body))).toEqual({ hours: 12 });
    expect(sent[0].key).toBe(first.idempotencyKey);
  });

  it('sends at once online, queues offline, and queues behind waiting items to keep the order', async () => {
    outboxEnvironment.autoFlush = false;
    const send = vi.fn(async (headers: Record<string, string>) => ({ sent: headers['Idempotency-Key'] }));
    const online = await sendOrQueue({ method: 'POST', url: '/leave-application', body: {}, label: 'Leave' }, send);
    expect(online.answer?.sent).toMatch(/[0-9a-f-]{36}/);
    expect(outbox.items).toHaveLength(0);

    const isOffline = outboxEnvironment.isOffline;
    outboxEnvironment.isOffline = () => true;
    try {
      const offline = await sendOrQueue({ method: 'POST', url: '/leave-application', body: { a: 1 }, label: 'Leave offline' }, send);
      expect(offline.queued).toBeDefined();
    } finally {
      outboxEnvironment.isOffline = isOffline;
    }
    // Back online with one still waiting: the next one queues behind it rather than overtaking it.
    const behind = await sendOrQueue({ method: 'POST', url: '/leave-application', body: { a: 2 }, label: 'Leave later' }, send);
    expect(behind.queued).toBeDefined();
    expect(send).toHaveBeenCalledTimes(1);
    expect(outbox.items.map((item) => item.label)).toEqual(['Leave offline', 'Leave later']);

    // No answer online: queued under the key of the attempt (the server may have it).
    for (const item of await loadOutboxItems()) await discardOutboxItem(item.id);
    let attemptKey = '';
    const lost = await sendOrQueue({ method: 'POST', url: '/expense', body: {}, label: 'Claim' }, async (headers) => {
      attemptKey = headers['Idempotency-Key'];
      throw new ApiError('Network error or server is unreachable.', null);
    });
    expect(lost.queued?.idempotencyKey).toBe(attemptKey);
  });
});
