// The Pusher HTTP API (publish and channel queries), so any Pusher server SDK can drive this server.
// Requests are authenticated by their own signature, not a bearer token, hence `auth: 'none'`.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Broadcaster } from './broadcaster';
import { MAX_EVENT_BYTES, channelKind, isValidChannelName, isValidEventName } from './protocol';
import { verifySignedRequest } from './signature';
import { isNestedDeeperThan } from '../plugins/input';

export interface HttpApiOptions {
  appId: string;
  key: string;
  secret: string;
  broadcaster: Broadcaster;
}

const channelName = z.string().refine(isValidChannelName, 'Invalid channel name');
const eventName = z.string().refine(isValidEventName, 'Invalid event name');
// The SDKs send `data` JSON-encoded already; anything else is encoded here, once.
const eventData = z.unknown().transform((data) => (typeof data === 'string' ? data : JSON.stringify(data ?? null)))
  .refine((data) => Buffer.byteLength(data) <= MAX_EVENT_BYTES, `Event data is limited to ${MAX_EVENT_BYTES} bytes`);
const socketId = z.string().regex(/^\d+\.\d+$/, 'Invalid socket_id').optional();

const triggerSchema = z.object({
  name: eventName,
  data: eventData,
  channels: z.array(channelName).min(1).max(100).optional(),
  channel: channelName.optional(),
  socket_id: socketId,
}).refine((body) => body.channels || body.channel, 'channels is required');

const batchSchema = z.object({
  batch: z.array(z.object({ name: eventName, data: eventData, channel: channelName, socket_id: socketId })).min(1).max(10),
});

const infoList = (info: unknown) => new Set(typeof info === 'string' ? info.split(',') : []);

export const httpApiRoutes = (options: HttpApiOptions): FastifyPluginAsync => async (app) => {
  const { broadcaster } = options;

  // The signature covers the MD5 of the body as sent, so JSON is parsed by the handlers from the raw string.
  // Every parser inherited from the app goes (e.g. @fastify/formbody): a body they parsed would reach the handlers
  // as an object with no raw bytes to check against body_md5, so a forger could keep a signed query and swap the body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));

  // Refused before any parsing, with a message that says what to send (the Pusher SDKs all send JSON).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'POST' && !isJson(request.headers['content-type'])) {
      return reply.code(415).send({ message: 'The Pusher HTTP API accepts only application/json bodies' });
    }
  });

  app.addHook('preHandler', async (request: FastifyRequest<{ Params: { appId: string } }>, reply) => {
    if (request.params.appId !== options.appId) return reply.code(404).send({ message: 'Unknown app' });
    // Only the raw string from the parser above can be checked against body_md5; anything else is never trusted.
    if (request.body !== undefined && typeof request.body !== 'string') {
      return reply.code(415).send({ message: 'The Pusher HTTP API accepts only application/json bodies' });
    }
    const refusal = verifySignedRequest({
      method: request.method,
      path: request.url.split('?')[0],
      query: stringQuery(request.query),
      rawBody: request.body,
    }, options.key, options.secret);
    if (refusal) return reply.code(401).send({ message: refusal });
  });

  const route = { config: { auth: 'none' as const } };

  app.post<{ Params: { appId: string } }>('/apps/:appId/events', route, async (request, reply) => {
    const body = parseBody(triggerSchema, request.body, reply);
    if (!body) return reply;
    await broadcaster.publish(body.channels ?? [body.channel!], body.name, body.data, body.socket_id);
    return {};
  });

  app.post<{ Params: { appId: string } }>('/apps/:appId/batch_events', route, async (request, reply) => {
    const body = parseBody(batchSchema, request.body, reply);
    if (!body) return reply;
    await Promise.all(body.batch.map((item) => broadcaster.publish([item.channel], item.name, item.data, item.socket_id)));
    return {};
  });

  app.get<{ Params: { appId: string }; Querystring: { filter_by_prefix?: string; info?: string } }>(
    '/apps/:appId/channels', route, async (request, reply) => {
      const prefix = request.query.filter_by_prefix ?? '';
      const withUserCount = infoList(request.query.info).has('user_count');
      if (withUserCount && !prefix.startsWith('presence-')) {
        return reply.code(400).send({ message: 'user_count is only available with filter_by_prefix=presence-' });
      }
      const channels: Record<string, { user_count?: number }> = {};
      for (const [name, stats] of Object.entries(await broadcaster.channels({ prefix }))) {
        channels[name] = withUserCount ? { user_count: Object.keys(stats.members ?? {}).length } : {};
      }
      return { channels };
    },
  );

  app.get<{ Params: { appId: string; name: string }; Querystring: { info?: string } }>(
    '/apps/:appId/channels/:name', route, async (request, reply) => {
      const { name } = request.params;
      if (!isValidChannelName(name)) return reply.code(400).send({ message: 'Invalid channel name' });
      const info = infoList(request.query.info);
      const isPresence = channelKind(name) === 'presence';
      if (info.has('user_count') && !isPresence) return reply.code(400).send({ message: 'user_count is only available for presence channels' });
      const stats = (await broadcaster.channels({ names: [name] }))[name];
      const answer: { occupied: boolean; subscription_count?: number; user_count?: number } = { occupied: Boolean(stats) };
      if (info.has('subscription_count')) answer.subscription_count = stats?.subscription_count ?? 0;
      if (info.has('user_count')) answer.user_count = Object.keys(stats?.members ?? {}).length;
      return answer;
    },
  );

  app.get<{ Params: { appId: string; name: string } }>('/apps/:appId/channels/:name/users', route, async (request, reply) => {
    const { name } = request.params;
    if (!isValidChannelName(name) || channelKind(name) !== 'presence') {
      return reply.code(400).send({ message: 'Users are only listed for presence channels' });
    }
    const stats = (await broadcaster.channels({ names: [name] }))[name];
    return { users: Object.values(stats?.members ?? {}).map((member) => ({ id: member.user_id })) };
  });
};

/** application/json, with or without parameters such as charset. */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

function stringQuery(query: unknown): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    // A repeated parameter cannot match a signature computed over single values; keep it visibly wrong.
    result[name] = typeof value === 'string' ? value : String(value);
  }
  return result;
}

function parseBody<T>(schema: z.ZodType<T>, raw: unknown, reply: FastifyReply): T | null {
  let json: unknown;
  try {
    json = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    reply.code(400).send({ message: 'Body must be JSON' });
    return null;
  }
  // The event data is encoded again below (JSON.stringify recurses): the app's depth limit holds here too.
  if (isNestedDeeperThan(json)) {
    reply.code(400).send({ message: 'The request body is nested too deeply.' });
    return null;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const isTooLarge = issue.message.startsWith('Event data is limited');
  reply.code(isTooLarge ? 413 : 400).send({ message: `${issue.path.join('.') || 'body'}: ${issue.message}` });
  return null;
}
