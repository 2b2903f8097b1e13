// @vitest-environment node
// The Pusher HTTP API inside the real app (buildApp), where app-wide plugins such as @fastify/formbody are
// registered: body_md5 must bind the signature to the body whatever content type a forger picks.
// The API's own behaviour is in http-api.test.ts against a lighter server.
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { RawClient } from './helpers';

let t: TestApp;
let port: number;
const clients: RawClient[] = [];
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const client of clients) client.close();
  await t?.close();
});

const sdk = () => {
  const { appId, key, secret } = t.app.config.pusher;
  return new PusherServer({ appId, key, secret, host: '127.0.0.1', port: String(port), useTLS: false });
};

/** The URL the official SDK would use to POST exactly `body` to `path` (signature and body_md5 included). */
const signedFor = (path: string, body: string) =>
  `http://127.0.0.1:${port}${path}?${sdk().createSignedQueryString({ method: 'POST', path, body })}`;

async function listen(channel: string) {
  const client = await RawClient.connect(port, t.app.config.pusher.key);
  clients.push(client);
  await client.socketId();
  client.send({ event: 'pusher:subscribe', data: { channel } });
  await client.event('pusher_internal:subscription_succeeded');
  return client;
}

describe('body_md5 on the Pusher HTTP API of the running app', () => {
  it('refuses a form-encoded body under a signature made for another JSON body, and delivers nothing', async () => {
    const channel = 'announcement-alert';
    const listener = await listen(channel);
    const events = `/apps/${t.app.config.pusher.appId}/events`;
    const signedBody = JSON.stringify({ name: 'harmless', channels: [channel], data: '{}' });
    const url = signedFor(events, signedBody);

    // The forgery: keep the signed query, send other content as a form (which formbody would parse into an object).
    const forged = new URLSearchParams({ name: 'forged', channel, data: '{"message":"forged"}' }).toString();
    const asForm = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: forged });
    expect(asForm.status).toBe(415);
    expect(await asForm.json()).toEqual({ message: expect.stringMatching(/application\/json/) });

    // The same forged content as JSON fails the body_md5 check.
    const forgedJson = JSON.stringify({ name: 'forged', channel, data: '{"message":"forged"}' });
    const asJson = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: forgedJson });
    expect(asJson.status).toBe(401);

    // The same for a batch.
    const batch = `/apps/${t.app.config.pusher.appId}/batch_events`;
    const batchUrl = signedFor(batch, JSON.stringify({ batch: [{ name: 'harmless', channel, data: '{}' }] }));
    const batchForm = await fetch(batchUrl, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'batch=forged',
    });
    expect(batchForm.status).toBe(415);

    // A genuine publish still works; everything published before it would have arrived first.
    await sdk().trigger(channel, 'sentinel', { ok: true });
    expect((await listener.event('sentinel')).data).toBe('{"ok":true}');
    expect(listener.frames.filter((frame) => frame.event === 'forged')).toEqual([]);
  });

  it('accepts the signed JSON body itself, with a charset parameter too', async () => {
    const channel = 'announcement-alert';
    const listener = await listen(channel);
    const events = `/apps/${t.app.config.pusher.appId}/events`;
    const body = JSON.stringify({ name: 'by-hand', channel, data: '{"n":1}' });
    const response = await fetch(signedFor(events, body), {
      method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body,
    });
    expect(response.status).toBe(200);
    expect((await listener.event('by-hand')).data).toBe('{"n":1}');
  });
});
