// The outbox (issue 5): mutations that may be made offline are stored in IndexedDB (the request,
// its files as Blobs, a client-generated Idempotency-Key) and delivered through lib/api.ts, so the
// bearer, CSRF and the error catalogue (spec §8) are the same as for any call.
//
// Replay: on enqueue, on app start (startOutbox), on the 'online' event, on a login (a new token),
// and on Background Sync (the service worker posts OUTBOX_FLUSH, sw/sw.ts). Rules:
// - strictly in order (per account type); one request at a time;
// - no response or 5xx (also 408/419/429 and a 409 IDEMPOTENCY_IN_PROGRESS): the item keeps its key,
//   the flush stops, and it is retried after an exponential backoff (1 s, 2 s, 4 s … max 5 min, ±20%);
//   the server's idempotency store turns a retry of a request that did arrive into a replay;
// - 401 (and a 409 that sends the user to a password reset or verification): that account type is
//   paused, nothing is dropped; the next login (a new token) resumes it;
// - 422 or another 4xx (403 a deactivated account, 409 a claim no longer editable): that item is marked
//   failed with the server's message and field errors; the rest goes on. The user
//   discards it, or retries / resubmits with edited fields — with a NEW key, because the server
//   stored the refusal under the old one.
// Two tabs: a Web Lock keeps one flush at a time across tabs.
import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import { subscribe, useSnapshot } from 'valtio';
import type { AccountType } from '../../shared/routes';
import { IDEMPOTENCY_IN_PROGRESS } from '../../shared/idempotency';
import { EMAIL_IS_NOT_VERIFIED, FORCE_RESET_PASSWORD, TWO_FACTOR_SETUP_REQUIRED } from '../../shared/schemas/auth-status';
import { ACCOUNT_TYPES, auth } from '../stores/auth';
import { appConfig } from './config';
import { announceChange, changeFromUrl, type Change } from './changes';
import { itemsOf, outbox, removeSummary, upsertSummary, type OutboxMethod, type OutboxSummary } from '../stores/outbox';
import { accountFor, api, isApiError, type FieldErrors } from './api';
import { notify } from './toast';

export const OUTBOX_SYNC_TAG = 'outbox';
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 5 * 60 * 1000;

/** A FormData entry as IndexedDB can store it: strings, and files as Blobs with their names. */
export type StoredFormEntry = { name: string; value: string } | { name: string; blob: Blob; filename: string | null };

export interface OutboxItem extends OutboxSummary {
  /** Sort key: the order of enqueueing. */
  seq: number;
  idempotencyKey: string;
  body: unknown;
  form: StoredFormEntry[] | null;
  /** The last failure was an answer the server stored under the key: a retry needs a new key. */
  isKeySpent: boolean;
}

export interface MutationInput {
  method: OutboxMethod;
  /** Path under /api, as for lib/api.ts ('/time-sheet', '/partner/invoice'). */
  url: string;
  /** JSON body; or formData for uploads (files are kept as Blobs). */
  body?: unknown;
  formData?: FormData;
  /** Shown in the outbox list. */
  label: string;
  /** By default as lib/api.ts decides: partner for /partner/* urls, else the area the browser is in. */
  account?: AccountType;
  editPath?: string;
  /** Reuse the key of an online attempt whose answer never came back: the server may already have it. */
  idempotencyKey?: string;
  /** Issue 26: the resource and record it changes (by default read from the url), and what its list shows meanwhile. */
  resource?: string;
  recordId?: string | number | null;
  preview?: Record<string, unknown> | null;
  /** A step with no form of its own: corrected where it is listed (OutboxSummary.isFixedHere). */
  isFixedHere?: boolean;
}

/** The page the person is on: where a step with no form of its own is listed and corrected (`editPath`). */
export const currentPagePath = () => (typeof window === 'undefined' ? undefined : window.location.pathname);

