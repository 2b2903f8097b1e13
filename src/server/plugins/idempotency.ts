// ARCHITECTURE "Idempotency": a mutation may carry `Idempotency-Key`; the first response per
// (account, key) is stored for 24 hours and replayed for a repeat, so a retried outbox item never
// creates a second record. The same key with a different request is refused with 422.
// JSON bodies are compared in the preHandler. A multipart body is streamed to its handler, so a
// multipart route reads its parts first and then calls `claimIdempotency` with a digest of what it
// read (fields and file hashes): the browser picks a new boundary on every retry, so the raw bytes
// cannot tell a retry from a different upload.
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyKeys } from '../db/schema/idempotency';
import { HttpError, validationError } from './errors';

export const IDEMPOTENCY_TTL_HOURS = 24;
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

/**
 * Claims the request's key for this fingerprint. Null: go on (the answer will be stored). Otherwise
 * the first request's answer, to replay. A key used for a different request: 422; one whose first
 * request is still running: 409.
 */
async function claim(app: FastifyInstance, request: FastifyRequest, key: string, print: string): Promise<StoredAnswer | null> {
  const { type, id } = request.account!;
  const where = and(eq(idempotencyKeys.account_type, type), eq(idempotencyKeys.account_id, id), eq(idempotencyKeys.key, key));
  const expired = new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000);
  await app.db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.created_at, expired)));

  const inserted = await app.db.insert(idempotencyKeys)
    .values({ account_type: type, account_id: id, key, fingerprint: print })
    .onConflictDoNothing().returning({ key: idempotencyKeys.key });
  if (inserted.length) {
    request.idempotency = { where };
    return null;
  }
  const [existing] = await app.db.select().from(idempotencyKeys).where(where).limit(1);
  if (!existing) throw new HttpError(409, 'Please retry this request.');
  if (existing.fingerprint !== print) {
    throw validationError({ 'Idempotency-Key': 'This Idempotency-Key was already used for a different request.' });
  }
  if (existing.status_code === null) throw new HttpError(409, 'A request with this Idempotency-Key is still being processed.');
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

  // preHandler: after authentication (onRequest) and body validation, before the handler.
  app.addHook('preHandler', async (request, reply) => {
    const key = keyOf(request);
    // A multipart route claims the key itself once it has read its parts (claimIdempotency).
    if (key === undefined || isMultipart(request)) return;
    const answered = await claim(app, request, key, fingerprint(request, JSON.stringify(request.body ?? null)));
    if (answered) return replay(reply, answered);
  });

  // Store the first answer; a server error is not stored, so the client's retry runs again.
  app.addHook('onSend', async (request, reply, payload) => {
    const record = request.idempotency;
    if (!record) return payload;
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
  });
}
