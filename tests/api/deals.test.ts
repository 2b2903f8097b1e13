// Deal tracking (issue 13): deals with a client through the sales stages, each stage's fixed
// probability kept by the server, the owner defaulting to the recorder, the weighted pipeline by
// stage and by owner (per currency), and who may do what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema/master-data';
import { deals } from '../../src/server/db/schema/operations';
import { sql } from 'drizzle-orm';
import { dealPipeline, scanDealPipeline } from '../../src/server/modules/deal/service';
import { DEAL_STAGE_PROBABILITY } from '../../src/shared/resources/deal-tracking';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let admin: string;
let clientId: number;
const people: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  for (const [key, userType, role] of [['sales', 'manager', 'manager'], ['closer', 'manager', 'manager'], ['engineer', 'user', 'user']] as const) {
    const created = await t.createUser({ email: `${key}@example.com`, name: key[0].toUpperCase() + key.slice(1), user_type: userType }, [role]);
    people[key] = { id: created.id, token: await created.token() };
  }
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Globex' }).returning();
});
afterAll(async () => { await t?.close(); });

const deal = (overrides: Record<string, unknown> = {}) => ({
  title: 'Service desk for Berlin', client_id: clientId, value: 120_000, currency: 'EUR', stage: 'proposal',
  expected_close_date: '2027-01-31', next_step: 'Send the revised proposal', next_step_date: '2026-12-05', notes: 'Decision maker: CIO', ...overrides,
});

async function record(overrides: Record<string, unknown> = {}, token = people.sales.token) {
  const created = await t.call('POST', '/api/deal-tracking', { token, body: deal(overrides) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as Record<string, any>;
}

describe('deals', () => {
  it('stores a deal with the stage probability and its weighted value, owned by its recorder unless named', async () => {
    const row = await record();
    expect(row).toMatchObject({
      title: 'Service desk for Berlin', client_id: clientId, client: { id: clientId, name: 'Globex' }, value: 120_000, currency: 'EUR',
      stage: 'proposal', probability: 50, weighted_value: 60_000, expected_close_date: '2027-01-31', owner_id: people.sales.id,
      owner: { id: people.sales.id, name: 'Sales' }, next_step: 'Send the revised proposal', next_step_date: '2026-12-05', notes: 'Decision maker: CIO',
    });
    const named = await record({ owner_id: people.closer.id, probability: 99 });
    expect(named).toMatchObject({ owner_id: people.closer.id, probability: 50 });
  });

  it('keeps the probability with every stage change (lead 10, qualified 25, proposal 50, negotiation 75, won 100, lost 0)', async () => {
    const row = await record({ value: 1000.5 });
    for (const stage of ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const) {
      const moved = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body: { stage, probability: 42, ...(stage === 'lost' ? { lost_reason: 'Budget cut' } : {}) } });
      expect(moved.status).toBe(200);
      expect(moved.body.data).toMatchObject({ stage, probability: DEAL_STAGE_PROBABILITY[stage] });
      expect(moved.body.data.weighted_value).toBe(Math.round(1000.5 * DEAL_STAGE_PROBABILITY[stage]) / 100);
    }
    // A change that does not touch the stage leaves the probability alone.
    const renamed = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body: { title: 'Renamed' } });
    expect(renamed.body.data).toMatchObject({ stage: 'lost', probability: 0 });
  });

  it('refuses invalid input with 422 per field and stores nothing', async () => {
    const before = (await t.app.db.select().from(deals)).length;
    const refused = await t.call('POST', '/api/deal-tracking', {
      token: people.sales.token, body: deal({ title: '', value: -5, currency: 'XYZ', stage: 'maybe', expected_close_date: '2027-02-30', client_id: undefined }),
    });
    expect(refused.status).toBe(422);
    // (The client is optional in the schema since issue 22: a prospect may stand in; see "prospects" below.)
    expect(Object.keys(refused.body.errors).sort()).toEqual(['currency', 'expected_close_date', 'stage', 'title', 'value']);
    expect(refused.body.errors.stage).toEqual(['The selected stage is invalid.']);
    const cents = await t.call('POST', '/api/deal-tracking', { token: people.sales.token, body: deal({ value: 10.555 }) });
    expect(cents.body.errors).toEqual({ value: ['The value may have at most 2 decimals.'] });
    const unknown = await t.call('POST', '/api/deal-tracking', { token: people.sales.token, body: deal({ client_id: 999_999, owner_id: people.engineer.id }) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ client_id: ['The client you chose has been removed or cannot be chosen here. Choose another.'], owner_id: ['The manager you chose has been removed or cannot be chosen here. Choose another.'] });
    expect((await t.app.db.select().from(deals)).length).toBe(before);
  });

  it('lets managers track deals, engineers neither see nor change them', async () => {
    const row = await record();
    expect((await t.call('GET', '/api/deal-tracking', { token: people.engineer.token })).status).toBe(403);
    expect((await t.call('POST', '/api/deal-tracking', { token: people.engineer.token, body: deal() })).status).toBe(403);
    expect((await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.engineer.token, body: { stage: 'won' } })).status).toBe(403);
    expect((await t.call('GET', '/api/deal-tracking/pipeline', { token: people.engineer.token })).status).toBe(403);
    expect((await t.call('GET', '/api/deal-tracking/pipeline')).status).toBe(401);
    // Managers keep deals but deleting is an admin's.
    expect((await t.call('DELETE', `/api/deal-tracking/${row.id}`, { token: people.sales.token })).status).toBe(403);
    expect((await t.call('DELETE', `/api/deal-tracking/${row.id}`, { token: admin })).status).toBe(200);
  });

  it('lists by stage and sorts by weighted value', async () => {
    await t.app.db.delete(deals);
    await record({ title: 'Small lead', stage: 'lead', value: 1000 });
    await record({ title: 'Big negotiation', stage: 'negotiation', value: 50_000 });
    const negotiation = await t.call('GET', '/api/deal-tracking?stage=negotiation', { token: people.sales.token });
    expect(negotiation.body.data.map((d: { title: string }) => d.title)).toEqual(['Big negotiation']);
    const sorted = await t.call('GET', '/api/deal-tracking?sort=weighted_value&direction=desc', { token: people.sales.token });
    expect(sorted.body.data.map((d: { title: string }) => d.title)).toEqual(['Big negotiation', 'Small lead']);
  });
});

