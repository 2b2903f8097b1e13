// The websocket side of Pusher protocol 7: handshake, keep-alive, subscriptions and client events.
import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Broadcaster } from './broadcaster';
import type { ChannelRegistry, PresenceMember, Subscriber } from './channels';
import {
  ErrorCode, MAX_EVENT_BYTES, MAX_FRAME_BYTES, channelKind, errorFrame, frame, isValidChannelName, isValidEventName,
  messageData, parseClientMessage, subscriptionErrorFrame, type ClientMessage,
} from './protocol';
import { verifyChannelAuth } from './signature';

/** A client that stops reading is dropped once this much is queued for it, rather than growing server memory. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

class Connection implements Subscriber {
  readonly channels = new Set<string>();
  lastSeenAt = Date.now();
  /** When we sent pusher:ping and are still waiting for any frame back; 0 when not waiting. */
  pingSentAt = 0;

  constructor(readonly socketId: string, readonly ws: WebSocket) {}

  send(payload: string | Buffer): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.terminate();
      return;
    }
    this.ws.send(payload, { binary: false });
  }
}

export interface SocketServerOptions {
  key: string;
  secret: string;
  /** Seconds of silence before either side pings (sent to clients as activity_timeout). */
  activityTimeout: number;
  registry: ChannelRegistry;
  broadcaster: Broadcaster;
  log: FastifyBaseLogger;
}

