// A bare Fastify app with the realtime plugin and a stand-in for the auth plugin, plus client helpers.
import Fastify, { type FastifyInstance } from 'fastify';
import Pusher from 'pusher-js';
import PusherServer from 'pusher';
import { WebSocket } from 'ws';
import { registerRealtime } from '../../src/server/realtime/plugin';

export const credentials = { appId: '424242', key: 'test-key', secret: 'test-secret' };

export interface TestServer {
  app: FastifyInstance;
  port: number;
  close(): Promise<void>;
}

/**
 * Bearer tokens are `app:<id>` or `partner:<id>`: the real auth plugin resolves a token to
 * `request.account`; this hook does the same for the routes that declare `config.auth`.
 */
export async function startServer(options: { redisUrl?: string; activityTimeout?: number; appId?: string } = {}): Promise<TestServer> {
  const app = Fastify({ logger: false });
  app.addHook('preHandler', async (request, reply) => {
    const auth = (request.routeOptions.config as { auth?: string }).auth;
    if (!auth || auth === 'none') return;
    const match = /^Bearer (app|partner):(\d+)$/.exec(request.headers.authorization ?? '');
    if (!match) return reply.code(401).send({ message: 'Unauthenticated.' });
    Object.assign(request, { account: { type: match[1], id: Number(match[2]), user: null, tokenId: 1, permissions: [] } });
  });
  registerRealtime(app, { ...credentials, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, port, close: () => app.close() };
}

export function pusherClient(server: TestServer, token?: string, extra: Record<string, unknown> = {}): Pusher {
  return new Pusher(credentials.key, {
    cluster: '',
    wsHost: '127.0.0.1',
    wsPort: server.port,
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      endpoint: `http://127.0.0.1:${server.port}/api/broadcasting/auth`,
      transport: 'ajax',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    },
    ...extra,
  });
}

export function publisher(server: TestServer, overrides: Partial<{ appId: string; secret: string }> = {}): PusherServer {
  return new PusherServer({ ...credentials, ...overrides, host: '127.0.0.1', port: String(server.port), useTLS: false });
}

/** Resolves with the first call of the callback that `bind` registers; rejects after `ms`. */
export function once<T = unknown>(bind: (callback: (value: T) => void) => void, ms = 3000, what = 'event'): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    bind((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

export function connected(client: Pusher): Promise<void> {
  if (client.connection.state === 'connected') return Promise.resolve();
  return once((done) => client.connection.bind('connected', () => done(undefined)), 3000, 'connection');
}

export function subscribed(client: Pusher, channel: string): Promise<unknown> {
  const subscription = client.subscribe(channel);
  return once((done) => subscription.bind('pusher:subscription_succeeded', done), 3000, `subscription to ${channel}`);
}

export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
}

/** A protocol-level client: raw frames in and out, for what pusher-js hides (handshake, errors, close codes). */
export class RawClient {
  readonly frames: Frame[] = [];
  private waiters: { predicate: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as Frame;
      const waiter = this.waiters.find((candidate) => candidate.predicate(frame));
      if (!waiter) {
        this.frames.push(frame);
        return;
      }
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(frame);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static async connect(port: number, key = credentials.key): Promise<RawClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${key}?protocol=7&client=js&version=8.6.0`);
    const client = new RawClient(ws);
    await once((done) => ws.once('open', done), 3000, 'open');
    return client;
  }

  /** The next frame (already received or still to come) matching the predicate. */
  next(predicate: (frame: Frame) => boolean, ms = 3000): Promise<Frame> {
    const seen = this.frames.find(predicate);
    if (seen) {
      this.frames.splice(this.frames.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return once((resolve) => this.waiters.push({ predicate, resolve }), ms, 'frame');
  }

  event(name: string, ms?: number): Promise<Frame> {
    return this.next((frame) => frame.event === name, ms);
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  async socketId(): Promise<string> {
    const established = await this.event('pusher:connection_established');
    return (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
  }

  close(): void {
    this.ws.terminate();
  }
}
