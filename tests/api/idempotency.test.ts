// On the embedded database too: concurrent replays through the one connection.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { idempotencyKeys } from '../../src/server/db/schema/idempotency';
import { IDEMPOTENCY_SWEEP_INTERVAL_MS } from '../../src/server/plugins/idempotency';
import { IDEMPOTENCY_IN_PROGRESS } from '../../src/shared/idempotency';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let token: string;
beforeAll(async () => { t = await createTestApp(); token = await t.login(ADMIN.email, ADMIN.password); });
afterAll(async () => { await t?.close(); });

const put = (message: string, key?: string, as = token) => t.call('PUT', '/api/setting/announcement', {
  token: as, body: { status: 'on', message }, headers: key ? { 'idempotency-key': key } : {},
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const rowOf = async (key: string) => (await t.app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)))[0];
/** Leaves the key's row as a request that claimed it and never answered leaves it (the real fingerprint kept). */
const unfinish = (key: string, createdAt: Date) => t.app.db.update(idempotencyKeys)
  .set({ status_code: null, response: null, content_type: null, created_at: createdAt }).where(eq(idempotencyKeys.key, key));

describe('Idempotency-Key', () => {
  it('replays the first response for a repeated key without running the request again', async () => {
    const first = await put('First', 'key-1');
    expect(first.status).toBe(200);
    await put('Changed since');
    const repeat = await put('First', 'key-1');
    expect(repeat.status).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.body).toEqual(first.body);
    // The replay did not write again: the later change stands.
    expect((await t.call('GET', '/api/setting/announcement', { token })).body.data.message).toBe('Changed since');
  });

  it('refuses a key reused with a different body with 422', async () => {
    await put('One', 'key-2');
    const reused = await put('Two', 'key-2');
    expect(reused.status).toBe(422);
    expect(reused.body.errors['Idempotency-Key']).toBeDefined();
  });

  it('keeps keys apart per account', async () => {
    const other = await t.createUser({ email: 'other-admin@example.com', user_type: 'admin' });
    const otherToken = await other.token();
    await put('Mine', 'shared-key');
    const theirs = await put('Theirs', 'shared-key', otherToken);
    expect(theirs.status).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.data.message).toBe('Theirs');
  });

  it('rejects a malformed key', async () => {
    const res = await put('x', 'k'.repeat(300));
    expect(res.status).toBe(422);
  });

  it('forgets keys after 24 hours', async () => {
    await put('Old', 'key-3');
    await t.app.db.update(idempotencyKeys).set({ created_at: new Date(Date.now() - 25 * 3600_000) });
    const res = await put('New body after expiry', 'key-3');
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('lets a retry take over a claim whose request never answered, once', async () => {
    expect((await put('Abandoned', 'key-abandoned')).status).toBe(200);
    await unfinish('key-abandoned', minutesAgo(10));
    const retry = await put('Abandoned', 'key-abandoned');
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.body.data.message).toBe('Abandoned');
    const again = await put('Abandoned', 'key-abandoned');
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(retry.body);
  });

  it('lets exactly one of concurrent retries take over an abandoned claim', async () => {
    expect((await put('Race', 'key-race')).status).toBe(200);
    await unfinish('key-race', minutesAgo(10));
    const answers = await Promise.all([put('Race', 'key-race'), put('Race', 'key-race'), put('Race', 'key-race')]);
    const ran = answers.filter((a) => a.status === 200 && a.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    // The others saw the new claim still running (409) or, once it answered, its replay.
    for (const other of answers.filter((a) => !ran.includes(a))) {
      expect(other.status === 409 || other.headers['idempotent-replayed'] === 'true').toBe(true);
    }
  });

  it('still answers 409 for a claim that is being processed', async () => {
    expect((await put('Running', 'key-running')).status).toBe(200);
    await unfinish('key-running', minutesAgo(0.5));
    const retry = await put('Running', 'key-running');
    expect(retry.status).toBe(409);
    expect(retry.body.message).toBe('A request with this Idempotency-Key is still being processed.');
    // The outbox retries this 409 later; any other 409 is a refusal it keeps for the user (issue 26).
    expect(retry.body.status).toBe(IDEMPOTENCY_IN_PROGRESS);
  });

  it('does not let a different request take over an abandoned claim', async () => {
    expect((await put('Mine', 'key-abandoned-other')).status).toBe(200);
    await unfinish('key-abandoned-other', minutesAgo(10));
    const other = await put('Something else', 'key-abandoned-other');
    expect(other.status).toBe(422);
    expect(other.body.errors['Idempotency-Key']).toBeDefined();
  });

  it('releases the claim on a server error, so the retry runs again', async () => {
    // The announcement is saved in a transaction with its audit entry; the claim is not.
    const spy = vi.spyOn(t.app.db, 'transaction').mockImplementation((() => Promise.reject(new Error('database went away'))) as never);
    let failed;
    try {
      failed = await put('After a 500', 'key-500');
    } finally {
      spy.mockRestore();
    }
    expect(failed.status).toBe(500);
    expect(await rowOf('key-500')).toBeUndefined();
    const retry = await put('After a 500', 'key-500');
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('sweeps rows older than 24 hours at most once per interval, on a keyed request', async () => {
    await put('Sweep 1', 'key-sweep-1'); // any sweep due has run now
    const [admin] = await t.app.db.select().from(idempotencyKeys).limit(1);
    await t.app.db.insert(idempotencyKeys).values([
      { account_type: admin.account_type, account_id: admin.account_id, key: 'expired-finished', fingerprint: 'f', status_code: 200, response: {}, created_at: new Date(Date.now() - 25 * 3600_000) },
      { account_type: admin.account_type, account_id: admin.account_id + 1000, key: 'expired-unfinished', fingerprint: 'f', created_at: new Date(Date.now() - 30 * 3600_000) },
      { account_type: admin.account_type, account_id: admin.account_id, key: 'recent', fingerprint: 'f', status_code: 200, response: {}, created_at: minutesAgo(23 * 60) },
    ]);
    await put('Sweep 2', 'key-sweep-2');
    expect(await rowOf('expired-finished')).toBeDefined(); // within the interval: no second sweep

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + IDEMPOTENCY_SWEEP_INTERVAL_MS + 1000);
      await put('Sweep 3', 'key-sweep-3');
    } finally {
      vi.useRealTimers();
    }
    expect(await rowOf('expired-finished')).toBeUndefined();
    expect(await rowOf('expired-unfinished')).toBeUndefined();
    expect(await rowOf('recent')).toBeDefined();
    expect(await rowOf('key-sweep-3')).toBeDefined();
  });
});
