// Attempt counters for the auth calls: fixed windows (reset links, verification links) and backoff
// (failed logins, wrong current passwords). In memory on one node; in Redis when REDIS_URL is set,
// so every node shares the same counts.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * The `after`-th failure blocks the key for `baseSeconds`; each one after that for twice as long as
 * the one before, up to `maxSeconds`. The count is forgotten `forgetSeconds` after the last failure
 * (or at once by `clear`, on a success).
 */
export interface BackoffPolicy { after: number; baseSeconds: number; maxSeconds: number; forgetSeconds: number }

/** A key and the backoff it counts failures under. */
export type Throttle = readonly [key: string, policy: BackoffPolicy];

/**
 * Issue 20: checking `blockedFor`, evaluating a password and then calling `fail` let 100 concurrent
 * wrong passwords all be evaluated before the first failure was counted. So an attempt is reserved
 * first, atomically with the check, and counts as pending until it is settled: a new attempt is
 * refused while the key is blocked, or while the pending ones, should they all fail, would reach a
 * block. With after = 5 and nothing counted, five attempts may run at once and the sixth waits; once
 * a key has been blocked, one attempt at a time. A reservation never settled (a process that died)
 * stops counting after RESERVATION_SECONDS.
 */
export const RESERVATION_SECONDS = 30;

export type Reservation = { id: string; retryAfter?: undefined } | { id?: undefined; retryAfter: number };

export interface Limiter {
  /** Counts one attempt; answers whether it is still within `max` per `windowSeconds`, and when to retry. */
  hit(key: string, max: number, windowSeconds: number): Promise<{ allowed: boolean; retryAfter: number }>;
  /**
   * Reserves one attempt under every throttle at once, before it is evaluated: an id to settle, or the
   * seconds to wait (nothing reserved) when any throttle refuses it.
   */
  reserve(throttles: readonly Throttle[]): Promise<Reservation>;
  /**
   * Settles a reservation: a failure is counted under each throttle (as `fail`); otherwise the attempt
   * only stops being pending. Answers the longest block the failure set (0: none).
   */
  settle(id: string, throttles: readonly Throttle[], hasFailed: boolean): Promise<number>;
  /** Records a failure under a backoff policy; answers the seconds the key is now blocked for (0: not blocked). */
  fail(key: string, policy: BackoffPolicy): Promise<number>;
  /** Seconds a key is still blocked for by `fail` (0 when it is free). */
  blockedFor(key: string): Promise<number>;
  /** Forgets a key's window, its backoff and its pending attempts. */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Seconds a key is blocked for after its `failures`-th failure. */
export function backoffSeconds(failures: number, policy: BackoffPolicy): number {
  if (failures < policy.after) return 0;
  return Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.min(failures - policy.after, 30));
}

/** Past this many keys, expired entries are swept before another is added: memory stays bounded by the live ones. */
const SWEEP_ABOVE = 50_000;

/**
 * Seconds a new attempt must wait, given the key's block, its counted failures and its pending
 * attempts (0: it may run). Refused while pending attempts could, by failing, block the key: then the
 * wait is the block the last of them would set.
 */
function reservationWait(blockedSeconds: number, failures: number, pending: number, policy: BackoffPolicy): number {
  if (blockedSeconds > 0) return blockedSeconds;
  if (pending === 0 || failures + pending < policy.after) return 0;
  return backoffSeconds(failures + pending, policy);
}

