// ARCHITECTURE "Idempotency": a mutation may carry `Idempotency-Key`; the first response per
// (account, key) is stored for 24 hours and replayed for a repeat, so a retried outbox item never
// creates a second record. The same key with a different request is refused with 422.
// JSON bodies are compared in the preHandler. A multipart body is streamed to its handler, so a
// multipart route reads its parts first and then calls `claimIdempotency` with a digest of what it
// read (fields and file hashes): the browser picks a new boundary on every retry, so the raw bytes
// cannot tell a retry from a different upload.
// Rows are claimed (status_code null) before the handler runs and hold the answer after it. Expired
// rows are swept now and then by the claims themselves; a claim whose request never answered (the
// process died, or storing the answer failed) is taken over by a retry after ABANDONED_CLAIM_SECONDS.
import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyKeys } from '../db/schema/idempotency';
import { IDEMPOTENCY_IN_PROGRESS } from '../../shared/idempotency';
import { HttpError, validationError } from './errors';

export const IDEMPOTENCY_TTL_HOURS = 24;
/**
 * An unfinished claim older than this is abandoned and a retry with the same request takes it over.
 * Why: a claim whose process died before the answer was stored (or whose answer could not be
 * stored) would otherwise answer 409 "still being processed" for 24 hours, and the outbox retries a
 * 409 in order, so the account's whole queue would be stuck. Two minutes is far beyond any handler
 * here (a multipart upload claims only after its parts are read), and a late original can no longer
 * write over the retry's claim (its row is matched by `created_at` too, see `claim`).
 */
export const ABANDONED_CLAIM_SECONDS = 120;
/** How often a process deletes expired rows: on the next claim after this long, so no timer to stop. */
export const IDEMPOTENCY_SWEEP_INTERVAL_MS = 5 * 60_000;
const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once a key is claimed: where its row is, so onSend can store the answer. */
    idempotency: { where: ReturnType<typeof and> } | null;
  }
}

const isMultipart = (request: FastifyRequest) => String(request.headers['content-type'] ?? '').startsWith('multipart/');

/** Method, path and body (or, for multipart, the route's digest of its parts): what makes two requests "the same". */
function fingerprint(request: FastifyRequest, body: string): string {
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

/** The request's key, validated; undefined when the request carries none or is not an account's mutation. */
function keyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (!MUTATIONS.has(request.method) || key === undefined || !request.account) return undefined;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw validationError({ 'Idempotency-Key': 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.' });
  }
  return key;
}

/** The first request's stored answer, for a repeat. */
export type StoredAnswer = typeof idempotencyKeys.$inferSelect;

/** The database's clock minus `interval` (the rows' created_at comes from the database too). */
const ago = (interval: string) => sql`now() - ${interval}::interval`;
/** A claim's time, to the millisecond so that it round-trips through a JS Date and identifies the claim. */
const claimTime = sql`date_trunc('milliseconds', now())`;

/** When this process last swept each database (per database: tests run several apps in one process). */
const lastSweep = new WeakMap<object, number>();

/** Deletes the rows older than IDEMPOTENCY_TTL_HOURS (uses the created_at index). */
async function sweepExpiredIdempotencyKeys(app: FastifyInstance) {
  await app.db.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, ago(`${IDEMPOTENCY_TTL_HOURS} hours`)));
}

/** Sweeps at most once per IDEMPOTENCY_SWEEP_INTERVAL_MS per process; a failed sweep only waits for the next. */
async function sweepIfDue(app: FastifyInstance, request: FastifyRequest) {
  const now = Date.now();
  if (now - (lastSweep.get(app.db) ?? 0) < IDEMPOTENCY_SWEEP_INTERVAL_MS) return;
  lastSweep.set(app.db, now);
  try {
    await sweepExpiredIdempotencyKeys(app);
  } catch (err) {
    request.log.warn({ err }, 'idempotency: sweeping expired keys failed');
  }
}

/**
 * Claims the request's key for this fingerprint. Null: go on (the answer will be stored). Otherwise
 * the first request's answer, to replay. A key used for a different request: 422; one whose first
 * request is still running: 409.
 */
