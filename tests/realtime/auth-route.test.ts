// @vitest-environment node
// POST /api/broadcasting/auth: a user may sign only their own private channels.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, startServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const authorize = (token: string | null, body: Record<string, string>, as: 'form' | 'json' = 'form') => server.app.inject({
  method: 'POST',
  url: '/api/broadcasting/auth',
  headers: {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
  },
  payload: as === 'form' ? new URLSearchParams(body).toString() : JSON.stringify(body),
});

const expectedAuth = (socketId: string, channel: string, channelData: string) =>
  `${credentials.key}:${createHmac('sha256', credentials.secret).update(`${socketId}:${channel}:${channelData}`).digest('hex')}`;

/** The signature covers the session the subscription acts for (the stand-in auth gives every token id 1). */
const expectSigned = (response: { statusCode: number; json(): unknown }, socketId: string, channel: string) => {
  expect(response.statusCode).toBe(200);
  const { auth, channel_data: channelData } = response.json() as { auth: string; channel_data: string };
  const session = JSON.parse(channelData) as { token_id: number; expires: number };
  expect(session.token_id).toBe(1);
  expect(session.expires).toBeGreaterThan(Date.now() / 1000);
  expect(session.expires).toBeLessThanOrEqual(Date.now() / 1000 + 60);
  expect(auth).toBe(expectedAuth(socketId, channel, channelData));
};

describe('POST /api/broadcasting/auth', () => {
  it.each(['private-time-sheet-upload-event.5', 'private-partner-pre-billing-upload-event.5'])(
    'signs %s for app user 5, with its session, form-encoded and as JSON', async (channel) => {
      for (const as of ['form', 'json'] as const) {
        expectSigned(await authorize('app:5', { socket_id: '123.456', channel_name: channel }, as), '123.456', channel);
      }
    },
  );

  it.each([['app:5', 'private-announcement-alert'], ['partner:5', 'private-partner-announcement-alert']])(
    'signs its audience\'s announcement channel for any signed-in account (%s)', async (token, channel) => {
      expectSigned(await authorize(token, { socket_id: '1.2', channel_name: channel }), '1.2', channel);
    },
  );

  it.each([
    ['another user', 'app:5', 'private-time-sheet-upload-event.6'],
    ['a partner with the same id', 'partner:5', 'private-time-sheet-upload-event.5'],
    ['an unlisted private channel', 'app:5', 'private-anything.5'],
    ['a partner on the staff announcements (issue 20)', 'partner:5', 'private-announcement-alert'],
    ['staff on the partner announcements', 'app:5', 'private-partner-announcement-alert'],
    ['a presence channel', 'app:5', 'presence-time-sheet-upload-event.5'],
    ['a look-alike suffix', 'app:5', 'private-time-sheet-upload-event.55'],
  ])('refuses %s with 403', async (_case, token, channel) => {
    const response = await authorize(token, { socket_id: '123.456', channel_name: channel });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'This action is unauthorized.' });
  });

  it('refuses a caller without a token with 401', async () => {
    expect((await authorize(null, { socket_id: '1.2', channel_name: 'private-time-sheet-upload-event.5' })).statusCode).toBe(401);
  });

  it('answers malformed input with 422', async () => {
    const response = await authorize('app:5', { socket_id: 'abc', channel_name: 'bad name!' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['channel_name', 'socket_id']);
  });
});