export function memoryLimiter(): Limiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const backoffs = new Map<string, { failures: number; forgetAt: number; blockedUntil: number }>();
  const sweep = <T>(map: Map<string, T>, expiresAt: (entry: T) => number) => {
    if (map.size < SWEEP_ABOVE) return;
    const now = Date.now();
    for (const [key, entry] of map) if (expiresAt(entry) <= now) map.delete(key);
  };
  const currentWindow = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.resetAt <= Date.now()) { windows.delete(key); return undefined; }
    return entry;
  };
  const currentBackoff = (key: string) => {
    const entry = backoffs.get(key);
    if (entry && entry.forgetAt <= Date.now() && entry.blockedUntil <= Date.now()) { backoffs.delete(key); return undefined; }
    return entry;
  };
  /** Per key: its pending reservations and when each stops counting. */
  const reservations = new Map<string, Map<string, number>>();
  const pendingOf = (key: string) => {
    const entries = reservations.get(key);
    if (!entries) return 0;
    for (const [id, expiresAt] of entries) if (expiresAt <= Date.now()) entries.delete(id);
    if (!entries.size) reservations.delete(key);
    return entries.size;
  };
  const blockedFor = (key: string) => {
    const entry = currentBackoff(key);
    return entry ? Math.max(0, Math.ceil((entry.blockedUntil - Date.now()) / 1000)) : 0;
  };
  const fail = (key: string, policy: BackoffPolicy) => {
    sweep(backoffs, (entry) => Math.max(entry.forgetAt, entry.blockedUntil));
    const entry = currentBackoff(key) ?? { failures: 0, forgetAt: 0, blockedUntil: 0 };
    entry.failures += 1;
    entry.forgetAt = Date.now() + policy.forgetSeconds * 1000;
    const seconds = backoffSeconds(entry.failures, policy);
    if (seconds > 0) entry.blockedUntil = Date.now() + seconds * 1000;
    backoffs.set(key, entry);
    return seconds;
  };
  return {
    async hit(key, max, windowSeconds) {
      sweep(windows, (entry) => entry.resetAt);
      const entry = currentWindow(key) ?? { count: 0, resetAt: Date.now() + windowSeconds * 1000 };
      entry.count += 1;
      windows.set(key, entry);
      return { allowed: entry.count <= max, retryAfter: Math.ceil((entry.resetAt - Date.now()) / 1000) };
    },
    // No await between the check and the count: one turn of the event loop, so atomic on this node.
    async reserve(throttles) {
      const wait = Math.max(0, ...throttles.map(([key, policy]) =>
        reservationWait(blockedFor(key), currentBackoff(key)?.failures ?? 0, pendingOf(key), policy)));
      if (wait > 0) return { retryAfter: wait };
      const id = randomUUID();
      if (reservations.size >= SWEEP_ABOVE) for (const key of [...reservations.keys()]) pendingOf(key);
      for (const [key] of throttles) {
        const entries = reservations.get(key) ?? new Map<string, number>();
        entries.set(id, Date.now() + RESERVATION_SECONDS * 1000);
        reservations.set(key, entries);
      }
      return { id };
    },
    async settle(id, throttles, hasFailed) {
      let blocked = 0;
      for (const [key, policy] of throttles) {
        reservations.get(key)?.delete(id);
        pendingOf(key);
        if (hasFailed) blocked = Math.max(blocked, fail(key, policy));
      }
      return blocked;
    },
    async fail(key, policy) { return fail(key, policy); },
    async blockedFor(key) { return blockedFor(key); },
    async clear(key) { windows.delete(key); backoffs.delete(key); reservations.delete(key); },
    async close() { windows.clear(); backoffs.clear(); reservations.clear(); },
  };
}

/** The Redis server's clock in milliseconds, so every node agrees on when a reservation stops counting. */
const NOW_MS = `local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)`;

/**
 * Reserve, in one round trip and atomic across nodes. KEYS: per throttle its failure count, its
 * block (a key with a TTL) and its pending reservations (a sorted set scored by when each stops
 * counting). ARGV: the reservation id, RESERVATION_SECONDS, then per throttle after, base and max
 * seconds. Answers the seconds to wait (nothing reserved) or 0 (reserved under every throttle).
 */
