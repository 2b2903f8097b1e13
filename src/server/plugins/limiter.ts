// Fixed-window attempt counters for login and forgot-password (per account and per IP).
// In memory on one node; in Redis when REDIS_URL is set, so every node shares the same counts.
import type { Redis } from 'ioredis';

export interface Limiter {
  /** Counts one attempt; answers whether it is still within `max` per `windowSeconds`, and when to retry. */
  hit(key: string, max: number, windowSeconds: number): Promise<{ allowed: boolean; retryAfter: number }>;
  /** Reads without counting. */
  isBlocked(key: string, max: number): Promise<{ blocked: boolean; retryAfter: number }>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

export function memoryLimiter(): Limiter {
  const counters = new Map<string, { count: number; resetAt: number }>();
  const current = (key: string) => {
    const entry = counters.get(key);
    if (entry && entry.resetAt <= Date.now()) { counters.delete(key); return undefined; }
    return entry;
  };
  return {
    async hit(key, max, windowSeconds) {
      const entry = current(key) ?? { count: 0, resetAt: Date.now() + windowSeconds * 1000 };
      entry.count += 1;
      counters.set(key, entry);
      return { allowed: entry.count <= max, retryAfter: Math.ceil((entry.resetAt - Date.now()) / 1000) };
    },
    async isBlocked(key, max) {
      const entry = current(key);
      return { blocked: !!entry && entry.count >= max, retryAfter: entry ? Math.ceil((entry.resetAt - Date.now()) / 1000) : 0 };
    },
    async clear(key) { counters.delete(key); },
    async close() { counters.clear(); },
  };
}

export function redisLimiter(redis: Redis): Limiter {
  const prefix = 'limiter:';
  return {
    async hit(key, max, windowSeconds) {
      const [[, count], [, ttl]] = (await redis.multi().incr(prefix + key).ttl(prefix + key).exec()) as [[null, number], [null, number]];
      if (ttl < 0) await redis.expire(prefix + key, windowSeconds);
      return { allowed: count <= max, retryAfter: ttl > 0 ? ttl : windowSeconds };
    },
    async isBlocked(key, max) {
      const [[, count], [, ttl]] = (await redis.multi().get(prefix + key).ttl(prefix + key).exec()) as [[null, string | null], [null, number]];
      return { blocked: Number(count ?? 0) >= max, retryAfter: Math.max(ttl, 0) };
    },
    async clear(key) { await redis.del(prefix + key); },
    async close() { /* the connection belongs to the app */ },
  };
}
