// @vitest-environment node
// The wire protocol as a raw client sees it: what pusher-js relies on but does not expose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelAuth } from '../../src/server/realtime/signature';
import { RawClient, credentials, startServer, type TestServer } from './helpers';

let server: TestServer;
const clients: RawClient[] = [];
const connect = async (key?: string) => {
  const client = await RawClient.connect(server.port, key);
  clients.push(client);
  return client;
};

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await server.close();
});

describe('pusher protocol 7 handshake', () => {
  it('sends connection_established with a JSON-string data, a numeric socket id and the activity timeout', async () => {
    const client = await connect();
    const established = await client.event('pusher:connection_established');
    expect(typeof established.data).toBe('string');
    const data = JSON.parse(established.data as string) as { socket_id: string; activity_timeout: number };
    expect(data.socket_id).toMatch(/^\d+\.\d+$/);
    expect(data.activity_timeout).toBe(30);
  });

  it('refuses an unknown app key with pusher:error 4001 and closes with 4001', async () => {
    const client = await connect('not-our-key');
    const error = await client.event('pusher:error');
    expect((error.data as { code: number }).code).toBe(4001);
    expect((await client.closed).code).toBe(4001);
  });

  it('answers pusher:ping with pusher:pong', async () => {
    const client = await connect();
    await client.socketId();
    client.send({ event: 'pusher:ping', data: {} });
    await client.event('pusher:pong');
  });

  it('leaves other paths to the HTTP routes', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/app/${credentials.key}`);
    expect(response.status).toBe(404);
  });
});

describe('malformed input', () => {
  it('answers bad JSON, an oversize message and an invalid channel name with pusher:error and keeps the socket', async () => {
    const client = await connect();
    await client.socketId();

    client.send('{not json');
    expect(((await client.event('pusher:error')).data as { message: string }).message).toMatch(/Invalid message format/);

    client.send({ event: 'client-big', channel: 'private-x', data: 'x'.repeat(11 * 1024) });
    expect(((await client.event('pusher:error')).data as { message: string }).message).toMatch(/too large/);

    client.send({ event: 'pusher:subscribe', data: { channel: 'bad channel!' } });
    expect(((await client.event('pusher:error')).data as { message: string }).message).toMatch(/Invalid channel name/);

    client.send({ event: 'pusher:ping', data: {} });
    await client.event('pusher:pong');
  });

  it('answers a message over 64 KB with pusher:error and keeps the socket', async () => {
    const client = await connect();
    await client.socketId();

    client.send({ event: 'client-huge', channel: 'private-x', data: 'x'.repeat(70 * 1024) });
    const error = await client.event('pusher:error');
    expect(error.data).toEqual({ code: 4200, message: expect.stringMatching(/too large/) });

    client.send({ event: 'pusher:ping', data: {} });
    await client.event('pusher:pong');
    expect(client.ws.readyState).toBe(client.ws.OPEN);
  });
});

describe('subscriptions', () => {
  it('subscribes a public channel without auth', async () => {
    const client = await connect();
    await client.socketId();
    client.send({ event: 'pusher:subscribe', data: { channel: 'announcement-alert' } });
    const succeeded = await client.event('pusher_internal:subscription_succeeded');
    expect(succeeded.channel).toBe('announcement-alert');
  });

  it('refuses private and encrypted channels with a bad signature as a subscription_error on that channel', async () => {
    const client = await connect();
    const socketId = await client.socketId();
    for (const channel of ['private-orders', 'private-encrypted-orders']) {
      const forged = channelAuth(credentials.key, 'wrong-secret', socketId, channel);
      client.send({ event: 'pusher:subscribe', data: { channel, auth: forged } });
      const error = await client.event('pusher:subscription_error');
      expect(error.channel).toBe(channel);
      expect(error.data).toMatchObject({ type: 'AuthError', status: 401 });
    }
    // A signature for another socket is no better.
    client.send({ event: 'pusher:subscribe', data: { channel: 'private-orders', auth: channelAuth(credentials.key, credentials.secret, '1.1', 'private-orders') } });
    expect((await client.event('pusher:subscription_error')).channel).toBe('private-orders');
  });

  it('accepts a correctly signed private-encrypted channel but refuses client events on it', async () => {
    const client = await connect();
    const socketId = await client.socketId();
    const channel = 'private-encrypted-orders';
    client.send({ event: 'pusher:subscribe', data: { channel, auth: channelAuth(credentials.key, credentials.secret, socketId, channel) } });
    await client.event('pusher_internal:subscription_succeeded');
    client.send({ event: 'client-typing', channel, data: {} });
    expect(((await client.event('pusher:error')).data as { code: number }).code).toBe(4301);
  });

  it('refuses client events on public and private channels and on presence channels the socket has not joined', async () => {
    const client = await connect();
    const socketId = await client.socketId();
    client.send({ event: 'pusher:subscribe', data: { channel: 'news' } });
    await client.event('pusher_internal:subscription_succeeded');
    client.send({ event: 'client-typing', channel: 'news', data: {} });
    expect((await client.event('pusher:error')).data).toMatchObject({ code: 4301, message: expect.stringMatching(/only allowed on presence channels/) });
    client.send({ event: 'pusher:subscribe', data: { channel: 'private-orders', auth: channelAuth(credentials.key, credentials.secret, socketId, 'private-orders') } });
    await client.event('pusher_internal:subscription_succeeded');
    client.send({ event: 'client-typing', channel: 'private-orders', data: {} });
    expect((await client.event('pusher:error')).data).toMatchObject({ code: 4301, message: expect.stringMatching(/only allowed on presence channels/) });
    client.send({ event: 'client-typing', channel: 'presence-elsewhere', data: {} });
    expect((await client.event('pusher:error')).data).toMatchObject({ code: 4301, message: expect.stringMatching(/subscription/) });
  });

  it('refuses presence channel_data that was not signed', async () => {
    const client = await connect();
    const socketId = await client.socketId();
    const channel = 'presence-room';
    const auth = channelAuth(credentials.key, credentials.secret, socketId, channel, JSON.stringify({ user_id: 1 }));
    client.send({ event: 'pusher:subscribe', data: { channel, auth, channel_data: JSON.stringify({ user_id: 2 }) } });
    expect((await client.event('pusher:subscription_error')).channel).toBe(channel);
  });
});

describe('keep-alive', () => {
  it('pings an idle client and closes it with 4201 when no pong comes back', async () => {
    const quick = await startServer({ activityTimeout: 0.2 });
    try {
      const client = await RawClient.connect(quick.port);
      clients.push(client);
      await client.socketId();
      await client.event('pusher:ping');
      // A client that answers stays connected…
      client.send({ event: 'pusher:pong', data: {} });
      await client.event('pusher:ping');
      // …and one that stays silent is closed.
      const error = await client.event('pusher:error');
      expect((error.data as { code: number }).code).toBe(4201);
      expect((await client.closed).code).toBe(4201);
    } finally {
      await quick.close();
    }
  });
});
