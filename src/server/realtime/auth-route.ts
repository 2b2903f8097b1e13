// POST /api/broadcasting/auth: signs a private-channel subscription for the bearer of the token.
// pusher-js posts socket_id and channel_name form-encoded (Laravel's convention); JSON is accepted too.
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { announcementChannel, partnerAnnouncementChannel } from './events';
import { isValidChannelName, sessionChannelData } from './protocol';
import { channelAuth } from './signature';

/** What this route reads of `request.account` (set by the auth plugin). */
interface RealtimeAccount {
  type: 'app' | 'partner';
  id: number;
  tokenId: number;
}

/** The request and answer, for the OpenAPI document (plugins/openapi.ts); the route checks the body itself. */
export const broadcastingAuthBody = z.object({
  socket_id: z.string().regex(/^\d+\.\d+$/).describe('The socket id pusher-js received in pusher:connection_established'),
  channel_name: z.string().max(164).describe('A private channel of the caller (see docs/api.md "Realtime")'),
});
export const broadcastingAuthAnswer = z.object({
  auth: z.string().describe('key:signature, sent back in pusher:subscribe'),
  channel_data: z.string().describe('The session the subscription is signed for (token id, expiry); sent back in pusher:subscribe'),
});

/**
 * A user may join only their own private channels (ARCHITECTURE "Realtime"). Each channel names an account
 * type too: app users and partners have separate id sequences, so `.5` alone would let partner 5 read
 * app user 5's notifications. The two named events of spec §4 notify internal (app) users; every stored
 * notification is also broadcast on Laravel's per-account channel (`notificationChannel` in
 * modules/notification/notify.ts), one per account type. No presence channel is offered.
 */
const ownChannels: { prefix: string; accountType: RealtimeAccount['type'] }[] = [
  { prefix: 'private-time-sheet-upload-event.', accountType: 'app' },
  { prefix: 'private-partner-pre-billing-upload-event.', accountType: 'app' },
  { prefix: 'private-App.Models.User.', accountType: 'app' },
  { prefix: 'private-App.Models.Partner.', accountType: 'partner' },
];

export function mayJoin(account: Pick<RealtimeAccount, 'type' | 'id'>, channel: string): boolean {
  // The announcement banner shows in both portals (spec §2), each its own audience's (issue 20): every
  // signed-in account of that type, never an anonymous socket.
  if (channel === announcementChannel) return account.type === 'app';
  if (channel === partnerAnnouncementChannel) return account.type === 'partner';
  return ownChannels.some(({ prefix, accountType }) => account.type === accountType && channel === `${prefix}${account.id}`);
}

export const broadcastingAuthRoute = (options: { key: string; secret: string }): FastifyPluginAsync => async (app) => {
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
  }

  app.post('/api/broadcasting/auth', { config: { auth: 'any' } }, async (request, reply) => {
    const { account } = request;
    if (!account) return reply.code(401).send({ message: 'Unauthenticated.' });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = {};
    if (typeof body.socket_id !== 'string' || !/^\d+\.\d+$/.test(body.socket_id)) errors.socket_id = ['The socket id field is invalid.'];
    if (!isValidChannelName(body.channel_name)) errors.channel_name = ['The channel name field is invalid.'];
    if (Object.keys(errors).length > 0) return reply.code(422).send({ message: Object.values(errors)[0][0], errors });
    const channel = body.channel_name as string;
    if (!mayJoin(account, channel)) return reply.code(403).send({ message: 'This action is unauthorized.' });
    // Signed together with the session it acts for: the socket closes when this token is revoked.
    const channelData = sessionChannelData(account.tokenId);
    return { auth: channelAuth(options.key, options.secret, body.socket_id as string, channel, channelData), channel_data: channelData };
  });
};
