// @vitest-environment node
// The real clients against the running server: pusher-js and laravel-echo subscribe, the `pusher` SDK publishes.
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connected, credentials, once, publisher, pusherClient, startServer, subscribed, type TestServer } from './helpers';

let server: TestServer;
const opened: { disconnect(): void }[] = [];
const track = <T extends { disconnect(): void }>(client: T) => {
  opened.push(client);
  return client;
};

/** Signs any channel the way a trusted backend would, with the SDK, for presence and client-event tests. */
const signingHandler = (user?: { user_id: string; user_info?: Record<string, unknown> }) => ({
  channelAuthorization: {
    customHandler: ({ socketId, channelName }: { socketId: string; channelName: string }, callback: (error: Error | null, data: unknown) => void) => {
      callback(null, publisher(server).authorizeChannel(socketId, channelName, user));
    },
  },
});

beforeAll(async () => {
  server = await startServer();
});
afterEach(() => {
  for (const client of opened.splice(0)) client.disconnect();
});
afterAll(async () => {
  await server.close();
});

describe('pusher-js', () => {
  it('connects and receives an event published by the pusher SDK on a public channel', async () => {
    const client = track(pusherClient(server));
    await connected(client);
    expect(client.connection.socket_id).toMatch(/^\d+\.\d+$/);
    await subscribed(client, 'announcement-alert');
    const received = once((done) => client.channel('announcement-alert').bind('App\\Events\\AnnouncementMessageEvent', done));
    await publisher(server).trigger('announcement-alert', 'App\\Events\\AnnouncementMessageEvent', { message: { status: 'on', message: 'Hi' } });
    expect(await received).toEqual({ message: { status: 'on', message: 'Hi' } });
  });

  it('joins its own private channel through /api/broadcasting/auth with a bearer token', async () => {
    const client = track(pusherClient(server, 'app:5'));
    await subscribed(client, 'private-time-sheet-upload-event.5');
    const received = once((done) => client.channel('private-time-sheet-upload-event.5').bind('ping', done));
    await publisher(server).trigger('private-time-sheet-upload-event.5', 'ping', { n: 1 });
    expect(await received).toEqual({ n: 1 });
  });

  it("is refused another user's private channel with a 403 subscription error", async () => {
    const client = track(pusherClient(server, 'app:5'));
    const channel = client.subscribe('private-time-sheet-upload-event.6');
    const error = await once<{ status: number }>((done) => channel.bind('pusher:subscription_error', done));
    expect(error.status).toBe(403);
    expect(channel.subscribed).toBe(false);
  });

  it('does not echo client events to the sender but delivers them to the other members of a presence channel', async () => {
    const alice = track(pusherClient(server, undefined, signingHandler({ user_id: 'alice' })));
    const bob = track(pusherClient(server, undefined, signingHandler({ user_id: 'bob' })));
    await Promise.all([subscribed(alice, 'presence-chat'), subscribed(bob, 'presence-chat')]);
    const aliceHeard: unknown[] = [];
    alice.channel('presence-chat').bind('client-typing', (data: unknown) => aliceHeard.push(data));
    const bobHeard = once((done) => bob.channel('presence-chat').bind('client-typing', done));
    alice.channel('presence-chat').trigger('client-typing', { who: 'alice' });
    expect(await bobHeard).toEqual({ who: 'alice' });
    // A later server event reaches Alice after anything that could have been echoed to her.
    const sentinel = once((done) => alice.channel('presence-chat').bind('sentinel', done));
    await publisher(server).trigger('presence-chat', 'sentinel', {});
    await sentinel;
    expect(aliceHeard).toEqual([]);
  });

  it('refuses client events on a private channel with a 4301 error: no other subscriber receives them (issue 20)', async () => {
    const sender = track(pusherClient(server, undefined, signingHandler()));
    const staff = track(pusherClient(server, undefined, signingHandler()));
    await Promise.all([subscribed(sender, 'private-announcement-alert'), subscribed(staff, 'private-announcement-alert')]);
    const heard: unknown[] = [];
    staff.channel('private-announcement-alert').bind('client-flood', (data: unknown) => heard.push(data));
    const refused = once<{ type: string; data: { code: number; message: string } }>((done) => sender.connection.bind('error', done));
    sender.channel('private-announcement-alert').trigger('client-flood', { junk: 'x'.repeat(9 * 1024) });
    expect((await refused).data).toEqual({ code: 4301, message: 'Client events are only allowed on presence channels' });
    // The server's own event, sent after, arrives; the client event never did.
    const sentinel = once((done) => staff.channel('private-announcement-alert').bind('sentinel', done));
    await publisher(server).trigger('private-announcement-alert', 'sentinel', {});
    await sentinel;
    expect(heard).toEqual([]);
    expect(sender.connection.state).toBe('connected');
  });

  it('relays at most 10 client events a second from one connection and refuses the rest with 4301', async () => {
    const sender = track(pusherClient(server, undefined, signingHandler({ user_id: 'sender' })));
    const other = track(pusherClient(server, undefined, signingHandler({ user_id: 'other' })));
    await Promise.all([subscribed(sender, 'presence-burst'), subscribed(other, 'presence-burst')]);
    const heard: number[] = [];
    other.channel('presence-burst').bind('client-n', (data: { n: number }) => heard.push(data.n));
    const errors: number[] = [];
    sender.connection.bind('error', (error: { data?: { code?: number } }) => errors.push(error.data?.code ?? 0));
    for (let n = 0; n < 25; n++) sender.channel('presence-burst').trigger('client-n', { n });
    // Every refusal arrived, so the server has read all 25; the sentinel then follows any relayed one.
    await vi.waitFor(() => expect(errors).toHaveLength(15), { timeout: 3000 });
    const sentinel = once((done) => other.channel('presence-burst').bind('sentinel', done));
    await publisher(server).trigger('presence-burst', 'sentinel', {});
    await sentinel;
    expect(heard).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(errors).toEqual(Array(15).fill(4301));
    // A second later the connection may send again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = once<{ n: number }>((done) => other.channel('presence-burst').bind('client-n', done));
    sender.channel('presence-burst').trigger('client-n', { n: 99 });
    expect(await again).toEqual({ n: 99 });
  });
});

