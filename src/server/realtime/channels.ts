// This node's channel memberships. Cluster-wide answers are assembled by the broadcaster from every node's.

/** What the registry needs from a socket: a way to send, and the channels it joined (for clean-up on close). */
export interface Subscriber {
  readonly socketId: string;
  readonly channels: Set<string>;
  send(payload: string | Buffer): void;
}

export interface PresenceMember {
  user_id: string | number;
  user_info?: unknown;
}

interface LocalMember extends PresenceMember {
  /** A user with several tabs is one member; they leave when the last of their sockets does. */
  sockets: Set<Subscriber>;
}

interface LocalChannel {
  subscribers: Set<Subscriber>;
  members?: Map<string, LocalMember>;
}

export interface LocalChannelStats {
  subscription_count: number;
  /** Presence channels only: user id -> member, for merging across nodes. */
  members?: Record<string, PresenceMember>;
}

export class ChannelRegistry {
  private readonly channels = new Map<string, LocalChannel>();

  /** Channels with a subscriber on this node (metrics). */
  get channelCount(): number {
    return this.channels.size;
  }

  /** Adds the subscriber; for presence, reports whether this is the user's first socket on this node. */
  subscribe(subscriber: Subscriber, name: string, member?: PresenceMember): { isFirstLocalSocket: boolean } {
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { subscribers: new Set(), members: member ? new Map() : undefined };
      this.channels.set(name, channel);
    }
    channel.subscribers.add(subscriber);
    subscriber.channels.add(name);
    if (!member || !channel.members) return { isFirstLocalSocket: false };
    const key = String(member.user_id);
    const existing = channel.members.get(key);
    if (existing) {
      existing.sockets.add(subscriber);
      return { isFirstLocalSocket: false };
    }
    channel.members.set(key, { ...member, sockets: new Set([subscriber]) });
    return { isFirstLocalSocket: true };
  }

  /** Removes the subscriber; for presence, returns the member when their last socket on this node left. */
  unsubscribe(subscriber: Subscriber, name: string): { leftMember?: PresenceMember } {
    subscriber.channels.delete(name);
    const channel = this.channels.get(name);
    if (!channel || !channel.subscribers.delete(subscriber)) return {};
    let leftMember: PresenceMember | undefined;
    if (channel.members) {
      for (const [key, member] of channel.members) {
        if (member.sockets.delete(subscriber) && member.sockets.size === 0) {
          channel.members.delete(key);
          leftMember = { user_id: member.user_id, user_info: member.user_info };
        }
      }
    }
    if (channel.subscribers.size === 0) this.channels.delete(name);
    return { leftMember };
  }

  isSubscribed(subscriber: Subscriber, name: string): boolean {
    return this.channels.get(name)?.subscribers.has(subscriber) ?? false;
  }

  subscribers(name: string): Iterable<Subscriber> {
    return this.channels.get(name)?.subscribers ?? [];
  }

  members(name: string): Record<string, PresenceMember> {
    const result: Record<string, PresenceMember> = {};
    for (const [key, { user_id, user_info }] of this.channels.get(name)?.members ?? []) result[key] = { user_id, user_info };
    return result;
  }

  /** Occupied channels on this node, either the named ones or those starting with `prefix`. */
  stats(query: { names?: string[]; prefix?: string }): Record<string, LocalChannelStats> {
    const names = query.names ?? [...this.channels.keys()].filter((name) => name.startsWith(query.prefix ?? ''));
    const result: Record<string, LocalChannelStats> = {};
    for (const name of names) {
      const channel = this.channels.get(name);
      if (!channel) continue;
      result[name] = { subscription_count: channel.subscribers.size, members: channel.members ? this.members(name) : undefined };
    }
    return result;
  }
}
