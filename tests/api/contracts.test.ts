// Contracts (issue 13): client POs with the people placed under them and the document, spec §4's
// contract statuses as a workflow, the daily expiry on the end date, a new PO replacing a contract,
// the owner's reminders 30 and 7 days before the end, and the dashboard's expiring contracts.
import { readFileSync } from 'node:fs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../src/server/db/schema/master-data';
import { notifications } from '../../src/server/db/schema/notifications';
import { contracts } from '../../src/server/db/schema/onboarding';
import { sendDueReminders } from '../../src/server/jobs/reminders';
import { expireContracts, expiringContracts } from '../../src/server/modules/contract/service';
import { registeredResources } from '../../src/server/resources/register';
import { addDays, today } from '../../src/shared/dates';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { multipart, PDF } from '../helpers/multipart';

let t: TestApp;
let clientId: number;
const people: Record<string, { id: number; token: string }> = {};
const day = today();
let serial = 0;

const as = (who: string) => ({ token: people[who].token });
const noticesOf = async (who: string) =>
  (await t.app.db.select().from(notifications).where(and(eq(notifications.notifiable_type, 'app'), eq(notifications.notifiable_id, people[who].id))))
    .map((n) => ({ ...n.data, type: n.type }));
const count = async () => (await t.app.db.select().from(contracts)).length;

const po = (overrides: Record<string, unknown> = {}) => ({
  po_number: `PO-${(serial += 1)}`, client_id: clientId, start_date: '2026-01-01', end_date: '2026-12-31', value: 120000, currency: 'INR',
  person_ids: [people.engineer.id], ...overrides,
});

async function record(who = 'admin', overrides: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/api/contract', { ...as(who), body: po(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Record<string, any>;
}

const statusOf = async (id: number) => (await t.app.db.select({ status: contracts.status }).from(contracts).where(eq(contracts.id, id)))[0].status;

beforeAll(async () => {
  t = await createTestApp();
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  const make = async (key: string, values: Record<string, unknown>, roles?: string[]) => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  await make('manager', { user_type: 'manager' });
  await make('engineer', { user_type: 'user' });
  await make('engineer2', { user_type: 'user' });
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };
});
afterAll(async () => { await t?.close(); });

describe('recording a contract', () => {
  it('stores the PO with its people and document, owned by whoever records it, Active', async () => {
    const form = multipart({
      'contract[po_number]': 'PO-DOC-1', 'contract[client_id]': clientId, 'contract[start_date]': '2026-01-01', 'contract[end_date]': '2026-06-30',
      'contract[value]': '5000.50', 'contract[currency]': 'USD', 'contract[person_ids][]': people.engineer.id, 'contract[status]': 'Expired',
    }, { field: 'contract[document]', name: 'po.pdf', type: 'application/pdf', content: PDF });
    const res = await t.call('POST', '/api/contract', { ...as('admin'), body: form.body, headers: form.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      po_number: 'PO-DOC-1', status: 'Active', owner_id: 1, value: 5000.5, currency: 'USD', client: { id: clientId, name: 'Contoso' },
      people: [{ id: people.engineer.id, name: 'engineer' }], person_ids: [people.engineer.id], previous_contract_id: null, can_release_new_po: true,
      document: [{ id: expect.any(Number), name: 'po.pdf', mime: 'application/pdf' }],
    });
    expect(res.body.data.available_transitions.map((a: { name: string }) => a.name)).toEqual(['start-renewal']);
    const file = await t.call('GET', `/api/contract/${res.body.data.id}/attachments/${res.body.data.document[0].id}`, as('admin'));
    expect(file.status).toBe(200);
  });

  it('refuses what is wrong with 422 per field, and a caller without the permission with 403, storing nothing', async () => {
    const taken = await record();
    const before = await count();
    const backwards = await t.call('POST', '/api/contract', { ...as('admin'), body: po({ start_date: '2026-05-01', end_date: '2026-04-30' }) });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors).toEqual({ end_date: ['The end date cannot be before the start date.'] });
    const duplicate = await t.call('POST', '/api/contract', { ...as('admin'), body: po({ po_number: taken.po_number.toLowerCase() }) });
    expect(duplicate.body.errors).toEqual({ po_number: ['The PO number has already been taken.'] });
    const invalid = await t.call('POST', '/api/contract', { ...as('admin'), body: po({ value: -1, currency: 'XYZ', person_ids: [999_999], client_id: 999_999 }) });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['currency', 'value']);
    const unknown = await t.call('POST', '/api/contract', { ...as('admin'), body: po({ person_ids: [999_999], client_id: 999_999 }) });
    expect(Object.keys(unknown.body.errors).sort()).toEqual(['client_id', 'person_ids']);
    expect((await t.call('POST', '/api/contract', { ...as('manager'), body: po() })).status).toBe(403);
    expect((await t.call('POST', '/api/contract', { ...as('engineer'), body: po() })).status).toBe(403);
    expect(await count()).toBe(before);
    // A manager reads them; an engineer does not.
    expect((await t.call('GET', '/api/contract', as('manager'))).status).toBe(200);
    expect((await t.call('GET', '/api/contract', as('engineer'))).status).toBe(403);
  });

  it('changes its people on an edit, and keeps the dates in order', async () => {
    const contract = await record();
    const edited = await t.call('PATCH', `/api/contract/${contract.id}`, { ...as('admin'), body: { person_ids: [people.engineer2.id, people.engineer.id] } });
    expect(edited.body.data.people.map((p: { name: string }) => p.name)).toEqual(['engineer', 'engineer2']);
    const backwards = await t.call('PATCH', `/api/contract/${contract.id}`, { ...as('admin'), body: { end_date: '2025-12-31' } });
    expect(backwards.status).toBe(422);
    expect((await t.call('GET', `/api/contract/${contract.id}`, as('admin'))).body.data.end_date).toBe('2026-12-31');
  });
});

