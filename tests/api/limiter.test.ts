// The backoff counters behind the login throttle (issue 15), and the reservations that make them
// hold under concurrency (issue 20): the same answers in memory (one node) and in Redis (a cluster;
// run when REDIS_URL is set).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type BackoffPolicy, type Limiter, memoryLimiter, RESERVATION_SECONDS, redisLimiter, type Throttle } from '../../src/server/plugins/limiter';

const redisUrl = process.env.REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl) : null;
afterAll(() => { redis?.disconnect(); });
afterEach(() => { vi.useRealTimers(); });

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

describe.each(limiters)('reservations in %s', (name, create) => {
  const key = () => `test:${randomBytes(6).toString('hex')}`;

  it('grants `after` attempts at once and refuses the rest, counting nothing until they settle', async () => {
    const limiter = create();
    const throttles: Throttle[] = [[key(), policy], [key(), { ...policy, after: 50 }]];
    const answers = await Promise.all(Array.from({ length: 20 }, () => limiter.reserve(throttles)));
    const granted = answers.filter((answer) => answer.id !== undefined);
    expect(granted).toHaveLength(3);
    // The wait the last pending one would set by failing.
    expect(answers.filter((answer) => answer.retryAfter === 60)).toHaveLength(17);
    expect(await limiter.blockedFor(throttles[0][0])).toBe(0);

    // All three fail: the third blocks the key.
    const blocks = await Promise.all(granted.map((answer) => limiter.settle(answer.id!, throttles, true)));
    expect(blocks.sort()).toEqual([0, 0, 60]);
    expect((await limiter.reserve(throttles)).retryAfter).toBeGreaterThan(55);
  });

  it('lets a success go without counting it, so successes never hold each other back', async () => {
    const limiter = create();
    const throttles: Throttle[] = [[key(), policy]];
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([1, 2, 3].map(() => limiter.reserve(throttles)));
      expect(answers.every((answer) => answer.id !== undefined)).toBe(true);
      for (const answer of answers) expect(await limiter.settle(answer.id!, throttles, false)).toBe(0);
    }
    expect(await limiter.fail(throttles[0][0], policy)).toBe(0);
  });

  it('grants one attempt at a time once a block has run out', async () => {
    const limiter = create();
    const k = key();
    // Three failures (a block of 60 seconds) that has since run out, the count kept.
    for (let i = 0; i < 3; i++) await limiter.fail(k, policy);
    if (name === 'memory') {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 61_000);
    } else {
      await redis!.del(`limiter:blocked:${k}`);
    }
    const first = await limiter.reserve([[k, policy]]);
    expect(first.id).toBeDefined();
    // A second, while the first could still fail, would be a fourth guess inside the next block.
    expect((await limiter.reserve([[k, policy]])).retryAfter).toBe(120);
    expect(await limiter.settle(first.id!, [[k, policy]], true)).toBe(120);
  });

  it('stops counting a reservation never settled after RESERVATION_SECONDS', async () => {
    const limiter = create();
    const k = key();
    if (name === 'memory') vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 3; i++) expect((await limiter.reserve([[k, policy]])).id).toBeDefined();
    expect((await limiter.reserve([[k, policy]])).retryAfter).toBe(60);
    if (name === 'memory') {
      vi.setSystemTime(Date.now() + RESERVATION_SECONDS * 1000 + 1);
    } else {
      // As the server's clock would leave them: every pending reservation past its time.
      const pending = `limiter:pending:${k}`;
      for (const id of await redis!.zrange(pending, '0', '-1')) await redis!.zadd(pending, String(Date.now() - 1000), id);
    }
    expect((await limiter.reserve([[k, policy]])).id).toBeDefined();
  });

  it('forgets pending attempts on clear', async () => {
    const limiter = create();
    const k = key();
    for (let i = 0; i < 3; i++) await limiter.reserve([[k, policy]]);
    await limiter.clear(k);
    expect((await limiter.reserve([[k, policy]])).id).toBeDefined();
  });
});
