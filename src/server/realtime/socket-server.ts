// The websocket side of Pusher protocol 7: handshake, keep-alive, subscriptions and client events.
import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Broadcaster } from './broadcaster';
import type { ChannelRegistry, PresenceMember, Subscriber } from './channels';
import {
  ErrorCode, MAX_CHANNELS_PER_SOCKET, MAX_CLIENT_EVENTS_PER_SECOND, MAX_EVENT_BYTES, MAX_FRAME_BYTES, SESSION_BINDING_SECONDS, channelKind, errorFrame, frame,
  isValidChannelName, isValidEventName, messageData, parseClientMessage, readSessionBinding, subscriptionErrorFrame, type ClientMessage,
} from './protocol';
import { verifyChannelAuth } from './signature';

/** A client that stops reading is dropped once this much is queued for it, rather than growing server memory. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** How often every bound socket's sessions are checked against the database (expiry, missed revocations). */
const SESSION_CHECK_MS = 60_000;
/** How long a revoked token id is remembered: past it, no signature made for it is still fresh. */
const REVOKED_MEMORY_MS = (SESSION_BINDING_SECONDS + 300) * 1000;

/** Where the socket server learns that sessions ended (the auth plugin's `app.sessions`). */
export interface SessionSource {
  onRevoked(listener: (tokenIds: number[] | null) => void): void;
  live(tokenIds: number[]): Promise<Set<number>>;
}

class Connection implements Subscriber {
  readonly channels = new Set<string>();
  /** The bearer tokens whose signatures this socket subscribed with (see SessionBinding). */
  readonly sessions = new Set<number>();
  lastSeenAt = Date.now();
  /** When we sent pusher:ping and are still waiting for any frame back; 0 when not waiting. */
  pingSentAt = 0;
  /** When the last relayed client events were sent (at most MAX_CLIENT_EVENTS_PER_SECOND, oldest first). */
  readonly clientEventTimes: number[] = [];

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
  /** Without one, subscriptions are not tied to sessions (a bare realtime server). */
  sessions?: SessionSource;
}