export class SocketServer {
  // No permessage-deflate: its zlib state costs hundreds of KB per socket, and pusher-js does not need it.
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES, clientTracking: false });
  private readonly connections = new Set<Connection>();
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(private readonly options: SocketServerOptions) {
    // One timer for all sockets (not one per socket) keeps idle connections cheap.
    const activityMs = options.activityTimeout * 1000;
    this.sweepTimer = setInterval(() => this.sweep(activityMs), Math.max(100, activityMs / 4));
    this.sweepTimer.unref();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Takes over an HTTP upgrade whose path is /app/{key}; returns false for any other path. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const match = /^\/app\/([^/?]+)/.exec(request.url ?? '');
    if (!match) return false;
    const key = decodeURIComponent(match[1]);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      if (key === this.options.key) {
        this.accept(ws);
      } else {
        // Accept, then refuse with 4001, so pusher-js learns the app is unknown and stops reconnecting.
        ws.send(errorFrame(ErrorCode.applicationDoesNotExist, `Application does not exist`));
        ws.close(ErrorCode.applicationDoesNotExist, 'Application does not exist');
      }
    });
    return true;
  }

  /** Says goodbye to every client (they reconnect, possibly to another node) and drops the stragglers. */
  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    const closed = [...this.connections].map((connection) => new Promise<void>((resolve) => {
      connection.ws.once('close', () => resolve());
      connection.ws.close(1001, 'Server shutting down');
    }));
    const grace = new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
    await Promise.race([Promise.all(closed), grace]);
    for (const connection of this.connections) connection.ws.terminate();
    this.connections.clear();
    this.wss.close();
  }

  private accept(ws: WebSocket): void {
    const connection = new Connection(`${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`, ws);
    this.connections.add(connection);
    ws.on('message', (data, isBinary) => this.onMessage(connection, data, isBinary));
    ws.on('close', () => this.onClose(connection));
    // A reset socket also emits 'close'; there is nothing more to do with the error.
    ws.on('error', () => undefined);
    connection.send(frame('pusher:connection_established', {
      socket_id: connection.socketId,
      activity_timeout: this.options.activityTimeout,
    }));
  }

  private onMessage(connection: Connection, data: RawData, isBinary: boolean): void {
    connection.lastSeenAt = Date.now();
    connection.pingSentAt = 0;
    const size = Array.isArray(data) ? data.reduce((total, part) => total + part.length, 0) : data.byteLength;
    if (size > MAX_EVENT_BYTES) {
      connection.send(errorFrame(ErrorCode.generic, `Message too large: the limit is ${MAX_EVENT_BYTES} bytes`));
      return;
    }
    const message = isBinary ? null : parseClientMessage(data.toString());
    if (!message) {
      connection.send(errorFrame(ErrorCode.generic, 'Invalid message format: expected a JSON object with an event'));
      return;
    }
    try {
      this.dispatch(connection, message);
    } catch (error) {
      this.options.log.error({ err: error, event: message.event }, 'realtime: message handling failed');
      connection.send(errorFrame(ErrorCode.generic, 'Internal error'));
    }
  }

  private dispatch(connection: Connection, message: ClientMessage): void {
    switch (message.event) {
      case 'pusher:ping':
        connection.send(frame('pusher:pong', {}));
        return;
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        this.subscribe(connection, messageData(message));
        return;
      case 'pusher:unsubscribe': {
        const { channel } = messageData(message);
        if (typeof channel === 'string') this.leave(connection, channel);
        return;
      }
      default:
        if (message.event.startsWith('client-')) this.clientEvent(connection, message);
        // Other pusher: events (e.g. pusher:signin) are optional protocol features we do not offer; ignore them.
    }
  }

  private subscribe(connection: Connection, data: Record<string, unknown>): void {
    const { channel, auth, channel_data: channelData } = data;
    if (!isValidChannelName(channel)) {
      connection.send(errorFrame(ErrorCode.generic, 'Invalid channel name'));
      return;
    }
    const kind = channelKind(channel);
    if (kind !== 'public') {
      const signed = kind === 'presence' ? channelData : undefined;
      if ((kind === 'presence' && typeof channelData !== 'string')
        || !verifyChannelAuth(this.options.key, this.options.secret, connection.socketId, channel, auth, signed as string | undefined)) {
        connection.send(subscriptionErrorFrame(channel, 401, 'Invalid signature'));
        return;
      }
    }
    if (kind === 'presence') {
      const member = parseMember(channelData as string);
      if (!member) {
        connection.send(subscriptionErrorFrame(channel, 400, 'channel_data must hold a user_id'));
        return;
      }
      void this.joinPresence(connection, channel, member).catch((error: unknown) => {
        this.options.log.error({ err: error, channel }, 'realtime: presence subscription failed');
      });
      return;
    }
    this.options.registry.subscribe(connection, channel);
    connection.send(frame('pusher_internal:subscription_succeeded', {}, channel));
  }

  private async joinPresence(connection: Connection, channel: string, member: PresenceMember): Promise<void> {
    const { registry, broadcaster } = this.options;
    if (registry.isSubscribed(connection, channel)) {
      // A repeated subscribe must not register the socket under a second user id.
      connection.send(frame('pusher_internal:subscription_succeeded', presenceData(registry.members(channel)), channel));
      return;
    }
    const { isFirstLocalSocket } = registry.subscribe(connection, channel, member);
    const remote = await broadcaster.remoteMembers(channel);
    if (!registry.isSubscribed(connection, channel)) return; // left while we were asking the other nodes
    connection.send(frame('pusher_internal:subscription_succeeded', presenceData({ ...remote, ...registry.members(channel) }), channel));
    // One member per user: only the user's first socket in the whole cluster announces them.
    if (isFirstLocalSocket && !(String(member.user_id) in remote)) {
      await broadcaster.publish([channel], 'pusher_internal:member_added', member, connection.socketId);
    }
  }

  private leave(connection: Connection, channel: string): void {
    const { leftMember } = this.options.registry.unsubscribe(connection, channel);
    if (!leftMember) return;
    void this.announceLeft(channel, leftMember).catch((error: unknown) => {
      this.options.log.error({ err: error, channel }, 'realtime: member_removed not sent');
    });
  }

  private async announceLeft(channel: string, member: PresenceMember): Promise<void> {
    const key = String(member.user_id);
    const remote = await this.options.broadcaster.remoteMembers(channel);
    // Still connected elsewhere (another node, or a new tab here meanwhile): still a member.
    if (key in remote || key in this.options.registry.members(channel)) return;
    await this.options.broadcaster.publish([channel], 'pusher_internal:member_removed', { user_id: member.user_id });
  }

  private clientEvent(connection: Connection, message: ClientMessage): void {
    const { channel, event } = message;
    if (!isValidChannelName(channel) || !isValidEventName(event)) {
      connection.send(errorFrame(ErrorCode.generic, 'Invalid channel or event name'));
      return;
    }
    const kind = channelKind(channel);
    if (kind !== 'private' && kind !== 'presence') {
      connection.send(errorFrame(ErrorCode.unauthorized, 'Client events are only allowed on private and presence channels'));
      return;
    }
    if (!this.options.registry.isSubscribed(connection, channel)) {
      connection.send(errorFrame(ErrorCode.unauthorized, 'Client events need a subscription to the channel'));
      return;
    }
    // Never echoed to the sender, as Pusher does.
    void this.options.broadcaster.publish([channel], event, message.data ?? {}, connection.socketId);
  }

  private onClose(connection: Connection): void {
    this.connections.delete(connection);
    for (const channel of [...connection.channels]) this.leave(connection, channel);
  }

  private sweep(activityMs: number): void {
    const now = Date.now();
    for (const connection of this.connections) {
      if (connection.pingSentAt) {
        if (now - connection.pingSentAt >= activityMs) {
          connection.send(errorFrame(ErrorCode.pongNotReceived, 'Pong reply not received'));
          connection.ws.close(ErrorCode.pongNotReceived, 'Pong reply not received');
        }
      } else if (now - connection.lastSeenAt >= activityMs) {
        connection.pingSentAt = now;
        connection.send(frame('pusher:ping', {}));
      }
    }
  }
}

function parseMember(channelData: string): PresenceMember | null {
  try {
    const parsed = JSON.parse(channelData) as { user_id?: unknown; user_info?: unknown };
    const userId = parsed.user_id;
    if ((typeof userId === 'string' && userId !== '') || typeof userId === 'number') return { user_id: userId, user_info: parsed.user_info };
  } catch {
    // fall through: not JSON
  }
  return null;
}

function presenceData(members: Record<string, PresenceMember>) {
  const ids = Object.keys(members);
  const hash = Object.fromEntries(ids.map((id) => [id, members[id].user_info ?? null]));
  return { presence: { ids, hash, count: ids.length } };
}
