// Service requests (issue 13): every spec §3 field, the Requested -> Work in Progress -> Completed
// workflow (each transition allowed and refused, last_status_updated_at kept), the assignee told on
// assignment, rich text sanitised, who sees which requests, the comment thread and the reminders.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partners } from '../../src/server/db/schema/accounts';
import { cities, countries } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { requestComments, requests } from '../../src/server/db/schema/operations';
import { sendDueReminders } from '../../src/server/jobs/reminders';
import { registeredResources } from '../../src/server/resources/register';
import { requestCountsByStatus, openRequestsAssignedTo } from '../../src/server/modules/request/service';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;
const people: Record<string, { id: number; token: string }> = {};
let countryId: number;
let cityId: number;
let otherCityId: number;
let partnerId: number;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  // A coordinator (manager role: can-add / can-edit-request), two engineers (user role: can-view-request) and finance (none).
  for (const [key, userType, role] of [['coordinator', 'manager', 'manager'], ['engineer', 'user', 'user'], ['other', 'user', 'user'], ['finance', 'user', 'finance']] as const) {
    const created = await t.createUser({ email: `${key}@example.com`, name: key[0].toUpperCase() + key.slice(1), user_type: userType }, [role]);
    people[key] = { id: created.id, token: await created.token() };
  }
  [{ id: countryId }] = await t.app.db.insert(countries).values({ name: 'India', code: 'IN' }).returning();
  [{ id: otherCityId }] = await t.app.db.insert(cities).values({ name: 'Berlin', country_id: (await t.app.db.insert(countries).values({ name: 'Germany', code: 'DE' }).returning())[0].id }).returning();
  [{ id: cityId }] = await t.app.db.insert(cities).values({ name: 'Pune', country_id: countryId }).returning();
  [{ id: partnerId }] = await t.app.db.insert(partners).values({ name: 'Acme Staffing', email: 'acme@example.com' }).returning();
});
afterAll(async () => { await t?.close(); });

const fullRequest = (overrides: Record<string, unknown> = {}) => ({
  title: 'Two desktop engineers for Pune', assign_to: people.engineer.id, euc_or_network: 'EUC', priority: 'High',
  requesting_partner: 'Jane at Acme', support_model: 'Dedicated', request_type: 'New resource', client_name: 'Globex',
  gps_contact: 'gps@globex.example', delivery_contact: 'Ravi', partner_id: partnerId, country_id: countryId, city_id: cityId,
  estimated_start_date: '2026-12-01', estimated_end_date: '2027-05-31', sow_start_date: '2026-12-01', sow_end_date: '2027-11-30',
  contract_renewal_date: '2027-10-31', labels: ['desktop', 'pune'], description: '<p>Two <strong>L2</strong> engineers.</p>', comment: 'Urgent for Q4',
  ...overrides,
});

async function raise(overrides: Record<string, unknown> = {}, token = people.coordinator.token) {
  const created = await t.call('POST', '/api/request', { token, body: fullRequest(overrides) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as Record<string, any>;
}

const notificationsOf = (userId: number) => t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, userId)));

