// @vitest-environment node
// notify() on the real app (buildApp on the embedded database, real tokens, real SMTP): a stored
// notification reaches its recipient's own Laravel channel (`private-App.Models.User.{id}`, partners
// `private-App.Models.Partner.{id}`) through laravel-echo's `.notification()`, with the stored row's id,
// only after the commit; nobody else may join that channel; `isMailed` mails the recipient.
import type { FastifyInstance } from 'fastify';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/server/lib/transaction';
import { DEFAULT_NOTIFICATION_TYPE, notificationChannel, notify } from '../../src/server/modules/notification/notify';
import { createTestApp, type TestApp } from '../helpers/app';
import { once } from './helpers';

interface Received { id: string; type: string; title: string; message: string; url: string | null }

let t: TestApp;
let userA: { id: number; email: string; token: string };
let userB: { id: number; email: string; token: string };
let partner: { id: number; email: string; token: string };
const echoes: Echo<'reverb'>[] = [];

const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;

const echoFor = (token: string) => {
  const port = portOf(t.app);
  const echo = new Echo({
    broadcaster: 'reverb',
    key: t.app.config.pusher.key,
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    authEndpoint: `http://127.0.0.1:${port}/api/broadcasting/auth`,
    // A fresh `auth` object: Echo's default one is shared between instances.
    auth: { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } },
    Pusher,
  });
  echoes.push(echo);
  return echo;
};

