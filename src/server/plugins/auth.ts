// The server decides (CONVENTIONS "Security habits"): every /api route declares who may call it,
// and this hook enforces it before the body is even parsed: account type first, then the pending
// checks of spec §8 (409), then the permission.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountType } from '../db/schema/accounts';
import {
  type AccountRow, bearerHash, cachedPermissions, findBearer, type PartnerRow,
} from '../modules/auth/accounts';
import { SessionCache } from '../modules/auth/session-cache';
import { liveTokenIds, type RevokedListener, watchRevokedSessions } from '../modules/auth/sessions';
import { hasPermission } from '../../shared/permissions';
import { EMAIL_IS_NOT_VERIFIED, FORCE_RESET_PASSWORD, TWO_FACTOR_SETUP_REQUIRED } from '../../shared/schemas/auth';
import { type CapabilityAuth, capabilityToken, resolveCapability } from './capability';
import { HttpError } from './errors';

/** Who may call a route: nobody in particular, an account of a type, or the holder of a capability link. */
export type RouteAuth = 'none' | 'app' | 'partner' | 'any' | CapabilityAuth;

export interface Account {
  type: AccountType;
  id: number;
  user: AccountRow;
  tokenId: number;
  /** The bearer value as sent, echoed by /me as access_token. */
  token: string;
  roles: string[];
  permissions: string[];
  /** One of the account's roles asks for a second factor: until it is set up, only pending routes answer (issue 29). */
  twoFactorRequired: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** A permission expression of spec §6 (`a|b`, `a&b`). */
    permission?: string;
    /** Lets through an account that still has to reset its password or verify its email. */
    allowPending?: boolean;
  }
  interface FastifyRequest {
    account: Account | null;
  }
}

export interface RegisteredRoute {
  method: string; url: string; auth: 'none' | 'app' | 'partner' | 'any' | 'capability';
  /** The purpose of a capability route's links. */
  capability?: string;
  permission?: string; allowPending: boolean;
}

export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');
export const forbidden = () => new HttpError(403, 'This action is unauthorized.');

/** The account of a route that declared `auth: 'app' | 'partner' | 'any'` (set by the hook). */
export function requireAccount(request: FastifyRequest): Account {
  if (!request.account) throw unauthenticated();
  return request.account;
}

/**
 * Reads a bearer token into an Account, or null when absent, unknown, expired or inactive. Answered
 * from this node's session cache (src/server/modules/auth/session-cache.ts); a miss is one round
 * trip (token, account and permissions stamp), plus one for the permissions when the stamp changed.
 */
export async function authenticateBearer(app: FastifyInstance, authorization: string | undefined): Promise<Account | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  const tokenHash = match && bearerHash(match[1]);
  if (!tokenHash) return null;
  const cache = app.sessions.cache;
  let session = cache.get(tokenHash);
  if (!session) {
    const stamp = cache.stamp();
    const bearer = await findBearer(app.db, tokenHash);
    const user = bearer?.account;
    if (!bearer || !user || user.status !== 'active') return null;
    const { roles, permissions, twoFactorRequired } = await cachedPermissions(app.db, bearer.type, user.id, bearer.permissionsVersion);
    session = { tokenId: bearer.tokenId, type: bearer.type, user, roles, permissions, twoFactorRequired, expiresAt: bearer.expiresAt?.getTime() ?? null };
    cache.set(tokenHash, session, stamp, bearer.type === 'partner' ? (user as PartnerRow).partner_id : null);
  }
  const { type, user, tokenId, roles, permissions, twoFactorRequired } = session;
  return { type, id: user.id, user, tokenId, token: match[1], roles, permissions, twoFactorRequired };
}

/** What outlives a request on a session's behalf (its sockets) learns here when the session ends. */
export interface Sessions {
  /** Called with the token ids revoked on any node (after the commit), or null: check every session. */
  onRevoked(listener: RevokedListener): void;
  /** Of these token ids, the ones still signed in. */
  live(tokenIds: number[]): Promise<Set<number>>;
  /** What each token stands for, kept on this node until the database announces a change. */
  cache: SessionCache;
}

export function registerAuth(app: FastifyInstance) {
  const registry: RegisteredRoute[] = [];
  app.decorate('routeRegistry', registry);
  app.decorateRequest('account', null);
  app.decorateRequest('capability', null);

  const listeners: RevokedListener[] = [];
  const cache = new SessionCache();
  let stopWatching: (() => Promise<void>) | undefined;
  app.decorate('sessions', {
    onRevoked: (listener) => { listeners.push(listener); },
    live: (tokenIds) => liveTokenIds(app.db, tokenIds),
    cache,
  } satisfies Sessions);
  // Listening before the server accepts sockets, so no revocation is missed.
  app.addHook('onReady', async () => {
    stopWatching = await watchRevokedSessions(app.database, (tokenIds) => {
      for (const listener of listeners) listener(tokenIds);
    }, app.log, cache);
  });
  app.addHook('preClose', async () => { await stopWatching?.(); });

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.method === 'HEAD') return;
    const config = (route.config ?? {}) as { auth?: RouteAuth; permission?: string; allowPending?: boolean };
    // Fail closed: a route that forgot to say who may call it does not start.
    if (!config.auth) throw new Error(`Route ${String(route.method)} ${route.url} declares no config.auth`);
    const auth = typeof config.auth === 'object' ? 'capability' : config.auth;
    const capability = typeof config.auth === 'object' ? config.auth.capability : undefined;
    for (const method of [route.method].flat()) {
      registry.push({ method: String(method), url: route.url, auth, capability, permission: config.permission, allowPending: !!config.allowPending });
    }
  });

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config?.auth || config.auth === 'none') {
      // Public routes still learn who is calling when a token is sent (e.g. the signed verify link).
      return;
    }
    if (typeof config.auth === 'object') {
      // A capability route is public: the link is the permission, whoever (if anyone) is signed in.
      request.capability = await resolveCapability(app.db, config.auth.capability, capabilityToken(request), config.auth);
      return;
    }
    const account = await authenticateBearer(app, request.headers.authorization);
    if (!account) throw unauthenticated();
    // Account type before anything else: a partner token is no credential on app routes and back.
    if (config.auth !== 'any' && account.type !== config.auth) throw unauthenticated();
    request.account = account;
    if (!config.allowPending) {
      if (account.user.force_password_reset) throw new HttpError(409, 'You must change your password before continuing.', FORCE_RESET_PASSWORD);
      if (!account.user.email_verified_at) throw new HttpError(409, 'Your email address is not verified.', EMAIL_IS_NOT_VERIFIED);
      if (account.twoFactorRequired && !account.user.two_fa_enabled_at) {
        throw new HttpError(409, 'Your role asks for two-factor sign-in. Set it up to continue.', TWO_FACTOR_SETUP_REQUIRED);
      }
    }
    if (config.permission && !hasPermission(account.permissions, config.permission)) throw forbidden();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    routeRegistry: RegisteredRoute[];
    sessions: Sessions;
  }
}