/** Issue 26: the device has no room to keep the item; said before it is accepted, so nothing is lost silently. */
export class OutboxFullError extends Error {
  constructor(readonly needed: number, readonly free: number) {
    super(`There is not enough storage on this device to keep this until you are back online (${formatBytes(needed)} needed, ${formatBytes(free)} free). Free some space, or send it when you are online.`);
    this.name = 'OutboxFullError';
  }
}

/** "820 KB", "3.4 MB": the size of a queued item as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export type DeliveryResult =
  | { status: 'delivered'; data: unknown }
  | { status: 'failed'; httpStatus: number; message: string; errors: FieldErrors }
  | { status: 'discarded' };

export interface QueuedMutation {
  id: string;
  idempotencyKey: string;
  /** Settles once: delivered, failed (refused by the server) or discarded. Lost on a page reload — the item is not. */
  result: Promise<DeliveryResult>;
}

/** Seams for tests. */
export const outboxEnvironment = {
  now: () => Date.now(),
  random: () => Math.random(),
  /** Dispatches nothing when false: unit tests drive flushes themselves. */
  autoFlush: true,
  /** The browser knows it has no network: nothing is tried (or counted as an attempt) until 'online'. */
  isOffline: () => typeof navigator !== 'undefined' && navigator.onLine === false,
};

let idbStore: UseStore | null = null;
const store = () => (idbStore ??= createStore('staffing-outbox', 'items'));

const resolvers = new Map<string, (result: DeliveryResult) => void>();
let lastSeq = 0;

function nextSeq() {
  lastSeq = Math.max(lastSeq + 1, outboxEnvironment.now() * 1000);
  return lastSeq;
}

const newKey = () => crypto.randomUUID();

/** Exponential backoff with ±20% jitter, so many clients do not come back in step. */
export function backoffDelay(attempts: number): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * outboxEnvironment.random()));
}

function summaryOf(item: OutboxItem): OutboxSummary {
  const { seq: _seq, idempotencyKey: _key, body: _body, form: _form, isKeySpent: _spent, ...summary } = item;
  // Items queued by an earlier version carry no size or resource: read them from what they hold.
  const resource = summary.resource ?? changeFromUrl(item.url, 'write')?.resource ?? null;
  return {
    ...summary, fieldErrors: { ...summary.fieldErrors }, size: summary.size ?? sizeOf(item.body, item.form),
    resource, recordId: summary.recordId ?? null, preview: summary.preview ?? null,
  };
}

/** Bytes an item takes on the device: its JSON body, or its text parts and files. */
function sizeOf(body: unknown, form: StoredFormEntry[] | null): number {
  if (!form) return body === null || body === undefined ? 0 : new Blob([JSON.stringify(body)]).size;
  return form.reduce((total, entry) => total + ('blob' in entry ? entry.blob.size : entry.name.length + entry.value.length), 0);
}

/** Refuses an item the browser's storage quota has no room for (where the browser tells its quota). */
async function checkRoom(size: number): Promise<void> {
  const estimate = typeof navigator !== 'undefined' ? await navigator.storage?.estimate?.().catch(() => null) : null;
  if (!estimate?.quota) return;
  const free = Math.max(0, estimate.quota - (estimate.usage ?? 0));
  if (size > free) throw new OutboxFullError(size, free);
}

async function saveItem(item: OutboxItem) {
  await set(item.id, item, store());
  upsertSummary(summaryOf(item));
}

async function removeItem(id: string, result: DeliveryResult) {
  await del(id, store());
  removeSummary(id);
  resolvers.get(id)?.(result);
  resolvers.delete(id);
}

/** All stored items, in order. */
export async function loadOutboxItems(): Promise<OutboxItem[]> {
  const all = (await entries<string, OutboxItem>(store())).map(([, item]) => item);
  return all.sort((a, b) => a.seq - b.seq);
}

/** The stored item with its body and files, for a feature's "fix and resubmit" form. */
export const getOutboxItem = (id: string) => get<OutboxItem>(id, store());

