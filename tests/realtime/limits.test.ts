// @vitest-environment node
// Issue 15: one socket may hold at most 100 channels, as on Pusher; the 101st subscription is refused
// with a pusher:error (and a subscription_error for that channel) while the socket stays open.
import Pusher from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, once, pusherClient, RawClient, startServer, subscribed, type TestServer } from './helpers';

let server: TestServer;
const clients: { close(): void }[] = [];
beforeAll(async () => { server = await startServer(); });
afterAll(async () => {
  for (const client of clients) client.close();
  await server.close();
});

describe('channels per socket', () => {
  it('refuses the 101st channel with pusher:error 4300, keeps the socket, and counts a channel once', async () => {
    const client = await RawClient.connect(server.port);
    clients.push(client);
    await client.socketId();
    for (let i = 0; i < 100; i++) client.send({ event: 'pusher:subscribe', data: { channel: `news-${i}` } });
    for (let i = 0; i < 100; i++) await client.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === `news-${i}`);

    // Subscribing again to one it holds is not a new channel.
    client.send({ event: 'pusher:subscribe', data: { channel: 'news-7' } });
    expect((await client.event('pusher_internal:subscription_succeeded')).channel).toBe('news-7');

    client.send({ event: 'pusher:subscribe', data: { channel: 'news-100' } });
    const error = await client.event('pusher:error');
    expect(error.data).toEqual({ code: 4300, message: 'Too many channels: a connection may subscribe to at most 100' });
    expect(await client.event('pusher:subscription_error')).toMatchObject({ channel: 'news-100', data: { status: 429 } });

    // Leaving one makes room; the socket was never closed.
    client.send({ event: 'pusher:unsubscribe', data: { channel: 'news-0' } });
    client.send({ event: 'pusher:subscribe', data: { channel: 'news-100' } });
    expect((await client.event('pusher_internal:subscription_succeeded')).channel).toBe('news-100');
    client.send({ event: 'pusher:ping', data: {} });
    await client.event('pusher:pong');
  });

  it('frees a closed socket\'s channels: the registry forgets channels nobody holds', async () => {
    const client = await RawClient.connect(server.port);
    await client.socketId();
    for (let i = 0; i < 100; i++) client.send({ event: 'pusher:subscribe', data: { channel: `gone-${i}` } });
    await client.next((frame) => frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === 'gone-99');
    const before = await server.app.broadcaster.channels({ prefix: 'gone-' });
    expect(Object.keys(before)).toHaveLength(100);
    client.close();
    await client.closed;
    await expect.poll(async () => Object.keys(await server.app.broadcaster.channels({ prefix: 'gone-' })).length).toBe(0);
  });

  it('tells pusher-js, whose channel reports the refusal', async () => {
    const pusher: Pusher = pusherClient(server);
    clients.push({ close: () => pusher.disconnect() });
    await connected(pusher);
    await Promise.all(Array.from({ length: 100 }, (_, i) => subscribed(pusher, `feed-${i}`)));
    const refused = once<{ status: number }>((done) => pusher.subscribe('feed-100').bind('pusher:subscription_error', done));
    expect((await refused).status).toBe(429);
    expect(pusher.connection.state).toBe('connected');
  });
});
