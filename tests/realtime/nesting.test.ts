// @vitest-environment node
// Issue 20: deeply nested JSON on the realtime side. A client event's data, or an event sent through
// the Pusher HTTP API, is encoded again with JSON.stringify before it is relayed, and that recursion
// overflows the stack from about 5,000 levels: inside a 10 KB client frame, that was a promise
// rejected with nobody to catch it. Both are now refused like any malformed input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/server/plugins/input';
import { channelAuth } from '../../src/server/realtime/signature';
import { RawClient, credentials, publisher, startServer, type TestServer } from './helpers';

let server: TestServer;
const clients: RawClient[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => { unhandled.push(reason); };

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = await startServer();
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  for (const client of clients) client.close();
  await server.close();
});

const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;

/** A socket in the presence channel `channel` as user `userId`. */
async function member(channel: string, userId: number) {
  const client = await RawClient.connect(server.port);
  clients.push(client);
  const socketId = await client.socketId();
  const channelData = JSON.stringify({ user_id: userId });
  client.send({ event: 'pusher:subscribe', data: { channel, auth: channelAuth(credentials.key, credentials.secret, socketId, channel, channelData), channel_data: channelData } });
  await client.event('pusher_internal:subscription_succeeded');
  return client;
}

describe('deeply nested JSON', () => {
  it('refuses a client event nested 4,000 deep with pusher:error, relays nothing and keeps the socket', async () => {
    const channel = `presence-nesting-${Date.now()}`;
    const sender = await member(channel, 1);
    const listener = await member(channel, 2);
    await sender.event('pusher_internal:member_added');

    sender.send({ event: 'client-deep', channel, data: nested(4000) });
    expect(((await sender.event('pusher:error')).data as { message: string }).message).toMatch(/Invalid message format/);
    // A shallow one still goes through, and is the first the listener hears.
    sender.send({ event: 'client-shallow', channel, data: { ok: nested(MAX_BODY_DEPTH - 2) } });
    expect((await listener.event('client-shallow')).event).toBe('client-shallow');
    expect(listener.frames.filter((frame) => frame.event === 'client-deep')).toEqual([]);
    sender.send({ event: 'pusher:ping', data: {} });
    await sender.event('pusher:pong');
    expect(unhandled).toEqual([]);
  });

  it('answers 400 to an event nested 10,000 deep sent through the HTTP API', async () => {
    // Written out by hand: the SDK would encode `data` as a string, which is never nested.
    const send = (data: string) => {
      const path = `/apps/${credentials.appId}/events`;
      const body = `{"name":"deep","channels":["news"],"data":${data}}`;
      const query = publisher(server).createSignedQueryString({ method: 'POST', path, body });
      return fetch(`http://127.0.0.1:${server.port}${path}?${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    };
    const refused = await send(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: 'The request body is nested too deeply.' });
    expect((await send('{"ok":true}')).status).toBe(200);
  });
});