function toStoredForm(formData: FormData): StoredFormEntry[] {
  const stored: StoredFormEntry[] = [];
  formData.forEach((value, name) => {
    stored.push(typeof value === 'string' ? { name, value } : { name, blob: value, filename: (value as File).name ?? null });
  });
  return stored;
}

function toFormData(stored: StoredFormEntry[]): FormData {
  const formData = new FormData();
  for (const entry of stored) {
    if ('blob' in entry) {
      if (entry.filename) formData.append(entry.name, entry.blob, entry.filename);
      else formData.append(entry.name, entry.blob);
    } else {
      formData.append(entry.name, entry.value);
    }
  }
  return formData;
}

let persistenceAsked = false;
/** Queued uploads must survive storage pressure: ask once for persistent storage. */
function requestPersistence() {
  if (persistenceAsked || typeof navigator === 'undefined' || !navigator.storage?.persist) return;
  persistenceAsked = true;
  navigator.storage.persisted()
    .then((already) => already || navigator.storage.persist())
    .then((granted) => { outbox.isPersisted = granted; })
    .catch(() => { outbox.isPersisted = false; });
}

/** Background Sync where the browser has it: the service worker wakes a window to flush when the network is back. */
function registerBackgroundSync() {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.getRegistration('/')
    .then((registration) => (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync?.register(OUTBOX_SYNC_TAG))
    .catch(() => { /* no Background Sync: 'online' and app start still flush */ });
}

/** Queues a mutation and starts a flush. Resolves once the item is stored in IndexedDB. */
export async function enqueueMutation(input: MutationInput): Promise<QueuedMutation> {
  const account = input.account ?? accountFor(input.url);
  const body = input.formData ? null : (input.body ?? null);
  const form = input.formData ? toStoredForm(input.formData) : null;
  const size = sizeOf(body, form);
  await checkRoom(size);
  const item: OutboxItem = {
    id: crypto.randomUUID(),
    seq: nextSeq(),
    label: input.label,
    method: input.method,
    url: input.url,
    account,
    userId: auth[account].user?.id ?? null,
    createdAt: new Date(outboxEnvironment.now()).toISOString(),
    attempts: 0,
    status: 'pending',
    nextAttemptAt: null,
    message: null,
    fieldErrors: {},
    editPath: input.editPath ?? null,
    size,
    resource: input.resource ?? changeFromUrl(input.url, 'write')?.resource ?? null,
    recordId: input.recordId === null || input.recordId === undefined ? null : String(input.recordId),
    preview: input.preview ?? null,
    isFixedHere: input.isFixedHere ?? false,
    idempotencyKey: input.idempotencyKey ?? newKey(),
    body,
    form,
    isKeySpent: false,
  };
  const result = new Promise<DeliveryResult>((resolve) => resolvers.set(item.id, resolve));
  await saveItem(item);
  requestPersistence();
  if (outboxEnvironment.autoFlush) void flushOutbox();
  return { id: item.id, idempotencyKey: item.idempotencyKey, result };
}

type Outcome =
  | { kind: 'delivered'; data: unknown }
  | { kind: 'retry'; message: string }
  | { kind: 'pause' }
  | { kind: 'failed'; status: number; message: string; errors: FieldErrors };

async function send(item: OutboxItem): Promise<Outcome> {
  const method = item.method.toLowerCase() as Lowercase<OutboxMethod>;
  const options = { account: item.account, silent: true, retriesLater: true, headers: { 'Idempotency-Key': item.idempotencyKey } };
  let body: unknown;
  try {
    body = item.form ? toFormData(item.form) : item.body;
  } catch (error) {
    // A stored body that cannot be rebuilt must not block the queue behind it.
    console.error('Outbox item could not be rebuilt', error);
    return { kind: 'failed', status: 0, message: 'This change could not be read back from storage.', errors: {} };
  }
  try {
    const data = method === 'delete' ? await api.delete(item.url, options) : await api[method](item.url, body, options);
    return { kind: 'delivered', data };
  } catch (error) {
    if (!isApiError(error) || error.status === null) return { kind: 'retry', message: 'No connection' };
    const { status } = error;
    if (status === 401 || (status === 409 && (error.code === FORCE_RESET_PASSWORD || error.code === EMAIL_IS_NOT_VERIFIED || error.code === TWO_FACTOR_SETUP_REQUIRED))) return { kind: 'pause' };
    // The same key still being processed: later. Any other 409 (no longer editable, decided first) is a refusal.
    const isInProgress = status === 409 && error.code === IDEMPOTENCY_IN_PROGRESS;
    if (status >= 500 || status === 408 || status === 419 || status === 429 || isInProgress) return { kind: 'retry', message: error.message };
    return { kind: 'failed', status, message: error.message, errors: error.errors };
  }
}

/** Whether the item may be sent now: its user is signed in on its account type. */
function canSend(item: OutboxItem) {
  const state = auth[item.account];
  if (!state.token) return false;
  return item.userId === null || state.user?.id === undefined || state.user.id === item.userId;
}

let retryTimer: ReturnType<typeof setTimeout> | null = null;
let retryAt = Infinity;

function scheduleFlush(delay: number) {
  if (!outboxEnvironment.autoFlush) return;
  const at = outboxEnvironment.now() + delay;
  if (retryTimer && retryAt <= at) return;
  if (retryTimer) clearTimeout(retryTimer);
  retryAt = at;
  retryTimer = setTimeout(() => { retryTimer = null; retryAt = Infinity; void flushOutbox(); }, Math.max(0, delay));
}

async function flushOnce(force: boolean): Promise<void> {
  if (outboxEnvironment.isOffline()) return;
  const blocked = new Set<AccountType>();
  for (const listed of await loadOutboxItems()) {
    // Re-read: the user may have discarded it while earlier items were being sent.
    const item = await get<OutboxItem>(listed.id, store());
    if (!item || item.status !== 'pending' || blocked.has(item.account)) continue;
    if (!canSend(item)) { blocked.add(item.account); continue; }
    outbox.paused[item.account] = false;
    const now = outboxEnvironment.now();
    if (!force && item.nextAttemptAt !== null && item.nextAttemptAt > now) {
      // In order: nothing behind it goes first.
      scheduleFlush(item.nextAttemptAt - now);
      return;
    }

    const outcome = await send(item);
    if (outcome.kind === 'delivered') {
      await removeItem(item.id, { status: 'delivered', data: outcome.data });
      deliveredInRun.push(item.label);
      const change = changeFromUrl(item.url, 'write');
      if (change) changedInRun.set(`${change.resource}/${String(change.id ?? '')}`, change);
    } else if (outcome.kind === 'pause') {
      outbox.paused[item.account] = true;
      blocked.add(item.account);
    } else if (outcome.kind === 'retry') {
      const attempts = item.attempts + 1;
      const delay = backoffDelay(attempts);
      await saveItem({ ...item, attempts, nextAttemptAt: outboxEnvironment.now() + delay, message: outcome.message });
      registerBackgroundSync();
      scheduleFlush(delay);
      return;
    } else {
      await saveItem({
        ...item, attempts: item.attempts + 1, status: 'failed', nextAttemptAt: null,
        message: outcome.message, fieldErrors: outcome.errors, isKeySpent: true,
      });
      notify.error(`Not sent: ${item.label}. ${outcome.message}`, { toastId: `outbox-${item.id}` });
      resolvers.get(item.id)?.({ status: 'failed', httpStatus: outcome.status, message: outcome.message, errors: outcome.errors });
      resolvers.delete(item.id);
    }
  }
}

/** Labels of what one flush delivered: told once at its end, not as a toast per item. */
let deliveredInRun: string[] = [];
/** What the delivered items changed, once each: the query cache (when signed in) refetches it once. */
let changedInRun = new Map<string, Change>();

function announceDelivered() {
  if (!deliveredInRun.length) return;
  const [first] = deliveredInRun;
  notify.success(deliveredInRun.length === 1 ? `Sent: ${first}.` : `${deliveredInRun.length} queued changes sent.`, { toastId: 'outbox-delivered' });
  deliveredInRun = [];
  const changes = [...changedInRun.values()];
  changedInRun = new Map();
  for (const change of changes) announceChange(change);
}

let running: Promise<void> | null = null;
let again = false;
let forceAgain = false;

type LockManagerLike = { request(name: string, options: { ifAvailable: boolean }, callback: (lock: unknown) => Promise<void>): Promise<void> };

async function withFlushLock(run: () => Promise<void>): Promise<void> {
  const locks = (typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManagerLike }).locks : undefined);
  if (!locks) return run();
  await locks.request('staffing-outbox-flush', { ifAvailable: true }, async (lock) => {
    if (lock) return run();
    scheduleFlush(2000); // another tab is flushing; look again shortly
  });
}

