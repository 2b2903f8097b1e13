// The server decides (CONVENTIONS "Security habits"): every /api route declares who may call it,
// and this hook enforces it before the body is even parsed: account type first, then the pending
// checks of spec §8 (409), then the permission.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountType } from '../db/schema/accounts';
import {
  type AccountRow, bearerHash, cachedPermissions, findBearer, type PartnerRow,
} from '../modules/auth/accounts';
import { type CachedSession, SessionCache } from '../modules/auth/session-cache';
import { liveTokenIds, type RevokedListener, watchRevokedSessions } from '../modules/auth/sessions';
import { hasPermission, isAdmin, isAdminAccount } from '../../shared/permissions';
import { EMAIL_IS_NOT_VERIFIED, FORCE_RESET_PASSWORD, type PermissionSet, TWO_FACTOR_SETUP_REQUIRED } from '../../shared/schemas/auth';
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
  /** The roles and permissions as /get-laravel-permission-to-vue-js and /me answer them (frozen, JSON written once). */
  permissionSet: Readonly<PermissionSet>;
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

/** The one admin check of a service (conventions "One way for each thing"): 403 unless the caller holds the admin role. */
export function assertAdmin(account: Account, message?: string): void {
  if (!isAdmin(account)) throw message ? new HttpError(403, message) : forbidden();
}

/** 403 unless the caller's account is an admin's by its type (the audit trail's rule, decision 007). */
export function assertAdminAccount(account: Account): void {
  if (!isAdminAccount(account.user)) throw forbidden();
}

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
  const found = cachedBearer(app, authorization);
  return found.account !== undefined ? found.account : loadBearer(app, found);
}

/** A bearer read without waiting: the Account (or null for no usable token), or what to look up. */
type Found = { account: Account | null; tokenHash?: undefined; token?: undefined } | { account?: undefined; tokenHash: string; token: string };

/** The synchronous part of `authenticateBearer`: parses the header and asks this node's cache. */
function cachedBearer(app: FastifyInstance, authorization: string | undefined): Found {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  const tokenHash = match && bearerHash(match[1]);
  if (!tokenHash) return { account: null };
  const session = app.sessions.cache.get(tokenHash);
  if (!session) return { tokenHash, token: match[1] };
  return { account: accountOf(session, match[1]) };
}

/** A cache miss: one round trip (token, account and permissions stamp), plus one for the permissions when the stamp changed. */
async function loadBearer(app: FastifyInstance, { tokenHash, token }: { tokenHash: string; token: string }): Promise<Account | null> {
  const cache = app.sessions.cache;
  const stamp = cache.stamp();
  const bearer = await findBearer(app.db, tokenHash);
  const user = bearer?.account;
  if (!bearer || !user || user.status !== 'active') return null;
  const { roles, permissions, twoFactorRequired, permissionSet } = await cachedPermissions(app.db, bearer.type, user.id, bearer.permissionsVersion);
  const session: CachedSession = {
    tokenId: bearer.tokenId, type: bearer.type, user, roles, permissions, permissionSet, twoFactorRequired, expiresAt: bearer.expiresAt?.getTime() ?? null,
  };
  cache.set(tokenHash, session, stamp, bearer.type === 'partner' ? (user as PartnerRow).partner_id : null);
  return accountOf(session, token);
}

function accountOf({ type, user, tokenId, roles, permissions, permissionSet, twoFactorRequired }: CachedSession, token: string): Account {
  return { type, id: user.id, user, tokenId, token, roles, permissions, permissionSet, twoFactorRequired };
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
    }, app.log, { sessions: cache, settings: app.nodeSettings });
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

  /** What the route declared, checked against the account: throws 401 / 409 / 403. */
  const admit = (request: FastifyRequest, auth: 'app' | 'partner' | 'any', account: Account | null) => {
    if (!account) throw unauthenticated();
    // Account type before anything else: a partner token is no credential on app routes and back.
    if (auth !== 'any' && account.type !== auth) throw unauthenticated();
    request.account = account;
    const config = request.routeOptions.config;
    if (!config.allowPending) {
      if (account.user.force_password_reset) throw new HttpError(409, 'You must change your password before continuing.', FORCE_RESET_PASSWORD);
      if (!account.user.email_verified_at) throw new HttpError(409, 'Your email address is not verified.', EMAIL_IS_NOT_VERIFIED);
      if (account.twoFactorRequired && !account.user.two_fa_enabled_at) {
        throw new HttpError(409, 'Your role asks for two-factor sign-in. Set it up to continue.', TWO_FACTOR_SETUP_REQUIRED);
      }
    }
    if (config.permission && !hasPermission(account.permissions, config.permission)) throw forbidden();
  };

  // A callback hook, not an async one (issue 27): a public route and a token answered from the
  // session cache pass without a promise; only a database read (a cache miss, a capability link) waits.
  app.addHook('onRequest', (request, _reply, done) => {
    const auth = request.routeOptions.config?.auth;
    // Public routes: nothing to check here.
    if (!auth || auth === 'none') return done();
    if (typeof auth === 'object') {
      // A capability route is public: the link is the permission, whoever (if anyone) is signed in.
      resolveCapability(app.db, auth.capability, capabilityToken(request), auth)
        .then((capability) => { request.capability = capability; done(); }, done);
      return;
    }
    const found = cachedBearer(app, request.headers.authorization);
    if (found.account !== undefined) {
      admit(request, auth, found.account);
      return done();
    }
    loadBearer(app, found).then((account) => {
      // Settled once: a refusal goes to done, and done itself runs outside this try.
      try { admit(request, auth, account); } catch (error) { return done(error as Error); }
      done();
    }, done);
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    routeRegistry: RegisteredRoute[];
    sessions: Sessions;
  }
}