const RESERVE_SCRIPT = `${NOW_MS}
local wait = 0
for i = 0, #KEYS / 3 - 1 do
  local blocked = redis.call('TTL', KEYS[i * 3 + 2])
  if blocked > 0 then
    wait = math.max(wait, blocked)
  else
    redis.call('ZREMRANGEBYSCORE', KEYS[i * 3 + 3], '-inf', now)
    local pending = redis.call('ZCARD', KEYS[i * 3 + 3])
    local failures = tonumber(redis.call('GET', KEYS[i * 3 + 1]) or '0')
    local after = tonumber(ARGV[3 + i * 3])
    if pending > 0 and failures + pending >= after then
      local base, max = tonumber(ARGV[4 + i * 3]), tonumber(ARGV[5 + i * 3])
      wait = math.max(wait, math.min(max, base * 2 ^ math.min(failures + pending - after, 30)))
    end
  end
end
if wait > 0 then return wait end
local expires = now + tonumber(ARGV[2]) * 1000
for i = 0, #KEYS / 3 - 1 do
  redis.call('ZADD', KEYS[i * 3 + 3], expires, ARGV[1])
  redis.call('PEXPIREAT', KEYS[i * 3 + 3], expires)
end
return 0`;

/**
 * Settle, in one round trip and atomic across nodes: the reservation stops being pending and, when
 * the attempt failed, the failure is counted: kept for forgetSeconds, and the key blocked (its block
 * key with a TTL) for the backoff of that count. KEYS as for RESERVE_SCRIPT; ARGV: the reservation
 * id ('' for none), 1 when it failed, then per throttle after, base, max and forget seconds.
 * Answers the longest block set.
 */
const SETTLE_SCRIPT = `local longest = 0
for i = 0, #KEYS / 3 - 1 do
  redis.call('ZREM', KEYS[i * 3 + 3], ARGV[1])
  if ARGV[2] == '1' then
    local after, base, max, forget = tonumber(ARGV[3 + i * 4]), tonumber(ARGV[4 + i * 4]), tonumber(ARGV[5 + i * 4]), tonumber(ARGV[6 + i * 4])
    local failures = redis.call('INCR', KEYS[i * 3 + 1])
    redis.call('EXPIRE', KEYS[i * 3 + 1], forget)
    if failures >= after then
      local seconds = math.min(max, base * 2 ^ math.min(failures - after, 30))
      redis.call('SET', KEYS[i * 3 + 2], failures, 'EX', seconds)
      longest = math.max(longest, seconds)
    end
  end
end
return longest`;

export function redisLimiter(redis: Redis): Limiter {
  const prefix = 'limiter:';
  const blockKey = (key: string) => `${prefix}blocked:${key}`;
  const keysOf = (throttles: readonly Throttle[]) =>
    throttles.flatMap(([key]) => [`${prefix}failures:${key}`, blockKey(key), `${prefix}pending:${key}`]);
  const settle = async (id: string, throttles: readonly Throttle[], hasFailed: boolean) => Number(await redis.eval(
    SETTLE_SCRIPT, throttles.length * 3, ...keysOf(throttles), id, hasFailed ? 1 : 0,
    ...throttles.flatMap(([, policy]) => [policy.after, policy.baseSeconds, policy.maxSeconds, policy.forgetSeconds]),
  ));
  return {
    async hit(key, max, windowSeconds) {
      const [[, count], [, ttl]] = (await redis.multi().incr(prefix + key).ttl(prefix + key).exec()) as [[null, number], [null, number]];
      if (ttl < 0) await redis.expire(prefix + key, windowSeconds);
      return { allowed: count <= max, retryAfter: ttl > 0 ? ttl : windowSeconds };
    },
    async reserve(throttles) {
      const id = randomUUID();
      const wait = Number(await redis.eval(RESERVE_SCRIPT, throttles.length * 3, ...keysOf(throttles), id, RESERVATION_SECONDS,
        ...throttles.flatMap(([, policy]) => [policy.after, policy.baseSeconds, policy.maxSeconds])));
      return wait > 0 ? { retryAfter: wait } : { id };
    },
    settle,
    async fail(key, policy) { return settle('', [[key, policy]], true); },
    async blockedFor(key) {
      return Math.max(0, await redis.ttl(blockKey(key)));
    },
    async clear(key) { await redis.del(prefix + key, `${prefix}failures:${key}`, blockKey(key), `${prefix}pending:${key}`); },
    async close() { /* the connection belongs to the app */ },
  };
}