/** Sends what can be sent now. `force` ignores backoff (the network just came back). Concurrent calls share one run. */
export function flushOutbox(options: { force?: boolean } = {}): Promise<void> {
  if (running) {
    again = true;
    forceAgain ||= !!options.force;
    return running;
  }
  let force = !!options.force;
  outbox.isFlushing = true;
  running = (async () => {
    do {
      again = false;
      await withFlushLock(() => flushOnce(force));
      force = forceAgain;
      forceAgain = false;
    } while (again);
  })().catch((error) => console.error('Outbox flush failed', error)).finally(() => {
    running = null;
    outbox.isFlushing = false;
    announceDelivered();
  });
  return running;
}

async function updateItem(id: string, change: (item: OutboxItem) => OutboxItem): Promise<QueuedMutation | null> {
  const item = await get<OutboxItem>(id, store());
  if (!item) return null;
  const next = change(item);
  await saveItem(next);
  const result = new Promise<DeliveryResult>((resolve) => resolvers.set(id, resolve));
  if (outboxEnvironment.autoFlush) void flushOutbox({ force: true });
  return { id, idempotencyKey: next.idempotencyKey, result };
}

const requeued = (item: OutboxItem): OutboxItem => ({ ...item, status: 'pending', attempts: 0, nextAttemptAt: null, message: null, fieldErrors: {}, isKeySpent: false });