describe('request record', () => {
  it('stores every field of the spec §3 request record, starting Requested, with its creator and relations', async () => {
    const row = await raise();
    expect(row).toMatchObject({
      title: 'Two desktop engineers for Pune', status: 'Requested', created_by: people.coordinator.id, assign_to: people.engineer.id,
      requesting_partner: 'Jane at Acme', euc_or_network: 'EUC', support_model: 'Dedicated', client_name: 'Globex',
      gps_contact: 'gps@globex.example', delivery_contact: 'Ravi', contract_renewal_date: '2027-10-31', country_id: countryId, city_id: cityId,
      estimated_start_date: '2026-12-01', estimated_end_date: '2027-05-31', request_type: 'New resource', partner_id: partnerId, priority: 'High',
      labels: ['desktop', 'pune'], sow_start_date: '2026-12-01', sow_end_date: '2027-11-30', description: '<p>Two <strong>L2</strong> engineers.</p>',
      comment: 'Urgent for Q4',
      country: { id: countryId, name: 'India' }, city: { id: cityId, name: 'Pune' }, partner: { id: partnerId, name: 'Acme Staffing' },
      assignee: { id: people.engineer.id, name: 'Engineer' }, creator: { id: people.coordinator.id, name: 'Coordinator' },
    });
    expect(Date.parse(row.last_status_updated_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(row.created_at)).toBeGreaterThan(Date.now() - 60_000);
    const history = await t.call('GET', `/api/request/${row.id}/history`, { token: people.coordinator.token });
    expect(history.body.data).toMatchObject([{ transition: 'create', from: null, to: 'Requested' }]);
  });

  it('ignores a status, creator or last_status_updated_at sent by the client', async () => {
    const row = await raise({ status: 'Completed', created_by: people.other.id, last_status_updated_at: '2001-01-01T00:00:00Z' });
    expect(row).toMatchObject({ status: 'Requested', created_by: people.coordinator.id });
    expect(row.last_status_updated_at.startsWith('2001')).toBe(false);
  });

  it('sanitises the rich-text description on create and on update', async () => {
    const row = await raise({ description: '<p onclick="steal()">Hi<script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="https://example.com">ok</a></p><img src=x onerror=alert(1)>' });
    expect(row.description).not.toMatch(/script|onclick|javascript|<img|onerror/);
    expect(row.description).toContain('<a href="https://example.com"');
    const updated = await t.call('PATCH', `/api/request/${row.id}`, { token: people.coordinator.token, body: { description: '<iframe src="https://evil.example"></iframe><em>fine</em>' } });
    expect(updated.body.data.description).toBe('<em>fine</em>');
  });

  it('refuses invalid input with 422 per field and stores nothing', async () => {
    const before = (await t.app.db.select().from(requests)).length;
    const refused = await t.call('POST', '/api/request', {
      token: people.coordinator.token,
      body: fullRequest({ title: ' ', euc_or_network: 'Wifi', priority: 'Soon', sow_end_date: '2026-02-30', labels: ['ok', ''], assign_to: 999_999 }),
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors).sort()).toEqual(['euc_or_network', 'labels.1', 'priority', 'sow_end_date', 'title']);
    expect(refused.body.errors.euc_or_network).toEqual(['Choose a support type: EUC, Network, SHE or Others.']);
    const unknownAssignee = await t.call('POST', '/api/request', { token: people.coordinator.token, body: fullRequest({ assign_to: 999_999 }) });
    expect(unknownAssignee.status).toBe(422);
    expect(unknownAssignee.body.errors).toEqual({ assign_to: ['The person you chose has been removed or cannot be chosen here. Choose another.'] });
    const backwards = await t.call('POST', '/api/request', { token: people.coordinator.token, body: fullRequest({ sow_start_date: '2027-01-10', sow_end_date: '2027-01-09', estimated_end_date: '2026-11-30' }) });
    expect(backwards.status).toBe(422);
    expect(Object.keys(backwards.body.errors).sort()).toEqual(['estimated_end_date', 'sow_end_date']);
    const elsewhere = await t.call('POST', '/api/request', { token: people.coordinator.token, body: fullRequest({ city_id: otherCityId }) });
    expect(elsewhere.body.errors).toEqual({ city_id: ['The selected city is not in the selected country.'] });
    const tooMany = await t.call('POST', '/api/request', { token: people.coordinator.token, body: fullRequest({ labels: Array.from({ length: 11 }, (_, i) => `l${i}`) }) });
    expect(tooMany.body.errors).toEqual({ labels: ['At most 10 labels.'] });
    expect((await t.app.db.select().from(requests)).length).toBe(before);
  });

  it('accepts each spec §4 support type', async () => {
    for (const type of ['EUC', 'Network', 'SHE', 'Others']) expect((await raise({ euc_or_network: type })).euc_or_network).toBe(type);
  });
});

describe('assignment', () => {
  it('tells the assignee when a request is created for them and when it is reassigned, never the one assigning themselves', async () => {
    const before = (await notificationsOf(people.engineer.id)).length;
    const row = await raise({ title: 'Network refresh' });
    const mine = await notificationsOf(people.engineer.id);
    expect(mine.length).toBe(before + 1);
    expect(mine.at(-1)!.data).toEqual({ title: 'Request assigned to you', message: 'Coordinator assigned you the request “Network refresh” (High priority).', url: `/request/${row.id}` });

    const otherBefore = (await notificationsOf(people.other.id)).length;
    await t.call('PATCH', `/api/request/${row.id}`, { token: people.coordinator.token, body: { priority: 'Low' } });
    expect((await notificationsOf(people.other.id)).length).toBe(otherBefore);
    const moved = await t.call('PATCH', `/api/request/${row.id}`, { token: people.coordinator.token, body: { assign_to: people.other.id } });
    expect(moved.status).toBe(200);
    expect((await notificationsOf(people.other.id)).length).toBe(otherBefore + 1);
  });

  it('refuses an assignee who is not a user', async () => {
    const refused = await t.call('POST', '/api/request', { token: people.coordinator.token, body: fullRequest({ assign_to: people.coordinator.id }) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ assign_to: ['The person you chose has been removed or cannot be chosen here. Choose another.'] });
  });
});

describe('workflow', () => {
  it('moves Requested -> Work in Progress -> Completed by the assignee, setting last_status_updated_at, telling the creator', async () => {
    const row = await raise({ title: 'Laptop rollout' });
    const listed = await t.call('GET', `/api/request/${row.id}`, { token: people.engineer.token });
    expect(listed.body.data.available_transitions.map((x: { name: string }) => x.name)).toEqual(['start']);
    const creatorBefore = (await notificationsOf(people.coordinator.id)).length;
    await new Promise((resolve) => setTimeout(resolve, 20));

    const started = await t.call('POST', `/api/request/${row.id}/transitions/start`, { token: people.engineer.token, body: {} });
    expect(started.status).toBe(200);
    expect(started.body.data.status).toBe('Work in Progress');
    expect(Date.parse(started.body.data.last_status_updated_at)).toBeGreaterThan(Date.parse(row.last_status_updated_at));
    expect(started.body.data.available_transitions.map((x: { name: string }) => x.name)).toEqual(['complete']);

    const completed = await t.call('POST', `/api/request/${row.id}/transitions/complete`, { token: people.engineer.token, body: { comment: 'Done on site' } });
    expect(completed.status).toBe(200);
    expect(completed.body.data.status).toBe('Completed');
    expect(completed.body.data.available_transitions).toEqual([]);
    const told = (await notificationsOf(people.coordinator.id)).slice(creatorBefore).map((n) => n.data.title);
    // Issue 24: the two steps within minutes are one notification, saying the latest.
    expect(told).toEqual(['Your request was completed']);

    const history = await t.call('GET', `/api/request/${row.id}/history`, { token: people.coordinator.token });
    expect(history.body.data.map((h: { to: string }) => h.to)).toEqual(['Requested', 'Work in Progress', 'Completed']);
    expect(history.body.data[2]).toMatchObject({ transition: 'complete', comment: 'Done on site', actor: { id: people.engineer.id } });
  });

  it('refuses a transition from the wrong state (409), an unknown one (404) and a reopen without a comment (422)', async () => {
    const row = await raise({ title: 'Switch install' });
    const early = await t.call('POST', `/api/request/${row.id}/transitions/complete`, { token: people.engineer.token, body: {} });
    expect(early.status).toBe(409);
    expect((await t.call('POST', `/api/request/${row.id}/transitions/reopen`, { token: people.coordinator.token, body: { comment: 'x' } })).status).toBe(409);
    expect((await t.call('POST', `/api/request/${row.id}/transitions/teleport`, { token: people.engineer.token, body: {} })).status).toBe(404);
    await t.call('POST', `/api/request/${row.id}/transitions/start`, { token: people.engineer.token, body: {} });
    expect((await t.call('POST', `/api/request/${row.id}/transitions/start`, { token: people.engineer.token, body: {} })).status).toBe(409);
    await t.call('POST', `/api/request/${row.id}/transitions/complete`, { token: people.engineer.token, body: {} });

    // Reopening: a coordinator's call (can-edit-request), with a reason; the assignee is told.
    const byEngineer = await t.call('POST', `/api/request/${row.id}/transitions/reopen`, { token: people.engineer.token, body: { comment: 'again' } });
    expect(byEngineer.status).toBe(403);
    const noReason = await t.call('POST', `/api/request/${row.id}/transitions/reopen`, { token: people.coordinator.token, body: {} });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors).toEqual({ comment: ['The comment field is required.'] });
    const reopened = await t.call('POST', `/api/request/${row.id}/transitions/reopen`, { token: people.coordinator.token, body: { comment: 'The switch failed' } });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data.status).toBe('Work in Progress');
    // The engineer's unread notification of the request now says it was reopened (one per record, issue 24).
    expect((await notificationsOf(people.engineer.id)).filter((n) => n.data.url === `/request/${row.id}`).map((n) => n.data.title)).toEqual(['A request of yours was reopened']);
  });

  it('lets only the assignee or a coordinator move it, and only once it has an assignee', async () => {
    const unassigned = await raise({ title: 'Unassigned', assign_to: null });
    const refused = await t.call('POST', `/api/request/${unassigned.id}/transitions/start`, { token: people.coordinator.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Assign the request to someone before its status changes.');
    expect(unassigned.available_transitions).toEqual([]);

    const row = await raise({ title: 'Printer fleet' });
    const forbidden = await t.call('POST', `/api/request/${row.id}/transitions/start`, { token: people.other.token, body: {} });
    expect(forbidden.status).toBe(404); // not even visible to them
    const viaCoordinator = await t.call('POST', `/api/request/${row.id}/transitions/start`, { token: people.coordinator.token, body: {} });
    expect(viaCoordinator.status).toBe(200);

    // Visible (they created it) yet not theirs to work.
    const byOther = await raise({ title: 'Other raised', assign_to: people.engineer.id }, admin);
    await t.app.db.update(requests).set({ created_by: people.other.id }).where(eq(requests.id, byOther.id));
    const seen = await t.call('GET', `/api/request/${byOther.id}`, { token: people.other.token });
    expect(seen.status).toBe(200);
    expect(seen.body.data.available_transitions).toEqual([]);
    const notTheirs = await t.call('POST', `/api/request/${byOther.id}/transitions/start`, { token: people.other.token, body: {} });
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.message).toBe('Only the assignee can change the status of this request.');
    expect((await t.app.db.select().from(requests).where(eq(requests.id, byOther.id)))[0].status).toBe('Requested');
  });
});

