// Issue 20: the checks around a password. The profile routes told a caller with a wrong current
// password that an address belonged to another account; and 100 concurrent wrong passwords for one
// account were all evaluated before the limit of 5 took hold. Both on the embedded limiter and, when
// REDIS_URL is set, on the Redis one that a cluster shares.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('\n*** tests/api/password-checks.test.ts: set REDIS_URL to run the Redis limiter cases too ***\n');
const limiters: [string, { redisUrl?: string }][] = [['the embedded limiter', {}], ...(redisUrl ? [['the Redis limiter', { redisUrl }] as [string, { redisUrl?: string }]] : [])];

describe.each(limiters)('with %s', (_name, overrides) => {
  let t: TestApp;
  // Each run of the suite has its own email addresses, and clears the counters of its IP addresses
  // and accounts before use: the Redis counters outlive the app (and its account ids repeat).
  const run = Math.random().toString(36).slice(2, 8);
  const address = (name: string) => `${name}-${run}@example.com`;
  const ip = async (last: number) => {
    await t.app.limiter.clear(`login-ip:198.51.100.${last}`);
    return `198.51.100.${last}`;
  };
  beforeAll(async () => { t = await createTestApp(overrides); });
  afterAll(async () => { await t?.close(); });

  const CONCURRENT = 100;
  const TOO_MANY = /^Too many attempts\. Please try again in \d+ seconds\.$/;

  /** The statuses of `CONCURRENT` requests sent at once, counted: { 422: n, 429: m }. */
  async function atOnce(send: (i: number) => Promise<{ status: number; body: { message?: string } }>) {
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(i)));
    for (const answer of answers) if (answer.status === 429) expect(answer.body.message).toMatch(TOO_MANY);
    return answers.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
  }

  describe('changing the email in the profile', () => {
    const change = (url: string, token: string, email: string, password?: string) =>
      t.call('PATCH', url, { token, body: { name: 'Someone', email, ...(password === undefined ? {} : { current_password: password }) } });

    it('answers a wrong or missing current password alike for a taken and a free address (staff)', async () => {
      await t.createUser({ email: address('taken') });
      const asker = await t.createUser({ email: address('asker') });
      await t.app.limiter.clear(`current-password:app:${asker.id}`);
      const token = await asker.token();
      for (const password of ['a-wrong-guess', undefined]) {
        const taken = await change('/api/profile', token, address('taken'), password);
        const free = await change('/api/profile', token, address('free'), password);
        expect(taken.status).toBe(422);
        expect(taken.body).toEqual(free.body);
        expect(Object.keys(taken.body.errors)).toEqual(['current_password']);
      }
      // The owner, with the right password, learns that the address is taken.
      const owner = await change('/api/profile', token, address('taken'), TEST_PASSWORD);
      expect(owner.status).toBe(422);
      expect(owner.body.errors).toEqual({ email: ['The email has already been taken.'] });
    });

    it('answers them alike on the partner portal too', async () => {
      await t.createPartner({ email: address('partner-taken') });
      const asker = await t.createPartner({ email: address('partner-asker') });
      await t.app.limiter.clear(`current-password:partner:${asker.id}`);
      const token = await asker.token();
      for (const password of ['a-wrong-guess', undefined]) {
        const taken = await change('/api/partner/profile', token, address('partner-taken'), password);
        const free = await change('/api/partner/profile', token, address('partner-free'), password);
        expect(taken.status).toBe(422);
        expect(taken.body).toEqual(free.body);
        expect(Object.keys(taken.body.errors)).toEqual(['current_password']);
      }
      const owner = await change('/api/partner/profile', token, address('partner-taken'), TEST_PASSWORD);
      expect(owner.body.errors).toEqual({ email: ['The email has already been taken.'] });
    });
  });

  describe('concurrent wrong passwords', () => {
    const login = (email: string, password: string, ip: string) => t.app.inject({
      method: 'POST', url: '/api/login', remoteAddress: ip, payload: { email, password },
    } as InjectOptions).then((response) => ({ status: response.statusCode, body: response.json() as { message?: string } }));

    it('evaluates at most five of a hundred sent at once for one account from one address', async () => {
      const email = address('stormed');
      await t.createUser({ email });
      // 422 is the answer of an evaluated wrong password; 429 of one refused before evaluation.
      const from = await ip(20);
      expect(await atOnce((i) => login(email, `guess-${i}`, from))).toEqual({ 422: 5, 429: CONCURRENT - 5 });
      // The owner from elsewhere is not held back by it.
      expect((await login(email, TEST_PASSWORD, await ip(21))).status).toBe(200);
    });

    it('counts an unknown address the same way', async () => {
      const from = await ip(22);
      expect(await atOnce((i) => login(address('nobody'), `guess-${i}`, from))).toEqual({ 422: 5, 429: CONCURRENT - 5 });
    });

    it('lets concurrent correct passwords through without counting them', async () => {
      const email = address('busy');
      await t.createUser({ email });
      const from = await ip(23);
      // Five at a time from one address, twice: none is a failure, so none holds another back.
      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(Array.from({ length: 5 }, () => login(email, TEST_PASSWORD, from)));
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      }
      for (let i = 0; i < 4; i++) expect((await login(email, 'guess', from)).status).toBe(422);
      expect((await login(email, TEST_PASSWORD, from)).status).toBe(200);
    });

    it('evaluates at most five concurrent guesses of the current password made with a stolen token', async () => {
      const user = await t.createUser({ email: address('stolen') });
      await t.app.limiter.clear(`current-password:app:${user.id}`);
      const token = await user.token();
      const answers = await atOnce((i) => t.call('PUT', '/api/password', {
        token, body: { current_password: `guess-${i}`, password: 'a-new-password', password_confirmation: 'a-new-password' },
      }));
      expect(answers).toEqual({ 422: 5, 429: CONCURRENT - 5 });
    });
  });
});