export class SocketServer {
  // No permessage-deflate: its zlib state costs hundreds of KB per socket, and pusher-js does not need it.
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES, clientTracking: false });
  private readonly connections = new Set<Connection>();
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly sessionTimer?: NodeJS.Timeout;
  /** Token id -> until when a subscription signed for it is refused. */
  private readonly revoked = new Map<number, number>();

  constructor(private readonly options: SocketServerOptions) {
    // One timer for all sockets (not one per socket) keeps idle connections cheap.
    const activityMs = options.activityTimeout * 1000;
    this.sweepTimer = setInterval(() => this.sweep(activityMs), Math.max(100, activityMs / 4));
    this.sweepTimer.unref();
    const { sessions } = options;
    if (sessions) {
      sessions.onRevoked((tokenIds) => (tokenIds ? this.endSessions(tokenIds) : void this.checkSessions()));
      this.sessionTimer = setInterval(() => void this.checkSessions(), SESSION_CHECK_MS);
      this.sessionTimer.unref();
    }
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
    clearInterval(this.sessionTimer);
    const closed = [...this.connections].map((connection) => new Promise<void>((resolve) => {
      connection.ws.once('close', () => resolve());
      // 4200: the protocol's "reconnect at once"; behind a load balancer the client lands on another node.
      connection.ws.send(errorFrame(ErrorCode.generic, 'Server shutting down; reconnect'));
      connection.ws.close(ErrorCode.generic, 'Server shutting down');
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
    if (!connection.channels.has(channel) && connection.channels.size >= MAX_CHANNELS_PER_SOCKET) {
      const message = `Too many channels: a connection may subscribe to at most ${MAX_CHANNELS_PER_SOCKET}`;
      connection.send(errorFrame(ErrorCode.overChannelLimit, message));
      connection.send(subscriptionErrorFrame(channel, 429, message));
      return;
    }
    const kind = channelKind(channel);
    let sessionId: number | null = null;
    if (kind !== 'public') {
      // channel_data is part of what was signed whenever it is sent: presence members, and the session of a private channel.
      const signed = typeof channelData === 'string' ? channelData : undefined;
      if ((kind === 'presence' && signed === undefined)
        || !verifyChannelAuth(this.options.key, this.options.secret, connection.socketId, channel, auth, signed)) {
        connection.send(subscriptionErrorFrame(channel, 401, 'Invalid signature'));
        return;
      }
      const binding = kind === 'presence' ? null : readSessionBinding(signed);
      if (binding) {
        if (binding.expires * 1000 < Date.now()) {
          connection.send(subscriptionErrorFrame(channel, 401, 'Expired signature'));
          return;
        }
        if ((this.revoked.get(binding.token_id) ?? 0) > Date.now()) {
          connection.send(subscriptionErrorFrame(channel, 401, 'The session has ended'));
          return;
        }
        sessionId = binding.token_id;
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
    if (sessionId !== null) connection.sessions.add(sessionId);
    this.options.registry.subscribe(connection, channel);
    connection.send(frame('pusher_internal:subscription_succeeded', {}, channel));
  }

  /** Closes every socket that subscribed for one of these (revoked) tokens, and refuses their signatures from now on. */
  endSessions(tokenIds: number[]): void {
    const until = Date.now() + REVOKED_MEMORY_MS;
    for (const id of tokenIds) this.revoked.set(id, until);
    const ended = new Set(tokenIds);
    for (const connection of this.connections) {
      if ([...connection.sessions].some((id) => ended.has(id))) this.endConnection(connection);
    }
  }

  /** Asks the database which bound sessions still stand; ends the others (expired, deactivated, or a missed revocation). */
  async checkSessions(): Promise<void> {
    const { sessions } = this.options;
    const bound = new Set<number>();
    for (const connection of this.connections) for (const id of connection.sessions) bound.add(id);
    if (!sessions || bound.size === 0) return;
    try {
      const live = await sessions.live([...bound]);
      const ended = [...bound].filter((id) => !live.has(id));
      if (ended.length) this.endSessions(ended);
    } catch (error) {
      this.options.log.warn({ err: error }, 'realtime: sessions not checked');
    }
  }

  private endConnection(connection: Connection): void {
    // 4009: pusher-js does not reconnect; the app signs in again and opens a new connection.
    connection.send(errorFrame(ErrorCode.unauthorized, 'The session has ended. Sign in again.'));
    connection.ws.close(ErrorCode.unauthorized, 'Session ended');
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
    // Issue 20: the product's own channels (announcements, notifications) are private and some are joined
    // by every signed-in account; a client event there would reach every staff socket. Only presence
    // channels, whose members know each other, relay them.
    if (channelKind(channel) !== 'presence') {
      connection.send(errorFrame(ErrorCode.clientEventRejected, 'Client events are only allowed on presence channels'));
      return;
    }
    if (!this.options.registry.isSubscribed(connection, channel)) {
      connection.send(errorFrame(ErrorCode.clientEventRejected, 'Client events need a subscription to the channel'));
      return;
    }
    // A sliding second: never more than the limit in any 1000 ms, however the burst falls across clock seconds.
    const now = Date.now();
    const times = connection.clientEventTimes;
    if (times.length >= MAX_CLIENT_EVENTS_PER_SECOND && now - times[0] < 1000) {
      connection.send(errorFrame(ErrorCode.clientEventRejected, `Client event rejected: a connection may send at most ${MAX_CLIENT_EVENTS_PER_SECOND} a second`));
      return;
    }
    times.push(now);
    if (times.length > MAX_CLIENT_EVENTS_PER_SECOND) times.shift();
    // Never echoed to the sender, as Pusher does.
    void this.options.broadcaster.publish([channel], event, message.data ?? {}, connection.socketId);
  }

  private onClose(connection: Connection): void {
    this.connections.delete(connection);
    for (const channel of [...connection.channels]) this.leave(connection, channel);
  }

  private sweep(activityMs: number): void {
    const now = Date.now();
    for (const [id, until] of this.revoked) if (until <= now) this.revoked.delete(id);
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