describe('access', () => {
  it('shows engineers only the requests they raised or were given; coordinators all; others none', async () => {
    const forEngineer = await raise({ title: 'Visible to engineer' });
    const forOther = await raise({ title: 'Visible to other', assign_to: people.other.id });
    const engineerList = await t.call('GET', '/api/request?per_page=100', { token: people.engineer.token });
    const ids = engineerList.body.data.map((r: { id: number }) => r.id);
    expect(ids).toContain(forEngineer.id);
    expect(ids).not.toContain(forOther.id);
    expect(engineerList.body.data.every((r: { assign_to: number; created_by: number }) => r.assign_to === people.engineer.id || r.created_by === people.engineer.id)).toBe(true);
    expect((await t.call('GET', `/api/request/${forOther.id}`, { token: people.engineer.token })).status).toBe(404);
    const all = await t.call('GET', '/api/request?per_page=100', { token: people.coordinator.token });
    expect(all.body.data.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([forEngineer.id, forOther.id]));
    expect((await t.call('GET', '/api/request', { token: people.finance.token })).status).toBe(403);
    // Viewing is not editing: the engineer may not change or raise requests.
    expect((await t.call('PATCH', `/api/request/${forEngineer.id}`, { token: people.engineer.token, body: { title: 'x' } })).status).toBe(403);
    expect((await t.call('POST', '/api/request', { token: people.engineer.token, body: fullRequest() })).status).toBe(403);
    expect((await t.call('GET', '/api/request')).status).toBe(401);
  });

  it('filters by status, support type and assignee', async () => {
    await raise({ title: 'Filter me', euc_or_network: 'SHE', priority: 'Urgent' });
    const she = await t.call('GET', '/api/request?euc_or_network=SHE&priority=Urgent', { token: people.coordinator.token });
    expect(she.body.data.length).toBeGreaterThan(0);
    expect(she.body.data.every((r: { euc_or_network: string }) => r.euc_or_network === 'SHE')).toBe(true);
    expect((await t.call('GET', '/api/request?status=Done', { token: people.coordinator.token })).status).toBe(422);
  });
});

