import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/server/db/schema/idempotency';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let token: string;
beforeAll(async () => { t = await createTestApp(); token = await t.login(ADMIN.email, ADMIN.password); });
afterAll(async () => { await t?.close(); });

const put = (message: string, key?: string, as = token) => t.call('PUT', '/api/setting/announcement', {
  token: as, body: { status: 'on', message }, headers: key ? { 'idempotency-key': key } : {},
});

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
});
