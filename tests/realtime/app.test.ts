// @vitest-environment node
// The websocket endpoint of the real app (buildApp on the embedded database, real bearer tokens):
// pusher-js connects and pings, subscribes its audience's private announcement channel and the user's
// own private channel, and is refused another user's; an announcement saved through the API arrives
// only where it is meant to.
// The protocol details are in protocol.test.ts and clients.test.ts against a lighter server.
import type { FastifyInstance } from 'fastify';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

  it('tells each audience only the announcements meant for it, never an anonymous socket (issues 15 and 20)', async () => {
    const adminToken = await t.login(ADMIN.email, ADMIN.password);
    const partner = await t.createPartner({ email: 'ws-partner@example.com' });
    const partnerToken = await partner.token();
    const [staff, partnerClient] = [clientWith(adminToken), clientWith(partnerToken)];
    await Promise.all([subscribed(staff, 'private-announcement-alert'), subscribed(partnerClient, 'private-partner-announcement-alert')]);
    // Each account type is refused the other's channel.
    const partnerRefused = once<{ status: number }>((done) => partnerClient.subscribe('private-announcement-alert').bind('pusher:subscription_error', done));
    const staffRefused = once<{ status: number }>((done) => staff.subscribe('private-partner-announcement-alert').bind('pusher:subscription_error', done));
    expect([(await partnerRefused).status, (await staffRefused).status]).toEqual([403, 403]);

    // Anyone with the app key from the page: the old public channel carries nothing, the private one is refused.
    const anonymous = clientWith('');
    await subscribed(anonymous, 'announcement-alert');
    const overheard: unknown[] = [];
    anonymous.channel('announcement-alert').bind('App\\Events\\AnnouncementMessageEvent', (event: unknown) => overheard.push(event));
    const refused = once<{ status: number }>((done) => anonymous.subscribe('private-announcement-alert').bind('pusher:subscription_error', done));
    expect((await refused).status).toBe(401);

    const staffHeard: unknown[] = [];
    const partnerHeard: unknown[] = [];
    staff.channel('private-announcement-alert').bind('App\\Events\\AnnouncementMessageEvent', (event: unknown) => staffHeard.push(event));
    partnerClient.channel('private-partner-announcement-alert').bind('App\\Events\\AnnouncementMessageEvent', (event: unknown) => partnerHeard.push(event));
    const save = async (body: Record<string, string>) => {
      const saved = await t.call('PUT', '/api/setting/announcement', { token: adminToken, body });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      return saved.body.data;
    };
    const until = (list: unknown[], length: number) => vi.waitFor(() => expect(list).toHaveLength(length), { timeout: 3000 });

    // Staff by default: the partner's socket gets nothing of it.
    expect(await save({ status: 'on', message: 'Staff only' })).toEqual({ status: 'on', message: 'Staff only', audience: 'staff' });
    await until(staffHeard, 1);
    expect(staffHeard[0]).toEqual({ message: { status: 'on', message: 'Staff only' } });
    expect((await t.call('GET', '/api/partner/me', { token: partnerToken })).body.announcement).toEqual({ status: 'off', message: '' });

    // For partners: it is the first thing the partner hears; the staff banner is cleared.
    await save({ status: 'on', message: 'Invoices are paid on the 5th', audience: 'partners' });
    await until(partnerHeard, 1);
    await until(staffHeard, 2);
    expect(partnerHeard).toEqual([{ message: { status: 'on', message: 'Invoices are paid on the 5th' } }]);
    expect(staffHeard[1]).toEqual({ message: { status: 'off', message: '' } });
    expect((await t.call('GET', '/api/partner/me', { token: partnerToken })).body.announcement).toEqual({ status: 'on', message: 'Invoices are paid on the 5th' });
    expect((await t.call('GET', '/api/me', { token: adminToken })).body.announcement).toEqual({ status: 'off', message: '' });

    // For both: each hears it.
    await save({ status: 'on', message: 'Office closed Friday', audience: 'both' });
    await until(partnerHeard, 2);
    await until(staffHeard, 3);
    expect([partnerHeard[1], staffHeard[2]]).toEqual([{ message: { status: 'on', message: 'Office closed Friday' } }, { message: { status: 'on', message: 'Office closed Friday' } }]);

    // Back to staff only: the partner's banner is cleared, and then partners hear nothing of staff news.
    await save({ status: 'on', message: 'Office closed Friday', audience: 'staff' });
    await until(partnerHeard, 3);
    expect(partnerHeard[2]).toEqual({ message: { status: 'off', message: '' } });
    await save({ status: 'on', message: 'Payroll runs early', audience: 'staff' });
    await until(staffHeard, 5);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(partnerHeard).toHaveLength(3);
    expect(overheard).toEqual([]);
  });
});
