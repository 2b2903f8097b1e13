// @vitest-environment node
// Issue 15: a socket acts for the session whose token signed its subscriptions, and closes when that
// token is revoked (logout, password change or reset, deactivation), so a signed-out or deactivated
// account stops receiving events at once. Real app, real tokens, real pusher-js / laravel-echo clients.
// The same across two nodes: tests/realtime/cluster-app.test.ts.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema/master-data';
import { ADMIN, createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';
import { once, RawClient } from './helpers';

let t: TestApp;
let adminToken: string;
const opened: { disconnect(): void }[] = [];
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  adminToken = await t.login(ADMIN.email, ADMIN.password);
});
afterEach(() => {
  for (const client of opened.splice(0)) client.disconnect();
});
afterAll(async () => { await t?.close(); });

const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;

/** The browser's Echo, as src/client/lib/echo.ts builds it, with this token. */
function echoFor(token: string) {
  const port = portOf(t.app);
  const echo = new Echo({
    broadcaster: 'reverb', key: t.app.config.pusher.key, wsHost: '127.0.0.1', wsPort: port, forceTLS: false, enabledTransports: ['ws'],
    authEndpoint: `http://127.0.0.1:${port}/api/broadcasting/auth`, bearerToken: token, auth: { headers: {} }, Pusher,
  });
  opened.push(echo);
  return echo;
}
const pusherOf = (echo: Echo<'reverb'>) => (echo.connector as unknown as { pusher: Pusher }).pusher;

/** Subscribes the account's own notification channel and resolves once the server confirmed it. */
async function listening(echo: Echo<'reverb'>, userId: number) {
  const seen: unknown[] = [];
  echo.private(`App.Models.User.${userId}`).notification((event: unknown) => seen.push(event));
  await once((done) => pusherOf(echo).channel(`private-App.Models.User.${userId}`).bind('pusher:subscription_succeeded', done), 5000, 'subscription');
  return seen;
}

/** Resolves with the pusher:error code once the server ends the connection. */
const ended = (echo: Echo<'reverb'>) => once<number>((done) => pusherOf(echo).connection.bind('error', (error: { data?: { code?: number } }) => {
  if (error?.data?.code) done(error.data.code);
}), 5000, 'the socket to be closed');

const stillConnected = async (echo: Echo<'reverb'>) => {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return pusherOf(echo).connection.state === 'connected';
};

const tellUser = (userId: number, title: string) => t.app.broadcaster.publish([`private-App.Models.User.${userId}`],
  'Illuminate\\Notifications\\Events\\BroadcastNotificationCreated', { id: title, type: 'test', title, message: title, url: null });

