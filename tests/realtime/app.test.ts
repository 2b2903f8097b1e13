// @vitest-environment node
// The websocket endpoint of the real app (buildApp on the embedded database, real bearer tokens):
// pusher-js connects and pings, subscribes the private announcement channel and the user's own
// private channel, and is refused another user's; an announcement saved through the API arrives.
// The protocol details are in protocol.test.ts and clients.test.ts against a lighter server.
import type { FastifyInstance } from 'fastify';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { connected, once, subscribed } from './helpers';

let t: TestApp;
const opened: Pusher[] = [];
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const pusher of opened) pusher.disconnect();
  await t?.close();
});

const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;
const clientWith = (token: string) => {
  const port = portOf(t.app);
  const pusher = new Pusher(t.app.config.pusher.key, {
    cluster: '', wsHost: '127.0.0.1', wsPort: port, forceTLS: false, enabledTransports: ['ws'],
    channelAuthorization: { endpoint: `http://127.0.0.1:${port}/api/broadcasting/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${token}` } },
  });
  opened.push(pusher);
  return pusher;
};

describe('the websocket endpoint of the running app', () => {
  it('connects, answers a ping, signs only the caller\'s own private channel, and relays an announcement', async () => {
    const adminToken = await t.login(ADMIN.email, ADMIN.password);
    const engineer = await t.createUser({ email: 'ws-engineer@example.com', user_type: 'user' });
    const engineerToken = await engineer.token();
    const pusher = clientWith(engineerToken);
    await connected(pusher);
    expect(pusher.connection.socket_id).toMatch(/^\d+\.\d+$/);
    const pong = once((done) => pusher.connection.bind('message', (message: { event: string }) => { if (message.event === 'pusher:pong') done(message); }));
    pusher.send_event('pusher:ping', {});
    await pong;

    await subscribed(pusher, `private-time-sheet-upload-event.${engineer.id}`);
    const refused = once<{ status: number }>((done) => pusher.subscribe('private-time-sheet-upload-event.1').bind('pusher:subscription_error', done));
    expect((await refused).status).toBe(403);

    await subscribed(pusher, 'private-announcement-alert');
    const announced = once((done) => pusher.channel('private-announcement-alert').bind('App\\Events\\AnnouncementMessageEvent', done));
    const saved = await t.call('PUT', '/api/setting/announcement', { token: adminToken, body: { status: 'on', message: 'Payroll closes Friday' } });
    expect(saved.status).toBe(200);
    expect(await announced).toEqual({ message: { status: 'on', message: 'Payroll closes Friday' } });
  });

  it('tells the announcement to signed-in accounts of both types, never to an anonymous socket (issue 15)', async () => {
    const adminToken = await t.login(ADMIN.email, ADMIN.password);
    const partner = await t.createPartner({ email: 'ws-partner@example.com' });
    const [staff, partnerClient] = [clientWith(adminToken), clientWith(await partner.token())];
    await Promise.all([subscribed(staff, 'private-announcement-alert'), subscribed(partnerClient, 'private-announcement-alert')]);

    // Anyone with the app key from the page: the old public channel carries nothing, the private one is refused.
    const anonymous = clientWith('');
    await subscribed(anonymous, 'announcement-alert');
    const overheard: unknown[] = [];
    anonymous.channel('announcement-alert').bind('App\\Events\\AnnouncementMessageEvent', (event: unknown) => overheard.push(event));
    const refused = once<{ status: number }>((done) => anonymous.subscribe('private-announcement-alert').bind('pusher:subscription_error', done));
    expect((await refused).status).toBe(401);

    const heard = [staff, partnerClient].map((client) => once((done) => client.channel('private-announcement-alert').bind('App\\Events\\AnnouncementMessageEvent', done)));
    const saved = await t.call('PUT', '/api/setting/announcement', { token: adminToken, body: { status: 'on', message: 'Staff only' } });
    expect(saved.status).toBe(200);
    expect(await Promise.all(heard)).toEqual([{ message: { status: 'on', message: 'Staff only' } }, { message: { status: 'on', message: 'Staff only' } }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(overheard).toEqual([]);
  });
});
