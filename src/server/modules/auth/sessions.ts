// Revoked sessions reach every node's open sockets (issue 15). A revocation deletes token rows and,
// in the same transaction, NOTIFYs their ids: PostgreSQL delivers the notice to every listening node
// when (and only if) the transaction commits, so a deactivation that rolls back closes nothing and one
// that commits closes the sockets on every node, with nothing to remember after the commit. PGlite
// (one node) delivers it in process the same way.
import type { FastifyBaseLogger } from 'fastify';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { partnerAccounts, partners, personalAccessTokens, users } from '../../db/schema/accounts';
import { SESSION_CHANGED, type SessionCache } from './session-cache';
import { SETTING_NOTICE_PREFIX, type SettingCache } from '../setting/setting-cache';

export const SESSIONS_REVOKED = 'sessions_revoked';
/** NOTIFY payloads stop at 8000 bytes; a longer list asks every node to check all its sessions instead. */
const MAX_PAYLOAD = 7000;
const CHECK_ALL = '*';

/** Tells every node, at commit, that these tokens no longer stand for a session. */
export async function announceRevokedTokens(db: Db, tokenIds: number[]): Promise<void> {
  if (tokenIds.length === 0) return;
  const list = JSON.stringify(tokenIds);
  await db.execute(sql`select pg_notify(${SESSIONS_REVOKED}, ${list.length <= MAX_PAYLOAD ? list : CHECK_ALL})`);
}

/** Of these token ids, the ones that still stand for a signed-in session: unexpired, of an active account (and, for a partner login, an active firm). */
export async function liveTokenIds(db: Db, tokenIds: number[]): Promise<Set<number>> {
  if (tokenIds.length === 0) return new Set();
  const t = personalAccessTokens;
  const rows = await db.select({ id: t.id }).from(t)
    .leftJoin(users, and(eq(t.account_type, 'app'), eq(users.id, t.account_id)))
    .leftJoin(partnerAccounts, and(eq(t.account_type, 'partner'), eq(partnerAccounts.id, t.account_id)))
    .leftJoin(partners, eq(partners.id, partnerAccounts.partner_id))
    .where(and(
      inArray(t.id, tokenIds),
      or(isNull(t.expires_at), gt(t.expires_at, sql`now()`)),
      sql`coalesce(${users.status}, ${partnerAccounts.status}) = 'active'`,
      or(isNull(partners.id), eq(partners.status, 'active')),
    ));
  return new Set(rows.map((row) => row.id));
}

/** Token ids revoked somewhere, or null when some may have been missed (check every session). */
export type RevokedListener = (tokenIds: number[] | null) => void;

const parsePayload = (payload: string): number[] | null => {
  if (payload === CHECK_ALL) return null;
  try {
    const ids = JSON.parse(payload) as unknown;
    return Array.isArray(ids) && ids.every((id) => Number.isInteger(id)) ? ids as number[] : null;
  } catch {
    return null;
  }
};

type Cache = Pick<SessionCache | SettingCache, 'changed' | 'listening'>;
/** What this node holds that `session_changed` notices keep true: the sessions, and the settings their answers carry (decision 053). */
export interface NodeCaches { sessions: Cache; settings: Cache }

/** A `session_changed` notice goes to the cache it names; null (some may have been missed) to both. */
function noticeHeard(caches: NodeCaches, payload: string | null) {
  if (payload === null) { caches.sessions.changed(null); caches.settings.changed(null); return; }
  if (payload.startsWith(SETTING_NOTICE_PREFIX)) caches.settings.changed(payload.slice(SETTING_NOTICE_PREFIX.length));
  else caches.sessions.changed(payload);
}

function listening(caches: NodeCaches, isListening: boolean) {
  caches.sessions.listening(isListening);
  caches.settings.listening(isListening);
}

/**
 * LISTENs for revocations, and for the node caches' changes, on the database; returns the
 * function that stops. On PostgreSQL the listening connection is its own (a pooled one would be
 * handed to queries); when it drops, the cache is bypassed until it reconnects with backoff and
 * reports null, since notices sent meanwhile are lost.
 */