describe('the contract workflow', () => {
  it('starts and stops a renewal; a manager who may only view cannot', async () => {
    const contract = await record();
    expect((await t.call('POST', `/api/contract/${contract.id}/transitions/start-renewal`, { ...as('manager'), body: {} })).status).toBe(403);
    const renewing = await t.call('POST', `/api/contract/${contract.id}/transitions/start-renewal`, { ...as('admin'), body: { comment: 'Asked the client' } });
    expect(renewing.body.data).toMatchObject({ status: 'Renewal in progress' });
    expect((await t.call('POST', `/api/contract/${contract.id}/transitions/start-renewal`, { ...as('admin'), body: {} })).status).toBe(409);
    const stopped = await t.call('POST', `/api/contract/${contract.id}/transitions/stop-renewal`, { ...as('admin'), body: {} });
    expect(stopped.body.data.status).toBe('Active');
  });

  it('expires a running contract on its end date, once, and tells the owner', async () => {
    const on = '2031-03-15';
    const ending = await record('admin', { start_date: '2031-01-01', end_date: on });
    const renewing = await record('admin', { start_date: '2031-01-01', end_date: '2031-03-10' });
    await t.call('POST', `/api/contract/${renewing.id}/transitions/start-renewal`, { ...as('admin'), body: {} });
    const later = await record('admin', { start_date: '2031-01-01', end_date: addDays(on, 1) });
    // The day before: nothing of these.
    await expireContracts(t.app, addDays(on, -6));
    expect(await statusOf(renewing.id)).toBe('Renewal in progress');

    const ownerBefore = (await noticesOf('admin')).length;
    const expired = await expireContracts(t.app, on);
    expect(expired).toBeGreaterThanOrEqual(2);
    expect(await expireContracts(t.app, on)).toBe(0);
    expect([await statusOf(ending.id), await statusOf(renewing.id), await statusOf(later.id)]).toEqual(['Expired', 'Expired', 'Active']);
    const history = (await t.call('GET', `/api/contract/${ending.id}/history`, as('admin'))).body.data;
    expect(history.at(-1)).toMatchObject({ transition: 'expire', from: 'Active', to: 'Expired', actor: null, comment: `Ended on ${on}.` });
    const told = (await noticesOf('admin')).slice(ownerBefore).filter((n) => n.title === 'Contract expired');
    expect(told.map((n) => n.message)).toContain(`The contract under PO ${ending.po_number} ended on ${on}. Record the new PO when it arrives.`);
    // An expired contract may go into renewal.
    const row = (await t.call('GET', `/api/contract/${ending.id}`, as('admin'))).body.data;
    expect(row.available_transitions.map((a: { name: string }) => a.name)).toEqual(['start-renewal']);
  });
});