describe('sockets of revoked sessions (issue 15)', () => {
  it('closes the socket of a session that logs out, for good, and leaves the account\'s other session open', async () => {
    const user = await t.createUser({ email: 'two-tabs@example.com' });
    const phoneToken = await user.token();
    const [phone, laptop] = [echoFor(phoneToken), echoFor(await user.token())];
    const [, laptopSeen] = await Promise.all([listening(phone, user.id), listening(laptop, user.id)]);

    const closed = ended(phone);
    expect((await t.call('POST', '/api/logout', { token: phoneToken })).status).toBe(200);
    expect(await closed).toBe(4009);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 4009: pusher-js does not reconnect.
    expect(pusherOf(phone).connection.state).not.toBe('connected');

    expect(await stillConnected(laptop)).toBe(true);
    await tellUser(user.id, 'Still here');
    await expect.poll(() => laptopSeen.length).toBe(1);
  });

  it('closes a deactivated manager\'s socket: the next TimeSheetUploadEvent reaches no one', async () => {
    const manager = await t.createUser({ email: 'leaving-manager@example.com', user_type: 'manager' });
    const engineer = await t.createUser({ email: 'staying-engineer@example.com', user_type: 'user', parent_id: manager.id });
    const [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Deactivation Client' }).returning();
    const echo = echoFor(await manager.token());
    const seen: unknown[] = [];
    echo.private(`time-sheet-upload-event.${manager.id}`).listen('TimeSheetUploadEvent', (event: unknown) => seen.push(event));
    await once((done) => pusherOf(echo).channel(`private-time-sheet-upload-event.${manager.id}`).bind('pusher:subscription_succeeded', done), 5000, 'subscription');

    const closed = ended(echo);
    const deactivated = await t.call('PATCH', `/api/manager/${manager.id}`, { token: adminToken, body: { status: 'inactive' } });
    expect(deactivated.status).toBe(200);
    expect(await closed).toBe(4009);

    const form = multipart({ client_id: clientId, period_type: 'month', period_start: '2025-04-01', hours: 160 }, { name: 'april.pdf', type: 'application/pdf', content: PDF });
    const upload = await t.call('POST', '/api/time-sheet', { token: await engineer.token(), body: form.body, headers: form.headers });
    expect(upload.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([]);
  });

  it('closes the other sessions\' sockets on a password change, and keeps its own', async () => {
    const user = await t.createUser({ email: 'changer@example.com' });
    const myToken = await user.token();
    const [mine, stolen] = [echoFor(myToken), echoFor(await user.token())];
    await Promise.all([listening(mine, user.id), listening(stolen, user.id)]);
    const closed = ended(stolen);
    const changed = await t.call('PUT', '/api/password', { token: myToken, body: { current_password: TEST_PASSWORD, password: 'a-new-password', password_confirmation: 'a-new-password' } });
    expect(changed.status).toBe(200);
    expect(await closed).toBe(4009);
    expect(await stillConnected(mine)).toBe(true);
  });

  it('closes every socket of the account on a password reset', async () => {
    const user = await t.createUser({ email: 'resetter@example.com' });
    const echo = echoFor(await user.token());
    await listening(echo, user.id);
    const closed = ended(echo);
    await t.call('POST', '/api/forgot-password', { body: { email: 'resetter@example.com' } });
    const mail = await t.smtp.waitFor('resetter@example.com', /Reset Password/);
    const token = new URL(mail.links.find((l) => l.includes('/password-reset/'))!).pathname.split('/').pop()!;
    const reset = await t.call('POST', '/api/reset-password', { body: { token, email: 'resetter@example.com', password: 'brand-new-pass', password_confirmation: 'brand-new-pass' } });
    expect(reset.status).toBe(200);
    expect(await closed).toBe(4009);
  });
});

describe('session signatures (issue 15)', () => {
  const sign = async (token: string, socketId: string, channel: string) => {
    const response = await t.app.inject({
      method: 'POST', url: '/api/broadcasting/auth', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ socket_id: socketId, channel_name: channel }).toString(),
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { auth: string; channel_data: string };
  };
  const raw = async () => {
    const client = await RawClient.connect(portOf(t.app), t.app.config.pusher.key);
    opened.push({ disconnect: () => client.close() });
    return { client, socketId: await client.socketId() };
  };

  it('refuses a signature obtained before the logout', async () => {
    const user = await t.createUser({ email: 'pre-signed@example.com' });
    const token = await user.token();
    const channel = `private-App.Models.User.${user.id}`;
    const { client, socketId } = await raw();
    const signed = await sign(token, socketId, channel);
    expect(JSON.parse(signed.channel_data)).toMatchObject({ token_id: Number(token.split('|')[0]) });
    await t.call('POST', '/api/logout', { token });
    client.send({ event: 'pusher:subscribe', data: { channel, ...signed } });
    const refused = await client.event('pusher:subscription_error');
    expect(refused).toMatchObject({ channel, data: { status: 401 } });
  });

  it('refuses the signature without its session, or with the session altered or expired', async () => {
    const user = await t.createUser({ email: 'tamperer@example.com' });
    const token = await user.token();
    const channel = `private-App.Models.User.${user.id}`;
    const { client, socketId } = await raw();
    const signed = await sign(token, socketId, channel);
    const refusedWith = async (data: Record<string, unknown>) => {
      client.send({ event: 'pusher:subscribe', data: { channel, ...data } });
      return ((await client.event('pusher:subscription_error')).data as { error: string }).error;
    };
    expect(await refusedWith({ auth: signed.auth })).toBe('Invalid signature');
    expect(await refusedWith({ auth: signed.auth, channel_data: signed.channel_data.replace(/"token_id":\d+/, '"token_id":1') })).toBe('Invalid signature');
    // Signed with the app's secret, but for a moment long past.
    const stale = JSON.stringify({ token_id: Number(token.split('|')[0]), expires: Math.floor(Date.now() / 1000) - 10 });
    const { key, secret } = t.app.config.pusher;
    const staleAuth = `${key}:${createHmac('sha256', secret).update(`${socketId}:${channel}:${stale}`).digest('hex')}`;
    expect(await refusedWith({ auth: staleAuth, channel_data: stale })).toBe('Expired signature');
    // The signature as given still works.
    client.send({ event: 'pusher:subscribe', data: { channel, ...signed } });
    expect((await client.event('pusher_internal:subscription_succeeded')).channel).toBe(channel);
  });
});
