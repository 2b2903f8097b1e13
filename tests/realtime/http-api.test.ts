// @vitest-environment node
// The Pusher HTTP API as the official `pusher` SDK drives it, plus hand-signed requests for the failure cases.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, credentials, publisher, startServer, type TestServer } from './helpers';

let server: TestServer;
const clients: RawClient[] = [];

/** An independent implementation of the Pusher request signature, so a server bug cannot hide in shared code. */
function signedUrl(method: string, path: string, body = '', overrides: Record<string, string> = {}) {
  const params: Record<string, string> = {
    auth_key: credentials.key,
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    ...(body ? { body_md5: createHash('md5').update(body).digest('hex') } : {}),
    ...overrides,
  };
  const query = Object.keys(params).sort().map((name) => `${name}=${params[name]}`).join('&');
  const signature = createHmac('sha256', credentials.secret).update(`${method}\n${path}\n${query}`).digest('hex');
  return `http://127.0.0.1:${server.port}${path}?${query}&auth_signature=${signature}`;
}

async function subscribe(channel: string, auth?: string) {
  const client = await RawClient.connect(server.port);
  clients.push(client);
  const socketId = await client.socketId();
  client.send({ event: 'pusher:subscribe', data: { channel, ...(auth ? { auth: auth.replace('{socket}', socketId) } : {}) } });
  await client.event('pusher_internal:subscription_succeeded');
  return { client, socketId };
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await server.close();
});

describe('publishing', () => {
  it('delivers an SDK trigger to every listed channel, except the socket_id given', async () => {
    const first = await subscribe('orders');
    const second = await subscribe('orders');
    const other = await subscribe('invoices');
    await publisher(server).trigger(['orders', 'invoices'], 'created', { id: 1 }, { socket_id: first.socketId });
    expect(await second.client.event('created')).toEqual({ event: 'created', channel: 'orders', data: '{"id":1}' });
    expect((await other.client.event('created')).channel).toBe('invoices');
    await publisher(server).trigger('orders', 'sentinel', {});
    await first.client.event('sentinel');
    expect(first.client.frames.filter((frame) => frame.event === 'created')).toEqual([]);
  });

  it('delivers a batch', async () => {
    const { client } = await subscribe('batch-channel');
    await publisher(server).triggerBatch([
      { channel: 'batch-channel', name: 'one', data: { n: 1 } },
      { channel: 'batch-channel', name: 'two', data: { n: 2 } },
    ]);
    expect((await client.event('one')).data).toBe('{"n":1}');
    expect((await client.event('two')).data).toBe('{"n":2}');
  });

  it('refuses event data over 10 KB with 413', async () => {
    const body = JSON.stringify({ name: 'big', channels: ['orders'], data: 'x'.repeat(10 * 1024 + 1) });
    const response = await fetch(signedUrl('POST', `/apps/${credentials.appId}/events`, body), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body,
    });
    expect(response.status).toBe(413);
  });
});

describe('request signatures', () => {
  it('refuses a request signed with the wrong secret with 401', async () => {
    await expect(publisher(server, { secret: 'not-the-secret' }).trigger('orders', 'x', {})).rejects.toMatchObject({ status: 401 });
  });

  it('answers 404 for an unknown app id', async () => {
    await expect(publisher(server, { appId: '999' }).trigger('orders', 'x', {})).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a timestamp older than 600 seconds', async () => {
    const path = `/apps/${credentials.appId}/channels`;
    const stale = String(Math.floor(Date.now() / 1000) - 601);
    expect((await fetch(signedUrl('GET', path, '', { auth_timestamp: stale }))).status).toBe(401);
    expect((await fetch(signedUrl('GET', path))).status).toBe(200);
  });

  it('refuses a body that differs from the signed one (body_md5)', async () => {
    const signedBody = JSON.stringify({ name: 'x', channels: ['orders'], data: '{}' });
    const response = await fetch(signedUrl('POST', `/apps/${credentials.appId}/events`, signedBody), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: signedBody.replace('orders', 'invoices'),
    });
    expect(response.status).toBe(401);
  });

  it('requires body_md5 on every POST, that of the empty string for an empty body', async () => {
    const path = `/apps/${credentials.appId}/events`;
    const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect((await post(signedUrl('POST', path))).status).toBe(401);
    // With the right body_md5 the signature passes, and the empty body is refused for what it is.
    const emptyMd5 = createHash('md5').update('').digest('hex');
    const response = await post(signedUrl('POST', path, '', { body_md5: emptyMd5 }));
    expect(response.status).toBe(400);
  });

  it('refuses a POST body that is not JSON with 415', async () => {
    const body = 'name=x&channel=orders&data=%7B%7D';
    const response = await fetch(signedUrl('POST', `/apps/${credentials.appId}/events`, body), {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body,
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ message: 'The Pusher HTTP API accepts only application/json bodies' });
  });

  it('refuses an unsigned request and a wrong auth_key', async () => {
    expect((await fetch(`http://127.0.0.1:${server.port}/apps/${credentials.appId}/channels`)).status).toBe(401);
    expect((await fetch(signedUrl('GET', `/apps/${credentials.appId}/channels`, '', { auth_key: 'other' }))).status).toBe(401);
  });
});

describe('channel queries', () => {
  const presenceAuth = (socketId: string, channel: string, userId: string) =>
    publisher(server).authorizeChannel(socketId, channel, { user_id: userId }).auth;

  it('reports occupied channels, subscription counts and presence users', async () => {
    await subscribe('query-me');
    await subscribe('query-me');
    for (const userId of ['u1', 'u2', 'u2']) {
      const client = await RawClient.connect(server.port);
      clients.push(client);
      const socketId = await client.socketId();
      const channelData = JSON.stringify({ user_id: userId });
      client.send({ event: 'pusher:subscribe', data: { channel: 'presence-query', auth: presenceAuth(socketId, 'presence-query', userId), channel_data: channelData } });
      await client.event('pusher_internal:subscription_succeeded');
    }
    const sdk = publisher(server);

    const all = await (await sdk.get({ path: '/channels' })).json();
    expect(Object.keys(all.channels)).toEqual(expect.arrayContaining(['query-me', 'presence-query']));

    expect(await (await sdk.get({ path: '/channels/query-me', params: { info: 'subscription_count' } })).json())
      .toEqual({ occupied: true, subscription_count: 2 });
    expect(await (await sdk.get({ path: '/channels/nobody-here', params: { info: 'subscription_count' } })).json())
      .toEqual({ occupied: false, subscription_count: 0 });
    expect(await (await sdk.get({ path: '/channels/presence-query', params: { info: 'user_count,subscription_count' } })).json())
      .toEqual({ occupied: true, user_count: 2, subscription_count: 3 });
    expect(await (await sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })).json())
      .toEqual({ channels: { 'presence-query': { user_count: 2 } } });
    expect(await (await sdk.get({ path: '/channels/presence-query/users' })).json()).toEqual({ users: [{ id: 'u1' }, { id: 'u2' }] });

    await expect(sdk.get({ path: '/channels/query-me', params: { info: 'user_count' } })).rejects.toMatchObject({ status: 400 });
    await expect(sdk.get({ path: '/channels/query-me/users' })).rejects.toMatchObject({ status: 400 });
  });
});