/** Send again now. A refused item gets a new key (the refusal is stored under the old one). */
export const retryOutboxItem = (id: string) =>
  updateItem(id, (item) => ({ ...requeued(item), idempotencyKey: item.isKeySpent ? newKey() : item.idempotencyKey }));

/**
 * The user changed a waiting item, or fixed a refused one: new body, same place in the queue. A refused
 * item gets a new key (the refusal is stored under the old one); a waiting one keeps its key, so if an
 * earlier attempt did reach the server, the changed body is refused as a different request (and shown)
 * rather than filed a second time.
 */
export async function resubmitOutboxItem(id: string, input: { body?: unknown; formData?: FormData; label?: string; preview?: Record<string, unknown> | null }) {
  const form = input.formData ? toStoredForm(input.formData) : null;
  const current = await get<OutboxItem>(id, store());
  if (!current) return null;
  const body = input.formData ? null : (input.body ?? current.body);
  const stored = input.formData ? form : (input.body !== undefined ? null : current.form);
  const size = sizeOf(body, stored);
  await checkRoom(Math.max(0, size - (current.size ?? 0)));
  return updateItem(id, (item) => ({
    ...requeued(item),
    idempotencyKey: item.isKeySpent ? newKey() : item.idempotencyKey,
    body,
    form: stored,
    size,
    label: input.label ?? item.label,
    preview: input.preview === undefined ? item.preview : input.preview,
  }));
}