describe('prospects (issue 22)', () => {
  it('records a deal with a prospect that is not a client yet, and refuses one with neither', async () => {
    const row = await record({ client_id: null, prospect_name: 'Northwind Logistics', stage: 'qualified' });
    expect(row).toMatchObject({ client_id: null, client: null, prospect_name: 'Northwind Logistics', probability: 25 });
    const neither = await t.call('POST', '/api/deal-tracking', { token: people.sales.token, body: deal({ client_id: null, prospect_name: '  ' }) });
    expect(neither.status).toBe(422);
    expect(neither.body.errors).toEqual({ client_id: ['Choose the client, or name the prospect if it is not a client yet.'] });
    // Taking the client away from a deal without a prospect is refused the same way.
    const withClient = await record();
    const emptied = await t.call('PATCH', `/api/deal-tracking/${withClient.id}`, { token: people.sales.token, body: { client_id: null } });
    expect(emptied.status).toBe(422);
    expect(emptied.body.errors.client_id).toEqual(['Choose the client, or name the prospect if it is not a client yet.']);
  });

  it('makes the prospect a client when the deal is won, and links the deal to it', async () => {
    const row = await record({ client_id: null, prospect_name: 'Initech GmbH', stage: 'negotiation' });
    const won = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body: { stage: 'won' } });
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    const [client] = await t.app.db.select().from(clients).where(sql`lower(${clients.name}) = 'initech gmbh'`);
    expect(client).toMatchObject({ name: 'Initech GmbH', status: 'active' });
    expect(won.body.data).toMatchObject({ stage: 'won', client_id: client.id, client: { id: client.id, name: 'Initech GmbH' }, prospect_name: 'Initech GmbH' });
    // The new client is in the audit trail, created by whoever won the deal.
    const trail = await t.call('GET', `/api/audit-log?resource=client&record_id=${client.id}`, { token: admin });
    expect(trail.body.data[0]).toMatchObject({ action: 'create', actor: { name: 'Sales' } });
  });

  it('links a won prospect to the client of that name when there already is one, and creates no second', async () => {
    const row = await record({ client_id: null, prospect_name: 'globex', stage: 'proposal' });
    const won = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body: { stage: 'won' } });
    expect(won.body.data).toMatchObject({ client_id: clientId, client: { id: clientId, name: 'Globex' } });
    expect(await t.app.db.select().from(clients).where(sql`lower(${clients.name}) = 'globex'`)).toHaveLength(1);
  });

  it('makes the prospect a client when a deal is recorded as won straight away', async () => {
    const row = await record({ client_id: null, prospect_name: 'Umbrella Services', stage: 'won' });
    expect(row.client).toMatchObject({ name: 'Umbrella Services' });
  });
});

