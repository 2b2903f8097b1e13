// The backoff counters behind the login throttle (issue 15): the same answers in memory (one node)
// and in Redis (a cluster; run when REDIS_URL is set).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type BackoffPolicy, type Limiter, memoryLimiter, redisLimiter } from '../../src/server/plugins/limiter';

const redisUrl = process.env.REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : null;
afterAll(() => { redis?.disconnect(); });

const policy: BackoffPolicy = { after: 3, baseSeconds: 60, maxSeconds: 200, forgetSeconds: 600 };
const limiters: [string, () => Limiter][] = [['memory', memoryLimiter], ...(redis ? [['redis', () => redisLimiter(redis)] as [string, () => Limiter]] : [])];

describe.each(limiters)('backoff in %s', (_name, create) => {
  const key = () => `test:${randomBytes(6).toString('hex')}`;

  it('blocks from the after-th failure, doubling the wait up to the cap', async () => {
    const limiter = create();
    const k = key();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) waits.push(await limiter.fail(k, policy));
    expect(waits).toEqual([0, 0, 60, 120, 200, 200]);
    const blocked = await limiter.blockedFor(k);
    expect(blocked).toBeGreaterThan(190);
    expect(blocked).toBeLessThanOrEqual(200);
  });

  it('is free before the after-th failure and again once cleared', async () => {
    const limiter = create();
    const k = key();
    await limiter.fail(k, policy);
    await limiter.fail(k, policy);
    expect(await limiter.blockedFor(k)).toBe(0);
    await limiter.fail(k, policy);
    expect(await limiter.blockedFor(k)).toBeGreaterThan(0);
    await limiter.clear(k);
    expect(await limiter.blockedFor(k)).toBe(0);
    expect(await limiter.fail(k, policy)).toBe(0);
  });
});
