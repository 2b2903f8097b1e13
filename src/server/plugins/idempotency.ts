// ARCHITECTURE "Idempotency": a mutation may carry `Idempotency-Key`; the first response per
// (account, key) is stored for 24 hours and replayed for a repeat, so a retried outbox item never
// creates a second record. The same key with a different request is refused with 422.
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
    idempotency: { where: ReturnType<typeof and> } | null;
  }
}

/** Method, path and body: what makes two requests "the same". Multipart bodies are streamed, so their length stands in. */
function fingerprint(request: FastifyRequest): string {
  const isMultipart = String(request.headers['content-type'] ?? '').startsWith('multipart/');
  const body = isMultipart ? `multipart:${request.headers['content-length'] ?? ''}` : JSON.stringify(request.body ?? null);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

function replay(reply: FastifyReply, row: typeof idempotencyKeys.$inferSelect) {
  return reply.status(row.status_code!).header('Idempotent-Replayed', 'true')
    .type(row.content_type ?? 'application/json; charset=utf-8').send(JSON.stringify(row.response));
}

export function registerIdempotency(app: FastifyInstance) {
  app.decorateRequest('idempotency', null);

  // preHandler: after authentication (onRequest) and body validation, before the handler.
  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (!MUTATIONS.has(request.method) || key === undefined || !request.account) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw validationError({ 'Idempotency-Key': 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.' });
    }
    const { type, id } = request.account;
    const where = and(eq(idempotencyKeys.account_type, type), eq(idempotencyKeys.account_id, id), eq(idempotencyKeys.key, key));
    const print = fingerprint(request);
    const expired = new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000);
    await app.db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.created_at, expired)));

    const inserted = await app.db.insert(idempotencyKeys)
      .values({ account_type: type, account_id: id, key, fingerprint: print })
      .onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (inserted.length) {
      request.idempotency = { where };
      return;
    }
    const [existing] = await app.db.select().from(idempotencyKeys).where(where).limit(1);
    if (!existing) throw new HttpError(409, 'Please retry this request.');
    if (existing.fingerprint !== print) {
      throw validationError({ 'Idempotency-Key': 'This Idempotency-Key was already used for a different request.' });
    }
    if (existing.status_code === null) throw new HttpError(409, 'A request with this Idempotency-Key is still being processed.');
    return replay(reply, existing);
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
