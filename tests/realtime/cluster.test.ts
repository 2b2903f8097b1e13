// @vitest-environment node
// Two nodes sharing one Redis: events, presence and channel queries span the cluster, each event arriving once.
import Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { raiseAnnouncementMessageEvent } from '../../src/server/realtime/events';
import { once, publisher, pusherClient, startServer, subscribed, type TestServer } from './helpers';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('\n*** tests/realtime/cluster.test.ts SKIPPED: set REDIS_URL to run the two-node websocket tests ***\n');

// A fresh app id per run keeps these nodes' Redis topics apart from any other suite's.
const appId = String(Date.now());

describe.skipIf(!redisUrl)('two nodes on one Redis', () => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  const opened: Pusher[] = [];
  const client = (node: TestServer, options: Record<string, unknown> = {}, token?: string) => {
    const pusher = pusherClient(node, token, options);
    opened.push(pusher);
    return pusher;
  };
  const sdk = (node: TestServer) => publisher(node, { appId });
  const signingAs = (node: TestServer, user?: { user_id: string }) => ({
    channelAuthorization: {
      customHandler: ({ socketId, channelName }: { socketId: string; channelName: string }, callback: (error: Error | null, data: unknown) => void) =>
        callback(null, sdk(node).authorizeChannel(socketId, channelName, user)),
    },
  });
  /** Collects every delivery of `event` until a later `sentinel` published on the same path has arrived. */
  const deliveries = (pusher: Pusher, channel: string, event: string) => {
    const seen: unknown[] = [];
    pusher.channel(channel).bind(event, (data: unknown) => seen.push(data));
    const sentinel = once((done) => pusher.channel(channel).bind('sentinel', done), 3000, 'sentinel');
    return { seen, sentinel };
  };

  beforeAll(async () => {
    [nodeA, nodeB] = await Promise.all([startServer({ redisUrl, appId }), startServer({ redisUrl, appId })]);
  });
  afterEach(() => {
    for (const pusher of opened.splice(0)) pusher.disconnect();
  });
  afterAll(async () => {
    await Promise.all([nodeA?.close(), nodeB?.close()]);
  });

  it('delivers an event published on node A to subscribers on both nodes exactly once', async () => {
    const onA = client(nodeA);
    const onB = client(nodeB);
    await Promise.all([subscribed(onA, 'news'), subscribed(onB, 'news')]);
    const [a, b] = [deliveries(onA, 'news', 'story'), deliveries(onB, 'news', 'story')];
    await sdk(nodeA).trigger('news', 'story', { n: 1 });
    await sdk(nodeA).trigger('news', 'sentinel', {});
    await Promise.all([a.sentinel, b.sentinel]);
    expect(a.seen).toEqual([{ n: 1 }]);
    expect(b.seen).toEqual([{ n: 1 }]);
  });

  it('excludes the socket_id given, whichever node holds it', async () => {
    const onA = client(nodeA);
    const onB = client(nodeB);
    await Promise.all([subscribed(onA, 'news'), subscribed(onB, 'news')]);
    const b = deliveries(onB, 'news', 'story');
    await sdk(nodeA).trigger('news', 'story', {}, { socket_id: onB.connection.socket_id });
    await sdk(nodeA).trigger('news', 'sentinel', {});
    await b.sentinel;
    expect(b.seen).toEqual([]);
  });

  it('delivers a domain event raised on node A to a subscriber connected to node B', async () => {
    const reader = client(nodeB, signingAs(nodeB));
    await subscribed(reader, 'private-announcement-alert');
    const received = deliveries(reader, 'private-announcement-alert', 'App\\Events\\AnnouncementMessageEvent');
    await raiseAnnouncementMessageEvent(nodeA.app, { status: 'on', message: 'Maintenance tonight', audience: 'staff' });
    await sdk(nodeA).trigger('private-announcement-alert', 'sentinel', {});
    await received.sentinel;
    expect(received.seen).toEqual([{ message: { status: 'on', message: 'Maintenance tonight' } }]);
  });

  it('relays client events to subscribers on the other node', async () => {
    const onA = client(nodeA, signingAs(nodeA, { user_id: 'a' }));
    const onB = client(nodeB, signingAs(nodeB, { user_id: 'b' }));
    await Promise.all([subscribed(onA, 'presence-chat'), subscribed(onB, 'presence-chat')]);
    const heard = once((done) => onB.channel('presence-chat').bind('client-typing', done));
    onA.channel('presence-chat').trigger('client-typing', { from: 'A' });
    expect(await heard).toEqual({ from: 'A' });
  });

  it('keeps one presence member list across nodes and adds up channel queries', async () => {
    const oneOnA = client(nodeA, signingAs(nodeA, { user_id: '1' }));
    await subscribed(oneOnA, 'presence-team');
    const addedOnA: string[] = [];
    oneOnA.channel('presence-team').bind('pusher:member_added', (member: { id: string }) => addedOnA.push(member.id));

    const twoOnB = client(nodeB, signingAs(nodeB, { user_id: '2' }));
    const membersOnB = (await subscribed(twoOnB, 'presence-team')) as { count: number };
    expect(membersOnB.count).toBe(2);

    // User 1's second tab lands on node B: same member, no announcement.
    const oneOnB = client(nodeB, signingAs(nodeB, { user_id: '1' }));
    await subscribed(oneOnB, 'presence-team');
    const sentinel = once((done) => oneOnA.channel('presence-team').bind('sentinel', done));
    await sdk(nodeB).trigger('presence-team', 'sentinel', {});
    await sentinel;
    expect(addedOnA).toEqual(['2']);

    for (const node of [nodeA, nodeB]) {
      expect(await (await sdk(node).get({ path: '/channels/presence-team', params: { info: 'user_count,subscription_count' } })).json())
        .toEqual({ occupied: true, user_count: 2, subscription_count: 3 });
      expect(await (await sdk(node).get({ path: '/channels/presence-team/users' })).json()).toEqual({ users: [{ id: '1' }, { id: '2' }] });
      const listed = await (await sdk(node).get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })).json();
      expect(listed.channels['presence-team']).toEqual({ user_count: 2 });
    }

    // User 2 leaves node B: node A hears member_removed once.
    const removed = once<{ id: string }>((done) => oneOnA.channel('presence-team').bind('pusher:member_removed', done));
    twoOnB.disconnect();
    expect((await removed).id).toBe('2');
  });

  it('reports the app as unknown to a publisher with another app id on any node', async () => {
    await expect(publisher(nodeB, { appId: 'not-this-app' }).trigger('news', 'x', {}))
      .rejects.toMatchObject({ status: 404 });
  });
});
