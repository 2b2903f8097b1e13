import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../src/server/db/schema/notifications';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let owner: { id: number; token: string };
let other: { id: number; token: string };
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.createUser({ email: 'owner@example.com' });
  const b = await t.createUser({ email: 'other@example.com' });
  owner = { id: a.id, token: await a.token() };
  other = { id: b.id, token: await b.token() };
  const rows = Array.from({ length: 17 }, (_, i) => ({
    notifiable_type: 'app' as const, notifiable_id: owner.id, type: 'App\\Notifications\\Test',
    data: { title: `Title ${i}`, message: `Message ${i}`, url: `/time-sheet?item=${i}` },
    read_at: i < 5 ? new Date() : null,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, i)),
  }));
  await t.app.db.insert(notifications).values([...rows, { notifiable_type: 'app', notifiable_id: other.id, type: 'x', data: { title: 'Theirs', message: '', url: null } }]);
});
afterAll(async () => { await t?.close(); });

describe('notifications', () => {
  it('lists unread by default, newest first, only the caller\'s own', async () => {
    const res = await t.call('GET', '/api/notification?per_page=50', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(12);
    expect(res.body.data[0].data.title).toBe('Title 16');
    expect(res.body.data.every((n: { read_at: string | null }) => n.read_at === null)).toBe(true);
  });

  it('paginates all notifications with Laravel meta links', async () => {
    const res = await t.call('GET', '/api/notification?type=all&page=2&per_page=5', { token: owner.token });
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta).toMatchObject({ current_page: 2, last_page: 4, per_page: 5, total: 17 });
    const labels = res.body.meta.links.map((l: { label: string }) => l.label);
    expect(labels).toEqual(['&laquo; Previous', '1', '2', '3', '4', 'Next &raquo;']);
    expect(res.body.meta.links[0].url).toContain('page=1');
    expect(res.body.meta.links[0].url).toContain('type=all');
    expect(res.body.meta.links[2].active).toBe(true);
  });

  it('rejects an unknown type with 422', async () => {
    const res = await t.call('GET', '/api/notification?type=everything', { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.body.errors.type).toBeDefined();
  });

  it('marks one read and answers its url; another account\'s is not found', async () => {
    const list = await t.call('GET', '/api/notification', { token: owner.token });
    const first = list.body.data[0];
    const shown = await t.call('GET', `/api/notification/${first.id}`, { token: owner.token });
    expect(shown.body.data.id).toBe(first.id);
    expect((await t.call('GET', `/api/notification/${first.id}`, { token: other.token })).status).toBe(404);
    expect((await t.call('PUT', `/api/notification/${first.id}`, { token: other.token, body: { notificationId: first.id } })).status).toBe(404);
    const marked = await t.call('PUT', `/api/notification/${first.id}`, { token: owner.token, body: { notificationId: first.id, url: first.data.url } });
    expect(marked.body.url).toBe(first.data.url);
    const after = await t.call('GET', '/api/notification?per_page=50', { token: owner.token });
    expect(after.body.data.map((n: { id: string }) => n.id)).not.toContain(first.id);
    expect((await t.call('GET', '/api/notification/not-a-uuid', { token: owner.token })).status).toBe(422);
  });

  it('marks all of the caller\'s own unread read at once, for both account types', async () => {
    const partner = await t.createPartner({ email: 'readall-partner@example.com' });
    const partnerToken = await partner.token();
    await t.app.db.insert(notifications).values([
      { notifiable_type: 'partner', notifiable_id: partner.id, type: 'x', data: { title: 'P1', message: '', url: null } },
      { notifiable_type: 'partner', notifiable_id: partner.id, type: 'x', data: { title: 'P2', message: '', url: null } },
    ]);
    const unreadOf = async (token: string) =>
      (await t.call('GET', '/api/notification?per_page=1', { token })).body.meta.total as number;
    const ownerBefore = await unreadOf(owner.token);
    const otherBefore = await unreadOf(other.token);
    expect(ownerBefore).toBeGreaterThan(0);
    expect(otherBefore).toBe(1);

    expect((await t.call('PUT', '/api/notification/read-all')).status).toBe(401);
    const res = await t.call('PUT', '/api/notification/read-all', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: ownerBefore, message: expect.any(String) });
    expect(await unreadOf(owner.token)).toBe(0);
    // Nobody else's rows moved: another user's, nor a partner's.
    expect(await unreadOf(other.token)).toBe(1);
    expect(await unreadOf(partnerToken)).toBe(2);
    // Read rows stay in the full list.
    expect((await t.call('GET', '/api/notification?type=all&per_page=1', { token: owner.token })).body.meta.total).toBe(17);

    const again = await t.call('PUT', '/api/notification/read-all', { token: owner.token });
    expect(again.body.count).toBe(0);

    const partnerRes = await t.call('PUT', '/api/notification/read-all', { token: partnerToken });
    expect(partnerRes.status).toBe(200);
    expect(partnerRes.body.count).toBe(2);
    expect(await unreadOf(partnerToken)).toBe(0);
    expect(await unreadOf(other.token)).toBe(1);
  });

  it('serves partners their own notifications on the same call', async () => {
    const partner = await t.createPartner({ email: 'np@example.com' });
    await t.app.db.insert(notifications).values({ notifiable_type: 'partner', notifiable_id: partner.id, type: 'x', data: { title: 'For partner', message: '', url: '/partner/pre-billing' } });
    // Same numeric id as an app user must not leak across account types.
    await t.app.db.insert(notifications).values({ notifiable_type: 'app', notifiable_id: partner.id, type: 'x', data: { title: 'For user', message: '', url: null } });
    const res = await t.call('GET', '/api/notification', { token: await partner.token() });
    expect(res.body.data.map((n: { data: { title: string } }) => n.data.title)).toEqual(['For partner']);
  });
});
