// Capability links (ARCHITECTURE "Capability links"): a route with `auth: { capability }` opens only
// for a live link of its purpose; unknown, tampered, expired and revoked links all get the same 404,
// a used one 410, and a use is counted once even when two submissions race for the last one.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { capabilityLinks } from '../../src/server/db/schema/capability';
import {
  consumeCapabilityUse, createCapabilityLink, INVALID_LINK_MESSAGE, revokeCapabilityLink, USED_LINK_MESSAGE,
} from '../../src/server/plugins/capability';
import { inTransaction } from '../../src/server/lib/transaction';
import { freshPostgresDatabase, testConfig } from '../helpers/app';

let app: FastifyInstance;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const postgres = process.env.TEST_DB === 'postgres' ? await freshPostgresDatabase() : null;
  dropDatabase = postgres?.drop;
  app = await buildApp(testConfig(postgres ? { databaseUrl: postgres.url, inMemoryDatabase: false } : {}));
  // Two routes of the kind a public page has: a read that still works on a used link, and a
  // submission that counts a use inside its transaction, after its own validation.
  app.get('/api/public/test-link/:token', { config: { auth: { capability: 'test', allowUsed: true } } }, (request) => ({ data: request.capability }));
  app.post('/api/public/test-link/:token', { config: { auth: { capability: 'test' } } }, async (request, reply) => {
    const body = request.body as { valid?: boolean };
    if (!body?.valid) return reply.code(422).send({ message: 'Invalid.', errors: { valid: ['Invalid.'] } });
    await inTransaction(app, (tx) => consumeCapabilityUse(tx.db, request.capability!));
    return { message: 'Saved.' };
  });
  await app.ready();
});
afterAll(async () => { await app?.close(); await dropDatabase?.(); });

const inOneHour = () => new Date(Date.now() + 3_600_000);
const open = (token: string) => app.inject({ method: 'GET', url: `/api/public/test-link/${token}` });
const submit = async (token: string, valid = true) => {
  // The CSRF check applies to public POSTs like any other: fetch the cookie and echo it.
  const cookie = await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  const xsrf = cookie.cookies.find((c) => c.name === 'XSRF-TOKEN')!.value;
  return app.inject({ method: 'POST', url: `/api/public/test-link/${token}`, payload: { valid }, headers: { 'x-xsrf-token': xsrf }, cookies: { 'XSRF-TOKEN': xsrf } });
};

describe('capability links', () => {
  it('issue a 256-bit token and keep only its hash', async () => {
    const { id, token } = await createCapabilityLink(app.db, { purpose: 'test', subjectId: 7, expiresAt: inOneHour(), data: { note: 'x' } });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await app.db.select().from(capabilityLinks).where(eq(capabilityLinks.id, id));
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    const response = await open(token);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ id, purpose: 'test', subjectId: 7, data: { note: 'x' }, uses: 0, maxUses: null });
  });

  it('answer unknown, tampered, malformed, expired, revoked and other-purpose tokens with one plain 404', async () => {
    const live = await createCapabilityLink(app.db, { purpose: 'test', subjectId: 1, expiresAt: inOneHour() });
    const expired = await createCapabilityLink(app.db, { purpose: 'test', subjectId: 1, expiresAt: new Date(Date.now() - 1000) });
    const revoked = await createCapabilityLink(app.db, { purpose: 'test', subjectId: 1, expiresAt: inOneHour() });
    expect(await revokeCapabilityLink(app.db, 'test', revoked.id)).toBe(true);
    expect(await revokeCapabilityLink(app.db, 'test', revoked.id)).toBe(false);
    const otherPurpose = await createCapabilityLink(app.db, { purpose: 'other', subjectId: 1, expiresAt: inOneHour() });
    const tampered = `${live.token.slice(0, -1)}${live.token.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [tampered, 'x'.repeat(43), 'short', expired.token, revoked.token, otherPurpose.token]) {
      for (const response of [await open(token), await submit(token)]) {
        expect(response.statusCode, token).toBe(404);
        expect(response.json()).toEqual({ message: INVALID_LINK_MESSAGE });
      }
    }
    // The links themselves are untouched by the refused calls.
    const [row] = await app.db.select().from(capabilityLinks).where(eq(capabilityLinks.id, live.id));
    expect(row.uses).toBe(0);
  });

  it('count a use only for an accepted submission, then answer 410 (reads that allow it still open)', async () => {
    const { id, token } = await createCapabilityLink(app.db, { purpose: 'test', subjectId: 1, expiresAt: inOneHour(), maxUses: 1 });
    expect((await submit(token, false)).statusCode).toBe(422);
    expect((await app.db.select().from(capabilityLinks).where(eq(capabilityLinks.id, id)))[0].uses).toBe(0);
    expect((await submit(token)).statusCode).toBe(200);
    const again = await submit(token);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ message: USED_LINK_MESSAGE });
    const read = await open(token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.uses).toBe(1);
  });

  it('let only one of two racing submissions take the last use', async () => {
    const { id, token } = await createCapabilityLink(app.db, { purpose: 'test', subjectId: 1, expiresAt: inOneHour(), maxUses: 1 });
    const results = await Promise.all([submit(token), submit(token)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410]);
    expect((await app.db.select().from(capabilityLinks).where(eq(capabilityLinks.id, id)))[0].uses).toBe(1);
  });

  it('are listed in the route registry with their purpose', () => {
    expect(app.routeRegistry).toContainEqual(expect.objectContaining({ method: 'POST', url: '/api/public/test-link/:token', auth: 'capability', capability: 'test' }));
  });
});
