// Attempt counters for the auth calls: fixed windows (reset links, verification links) and backoff
// (failed logins, wrong current passwords). In memory on one node; in Redis when REDIS_URL is set,
// so every node shares the same counts.
import type { Redis } from 'ioredis';

/**
 * The `after`-th failure blocks the key for `baseSeconds`; each one after that for twice as long as
 * the one before, up to `maxSeconds`. The count is forgotten `forgetSeconds` after the last failure
 * (or at once by `clear`, on a success).
 */
export interface BackoffPolicy { after: number; baseSeconds: number; maxSeconds: number; forgetSeconds: number }

export interface Limiter {
  /** Counts one attempt; answers whether it is still within `max` per `windowSeconds`, and when to retry. */
  hit(key: string, max: number, windowSeconds: number): Promise<{ allowed: boolean; retryAfter: number }>;
  /** Records a failure under a backoff policy; answers the seconds the key is now blocked for (0: not blocked). */
  fail(key: string, policy: BackoffPolicy): Promise<number>;
  /** Seconds a key is still blocked for by `fail` (0 when it is free). */
  blockedFor(key: string): Promise<number>;
  /** Forgets a key's window and its backoff. */
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
  return {
    async hit(key, max, windowSeconds) {
      sweep(windows, (entry) => entry.resetAt);
      const entry = currentWindow(key) ?? { count: 0, resetAt: Date.now() + windowSeconds * 1000 };
      entry.count += 1;
      windows.set(key, entry);
      return { allowed: entry.count <= max, retryAfter: Math.ceil((entry.resetAt - Date.now()) / 1000) };
    },
    async fail(key, policy) {
      sweep(backoffs, (entry) => Math.max(entry.forgetAt, entry.blockedUntil));
      const entry = currentBackoff(key) ?? { failures: 0, forgetAt: 0, blockedUntil: 0 };
      entry.failures += 1;
      entry.forgetAt = Date.now() + policy.forgetSeconds * 1000;
      const seconds = backoffSeconds(entry.failures, policy);
      if (seconds > 0) entry.blockedUntil = Date.now() + seconds * 1000;
      backoffs.set(key, entry);
      return seconds;
    },
    async blockedFor(key) {
      const entry = currentBackoff(key);
      return entry ? Math.max(0, Math.ceil((entry.blockedUntil - Date.now()) / 1000)) : 0;
    },
    async clear(key) { windows.delete(key); backoffs.delete(key); },
    async close() { windows.clear(); backoffs.clear(); },
  };
}

/**
 * One round trip, atomic across nodes: count the failure, keep the count for forgetSeconds, and
 * block the key (a second key with a TTL) for the backoff of that count.
 */
const FAIL_SCRIPT = `
local failures = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
local after = tonumber(ARGV[1])
if failures < after then return 0 end
local seconds = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * 2 ^ math.min(failures - after, 30))
redis.call('SET', KEYS[2], failures, 'EX', seconds)
return seconds`;

export function redisLimiter(redis: Redis): Limiter {
  const prefix = 'limiter:';
  const blockKey = (key: string) => `${prefix}blocked:${key}`;
  return {
    async hit(key, max, windowSeconds) {
      const [[, count], [, ttl]] = (await redis.multi().incr(prefix + key).ttl(prefix + key).exec()) as [[null, number], [null, number]];
      if (ttl < 0) await redis.expire(prefix + key, windowSeconds);
      return { allowed: count <= max, retryAfter: ttl > 0 ? ttl : windowSeconds };
    },
    async fail(key, policy) {
      const seconds = await redis.eval(FAIL_SCRIPT, 2, `${prefix}failures:${key}`, blockKey(key),
        policy.after, policy.baseSeconds, policy.maxSeconds, policy.forgetSeconds);
      return Number(seconds);
    },
    async blockedFor(key) {
      return Math.max(0, await redis.ttl(blockKey(key)));
    },
    async clear(key) { await redis.del(prefix + key, `${prefix}failures:${key}`, blockKey(key)); },
    async close() { /* the connection belongs to the app */ },
  };
}
