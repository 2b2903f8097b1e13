// Pusher protocol 7 on the wire: frames we send, frames we accept, and the limits and error codes.
// pusher-js and laravel-echo are the reference clients, so shapes follow what they parse.
import { isNestedDeeperThan } from '../plugins/input';

export const PROTOCOL_VERSION = 7;

/** Client events and HTTP-published data above this are refused (Pusher's documented 10 KB limit). */
export const MAX_EVENT_BYTES = 10 * 1024;
/**
 * A message larger than this is never buffered: ws closes the socket with 1009 instead. It sits far above
 * MAX_EVENT_BYTES so that an oversize message still reaches our own size check and is answered with a
 * `pusher:error` on a socket that stays open, as the protocol expects. ws only buffers up to it while such a
 * message arrives (permessage-deflate stays off), so idle sockets cost no more than with a lower limit.
 */
export const MAX_FRAME_BYTES = 1024 * 1024;
const MAX_CHANNEL_NAME_LENGTH = 164;
const MAX_EVENT_NAME_LENGTH = 200;

/** Close / error codes from the Pusher protocol: 4000-4099 do not reconnect, 4200-4299 reconnect at once. */
export const ErrorCode = {
  applicationDoesNotExist: 4001,
  /** Also the close code of a socket whose session was revoked: pusher-js does not reconnect it. */
  unauthorized: 4009,
  generic: 4200,
  pongNotReceived: 4201,
  /** 4300-4399 are the protocol's "other errors": the socket stays open. */
  overChannelLimit: 4300,
  /** Pusher's code for a client event it did not relay (over the rate limit, or on a channel that takes none). */
  clientEventRejected: 4301,
} as const;

/**
 * Client events a connection may send per second (Pusher's own limit). Only presence channels take them
 * (issue 20): every channel the product broadcasts to is private, and a socket allowed on a shared one
 * must not be able to flood everybody else on it.
 */
export const MAX_CLIENT_EVENTS_PER_SECOND = 10;

/** Channels one socket may hold at once: pusher-js apps use a handful; the cap keeps a hostile socket's memory bounded. */
export const MAX_CHANNELS_PER_SOCKET = 100;

/**
 * The session a private-channel signature was made for. POST /api/broadcasting/auth signs it with the
 * subscription (as `channel_data`, which pusher-js sends back verbatim), so the socket learns which
 * bearer token it acts for and closes when that token is revoked. It expires, so a signature obtained
 * before a revocation cannot be used long after it.
 */
export interface SessionBinding { token_id: number; expires: number }
export const SESSION_BINDING_SECONDS = 60;

export function sessionChannelData(tokenId: number, nowSeconds = Date.now() / 1000): string {
  return JSON.stringify({ token_id: tokenId, expires: Math.floor(nowSeconds) + SESSION_BINDING_SECONDS } satisfies SessionBinding);
}

/** The binding inside a private channel's `channel_data`, or null when it carries none (signed by another backend). */
export function readSessionBinding(channelData: unknown): SessionBinding | null {
  if (typeof channelData !== 'string') return null;
  try {
    const data = JSON.parse(channelData) as Partial<SessionBinding>;
    return Number.isInteger(data.token_id) && Number.isInteger(data.expires) ? { token_id: data.token_id!, expires: data.expires! } : null;
  } catch {
    return null;
  }
}

export type ChannelKind = 'public' | 'private' | 'encrypted' | 'presence';

const channelNamePattern = /^[-a-zA-Z0-9_=@,.;]+$/;

export function isValidChannelName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= MAX_CHANNEL_NAME_LENGTH && channelNamePattern.test(name);
}

export function isValidEventName(name: unknown): name is string {
  return typeof name === 'string' && name.length > 0 && name.length <= MAX_EVENT_NAME_LENGTH;
}

export function channelKind(name: string): ChannelKind {
  if (name.startsWith('private-encrypted-')) return 'encrypted';
  if (name.startsWith('private-')) return 'private';
  if (name.startsWith('presence-')) return 'presence';
  return 'public';
}

/**
 * One outgoing frame. Pusher sends `data` as a JSON-encoded string (pusher-js decodes it once more);
 * a string payload is passed through untouched so HTTP-published data reaches clients byte for byte.
 */
export function frame(event: string, data?: unknown, channel?: string): string {
  const message: { event: string; channel?: string; data?: string } = { event };
  if (channel !== undefined) message.channel = channel;
  if (data !== undefined) message.data = typeof data === 'string' ? data : JSON.stringify(data);
  return JSON.stringify(message);
}

/** `pusher:error` keeps its data as an object, as the Pusher service sends it. */
export function errorFrame(code: number | null, message: string): string {
  return JSON.stringify({ event: 'pusher:error', data: { code, message } });
}

export function subscriptionErrorFrame(channel: string, status: number, error: string): string {
  return JSON.stringify({ event: 'pusher:subscription_error', channel, data: { type: 'AuthError', error, status } });
}

export interface ClientMessage {
  event: string;
  channel?: unknown;
  data?: unknown;
}

/**
 * Parses a client frame; returns null for anything that is not a JSON object with a string `event`,
 * or that nests deeper than the app's request bodies may (issue 20): a client event's data is encoded
 * again before it is relayed, and JSON.stringify overflows the stack from about 5,000 levels, which a
 * frame within MAX_EVENT_BYTES can reach.
 */
export function parseClientMessage(raw: string): ClientMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (isNestedDeeperThan(message)) return null;
  if (typeof message !== 'object' || message === null || typeof (message as ClientMessage).event !== 'string') return null;
  return message as ClientMessage;
}

/** pusher-js sends `data` as an object; some clients send it JSON-encoded. Accept both. */
export function messageData(message: ClientMessage): Record<string, unknown> {
  let { data } = message;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return {};
    }
  }
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}
