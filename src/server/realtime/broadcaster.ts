// Fan-out of events to subscribed sockets: on this node directly, on the other nodes through Redis pub/sub.
//
// Publishing delivers locally at once and publishes to Redis tagged with this node's id; every node (this one
// too) receives the Redis message and skips its own, so each node delivers an event exactly once.
//
// Channel queries (occupied, subscription_count, user_count, presence members) are answered live by asking
// every node over pub/sub rather than by mirroring counts into Redis hashes: subscribe / unsubscribe stay
// in-memory on the hot path, nothing goes stale when a node dies, and PUBLISH returns how many nodes are
// listening, so the asker knows exactly how many answers to wait for (with a timeout for a stuck node).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelRegistry, LocalChannelStats, PresenceMember } from './channels';
import { frame } from './protocol';

export interface ChannelQuery {
  names?: string[];
  prefix?: string;
}

interface EventMessage { origin: string; channels: string[]; event: string; data: string; except?: string }
interface QueryMessage extends ChannelQuery { origin: string; requestId: string }
interface ReplyMessage { requestId: string; stats: Record<string, LocalChannelStats> }

interface PendingQuery {
  replies: Record<string, LocalChannelStats>[];
  expected: number;
  finish: () => void;
}

export interface BroadcasterOptions {
  appId: string;
  redisUrl?: string;
  log: FastifyBaseLogger;
  /** How long a channel query waits for a node that does not answer. */
  queryTimeoutMs?: number;
}

export class Broadcaster {
  readonly nodeId = randomUUID();
  private publisher?: Redis;
  private subscriber?: Redis;
  private readonly pending = new Map<string, PendingQuery>();
  private readonly topics: { events: string; queries: string; replies: string };

  constructor(private readonly registry: ChannelRegistry, private readonly options: BroadcasterOptions) {
    const prefix = `realtime:${options.appId}`;
    this.topics = { events: `${prefix}:events`, queries: `${prefix}:queries`, replies: `${prefix}:replies:${this.nodeId}` };
  }

  /** Connects to Redis when configured; resolves once this node listens to the other nodes. */
  async start(): Promise<void> {
    if (!this.options.redisUrl) return;
    // No offline queue: while Redis is down a publish fails fast (and is logged) instead of stalling the request.
    const connect = () => new Redis(this.options.redisUrl!, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.publisher = connect();
    this.subscriber = connect();
    for (const client of [this.publisher, this.subscriber]) {
      client.on('error', (error: Error) => this.options.log.warn({ err: error }, 'realtime: redis error'));
    }
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (topic: string, message: string) => this.onRedisMessage(topic, message));
    await this.subscriber.subscribe(this.topics.events, this.topics.queries, this.topics.replies);
  }

  /** Sends `event` to every subscriber of `channels` on every node, except the socket that caused it. */
  async publish(channels: string[], event: string, data: unknown, exceptSocketId?: string): Promise<void> {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    this.deliver(channels, event, payload, exceptSocketId);
    if (!this.publisher) return;
    const message: EventMessage = { origin: this.nodeId, channels, event, data: payload, except: exceptSocketId };
    try {
      await this.publisher.publish(this.topics.events, JSON.stringify(message));
    } catch (error) {
      this.options.log.error({ err: error, event, channels }, 'realtime: event not sent to other nodes');
    }
  }

  /** Occupied channels across the cluster, with subscription counts summed and presence members merged. */
  async channels(query: ChannelQuery): Promise<Record<string, LocalChannelStats>> {
    const merged: Record<string, LocalChannelStats> = {};
    for (const stats of [this.registry.stats(query), ...(await this.askOtherNodes(query))]) {
      for (const [name, { subscription_count, members }] of Object.entries(stats)) {
        const entry = (merged[name] ??= { subscription_count: 0, members: members ? {} : undefined });
        entry.subscription_count += subscription_count;
        if (members) entry.members = { ...entry.members, ...members };
      }
    }
    return merged;
  }

  /** Presence members of `channel` connected to other nodes (this node's are in the registry). */
  async remoteMembers(channel: string): Promise<Record<string, PresenceMember>> {
    const members: Record<string, PresenceMember> = {};
    for (const stats of await this.askOtherNodes({ names: [channel] })) Object.assign(members, stats[channel]?.members);
    return members;
  }

  async close(): Promise<void> {
    for (const query of this.pending.values()) query.finish();
    await Promise.all([this.publisher?.quit(), this.subscriber?.quit()].map((done) => done?.catch(() => undefined)));
  }

  private deliver(channels: string[], event: string, payload: string, exceptSocketId?: string): void {
    for (const channel of channels) {
      let bytes: Buffer | null = null;
      for (const subscriber of this.registry.subscribers(channel)) {
        // Encoded once per channel, shared by every subscriber's send; never for a channel nobody
        // here listens to (most notifications of a reminder run reach people who are offline).
        bytes ??= Buffer.from(frame(event, payload, channel));
        if (subscriber.socketId !== exceptSocketId) subscriber.send(bytes);
      }
    }
  }

  private async askOtherNodes(query: ChannelQuery): Promise<Record<string, LocalChannelStats>[]> {
    if (!this.publisher) return [];
    const requestId = randomUUID();
    const done = new Promise<Record<string, LocalChannelStats>[]>((resolve) => {
      const timer = setTimeout(() => finish(), this.options.queryTimeoutMs ?? 500);
      const finish = () => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        resolve(entry.replies);
      };
      const entry: PendingQuery = { replies: [], expected: Number.POSITIVE_INFINITY, finish };
      this.pending.set(requestId, entry);
    });
    const message: QueryMessage = { origin: this.nodeId, requestId, ...query };
    try {
      // Every node's subscriber (this one included) counts as one receiver.
      const receivers = await this.publisher.publish(this.topics.queries, JSON.stringify(message));
      const entry = this.pending.get(requestId);
      if (entry) {
        entry.expected = receivers - 1;
        if (entry.replies.length >= entry.expected) entry.finish();
      }
    } catch (error) {
      this.options.log.error({ err: error }, 'realtime: channel query not sent to other nodes');
      this.pending.get(requestId)?.finish();
    }
    return done;
  }

  private onRedisMessage(topic: string, raw: string): void {
    try {
      if (topic === this.topics.events) {
        const message = JSON.parse(raw) as EventMessage;
        if (message.origin !== this.nodeId) this.deliver(message.channels, message.event, message.data, message.except);
      } else if (topic === this.topics.queries) {
        const message = JSON.parse(raw) as QueryMessage;
        if (message.origin === this.nodeId) return;
        const reply: ReplyMessage = { requestId: message.requestId, stats: this.registry.stats(message) };
        this.publisher?.publish(`realtime:${this.options.appId}:replies:${message.origin}`, JSON.stringify(reply))
          .catch((error: unknown) => this.options.log.warn({ err: error }, 'realtime: channel query reply lost'));
      } else if (topic === this.topics.replies) {
        const reply = JSON.parse(raw) as ReplyMessage;
        const entry = this.pending.get(reply.requestId);
        if (!entry) return;
        entry.replies.push(reply.stats);
        if (entry.replies.length >= entry.expected) entry.finish();
      }
    } catch (error) {
      this.options.log.warn({ err: error, topic }, 'realtime: malformed message from another node');
    }
  }
}