describe('lost deals (issue 24)', () => {
  it('asks why a deal was lost, keeps the reason while it stays lost, and reports the reasons on the pipeline', async () => {
    await t.app.db.delete(deals);
    const row = await record({ stage: 'negotiation', value: 250_000, currency: 'GBP' });
    for (const body of [{ stage: 'lost' }, { stage: 'lost', lost_reason: '   ' }]) {
      const refused = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual({ lost_reason: ['Say why the deal was lost: the pipeline reports the reasons.'] });
    }
    expect((await t.call('POST', '/api/deal-tracking', { token: people.sales.token, body: deal({ stage: 'lost' }) })).status).toBe(422);
    const lost = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body: { stage: 'lost', lost_reason: 'Price too high' } });
    expect(lost.body.data).toMatchObject({ stage: 'lost', lost_reason: 'Price too high' });
    const renamed = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body: { title: 'Renamed' } });
    expect(renamed.body.data.lost_reason).toBe('Price too high');
    await record({ stage: 'lost', value: 1000, currency: 'EUR', lost_reason: 'price too high ' });
    await record({ stage: 'lost', value: 500, currency: 'EUR', lost_reason: 'Went with an incumbent' });
    const { lost_reasons } = (await t.call('GET', '/api/deal-tracking/pipeline', { token: people.sales.token })).body.data;
    expect(lost_reasons).toEqual([
      { reason: 'Price too high', count: 2, amounts: [{ currency: 'EUR', value: 1000, weighted: 0 }, { currency: 'GBP', value: 250_000, weighted: 0 }] },
      { reason: 'Went with an incumbent', count: 1, amounts: [{ currency: 'EUR', value: 500, weighted: 0 }] },
    ]);
    // Filtered like the list; a deal reopened is no longer lost and keeps no reason.
    const gbp = (await t.call('GET', '/api/deal-tracking/pipeline?currency=GBP', { token: people.sales.token })).body.data.lost_reasons;
    expect(gbp).toEqual([{ reason: 'Price too high', count: 1, amounts: [{ currency: 'GBP', value: 250_000, weighted: 0 }] }]);
    const reopened = await t.call('PATCH', `/api/deal-tracking/${row.id}`, { token: people.sales.token, body: { stage: 'negotiation' } });
    expect(reopened.body.data).toMatchObject({ stage: 'negotiation', lost_reason: null });
  });
});