describe('comment thread', () => {
  it('lets those who see the request read and add comments, telling the other side; refuses the rest', async () => {
    const row = await raise({ title: 'Threaded' });
    expect((await t.call('GET', `/api/request/${row.id}/comments`, { token: people.engineer.token })).body.data).toEqual([]);
    const creatorBefore = (await notificationsOf(people.coordinator.id)).length;
    const added = await t.call('POST', `/api/request/${row.id}/comments`, { token: people.engineer.token, body: { body: '  On site Monday.  ' } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ body: 'On site Monday.', author: { id: people.engineer.id, name: 'Engineer' } });
    const told = (await notificationsOf(people.coordinator.id)).slice(creatorBefore);
    expect(told.map((n) => n.data)).toEqual([{ title: 'New comment on a request', message: 'Engineer on “Threaded”: On site Monday.', url: `/request/${row.id}` }]);
    await t.call('POST', `/api/request/${row.id}/comments`, { token: people.coordinator.token, body: { body: 'Thanks' } });
    const thread = await t.call('GET', `/api/request/${row.id}/comments`, { token: people.coordinator.token });
    expect(thread.body.data.map((c: { body: string }) => c.body)).toEqual(['On site Monday.', 'Thanks']);

    const count = async () => (await t.app.db.select().from(requestComments).where(eq(requestComments.request_id, row.id))).length;
    const empty = await t.call('POST', `/api/request/${row.id}/comments`, { token: people.engineer.token, body: { body: '   ' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ body: ['The comment field is required.'] });
    expect((await t.call('POST', `/api/request/${row.id}/comments`, { token: people.engineer.token, body: { body: 'x'.repeat(2001) } })).status).toBe(422);
    expect((await t.call('POST', `/api/request/${row.id}/comments`, { token: people.other.token, body: { body: 'Not mine' } })).status).toBe(404);
    expect((await t.call('GET', `/api/request/${row.id}/comments`, { token: people.other.token })).status).toBe(404);
    expect((await t.call('GET', `/api/request/${row.id}/comments`, { token: people.finance.token })).status).toBe(403);
    expect((await t.call('POST', `/api/request/${row.id}/comments`, { body: { body: 'anon' } })).status).toBe(401);
    expect((await t.call('GET', '/api/request/999999/comments', { token: admin })).status).toBe(404);
    expect(await count()).toBe(2);
  });

  it('deletes the thread with the request', async () => {
    const row = await raise({ title: 'Short lived' });
    await t.call('POST', `/api/request/${row.id}/comments`, { token: people.coordinator.token, body: { body: 'bye' } });
    expect((await t.call('DELETE', `/api/request/${row.id}`, { token: people.coordinator.token })).status).toBe(403);
    expect((await t.call('DELETE', `/api/request/${row.id}`, { token: admin })).status).toBe(200);
    expect(await t.app.db.select().from(requestComments).where(eq(requestComments.request_id, row.id))).toEqual([]);
  });
});

describe('reminders', () => {
  const requestReminders = () => registeredResources(t.app).filter((r) => r.definition.name === 'request');

  it('reminds the creator once before the SOW end (14 days) and the contract renewal (30 days), at the boundaries', async () => {
    await t.app.db.delete(requests);
    const due = await raise({ title: 'SOW at 14 days', sow_end_date: day(14), contract_renewal_date: null });
    await raise({ title: 'SOW at 15 days', sow_end_date: day(15), contract_renewal_date: null });
    await raise({ title: 'SOW passed', sow_start_date: day(-30), sow_end_date: day(-1), contract_renewal_date: null });
    const renewal = await raise({ title: 'Renewal today', sow_end_date: null, contract_renewal_date: day(0) });
    await raise({ title: 'Renewal at 31 days', sow_end_date: null, contract_renewal_date: day(31) });
    const before = (await notificationsOf(people.coordinator.id)).length;

    const runs = await sendDueReminders(t.app, requestReminders());
    expect(runs).toEqual([
      { resource: 'request', reminder: 'sow-end', sent: 1 },
      { resource: 'request', reminder: 'contract-renewal', sent: 1 },
    ]);
    const told = (await notificationsOf(people.coordinator.id)).slice(before).map((n) => n.data);
    expect(told).toEqual(expect.arrayContaining([
      { title: 'SOW ending soon', message: `The SOW of the request “SOW at 14 days” ends on ${day(14)}.`, url: `/request/${due.id}` },
      { title: 'Contract renewal due', message: `The contract of the request “Renewal today” is up for renewal on ${day(0)}.`, url: `/request/${renewal.id}` },
    ]));
    expect(told).toHaveLength(2);
    // Once: a second run sends nothing.
    expect((await sendDueReminders(t.app, requestReminders())).map((r) => r.sent)).toEqual([0, 0]);
  });
});

describe('dashboard figures', () => {
  it('counts requests by status within what the caller sees, and the open ones assigned to someone', async () => {
    await t.app.db.delete(requests);
    const a = await raise({ title: 'A' });
    await raise({ title: 'B' });
    await raise({ title: 'C', assign_to: people.other.id });
    await t.call('POST', `/api/request/${a.id}/transitions/start`, { token: people.engineer.token, body: {} });
    const coordinatorAccount = { id: people.coordinator.id, type: 'app', roles: ['manager'], permissions: ['can-view-request', 'can-edit-request'], user: { user_type: 'manager' } } as never;
    const engineerAccount = { id: people.engineer.id, type: 'app', roles: ['user'], permissions: ['can-view-request'], user: { user_type: 'user' } } as never;
    expect(await requestCountsByStatus(t.app.db, coordinatorAccount)).toEqual([
      { status: 'Requested', count: 2 }, { status: 'Work in Progress', count: 1 }, { status: 'Completed', count: 0 },
    ]);
    expect(await requestCountsByStatus(t.app.db, engineerAccount)).toEqual([
      { status: 'Requested', count: 1 }, { status: 'Work in Progress', count: 1 }, { status: 'Completed', count: 0 },
    ]);
    expect(await openRequestsAssignedTo(t.app.db, people.engineer.id)).toBe(2);
  });
});