/** Whether an account has items waiting to be sent (a new change then queues behind them, to keep the order). */
const hasWaiting = (account: AccountType) => outbox.items.some((item) => item.account === account && item.status === 'pending');

/**
 * Issue 26: a self-service change, sent now or kept in the outbox. Offline, or with earlier changes of the
 * account still waiting, it is queued at once; online, `send` runs with a fresh Idempotency-Key, and when
 * no answer comes back the item is queued under that same key (the server may have it already).
 * A refusal (422, 409, 403) is the caller's, as for any call.
 */
export async function sendOrQueue<R>(input: MutationInput, send: (headers: Record<string, string>) => Promise<R>): Promise<{ answer: R; queued?: undefined } | { queued: QueuedMutation; answer?: undefined }> {
  const account = input.account ?? accountFor(input.url);
  if (outboxEnvironment.isOffline() || hasWaiting(account)) return { queued: await enqueueMutation({ ...input, account }) };
  const idempotencyKey = newKey();
  try {
    return { answer: await send({ 'Idempotency-Key': idempotencyKey }) };
  } catch (error) {
    if (isApiError(error) && error.status === null) return { queued: await enqueueMutation({ ...input, account, idempotencyKey }) };
    throw error;
  }
}

export async function discardOutboxItem(id: string): Promise<void> {
  await removeItem(id, { status: 'discarded' });
}

/** Reads the stored queue into the store (summaries only). */
export async function loadOutboxState(): Promise<void> {
  const items = await loadOutboxItems();
  outbox.items = items.map(summaryOf);
  lastSeq = Math.max(lastSeq, ...items.map((item) => item.seq), 0);
}

let started = false;
/** App start: read the queue, flush, and flush again on reconnect, on a login and on the worker's Background Sync. */
export async function startOutbox(): Promise<void> {
  if (started) return;
  started = true;
  try {
    await loadOutboxState();
  } catch (error) {
    console.error('Could not read the outbox', error);
    return;
  }
  window.addEventListener('online', () => void flushOutbox({ force: true }));
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'OUTBOX_FLUSH') void flushOutbox({ force: true });
  });
  for (const account of ACCOUNT_TYPES) {
    let token = auth[account].token;
    subscribe(auth[account], () => {
      if (auth[account].token && auth[account].token !== token) void flushOutbox({ force: true });
      token = auth[account].token;
    });
  }
  if (outbox.items.length) requestPersistence();
  // The e2e suite queues a mutation offline through this hook; production (APP_ENV) never has it.
  if (appConfig.env !== 'production') {
    (window as unknown as { __outbox?: unknown }).__outbox = { enqueueMutation, flushOutbox, loadOutboxItems, outboxEnvironment };
  }
  void flushOutbox();
}

/** Test seam: forget in-memory state (the IndexedDB store is the test's to clear). */
export function resetOutboxForTests() {
  resolvers.clear();
  lastSeq = 0;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  retryAt = Infinity;
  running = null;
  again = false;
  forceAgain = false;
  outbox.items = [];
  outbox.paused = { app: false, partner: false };
}

/** The outbox of the signed-in user of an account type, and its actions. */
export function useOutbox(account: AccountType) {
  const snap = useSnapshot(outbox);
  const user = useSnapshot(auth[account]).user;
  const items = itemsOf(snap.items, account, user?.id);
  return {
    items,
    pendingCount: items.filter((item) => item.status === 'pending').length,
    failedCount: items.filter((item) => item.status === 'failed').length,
    isPaused: snap.paused[account],
    isFlushing: snap.isFlushing,
    totalSize: items.reduce((total, item) => total + item.size, 0),
    enqueue: enqueueMutation,
    flush: () => flushOutbox({ force: true }),
    retry: retryOutboxItem,
    resubmit: resubmitOutboxItem,
    discard: discardOutboxItem,
  };
}