describe('a new PO', () => {
  it('becomes a contract of its own from the day after; the old one runs, renewed, until its end date, then turns Expired New PO Released', async () => {
    const old = await record('admin', { start_date: '2025-01-01', end_date: '2031-12-31', person_ids: [people.engineer.id, people.engineer2.id] });
    await t.call('POST', `/api/contract/${old.id}/transitions/start-renewal`, { ...as('admin'), body: {} });
    const res = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: 'PO-NEW-1', start_date: '2032-01-01', end_date: '2032-12-31', value: 130000, currency: 'INR' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('PO PO-NEW-1 released; it starts on 2032-01-01.');
    expect(res.body.data).toMatchObject({
      po_number: 'PO-NEW-1', status: 'Active', starts_on: '2032-01-01', status_note: 'Starts on 2032-01-01', client_id: clientId, owner_id: 1,
      previous_contract_id: old.id, previous_contract: { id: old.id, po_number: old.po_number }, person_ids: [people.engineer.id, people.engineer2.id],
    });
    // Until its end date the old PO runs: Active again (the renewal is done), marked as renewed, nothing left to renew.
    const running = (await t.call('GET', `/api/contract/${old.id}`, as('admin'))).body.data;
    expect(running).toMatchObject({
      status: 'Active', status_note: 'Renewed by PO-NEW-1', starts_on: null, renewed_by: { id: res.body.data.id, po_number: 'PO-NEW-1' },
      available_transitions: [], can_release_new_po: false,
    });
    expect((await t.call('GET', `/api/contract/${old.id}/history`, as('admin'))).body.data.at(-1)).toMatchObject({
      transition: 'new-po', from: 'Renewal in progress', to: 'Active', comment: 'New PO PO-NEW-1 released; this PO runs until 2031-12-31.',
    });
    expect((await t.call('POST', `/api/contract/${old.id}/transitions/start-renewal`, { ...as('admin'), body: {} })).status).toBe(409);
    const twice = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: 'PO-NEW-2', start_date: '2032-01-01', end_date: '2032-12-31', value: 1, currency: 'INR' },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This contract was renewed by PO PO-NEW-1 already.');
    // Its end may not run into the new PO's first day, and it is not deleted from under its successor.
    const overlap = await t.call('PATCH', `/api/contract/${old.id}`, { ...as('admin'), body: { end_date: '2032-01-01' } });
    expect(overlap.body.errors).toEqual({ end_date: ['PO PO-NEW-1 takes over on 2032-01-01: this PO must end before then.'] });
    expect((await t.call('DELETE', `/api/contract/${old.id}`, as('admin'))).status).toBe(409);

    // The day before its end nothing moves; on it, it becomes Expired New PO Released, and the owner
    // is not asked for a new PO they have recorded.
    await expireContracts(t.app, '2031-12-30');
    expect(await statusOf(old.id)).toBe('Active');
    const ownerBefore = (await noticesOf('admin')).length;
    await expireContracts(t.app, '2031-12-31');
    expect(await statusOf(old.id)).toBe('Expired New PO Released');
    expect(await statusOf(res.body.data.id)).toBe('Active');
    expect((await noticesOf('admin')).slice(ownerBefore).filter((n) => n.url === `/contract/${old.id}`)).toEqual([]);
    const history = (await t.call('GET', `/api/contract/${old.id}/history`, as('admin'))).body.data;
    expect(history.at(-1)).toMatchObject({ transition: 'expire', from: 'Active', to: 'Expired New PO Released', actor: null, comment: 'Ended on 2031-12-31; PO PO-NEW-1 takes over.' });
    // A replaced contract stays as it was.
    expect((await t.call('PATCH', `/api/contract/${old.id}`, { ...as('admin'), body: { notes: 'x' } })).status).toBe(409);
    const deleted = await t.call('DELETE', `/api/contract/${old.id}`, as('admin'));
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe('A contract replaced by a new PO stays for the record.');
  });

  it('refuses a new PO that starts before the old one has ended, so two POs never overlap', async () => {
    const old = await record('admin', { start_date: '2033-01-01', end_date: '2033-06-30' });
    const overlapping = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: 'PO-OVERLAP', start_date: '2033-06-30', end_date: '2033-12-31', value: 5, currency: 'INR' },
    });
    expect(overlapping.status).toBe(422);
    expect(overlapping.body.errors).toEqual({ start_date: [`The new PO must start after PO ${old.po_number} ends (2033-06-30): on 2033-07-01 or later.`] });
    expect(await statusOf(old.id)).toBe('Active');
  });

  it('puts back to Active, on upgrade, a contract replaced before its end date (migration 0020)', async () => {
    const early = await record('admin', { start_date: addDays(day, -100), end_date: addDays(day, 40) });
    const ended = await record('admin', { start_date: addDays(day, -100), end_date: addDays(day, -1) });
    await t.app.db.update(contracts).set({ status: 'Expired New PO Released' }).where(inArray(contracts.id, [early.id, ended.id]));
    const migration = readFileSync(new URL('../../src/server/db/migrations/0020_contracts_on_their_dates.sql', import.meta.url), 'utf8');
    await t.app.db.execute(sql.raw(migration));
    expect([await statusOf(early.id), await statusOf(ended.id)]).toEqual(['Active', 'Expired New PO Released']);
    const history = (await t.call('GET', `/api/contract/${early.id}/history`, as('admin'))).body.data;
    expect(history.at(-1)).toMatchObject({ from: 'Expired New PO Released', to: 'Active', comment: `Runs under its own PO until its end date, ${addDays(day, 40)}.` });
  });

  it('replaces at once a contract that has ended already', async () => {
    const old = await record('admin', { start_date: addDays(day, -200), end_date: addDays(day, -10) });
    await expireContracts(t.app, day);
    expect(await statusOf(old.id)).toBe('Expired');
    const res = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: 'PO-LATE', start_date: addDays(day, -9), end_date: addDays(day, 300), value: 5, currency: 'INR' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'Active', starts_on: null, status_note: null });
    expect(await statusOf(old.id)).toBe('Expired New PO Released');
  });

  it('takes the new document as multipart; refuses bad input and callers without edit, changing nothing', async () => {
    const old = await record();
    const before = await count();
    const bad = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: old.po_number, start_date: '2027-02-01', end_date: '2027-01-01', value: 0, currency: 'INR' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['value']);
    const backwards = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: 'PO-BACK', start_date: '2027-02-01', end_date: '2027-01-01', value: 5, currency: 'INR' },
    });
    expect(backwards.body.errors).toEqual({ end_date: ['The end date cannot be before the start date.'] });
    const taken = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: old.po_number, start_date: '2027-01-01', end_date: '2027-12-31', value: 5, currency: 'INR' },
    });
    expect(taken.body.errors).toEqual({ po_number: ['The PO number has already been taken.'] });
    expect((await t.call('POST', `/api/contract/${old.id}/new-po`, { ...as('manager'), body: { po_number: 'PO-M', start_date: '2027-01-01', end_date: '2027-12-31', value: 5, currency: 'INR' } })).status).toBe(403);
    expect((await t.call('POST', '/api/contract/999999/new-po', { ...as('admin'), body: { po_number: 'PO-404', start_date: '2027-01-01', end_date: '2027-12-31', value: 5, currency: 'INR' } })).status).toBe(404);
    expect(await count()).toBe(before);
    expect(await statusOf(old.id)).toBe('Active');

    const form = multipart({
      'contract[po_number]': 'PO-NEW-DOC', 'contract[start_date]': '2027-01-01', 'contract[end_date]': '2027-12-31', 'contract[value]': '99', 'contract[currency]': 'EUR',
    }, { field: 'contract[document]', name: 'renewal.pdf', type: 'application/pdf', content: PDF });
    const res = await t.call('POST', `/api/contract/${old.id}/new-po`, { ...as('admin'), body: form.body, headers: form.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.document).toEqual([{ id: expect.any(Number), name: 'renewal.pdf', size: PDF.length, mime: 'application/pdf' }]);
  });
});

