// Wires the realtime server into a Fastify app: the websocket endpoint /app/{key} on the app's own HTTP server,
// POST /api/broadcasting/auth, the Pusher HTTP API under /apps/{id}, and `app.broadcaster` for services.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { broadcastingAuthRoute } from './auth-route';
import { Broadcaster } from './broadcaster';
import { ChannelRegistry } from './channels';
import { httpApiRoutes } from './http-api';
import { SocketServer } from './socket-server';

declare module 'fastify' {
  interface FastifyInstance {
    broadcaster: Broadcaster;
    /** This node's sockets and the channels they joined (metrics). */
    realtimeStats(): { connections: number; channels: number };
  }
}

export interface RealtimeOptions {
  appId: string;
  key: string;
  secret: string;
  /** Set on a cluster: events and channel queries then span every node sharing this Redis. */
  redisUrl?: string;
  /** Seconds of silence before a ping (default 30, as Reverb); an unanswered ping closes the socket with 4201. */
  activityTimeout?: number;
}

/** Call on the root instance before it is ready (e.g. in buildApp); closes everything on app.close(). */
export function registerRealtime(app: FastifyInstance, options: RealtimeOptions): void {
  const registry = new ChannelRegistry();
  const broadcaster = new Broadcaster(registry, { appId: options.appId, redisUrl: options.redisUrl, log: app.log });
  const sockets = new SocketServer({
    key: options.key,
    secret: options.secret,
    activityTimeout: options.activityTimeout ?? 30,
    registry,
    broadcaster,
    log: app.log,
    // The auth plugin (registered first in buildApp) says when sessions end: their sockets close.
    sessions: app.hasDecorator('sessions') ? app.sessions : undefined,
  });

  app.decorate('broadcaster', broadcaster);
  app.decorate('realtimeStats', () => ({ connections: sockets.connectionCount, channels: registry.channelCount }));

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Another upgrade listener may own other paths; with none, an unknown path must not hang the client.
    if (!sockets.handleUpgrade(request, socket, head) && app.server.listenerCount('upgrade') === 1) socket.destroy();
  };
  app.server.on('upgrade', onUpgrade);

  // Connect to Redis before listening, so no event published by a service is lost to the other nodes.
  app.addHook('onReady', () => broadcaster.start());
  // preClose: the HTTP server does not finish closing while upgraded sockets are open.
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    await sockets.close();
  });
  app.addHook('onClose', () => broadcaster.close());

  app.register(broadcastingAuthRoute({ key: options.key, secret: options.secret }));
  app.register(httpApiRoutes({ appId: options.appId, key: options.key, secret: options.secret, broadcaster }));
}
