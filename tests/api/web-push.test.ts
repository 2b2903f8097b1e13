// Issue 29: Web Push, without the internet. A stand-in push service (an https server in this file)
// receives what web-push sends, checks the VAPID signature (RFC 8292: an ES256 JWT for the service's
// origin, signed by the server's public key) and decrypts the payload (RFC 8291 aes128gcm) with the
// private key of the browser subscription made here through node:crypto ECDH.
import { createECDH, createDecipheriv, createHmac, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { jobs } from '../../src/server/db/schema/workflow';
import { personalAccessTokens } from '../../src/server/db/schema/accounts';
import { revokeAllTokens } from '../../src/server/modules/auth/accounts';
import { pushDeliveries, pushSubscriptions } from '../../src/server/db/schema/push';
import { inTransaction } from '../../src/server/lib/transaction';
import { notificationStatement, notify } from '../../src/server/modules/notification/notify';
import { shapedRows } from '../../src/server/db/named';
import { recipientsQuery } from '../../src/server/resources/workflow-recipients';
import { usePushAgent } from '../../src/server/modules/push/send';
import { PUSH_JOB } from '../../src/shared/notification-kinds';
import { createTestApp, testConfig, type TestApp } from '../helpers/app';

const b64 = (bytes: Buffer) => bytes.toString('base64url');

/** A browser's subscription: its ECDH key pair and auth secret, as PushManager.subscribe makes them. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16) };
}
type BrowserKeys = ReturnType<typeof browserKeys>;

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 + RFC 8188: decrypts one aes128gcm record with the subscription's private key. */
function decrypt(body: Buffer, { ecdh, auth }: { ecdh: ECDH; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const serverPublic = body.subarray(21, 21 + idLength);
  const cipherText = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublic, Buffer.from([1])]);
  const ikm = hmac(hmac(auth, shared), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(cipherText.subarray(cipherText.length - 16));
  const padded = Buffer.concat([decipher.update(cipherText.subarray(0, cipherText.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any padding zeros.
  let end = padded.length - 1;
  while (end > 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`; the JWT verified with k, for this origin, not expired. */
function checkVapid(authorization: string | undefined, origin: string): { publicKey: string; subject: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, jwt, k] = match;
  const [header, claims, signature] = jwt.split('.');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const point = Buffer.from(k, 'base64url');
  expect(point).toHaveLength(65);
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33, 65)) }, format: 'jwk' });
  const isSigned = verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!isSigned) throw new Error('VAPID signature does not verify');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  expect(body.aud).toBe(origin);
  const now = Date.now() / 1000;
  expect(body.exp).toBeGreaterThan(now);
  expect(body.exp).toBeLessThanOrEqual(now + 24 * 3600 + 60);
  expect(body.sub).toMatch(/^(mailto:|https:)/);
  return { publicKey: k, subject: body.sub };
}

interface Received { path: string; payload: { id: string; title: string; message: string; url: string; account: string }; ttl: string | undefined; vapidKey: string }

/** The stand-in push service: answers each device's path with the status set for it (201 by default). */
async function startPushService() {
  const dir = mkdtempSync(join(tmpdir(), 'push-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const cert = readFileSync(join(dir, 'cert.pem'));
  const devices = new Map<string, BrowserKeys>();
  const statuses = new Map<string, number>();
  const received: Received[] = [];
  const refused: string[] = [];
  let origin = '';
  const server: Server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      try {
        expect(request.method).toBe('POST');
        expect(request.headers['content-encoding']).toBe('aes128gcm');
        const { publicKey } = checkVapid(request.headers.authorization, origin);
        const keys = devices.get(path);
        if (!keys) throw new Error(`no device at ${path}`);
        const status = statuses.get(path) ?? 201;
        if (status === 201) received.push({ path, payload: JSON.parse(decrypt(Buffer.concat(chunks), keys)), ttl: request.headers.ttl as string | undefined, vapidKey: publicKey });
        response.writeHead(status).end();
      } catch (error) {
        refused.push(`${path}: ${(error as Error).message}`);
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin, received, refused, statuses,
    /** Trusts this service's certificate only (the server's own pushes go through it in the tests). */
    agent: new Agent({ ca: cert }),
    /** A new browser subscription at `name`, as PushSubscription.toJSON() gives it. */
    subscription(name: string) {
      const keys = browserKeys();
      devices.set(`/push/${name}`, keys);
      return { endpoint: `${origin}/push/${name}`, expirationTime: null, keys: { p256dh: b64(keys.ecdh.getPublicKey()), auth: b64(keys.auth) } };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type PushService = Awaited<ReturnType<typeof startPushService>>;

/** Waits until `check` passes (the push goes from the queue after the commit). */
async function eventually(check: () => unknown | Promise<unknown>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try { await check(); return; } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const CHROME_ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

let t: TestApp;
let push: PushService;
let ana: { id: number; token: string };
let ben: { id: number; token: string };
let partner: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp();
  push = await startPushService();
  usePushAgent(t.app, push.agent);
  const a = await t.createUser({ name: 'Ana Admin', email: 'ana@example.com' });
  const b = await t.createUser({ name: 'Ben Builder', email: 'ben@example.com' });
  const p = await t.createPartner({ name: 'Pat Partner', email: 'pat@example.com' });
  ana = { id: a.id, token: await a.token() };
  ben = { id: b.id, token: await b.token() };
  partner = { id: p.id, token: await p.token() };
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});
beforeEach(async () => {
  push.received.length = 0;
  push.refused.length = 0;
  push.statuses.clear();
  await t.app.db.delete(pushSubscriptions);
  await t.app.db.delete(jobs).where(eq(jobs.name, PUSH_JOB));
});

const optIn = (token: string, subscription: unknown, userAgent = CHROME_ANDROID) =>
  t.call('POST', '/api/push/subscriptions', { token, body: subscription, headers: { 'user-agent': userAgent } });

/** A notification through the one way to tell someone (notify), committed. */
const tell = (recipients: Parameters<typeof notify>[1], title: string, url: string | null = null, kind?: string) =>
  inTransaction(t.app, (tx) => notify(tx, recipients, { title, message: `${title}: the details.`, url }, { kind }));

/** Every push job has finished (done or given up for now). */
const pushJobsSettled = async () => {
  const rows = await t.app.db.select().from(jobs).where(eq(jobs.name, PUSH_JOB));
  expect(rows.every((row) => row.done_at !== null || row.last_error !== null)).toBe(true);
};

describe('opting a device in', () => {
  it('answers the VAPID public key, the same on every call', async () => {
    const first = await t.call('GET', '/api/push/key', { token: ana.token });
    expect(first.status).toBe(200);
    expect(Buffer.from(first.body.data.public_key, 'base64url')).toHaveLength(65);
    const again = await t.call('GET', '/api/push/key', { token: partner.token });
    expect(again.body.data.public_key).toBe(first.body.data.public_key);
    expect((await t.call('GET', '/api/push/key')).status).toBe(401);
  });

  it('lists each device by its browser and system, and a second opt-in of the same browser updates it', async () => {
    const phone = push.subscription('ana-phone');
    const created = await optIn(ana.token, phone);
    expect(created.status).toBe(201);
    expect(created.body.data.device).toBe('Chrome on Android');
    expect(created.body.message).toMatch(/reach this device/);
    await optIn(ana.token, push.subscription('ana-laptop'), FIREFOX_WINDOWS);
    const again = await optIn(ana.token, { ...phone, keys: push.subscription('ana-phone').keys });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(created.body.data.id);
    const list = await t.call('GET', '/api/push/subscriptions', { token: ana.token });
    expect(list.body.data.map((device: { device: string }) => device.device)).toEqual(['Chrome on Android', 'Firefox on Windows']);
    // The endpoint itself is a capability: the list never shows it.
    expect(JSON.stringify(list.body)).not.toContain('/push/ana-phone');
  });

  it('refuses a subscription that is not one', async () => {
    const good = push.subscription('x');
    for (const body of [{ ...good, endpoint: 'http://127.0.0.1/push/x' }, { ...good, keys: { ...good.keys, p256dh: 'short' } }, { ...good, keys: { ...good.keys, auth: '' } }, { endpoint: good.endpoint }]) {
      const res = await optIn(ana.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await t.call('GET', '/api/push/subscriptions', { token: ana.token })).body.data).toEqual([]);
  });

  it('lets a person see and remove only their own devices', async () => {
    const mine = (await optIn(ana.token, push.subscription('ana-phone'))).body.data.id as number;
    const partners = (await optIn(partner.token, push.subscription('pat-phone'))).body.data.id as number;
    expect((await t.call('GET', '/api/push/subscriptions', { token: ben.token })).body.data).toEqual([]);
    expect((await t.call('GET', '/api/push/subscriptions', { token: partner.token })).body.data.map((d: { id: number }) => d.id)).toEqual([partners]);
    expect((await t.call('DELETE', `/api/push/subscriptions/${mine}`, { token: ben.token })).status).toBe(404);
    expect((await t.call('DELETE', `/api/push/subscriptions/${mine}`, { token: partner.token })).status).toBe(404);
    const removed = await t.call('DELETE', `/api/push/subscriptions/${mine}`, { token: ana.token });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('That device will no longer receive your notifications.');
    expect((await t.call('GET', '/api/push/subscriptions', { token: ana.token })).body.data).toEqual([]);
  });
});

describe('pushing a notification', () => {
  it('sends it encrypted to each of the reader\'s devices, signed with the server\'s key, once', async () => {
    await optIn(ana.token, push.subscription('ana-phone'));
    await optIn(ana.token, push.subscription('ana-laptop'), FIREFOX_WINDOWS);
    await optIn(ben.token, push.subscription('ben-phone'));
    const [id] = await tell([ana.id], 'Your leave was approved', '/leave-application');
    await eventually(() => expect(push.received).toHaveLength(2));
    await eventually(pushJobsSettled);
    const key = (await t.call('GET', '/api/push/key', { token: ana.token })).body.data.public_key;
    expect(push.refused).toEqual([]);
    expect(push.received.map((r) => r.path).sort()).toEqual(['/push/ana-laptop', '/push/ana-phone']);
    for (const received of push.received) {
      expect(received.payload).toEqual({ id, title: 'Your leave was approved', message: 'Your leave was approved: the details.', url: '/leave-application', account: 'app' });
      expect(received.vapidKey).toBe(key);
      expect(Number(received.ttl)).toBeGreaterThan(0);
    }
    const list = (await t.call('GET', '/api/push/subscriptions', { token: ana.token })).body.data as { last_used_at: string | null }[];
    expect(list.every((device) => device.last_used_at !== null)).toBe(true);

    // The job again (a retry, another node): nothing is sent twice.
    await t.app.db.update(jobs).set({ done_at: null, locked_until: null, attempts: 0 }).where(eq(jobs.name, PUSH_JOB));
    expect(await t.app.jobs.runDue()).toBeGreaterThan(0);
    expect(push.received).toHaveLength(2);
  });

  it('leads a notification without a link to the reader\'s own list', async () => {
    await optIn(partner.token, push.subscription('pat-phone'));
    await tell([{ type: 'partner', id: partner.id }], 'A message for your firm');
    await eventually(() => expect(push.received).toHaveLength(1));
    expect(push.received[0].payload.url).toBe('/partner/notification');
  });

  it('drops a subscription the push service answers 404 or 410 for, and keeps the others', async () => {
    await optIn(ana.token, push.subscription('gone'));
    await optIn(ana.token, push.subscription('unknown'));
    await optIn(ana.token, push.subscription('ana-phone'));
    push.statuses.set('/push/gone', 410);
    push.statuses.set('/push/unknown', 404);
    await tell([ana.id], 'Your claim was paid');
    await eventually(() => expect(push.received).toHaveLength(1));
    await eventually(pushJobsSettled);
    const left = await t.app.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions);
    expect(left.map((row) => new URL(row.endpoint).pathname)).toEqual(['/push/ana-phone']);
    expect(push.refused).toEqual([]);
  });

  it('retries a device whose push service was down, and sends only what is left', async () => {
    await optIn(ana.token, push.subscription('flaky'));
    await optIn(ana.token, push.subscription('ana-phone'));
    push.statuses.set('/push/flaky', 503);
    await tell([ana.id], 'A contract ends soon');
    await eventually(() => expect(push.received).toHaveLength(1));
    await eventually(async () => {
      const [job] = await t.app.db.select().from(jobs).where(eq(jobs.name, PUSH_JOB));
      expect(job.last_error).toMatch(/not delivered to 1 device/);
      expect(job.done_at).toBeNull();
    });
    push.statuses.delete('/push/flaky');
    await t.app.db.update(jobs).set({ run_at: new Date(Date.now() - 1000) }).where(eq(jobs.name, PUSH_JOB));
    await t.app.jobs.runDue();
    expect(push.received.map((r) => r.path)).toEqual(['/push/ana-phone', '/push/flaky']);
    expect(await t.app.db.select().from(pushDeliveries)).toHaveLength(2);
  });

  it('follows the reader\'s choice for the kind: by email only or not at all means no push', async () => {
    await optIn(ana.token, push.subscription('ana-phone'));
    const saved = await t.call('PUT', '/api/notification/preferences', { token: ana.token, body: { channels: { expense: 'email', contract: 'none', 'leave-application': 'both' }, is_digest: false } });
    expect(saved.status).toBe(200);
    await tell([ana.id], 'An expense claim to review', null, 'expense');
    await tell([ana.id], 'A contract was renewed', null, 'contract');
    await tell([ana.id], 'A leave application to review', null, 'leave-application');
    await eventually(() => expect(push.received).toHaveLength(1));
    await eventually(pushJobsSettled);
    expect(push.received[0].payload.title).toBe('A leave application to review');
    await t.call('PUT', '/api/notification/preferences', { token: ana.token, body: { channels: {}, is_digest: false } });
  });

  it('queues nothing when the reader has no device opted in', async () => {
    await tell([ben.id], 'Nothing to push');
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, PUSH_JOB))).toEqual([]);
  });
});

/** A workflow decision's notification, written in the decision's one statement: the push jobs it queued. */
const pushJobsOfDecision = (id: number, title: string) => inTransaction(t.app, async (tx) => {
  const notice = notificationStatement(tx, recipientsQuery(['owner'], id), [{ rule: 0, area: 'app', content: { title, message: `${title}: the details.`, url: null } }], { type: 'app', id: ana.id });
  const [answer] = await shapedRows<{ push_jobs: number }>(tx.db, `push-test|${notice.shape}`, () => {
    const { ctes, columns } = notice.build();
    return sql`with start as (select 1)${ctes} select ${columns}`;
  }, notice.values);
  notice.finish(answer);
  return Number(answer.push_jobs);
});

describe('when the session that opted a device in ends', () => {
  it('stops pushing to a device signed out of, or whose session ran out, and keeps the person\'s other devices', async () => {
    const cara = await t.createUser({ name: 'Cara Clerk', email: 'cara@example.com' });
    const [onPhone, onLaptop] = [await cara.token(), await cara.token()];
    await optIn(onPhone, push.subscription('cara-phone'));
    await optIn(onLaptop, push.subscription('cara-laptop'), FIREFOX_WINDOWS);

    // Signed out on the phone (say the app could not reach the browser's subscription): its row goes with the session.
    expect((await t.call('POST', '/api/logout', { token: onPhone })).status).toBe(200);
    expect((await t.call('GET', '/api/push/subscriptions', { token: onLaptop })).body.data.map((d: { device: string }) => d.device)).toEqual(['Firefox on Windows']);
    await tell([cara.id], 'Your timesheet was approved');
    await eventually(() => expect(push.received.map((r) => r.path)).toEqual(['/push/cara-laptop']));
    await eventually(pushJobsSettled);

    // The laptop's session expires: its device is not listed, and nothing is queued for it.
    const [laptop] = await t.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.account_id, cara.id));
    await t.app.db.update(personalAccessTokens).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(personalAccessTokens.id, laptop.token_id!));
    const again = await cara.token();
    expect((await t.call('GET', '/api/push/subscriptions', { token: again })).body.data).toEqual([]);
    const queued = (await t.app.db.select().from(jobs).where(eq(jobs.name, PUSH_JOB))).length;
    await tell([cara.id], 'A second approval');
    expect(await t.app.db.select().from(jobs).where(eq(jobs.name, PUSH_JOB))).toHaveLength(queued);
    expect(await pushJobsOfDecision(cara.id, 'A decision about your claim')).toBe(0);

    // Opting in again from the new session revives the same entry, now tied to that session.
    const revived = await optIn(again, push.subscription('cara-laptop'), FIREFOX_WINDOWS);
    expect(revived.status).toBe(200);
    expect(revived.body.data.id).toBe(laptop.id);
    expect(await pushJobsOfDecision(cara.id, 'A third approval')).toBe(1);
    await eventually(() => expect(push.received.map((r) => r.payload.title)).toEqual(['Your timesheet was approved', 'A third approval']));
  });

  it('moves a browser to the same person\'s new session, and never to another login of the same kind unless the browser subscribes afresh', async () => {
    const eve = await t.createUser({ name: 'Eve Editor', email: 'eve@example.com' });
    const first = await eve.token();
    const phone = push.subscription('eve-phone');
    const opted = (await optIn(first, phone)).body.data.id as number;
    const [row] = await t.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, opted));
    await t.app.db.update(personalAccessTokens).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(personalAccessTokens.id, row.token_id));

    // Eve signs in again on the phone: the app registers the same subscription with the new session.
    const second = await eve.token();
    const again = await optIn(second, phone);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(opted);
    const [moved] = await t.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, opted));
    expect(moved.token_id).not.toBe(row.token_id);
    expect((await t.call('GET', '/api/push/subscriptions', { token: second })).body.data.map((d: { id: number }) => d.id)).toEqual([opted]);

    // Ben, another staff login, cannot have Eve's endpoint pushed to him too, nor change her entry.
    const taken = await optIn(ben.token, { ...phone, keys: push.subscription('ben-keys').keys });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This browser is set up for another person\'s notifications. Turn them on again to set it up for yours.');
    expect(await t.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.account_id, ben.id))).toEqual([]);
    expect((await t.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, opted)))[0]).toEqual(moved);
    await tell([eve.id], 'Still yours');
    await eventually(() => expect(push.received.map((r) => `${r.payload.title} ${r.path}`)).toEqual(['Still yours /push/eve-phone']));

    // The browser subscribing afresh (a new endpoint, as after the app ends the old one) is Ben's to register.
    expect((await optIn(ben.token, push.subscription('eve-phone-renewed'))).status).toBe(201);
    // A partner login signed in on the same browser shares its subscription.
    expect((await optIn(partner.token, phone)).status).toBe(201);
  });

  it('drops the devices of every session a password reset or deactivation ends', async () => {
    const dan = await t.createUser({ name: 'Dan Driver', email: 'dan@example.com' });
    await optIn(await dan.token(), push.subscription('dan-phone'));
    await optIn(await dan.token(), push.subscription('dan-laptop'));
    await revokeAllTokens(t.app.db, 'app', dan.id);
    expect(await t.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.account_id, dan.id))).toEqual([]);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('two nodes on one PostgreSQL', () => {
  it('pushes each notification once per device, whichever node runs the job, with the same key', async () => {
    const second = await buildApp(testConfig({ databaseUrl: t.app.config.databaseUrl, inMemoryDatabase: false }));
    try {
      usePushAgent(second, push.agent);
      const key = (await t.call('GET', '/api/push/key', { token: ana.token })).body.data.public_key;
      const fromSecond = await second.inject({ method: 'GET', url: '/api/push/key', headers: { authorization: `Bearer ${ana.token}` } });
      expect(fromSecond.json().data.public_key).toBe(key);
      await optIn(ana.token, push.subscription('ana-phone'));
      await optIn(ana.token, push.subscription('ana-laptop'));
      await tell([ana.id], 'First');
      await tell([ana.id], 'Second');
      // Both nodes look for due jobs at once, as their loops would.
      await Promise.all([t.app.jobs.runDue(), second.jobs.runDue(), second.jobs.runDue()]);
      await eventually(() => expect(push.received).toHaveLength(4));
      await eventually(pushJobsSettled);
      expect(push.received.map((r) => `${r.payload.title} ${r.path}`).sort()).toEqual([
        'First /push/ana-laptop', 'First /push/ana-phone', 'Second /push/ana-laptop', 'Second /push/ana-phone',
      ]);
    } finally {
      await second.close();
    }
  });
});