describe('reminders and the dashboard', () => {
  it('remind the owner 30 and 7 days before the end, each once', async () => {
    const contract = registeredResources(t.app).filter((r) => r.definition.name === 'contract');
    const in20 = await record('admin', { start_date: day, end_date: addDays(day, 20) });
    const in5 = await record('admin', { start_date: day, end_date: addDays(day, 5) });
    const before = (await noticesOf('admin')).length;
    const runs = await sendDueReminders(t.app, contract);
    expect(runs.map((run) => [run.reminder, run.sent])).toEqual([['end-30', 2], ['end-7', 1]]);
    expect((await sendDueReminders(t.app, contract)).map((run) => run.sent)).toEqual([0, 0]);
    const told = (await noticesOf('admin')).slice(before);
    expect(told).toContainEqual(expect.objectContaining({
      title: 'Contract ends in 7 days or less', url: `/contract/${in5.id}`,
      message: `The contract under PO ${in5.po_number} ends on ${addDays(day, 5)}. Start the renewal or record the new PO.`,
    }));
    expect(told.filter((n) => n.url === `/contract/${in20.id}`).map((n) => n.title)).toEqual(['Contract ends in 30 days or less']);
  });

  it('keeps a contract renewed 19 days before its end on the dashboard, running, and the figure equals its list', async () => {
    const contract = registeredResources(t.app).filter((r) => r.definition.name === 'contract');
    await sendDueReminders(t.app, contract); // the earlier tests' contracts are reminded now, not below
    const old = await record('admin', { po_number: 'PO-1001', start_date: addDays(day, -300), end_date: addDays(day, 19) });
    const renewed = await t.call('POST', `/api/contract/${old.id}/new-po`, {
      ...as('admin'), body: { po_number: 'PO-1002', start_date: addDays(day, 20), end_date: addDays(day, 385), value: 120000, currency: 'INR' },
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(201);
    const panel = (await t.call('GET', '/api/dashboard', as('admin'))).body.data.lists.find((list: { key: string }) => list.key === 'expiring-contracts');
    expect(panel.items).toContainEqual(expect.objectContaining({
      id: old.id, title: 'PO-1001', detail: 'Contoso · Active · Renewed by PO-1002', date: addDays(day, 19), badge: { label: 'In 19 days', tone: 'yellow' },
    }));
    expect(panel.items.map((item: { title: string }) => item.title)).not.toContain('PO-1002');
    const list = await t.call('GET', `/api/contract?${new URLSearchParams(panel.all.query).toString()}&per_page=100`, as('admin'));
    expect(list.body.meta.total).toBe(panel.all.count);
    expect(panel.items.map((item: { id: number }) => item.id)).toEqual(list.body.data.slice(0, 5).map((row: { id: number }) => row.id));
    expect(panel.items.length).toBe(Math.min(panel.all.count, 5));
    // Its owner recorded the new PO: no reminder asks them to record one.
    const before = (await noticesOf('admin')).length;
    expect((await sendDueReminders(t.app, contract)).map((run) => run.sent)).toEqual([0, 0]);
    expect((await noticesOf('admin')).slice(before).filter((n) => n.url === `/contract/${old.id}`)).toEqual([]);
  });

  it('lists the running contracts ending within 30 days, soonest first', async () => {
    const on = '2035-06-01';
    const soon = await record('admin', { start_date: '2035-01-01', end_date: '2035-06-03' });
    await record('admin', { start_date: '2035-01-01', end_date: '2035-06-20' });
    await record('admin', { start_date: '2035-01-01', end_date: '2035-07-20' });
    const result = await expiringContracts(t.app.db, { on });
    expect(result.total).toBe(2);
    expect(result.items[0]).toMatchObject({ id: soon.id, days_left: 2, client: { id: clientId, name: 'Contoso' }, status: 'Active' });
  });
});