export async function watchRevokedSessions(
  database: Database, onRevoked: RevokedListener, log: FastifyBaseLogger, caches: NodeCaches,
): Promise<() => Promise<void>> {
  const report = (payload: string | undefined) => onRevoked(parsePayload(payload ?? CHECK_ALL));
  if (database.kind === 'pglite') {
    const client = (database.db as unknown as { $client: { listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> } }).$client;
    const unlisten = await client.listen(SESSIONS_REVOKED, report);
    const unlistenCache = await client.listen(SESSION_CHANGED, (payload) => noticeHeard(caches, payload));
    listening(caches, true);
    return async () => {
      listening(caches, false);
      await Promise.all([unlisten(), unlistenCache()]).catch(() => undefined);
    };
  }

  const { default: pg } = await import('pg');
  const pool = (database.db as unknown as { $client: import('pg').Pool & { options: import('pg').ClientConfig } }).$client;
  // This node's own writes reach its cache before they return: every pooled connection LISTENs too
  // (the pool's onConnect, src/server/db/client.ts), and PostgreSQL hands a session its own notices
  // ahead of the COMMIT's reply; the listener below may hear them a moment later, which would let
  // the next request on this node read a stale session.
  // Each notice is taken once on the node: a pooled connection takes the ones it sent, the listener
  // the others. Every LISTENing connection hears every notice, an idle one whenever the process gets
  // to its socket: taken from each, one change dropped the node's copies again and again for a while
  // after it, throwing away what was read in between (a process id stays in `ownSessions` until the
  // pool removes its connection, so no other session's notice is skipped).
  const heard = new WeakSet<object>();
  const ownSessions = new Set<number>();
  const processIdOf = (client: import('pg').PoolClient) => (client as unknown as { processID: number }).processID;
  const onAcquire = (client: import('pg').PoolClient) => {
    if (heard.has(client)) return;
    heard.add(client);
    const processId = processIdOf(client);
    ownSessions.add(processId);
    client.on('notification', (message) => {
      if (message.channel === SESSION_CHANGED && message.processId === processId) noticeHeard(caches, message.payload ?? null);
    });
  };
  const onRemove = (client: import('pg').PoolClient) => { ownSessions.delete(processIdOf(client)); };
  pool.on('acquire', onAcquire);
  pool.on('remove', onRemove);
  let current: import('pg').Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = 1000;
  let isStopped = false;
  const dropped = new WeakSet<object>();

  const drop = (client: import('pg').Client, error?: Error) => {
    if (dropped.has(client)) return;
    dropped.add(client);
    if (error) log.warn({ err: error }, 'sessions: the revocation listener lost its connection');
    if (current === client) { current = undefined; listening(caches, false); }
    client.end().catch(() => undefined);
    if (isStopped || retry) return;
    retry = setTimeout(() => { retry = undefined; void connect(); }, delay);
    retry.unref();
    delay = Math.min(delay * 2, 30_000);
  };
  const connect = async () => {
    const client = new pg.Client(pool.options);
    client.on('error', (error) => drop(client, error));
    client.on('end', () => drop(client));
    client.on('notification', (message) => {
      if (message.channel === SESSIONS_REVOKED) report(message.payload);
      else if (message.channel === SESSION_CHANGED && !ownSessions.has(message.processId)) noticeHeard(caches, message.payload ?? null);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSIONS_REVOKED}; LISTEN ${SESSION_CHANGED}`);
    } catch (error) {
      drop(client, error as Error);
      return;
    }
    if (isStopped) { drop(client); return; }
    current = client;
    delay = 1000;
    // Whatever was revoked while no connection listened is found by checking every session.
    listening(caches, true);
    onRevoked(null);
  };
  await connect();
  return async () => {
    isStopped = true;
    pool.off('acquire', onAcquire);
    pool.off('remove', onRemove);
    clearTimeout(retry);
    if (current) drop(current);
  };
}