async function claim(app: FastifyInstance, request: FastifyRequest, key: string, print: string): Promise<StoredAnswer | null> {
  await sweepIfDue(app, request);
  const { type, id } = request.account!;
  const where = and(eq(idempotencyKeys.account_type, type), eq(idempotencyKeys.account_id, id), eq(idempotencyKeys.key, key));

  // One statement, so of concurrent retries exactly one gets the row: a new key is inserted; an
  // existing row is taken over only if it expired (any request) or is an abandoned claim of this
  // same request. An abandoned claim of a different request stays a 422 below.
  const [claimed] = await app.db.insert(idempotencyKeys)
    .values({ account_type: type, account_id: id, key, fingerprint: print, created_at: claimTime })
    .onConflictDoUpdate({
      target: [idempotencyKeys.account_type, idempotencyKeys.account_id, idempotencyKeys.key],
      set: { fingerprint: print, status_code: null, response: null, content_type: null, created_at: claimTime },
      setWhere: or(
        lt(idempotencyKeys.created_at, ago(`${IDEMPOTENCY_TTL_HOURS} hours`)),
        and(
          isNull(idempotencyKeys.status_code),
          eq(idempotencyKeys.fingerprint, print),
          lt(idempotencyKeys.created_at, ago(`${ABANDONED_CLAIM_SECONDS} seconds`)),
        ),
      ),
    })
    .returning({ created_at: idempotencyKeys.created_at });
  if (claimed) {
    // Matched by its time too: if this claim is ever taken over, this request no longer writes to the row.
    request.idempotency = { where: and(where, eq(idempotencyKeys.created_at, claimed.created_at)) };
    return null;
  }
  const [existing] = await app.db.select().from(idempotencyKeys).where(where).limit(1);
  if (!existing) throw new HttpError(409, 'Please retry this request.', IDEMPOTENCY_IN_PROGRESS);
  if (existing.fingerprint !== print) {
    throw validationError({ 'Idempotency-Key': 'This Idempotency-Key was already used for a different request.' });
  }
  if (existing.status_code === null) throw new HttpError(409, 'A request with this Idempotency-Key is still being processed.', IDEMPOTENCY_IN_PROGRESS);
  return existing;
}

/**
 * For multipart routes, after reading the parts and before changing anything: `digest` stands for
 * the content (field values, file hashes). Null: go on; otherwise send `replay(reply, answer)`.
 */
export async function claimIdempotency(request: FastifyRequest, digest: string): Promise<StoredAnswer | null> {
  const key = keyOf(request);
  if (key === undefined) return null;
  return claim(request.server, request, key, fingerprint(request, `multipart:${digest}`));
}

export function replay(reply: FastifyReply, row: StoredAnswer) {
  return reply.status(row.status_code!).header('Idempotent-Replayed', 'true')
    .type(row.content_type ?? 'application/json; charset=utf-8').send(JSON.stringify(row.response));
}

export function registerIdempotency(app: FastifyInstance) {
  app.decorateRequest('idempotency', null);

  // preHandler: after authentication (onRequest) and body validation, before the handler. A callback
  // hook (issue 27): a request with no key to claim (every read) passes without a promise.
  app.addHook('preHandler', (request, reply, done) => {
    const key = keyOf(request);
    // A multipart route claims the key itself once it has read its parts (claimIdempotency).
    if (key === undefined || isMultipart(request)) return done();
    claim(app, request, key, fingerprint(request, JSON.stringify(request.body ?? null))).then((answered) => {
      if (answered) replay(reply, answered);
      else done();
    }, done);
  });

  // Store the first answer; a server error (or a payload that cannot be stored) releases the claim,
  // so the client's retry runs again. Thrown errors get here too, through the error handler's reply.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.idempotency) return done(null, payload);
    store(request, reply, payload).then((stored) => done(null, stored), done);
  });

  const store = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const record = request.idempotency!;
    request.idempotency = null;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await app.db.delete(idempotencyKeys).where(record.where);
      return payload;
    }
    let response: unknown = payload;
    try { response = JSON.parse(payload); } catch { /* stored as a JSON string */ }
    await app.db.update(idempotencyKeys)
      .set({ status_code: reply.statusCode, response, content_type: String(reply.getHeader('content-type') ?? '') })
      .where(record.where);
    return payload;
  };
}