describe('weighted pipeline', () => {
  it('totals value and weighted value by stage and, over open deals, by owner, per currency', async () => {
    await t.app.db.delete(deals);
    await record({ stage: 'lead', value: 1000, currency: 'EUR' });
    await record({ stage: 'lead', value: 500.25, currency: 'USD' });
    await record({ stage: 'negotiation', value: 2000, currency: 'EUR', owner_id: people.closer.id });
    await record({ stage: 'won', value: 9000, currency: 'EUR' });
    await record({ stage: 'lost', value: 7000, currency: 'EUR', lost_reason: 'Price too high' });

    const answer = await t.call('GET', '/api/deal-tracking/pipeline', { token: people.sales.token });
    expect(answer.status).toBe(200);
    const { by_stage, by_owner } = answer.body.data;
    expect(by_stage).toEqual([
      { stage: 'lead', probability: 10, count: 2, amounts: [{ currency: 'EUR', value: 1000, weighted: 100 }, { currency: 'USD', value: 500.25, weighted: 50.03 }] },
      { stage: 'qualified', probability: 25, count: 0, amounts: [] },
      { stage: 'proposal', probability: 50, count: 0, amounts: [] },
      { stage: 'negotiation', probability: 75, count: 1, amounts: [{ currency: 'EUR', value: 2000, weighted: 1500 }] },
      { stage: 'won', probability: 100, count: 1, amounts: [{ currency: 'EUR', value: 9000, weighted: 9000 }] },
      { stage: 'lost', probability: 0, count: 1, amounts: [{ currency: 'EUR', value: 7000, weighted: 0 }] },
    ]);
    // Won and lost are decided: the open pipeline by owner leaves them out.
    expect(by_owner).toEqual([
      { owner: { id: people.closer.id, name: 'Closer' }, count: 1, amounts: [{ currency: 'EUR', value: 2000, weighted: 1500 }] },
      { owner: { id: people.sales.id, name: 'Sales' }, count: 2, amounts: [{ currency: 'EUR', value: 1000, weighted: 100 }, { currency: 'USD', value: 500.25, weighted: 50.03 }] },
    ]);

    // The same filters as the list.
    const closerOnly = await t.call('GET', `/api/deal-tracking/pipeline?owner_id=${people.closer.id}`, { token: people.sales.token });
    expect(closerOnly.body.data.by_owner.map((o: { owner: { id: number } }) => o.owner.id)).toEqual([people.closer.id]);
    expect((await t.call('GET', '/api/deal-tracking/pipeline?stage=maybe', { token: people.sales.token })).status).toBe(422);
    // The dashboard's function answers the same over everything.
    expect(await dealPipeline(t.app.db, undefined)).toEqual(answer.body.data);
  });

  it('keeps the totals the dashboard reads equal to the deals through every kind of change', async () => {
    await t.app.db.delete(deals);
    const a = await record({ stage: 'lead', value: 1234.56, currency: 'EUR' });
    const b = await record({ stage: 'proposal', value: 99.99, currency: 'USD', owner_id: people.closer.id });
    const c = await record({ stage: 'negotiation', value: 10_000, currency: 'INR' });
    await record({ stage: 'qualified', value: 333.33, currency: 'EUR' });
    await t.call('PATCH', `/api/deal-tracking/${a.id}`, { token: people.sales.token, body: { stage: 'won', value: 2000.01 } });
    await t.call('PATCH', `/api/deal-tracking/${b.id}`, { token: people.sales.token, body: { owner_id: people.sales.id, currency: 'EUR' } });
    await t.call('PATCH', `/api/deal-tracking/${c.id}`, { token: people.sales.token, body: { title: 'Only renamed' } });
    await t.call('DELETE', `/api/deal-tracking/${c.id}`, { token: admin });
    const scanned = await scanDealPipeline(t.app.db, sql`true`);
    expect(await dealPipeline(t.app.db, undefined)).toEqual({ ...scanned, lost_reasons: [] });
    expect(scanned.by_stage.find((s) => s.stage === 'won')).toMatchObject({ count: 1, amounts: [{ currency: 'EUR', value: 2000.01, weighted: 2000.01 }] });
    expect(scanned.by_owner).toEqual([{ owner: { id: people.sales.id, name: 'Sales' }, count: 2, amounts: [{ currency: 'EUR', value: 433.32, weighted: 133.33 }] }]);
  });

  it('answers an empty pipeline with every stage at zero', async () => {
    await t.app.db.delete(deals);
    const answer = await t.call('GET', '/api/deal-tracking/pipeline', { token: people.sales.token });
    expect(answer.body.data.by_stage.every((s: { count: number; amounts: unknown[] }) => s.count === 0 && s.amounts.length === 0)).toBe(true);
    expect(answer.body.data.by_owner).toEqual([]);
  });
});