describe('presence channels', () => {
  type Members = { count: number; each(callback: (member: { id: string }) => void): void };
  const ids = (members: Members) => {
    const result: string[] = [];
    members.each((member) => result.push(member.id));
    return result.sort();
  };

  it('lists members, announces joins and leaves to the others only, and counts a user once across tabs', async () => {
    const one = track(pusherClient(server, undefined, signingHandler({ user_id: '1', user_info: { name: 'One' } })));
    const members = (await subscribed(one, 'presence-room')) as Members;
    expect(ids(members)).toEqual(['1']);
    const addedSeenByOne: string[] = [];
    one.channel('presence-room').bind('pusher:member_added', (member: { id: string }) => addedSeenByOne.push(member.id));

    const added = once<{ id: string; info: unknown }>((done) => one.channel('presence-room').bind('pusher:member_added', done));
    const twoTab = track(pusherClient(server, undefined, signingHandler({ user_id: '2', user_info: { name: 'Two' } })));
    const addedSeenByTwo: string[] = [];
    twoTab.subscribe('presence-room').bind('pusher:member_added', (member: { id: string }) => addedSeenByTwo.push(member.id));
    const twoMembers = (await subscribed(twoTab, 'presence-room')) as Members;
    expect(ids(twoMembers)).toEqual(['1', '2']);
    expect(await added).toEqual({ id: '2', info: { name: 'Two' } });

    // A second tab of user 2: still two members, and no second member_added.
    const twoOtherTab = track(pusherClient(server, undefined, signingHandler({ user_id: '2', user_info: { name: 'Two' } })));
    expect(ids((await subscribed(twoOtherTab, 'presence-room')) as Members)).toEqual(['1', '2']);
    const usersAnswer = await publisher(server).get({ path: '/channels/presence-room/users' });
    expect(await usersAnswer.json()).toEqual({ users: [{ id: '1' }, { id: '2' }] });

    // Closing one of user 2's tabs is not a leave; closing the last one is.
    const removed = once<{ id: string }>((done) => one.channel('presence-room').bind('pusher:member_removed', done));
    twoOtherTab.disconnect();
    const sentinel = once((done) => one.channel('presence-room').bind('sentinel', done));
    await publisher(server).trigger('presence-room', 'sentinel', {});
    await sentinel;
    twoTab.disconnect();
    expect((await removed).id).toBe('2');
    expect(addedSeenByOne).toEqual(['2']);
    expect(addedSeenByTwo).toEqual([]);
  });
});

describe('laravel-echo (broadcaster reverb)', () => {
  const echoFor = (token: string, extra: Record<string, unknown> = {}) => track(new Echo({
    broadcaster: 'reverb',
    key: credentials.key,
    wsHost: '127.0.0.1',
    wsPort: server.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    authEndpoint: `http://127.0.0.1:${server.port}/api/broadcasting/auth`,
    bearerToken: token,
    auth: { headers: {} }, // Echo shares its default `auth` object between instances
    Pusher,
    ...extra,
  }));

  it('listens to a Laravel event name on a private channel', async () => {
    const echo = echoFor('app:7');
    const received = once((done) => echo.private('time-sheet-upload-event.7').listen('TimeSheetUploadEvent', done));
    await once((done) => (echo.connector as { pusher: Pusher }).pusher.channel('private-time-sheet-upload-event.7').bind('pusher:subscription_succeeded', done));
    const payload = { message: { title: 'T', message: 'M', url: '/time-sheet' }, user: { id: 9, name: 'Nine', parent_id: 7 } };
    await publisher(server).trigger('private-time-sheet-upload-event.7', 'App\\Events\\TimeSheetUploadEvent', payload);
    expect(await received).toEqual(payload);
  });

  it("fires .error() when the server rejects the channel's signature", async () => {
    const echo = echoFor('app:7', {
      authorizer: () => ({ authorize: (_socketId: string, callback: (error: Error | null, data: unknown) => void) => callback(null, { auth: `${credentials.key}:forged` }) }),
    });
    const error = await once<{ status: number }>((done) => echo.private('time-sheet-upload-event.7').error(done));
    expect(error.status).toBe(401);
  });
});