/** Joins Laravel's channel `name` (without `private-`) and collects what `.notification()` receives. */
async function listen(token: string, name: string) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const channel = echoFor(token).private(name);
  await once((done) => {
    channel.subscribed(() => done(undefined));
    channel.notification((event: Received) => {
      received.push(event);
      waiters.splice(0).forEach((wake) => wake());
    });
  }, 5000, `subscription to private-${name}`);
  return {
    received,
    /** The n-th notification (1-based), waiting up to 5 s for it. */
    async nth(n: number): Promise<Received> {
      const deadline = Date.now() + 5000;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for notification ${n} on private-${name}`);
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 100); });
      }
      return received[n - 1];
    },
  };
}

/** What POST /api/broadcasting/auth answers this bearer for this channel (form-encoded, as pusher-js posts). */
const authorize = (token: string, channel: string) => t.app.inject({
  method: 'POST',
  url: '/api/broadcasting/auth',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ socket_id: '123.456', channel_name: channel }).toString(),
});

const unread = async (token: string) =>
  (await t.call('GET', '/api/notification?type=unread', { token })).body.data as { id: string; type: string; data: unknown; read_at: string | null }[];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const a = await t.createUser({ email: 'notify-a@example.com', user_type: 'user' });
  const b = await t.createUser({ email: 'notify-b@example.com', user_type: 'user' });
  const p = await t.createPartner({ email: 'notify-partner@example.com' });
  userA = { id: a.id, email: 'notify-a@example.com', token: await a.token() };
  userB = { id: b.id, email: 'notify-b@example.com', token: await b.token() };
  partner = { id: p.id, email: 'notify-partner@example.com', token: await p.token() };
});
afterEach(() => {
  for (const echo of echoes.splice(0)) echo.disconnect();
});
afterAll(async () => {
  await t?.close();
});

describe('notify', () => {
  it("stores the notification and, after the commit, sends it to the recipient's App.Models.User channel with the stored id", async () => {
    const a = await listen(userA.token, `App.Models.User.${userA.id}`);
    const content = { title: 'Leave application submitted', message: 'Eve asked for 3 days.', url: '/leave/4' };

    const ids = await inTransaction(t.app, (tx) => notify(tx, [userA.id], content, { type: 'App\\Notifications\\LeaveApplicationSubmitted' }));

    expect(ids).toHaveLength(1);
    expect(await a.nth(1)).toEqual({ id: ids[0], type: 'App\\Notifications\\LeaveApplicationSubmitted', ...content });
    const listed = await unread(userA.token);
    expect(listed.find((n) => n.id === ids[0])).toMatchObject({
      id: ids[0], type: 'App\\Notifications\\LeaveApplicationSubmitted', data: content, read_at: null,
    });
    // B has no such row; opening it from A's bell marks that row read.
    expect((await unread(userB.token)).some((n) => n.id === ids[0])).toBe(false);
    const opened = await t.call('PUT', `/api/notification/${ids[0]}`, { token: userA.token, body: { notificationId: ids[0], url: content.url } });
    expect(opened.body).toMatchObject({ url: '/leave/4' });
    expect((await unread(userA.token)).some((n) => n.id === ids[0])).toBe(false);
  });

  it('stores nothing and sends nothing when the transaction rolls back', async () => {
    const a = await listen(userA.token, `App.Models.User.${userA.id}`);
    await expect(inTransaction(t.app, async (tx) => {
      await notify(tx, [userA.id], { title: 'Rolled back', message: 'never told', url: null }, { isMailed: true });
      throw new Error('the write failed');
    })).rejects.toThrow('the write failed');

    expect((await unread(userA.token)).some((n) => (n.data as { title: string }).title === 'Rolled back')).toBe(false);
    // Events on one socket arrive in order: the first one A hears is the committed one after the rollback.
    const [committed] = await inTransaction(t.app, (tx) => notify(tx, [userA.id], { title: 'Committed', message: 'told', url: null }));
    expect(await a.nth(1)).toEqual({ id: committed, type: DEFAULT_NOTIFICATION_TYPE, title: 'Committed', message: 'told', url: null });
    expect(a.received).toHaveLength(1);
    expect(t.smtp.messages.some((mail) => mail.subject === 'Rolled back')).toBe(false);
  });

  it("lets nobody else join a user's notification channel: not another user, not a partner with that id", async () => {
    const channel = (id: number) => `private-App.Models.User.${id}`;
    expect((await authorize(userA.token, channel(userA.id))).statusCode).toBe(200);
    expect((await authorize(userB.token, channel(userA.id))).statusCode).toBe(403);
    expect((await authorize(partner.token, channel(partner.id))).statusCode).toBe(403);
    expect((await authorize(userA.token, `private-App.Models.Partner.${userA.id}`)).statusCode).toBe(403);
    expect((await authorize(partner.token, `private-App.Models.Partner.${partner.id}`)).statusCode).toBe(200);
    expect((await authorize(partner.token, `private-App.Models.Partner.${partner.id + 1}`)).statusCode).toBe(403);
    // A look-alike suffix is another account.
    expect((await authorize(userA.token, `${channel(userA.id)}0`)).statusCode).toBe(403);

    // The same refusal through a real client.
    const refused = echoFor(userB.token).private(`App.Models.User.${userA.id}`);
    const error = await once<{ status: number }>((done) => refused.error(done), 5000, 'subscription error');
    expect(error.status).toBe(403);
  });

  it('sends a partner its notification on App.Models.Partner and no app user with the same id hears it', async () => {
    expect(notificationChannel({ type: 'partner', id: partner.id })).toBe(`private-App.Models.Partner.${partner.id}`);
    const p = await listen(partner.token, `App.Models.Partner.${partner.id}`);
    const a = await listen(userA.token, `App.Models.User.${userA.id}`);

    const [id] = await inTransaction(t.app, (tx) => notify(tx, [{ type: 'partner', id: partner.id }], { title: 'Invoice paid', message: 'Invoice 12 was paid.', url: '/partner/invoice/12' }));

    expect(await p.nth(1)).toEqual({ id, type: DEFAULT_NOTIFICATION_TYPE, title: 'Invoice paid', message: 'Invoice 12 was paid.', url: '/partner/invoice/12' });
    expect((await unread(partner.token)).map((n) => n.id)).toContain(id);
    // An app notification sent after it is the first thing A hears: the partner's never reached A.
    const [forA] = await inTransaction(t.app, (tx) => notify(tx, [userA.id], { title: 'For A', message: '', url: null }));
    expect((await a.nth(1)).id).toBe(forA);
  });

  it('mails the recipients with isMailed, with an absolute link, and not without it', async () => {
    await inTransaction(t.app, (tx) => notify(tx, [userB.id], { title: 'Not mailed', message: 'bell only', url: '/leave/1' }));
    await inTransaction(t.app, (tx) => notify(tx, [userB.id, { type: 'partner', id: partner.id }], { title: 'Contract ready', message: 'Please sign it.', url: null }, { isMailed: true }));

    const toUser = await t.smtp.waitFor(userB.email, /^Contract ready$/);
    expect(toUser.raw).toContain('Please sign it.');
    expect(toUser.links).toContain('http://localhost:8000/notification');
    // Without a url, a partner's mail opens the partner area's list.
    const toPartner = await t.smtp.waitFor(partner.email, /^Contract ready$/);
    expect(toPartner.links).toContain('http://localhost:8000/partner/notification');
    expect(t.smtp.messages.some((mail) => mail.subject === 'Not mailed')).toBe(false);
  });
});

describe('workflow notifications', () => {
  it('tells the engineer live, through .notification(), when their manager decides their time sheet', async () => {
    const { clients } = await import('../../src/server/db/schema/master-data');
    const { multipart, PDF } = await import('../helpers/multipart');
    const manager = await t.createUser({ email: 'live-manager@example.com', user_type: 'manager' });
    const engineer = await t.createUser({ email: 'live-engineer@example.com', user_type: 'user', parent_id: manager.id });
    const [client] = await t.app.db.insert(clients).values({ name: 'Live Client' }).returning();
    const engineerToken = await engineer.token();
    const form = multipart({ client_id: client.id, period_type: 'week', period_start: '2026-03-02', hours: 40 }, { name: 'week.pdf', type: 'application/pdf', content: PDF });
    const uploaded = await t.call('POST', '/api/time-sheet', { token: engineerToken, body: form.body, headers: form.headers });
    expect(uploaded.status).toBe(201);
    const live = await listen(engineerToken, `App.Models.User.${engineer.id}`);

    const decided = await t.call('POST', `/api/time-sheet/${uploaded.body.data.id}/transitions/reject`, { token: await manager.token(), body: { comment: 'Wrong week' } });

    expect(decided.status).toBe(200);
    const received = await live.nth(1);
    expect(received).toMatchObject({ title: 'Your time sheet was rejected', url: `/time-sheet?highlight=${uploaded.body.data.id}` });
    expect(received.message).toContain('Wrong week');
    // The live one is the stored one: the bell opens and marks that very row.
    expect((await unread(engineerToken)).map((n) => n.id)).toContain(received.id);
  });
});
