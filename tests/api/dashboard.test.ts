// The main application's dashboard (issue 13) with real records: every "waiting" line counts exactly
// the list it links to for that caller, panels follow permissions, the expiring documents and
// contracts at the spec §5 boundary (today is Expired) and the 30-day horizon, the hiring funnel per
// stage against the candidate list filtered by that stage, the weighted pipeline against the deals
// recorded, and each "see all" count against the list it opens.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentAssignments, libraryDocuments, ownDocuments } from '../../src/server/db/schema/compliance';
import { partners } from '../../src/server/db/schema/accounts';
import { leaveTypes } from '../../src/server/db/schema/hr';
import { clients, positions } from '../../src/server/db/schema/master-data';
import { onboardings, onboardingTasks } from '../../src/server/db/schema/onboarding';
import { partnerInvoicePayments, partnerInvoices, preBillings } from '../../src/server/db/schema/partner-billing';
import { candidates } from '../../src/server/db/schema/recruitment';
import { BOARD_STAGES } from '../../src/shared/resources/candidate';
import { DEAL_STAGE_PROBABILITY, DEAL_STAGES } from '../../src/shared/resources/deal-tracking';
import { addDays, today } from '../../src/shared/dates';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let clientId: number;
const people: Record<string, { id: number; token: string }> = {};
const day = today();

const dashboard = async (who: string) => {
  const res = await t.call('GET', '/api/dashboard', { token: people[who].token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, any>;
};
const listTotal = async (who: string, resource: string, query: Record<string, string>) => {
  const res = await t.call('GET', `/api/${resource}?${new URLSearchParams(query)}`, { token: people[who].token });
  expect(res.status, `${resource} ${JSON.stringify(query)}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.meta.total as number;
};

beforeAll(async () => {
  t = await createTestApp();
  [{ id: clientId }] = await t.app.db.insert(clients).values({ name: 'Contoso' }).returning();
  const make = async (key: string, values: Record<string, unknown>, roles?: string[]) => {
    const created = await t.createUser({ email: `${key}@example.com`, name: key, ...values }, roles);
    people[key] = { id: created.id, token: await created.token() };
  };
  people.admin = { id: 1, token: await t.login(ADMIN.email, ADMIN.password) };
  await make('manager', { user_type: 'manager' });
  await make('otherManager', { user_type: 'manager' });
  await make('engineer', { user_type: 'user', parent_id: people.manager.id });
  await make('engineer2', { user_type: 'user', parent_id: people.otherManager.id });
  await make('finance', { user_type: 'user' }, ['finance']);
  // Only the dashboard: no list of theirs waits for a decision.
  const ids = (await t.call('GET', '/api/permission?search=can-view-dashboard&per_page=100', { token: people.admin.token })).body.data
    .filter((p: { name: string }) => p.name === 'can-view-dashboard').map((p: { id: number }) => p.id);
  expect((await t.call('POST', '/api/role', { token: people.admin.token, body: { name: 'dashboard-only', permission_ids: ids } })).status).toBe(201);
  await make('viewer', { user_type: 'user' }, ['dashboard-only']);

  // Leave: two pending for the manager's engineer, one for the other manager's.
  const [annual] = await t.app.db.select().from(leaveTypes).where(eq(leaveTypes.name, 'Annual'));
  for (const [who, from] of [['engineer', '2031-03-03'], ['engineer', '2031-03-10'], ['engineer2', '2031-03-03']] as const) {
    const res = await t.call('POST', '/api/leave-application', { token: people[who].token, body: { leave_type_id: annual.id, from_date: from, to_date: from, reason: 'Family' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }

  // Library documents assigned to the engineer: two to read, one returned and rejected; one to someone else.
  const [policy, conduct] = await t.app.db.insert(libraryDocuments).values([
    { title: 'Security policy', category: 'compliance', action: 'acknowledge', status: 'active', version: 1 },
    { title: 'Code of conduct', category: 'compliance', action: 'acknowledge', status: 'active', version: 1 },
  ]).returning();
  await t.app.db.insert(documentAssignments).values([
    { document_id: policy.id, user_id: people.engineer.id, due_date: addDays(day, 7), status: 'pending', version: 1 },
    { document_id: conduct.id, user_id: people.engineer.id, due_date: addDays(day, 7), status: 'pending', version: 1 },
    { document_id: policy.id, user_id: people.engineer2.id, due_date: addDays(day, 7), status: 'pending', version: 1 },
  ]);

  // Requests: two assigned to the engineer (one started), one to engineer2.
  const raise = async (title: string, assignTo: number) => {
    const res = await t.call('POST', '/api/request', { token: people.manager.token, body: { title, assign_to: assignTo, euc_or_network: 'EUC', priority: 'High' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  };
  await raise('Desk move', people.engineer.id);
  const started = await raise('New laptop', people.engineer.id);
  await raise('Network outage', people.engineer2.id);
  const moved = await t.call('POST', `/api/request/${started}/transitions/start`, { token: people.engineer.token, body: {} });
  if (moved.status !== 200) {
    // The transition's name: whatever leads from Requested to Work in Progress.
    const row = (await t.call('GET', `/api/request/${started}`, { token: people.engineer.token })).body.data;
    const name = row.available_transitions.find((a: { name: string }) => a.name !== 'complete')?.name;
    expect((await t.call('POST', `/api/request/${started}/transitions/${name}`, { token: people.engineer.token, body: {} })).status).toBe(200);
  }
});
afterAll(async () => { await t?.close(); });

describe('waiting for you', () => {
  it('counts, on every line and for every caller, exactly the list it links to', async () => {
    for (const who of ['admin', 'manager', 'otherManager', 'engineer', 'engineer2', 'finance']) {
      const data = await dashboard(who);
      expect(Array.isArray(data.waiting), who).toBe(true);
      for (const item of data.waiting as { key: string; count: number; resource: string; query: Record<string, string> }[]) {
        expect(item.count, `${who} ${item.key}`).toBeGreaterThan(0);
        expect(await listTotal(who, item.resource, item.query), `${who} ${item.key}`).toBe(item.count);
      }
    }
  });

  it('shows a manager the pending leave of their own people only, the admin all of it', async () => {
    const line = (data: Record<string, any>) => (data.waiting as { key: string; count: number; resource: string }[])
      .find((item) => item.resource === 'leave-application' && item.key.startsWith('leave-application:'));
    expect(line(await dashboard('manager'))?.count).toBe(2);
    expect(line(await dashboard('otherManager'))?.count).toBe(1);
    expect(line(await dashboard('admin'))?.count).toBe(3);
    // Named by the list over where its records stand, in the workflow's words (not "Leave Applications — pending").
    expect(line(await dashboard('admin'))).toMatchObject({ label: 'Leave Applications', detail: 'Waiting for the manager' });
    // Applicants decide nothing on their own leave.
    expect(line(await dashboard('engineer'))).toBeUndefined();
  });

  it('tells a person of the documents assigned to them and the requests assigned to them', async () => {
    const data = await dashboard('engineer');
    const byKey = Object.fromEntries((data.waiting as { key: string }[]).map((item) => [item.key, item]));
    expect(byKey['my-documents']).toMatchObject({ count: 2, resource: 'document-assign-history', query: { status: 'pending', user_id: String(people.engineer.id) } });
    expect(byKey['my-requests-new']).toMatchObject({ label: 'Requests assigned to you', detail: 'Not started yet', count: 1, resource: 'request', query: { status: 'Requested', assign_to: String(people.engineer.id) } });
    expect(byKey['my-requests-started']).toMatchObject({ count: 1, resource: 'request', query: { status: 'Work in Progress', assign_to: String(people.engineer.id) } });
    expect(byKey['my-returns-rejected']).toBeUndefined();
    const other = Object.fromEntries(((await dashboard('engineer2')).waiting as { key: string; count: number }[]).map((item) => [item.key, item.count]));
    expect(other).toMatchObject({ 'my-documents': 1, 'my-requests-new': 1 });
    // Seeing a request is not deciding it: only the assignee's own lines, never every visible request
    // as waiting for them (their home says a new one waits for its assignee); a coordinator gets that line.
    expect(Object.keys(byKey).filter((key) => key.startsWith('request:'))).toEqual([]);
    expect(Object.keys(other).filter((key) => key.startsWith('request:'))).toEqual([]);
    expect(((await dashboard('manager')).waiting as { key: string; count: number }[]).find((item) => item.key === 'request:Requested')?.count).toBe(2);
  });
});

describe('panels follow permissions', () => {
  it('leaves out the pipeline and the hiring funnel for a person who may open neither list', async () => {
    const data = await dashboard('engineer');
    expect(data).not.toHaveProperty('pipeline');
    expect((data.breakdowns ?? []).map((b: { key: string }) => b.key)).not.toContain('hiring-funnel');
    // Requests they may see: their panel is there.
    expect((data.breakdowns ?? []).map((b: { key: string }) => b.key)).toContain('requests-by-status');
    const manager = await dashboard('manager');
    expect(manager).toHaveProperty('pipeline');
    expect(manager.breakdowns.map((b: { key: string }) => b.key)).toEqual(['hiring-funnel', 'requests-by-status']);
  });

  it('gives someone with no decision list no "waiting" key (nor any panel of lists they cannot open)', async () => {
    const data = await dashboard('viewer');
    expect(Object.keys(data).sort()).toEqual(['unread_notifications']);
  });

  it('sends an empty "waiting" (all caught up) to one who may decide but has nothing waiting', async () => {
    // Finance approves pre-billings and pays invoices; none exist.
    expect((await dashboard('finance')).waiting).toEqual([]);
  });

  it('counts the requests by status as the list shows them to each caller', async () => {
    for (const who of ['admin', 'manager', 'engineer', 'engineer2']) {
      const panel = (await dashboard(who)).breakdowns.find((b: { key: string }) => b.key === 'requests-by-status');
      for (const item of panel.items) expect(await listTotal(who, 'request', item.query), `${who} ${item.value}`).toBe(item.count);
    }
    const mine = (await dashboard('engineer')).breakdowns.find((b: { key: string }) => b.key === 'requests-by-status');
    expect(mine.items.map((i: { count: number }) => i.count)).toEqual([1, 1, 0]);
  });
});

describe('expiring documents and contracts', () => {
  beforeAll(async () => {
    await t.app.db.insert(ownDocuments).values([
      { user_id: people.engineer.id, title: 'Visa (today)', document_type: 'visa', expiry_date: day },
      { user_id: people.engineer.id, title: 'Passport (10 days)', document_type: 'other', expiry_date: addDays(day, 10) },
      { user_id: people.engineer.id, title: 'Licence (30 days)', document_type: 'certification', expiry_date: addDays(day, 30) },
      { user_id: people.engineer.id, title: 'Certificate (31 days)', document_type: 'certification', expiry_date: addDays(day, 31) },
      { user_id: people.engineer2.id, title: 'Clearance (1 day)', document_type: 'certification', expiry_date: addDays(day, 1) },
      // Expired longer ago than the panel looks back (a document since replaced): not shown.
      { user_id: people.engineer.id, title: 'Old visa (31 days ago)', document_type: 'visa', expiry_date: addDays(day, -31) },
    ]);
    const ids: Record<string, number> = {};
    for (const [po, end] of [['PO-TODAY', day], ['PO-10', addDays(day, 10)], ['PO-31', addDays(day, 31)], ['PO-RENEWED', addDays(day, 5)]] as const) {
      const res = await t.call('POST', '/api/contract', {
        token: people.admin.token, body: { po_number: po, client_id: clientId, start_date: addDays(day, -300), end_date: end, value: 1000, currency: 'INR', person_ids: [people.engineer.id] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[po] = res.body.data.id;
    }
    // Renewed by a new PO before its end: it still runs, and still ends, on its own date.
    const renewed = await t.call('POST', `/api/contract/${ids['PO-RENEWED']}/new-po`, {
      token: people.admin.token, body: { po_number: 'PO-RENEWED-NEXT', start_date: addDays(day, 6), end_date: addDays(day, 371), value: 1000, currency: 'INR' },
    });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(201);
  });

  const panel = async (who: string, key: string) => ((await dashboard(who)).lists as { key: string }[] | undefined)?.find((list) => list.key === key) as Record<string, any> | undefined;

  it('shows a document expiring today as Expired, one within 30 days as "In N days", none beyond either way', async () => {
    const list = await panel('admin', 'expiring-documents');
    const badges = Object.fromEntries(list!.items.map((item: { title: string; badge: { label: string } }) => [item.title, item.badge]));
    expect(badges).toEqual({
      'Visa (today)': { label: 'Expired', tone: 'red' },
      'Clearance (1 day)': { label: 'In 1 day', tone: 'yellow' },
      'Passport (10 days)': { label: 'In 10 days', tone: 'yellow' },
      'Licence (30 days)': { label: 'In 30 days', tone: 'yellow' },
    });
    expect(list!.items.map((item: { date: string }) => item.date)).toEqual([day, addDays(day, 1), addDays(day, 10), addDays(day, 30)]);
    expect(list!.all.count).toBe(4);
    expect(await listTotal('admin', list!.all.resource, list!.all.query)).toBe(list!.all.count);
  });

  it('shows a person only their own expiring documents', async () => {
    const list = await panel('engineer', 'expiring-documents');
    expect(list!.items.map((item: { title: string }) => item.title)).toEqual(['Visa (today)', 'Passport (10 days)', 'Licence (30 days)']);
    expect(await listTotal('engineer', list!.all.resource, list!.all.query)).toBe(list!.all.count);
    expect(list!.all.count).toBe(3);
  });

  it('shows a contract ending today as Expired, within 30 days as "In N days" (a renewed one too, until it ends), none beyond', async () => {
    const list = await panel('admin', 'expiring-contracts');
    expect(list!.items.map((item: { title: string; badge: unknown; date: string; detail: string }) => [item.title, item.badge, item.date, item.detail])).toEqual([
      ['PO-TODAY', { label: 'Expired', tone: 'red' }, day, 'Contoso · Active'],
      ['PO-RENEWED', { label: 'In 5 days', tone: 'yellow' }, addDays(day, 5), 'Contoso · Active · Renewed by PO-RENEWED-NEXT'],
      ['PO-10', { label: 'In 10 days', tone: 'yellow' }, addDays(day, 10), 'Contoso · Active'],
    ]);
    // "See all" opens the contract list with that date range: the same contracts, so the same count.
    expect(list!.all.count).toBe(3);
    expect(await listTotal('admin', list!.all.resource, list!.all.query)).toBe(list!.all.count);
    // A manager sees contracts too; an engineer does not.
    expect(await panel('manager', 'expiring-contracts')).toBeDefined();
    expect(await panel('engineer', 'expiring-contracts')).toBeUndefined();
  });
});

describe('overdue onboarding tasks', () => {
  it('lists them, and "see all" counts the onboarding list it opens', async () => {
    const [first, second] = await t.app.db.insert(onboardings).values([
      { person_name: 'Asha Rao', manager_id: people.manager.id, start_date: addDays(day, -20), status: 'Onboarding is in progress' },
      { person_name: 'Ben Ode', manager_id: people.manager.id, start_date: addDays(day, -20), status: 'Onboarding is in progress' },
    ]).returning();
    await t.app.db.insert(onboardingTasks).values([
      ...[1, 2, 3, 4, 5, 6].map((n) => ({ onboarding_id: first.id, phase: 'onboarding' as const, title: `Task ${n}`, assignee_id: people.engineer.id, due_date: addDays(day, -n), status: 'pending' as const })),
      { onboarding_id: second.id, phase: 'onboarding' as const, title: 'Laptop', assignee_id: people.engineer2.id, due_date: addDays(day, -1), status: 'pending' as const },
      { onboarding_id: second.id, phase: 'onboarding' as const, title: 'Done already', assignee_id: people.engineer2.id, due_date: addDays(day, -9), status: 'done' as const, completion_date: addDays(day, -9) },
      { onboarding_id: second.id, phase: 'onboarding' as const, title: 'Not yet due', assignee_id: people.engineer2.id, due_date: day, status: 'pending' as const },
    ]);
    const list = ((await dashboard('admin')).lists as { key: string }[]).find((l) => l.key === 'overdue-tasks') as Record<string, any>;
    expect(list.items).toHaveLength(5);
    expect(list.items[0]).toMatchObject({ title: 'Task 6', badge: { label: '6 days late', tone: 'red' }, resource: 'onboarding', id: first.id });
    expect(await listTotal('admin', list.all.resource, list.all.query)).toBe(list.all.count);
    // The engineer sees their own six, without a "see all" of everyone's.
    const own = ((await dashboard('engineer2')).lists as { key: string }[]).find((l) => l.key === 'overdue-tasks') as Record<string, any>;
    expect(own).toMatchObject({ title: 'Your overdue tasks', items: [{ title: 'Laptop', badge: { label: '1 day late' } }] });
    expect(own.all).toBeUndefined();
  });
});

describe('hiring funnel', () => {
  it('counts the candidates per stage as the candidate list filtered by that stage', async () => {
    const [position] = await t.app.db.insert(positions).values({ title: 'Java Engineer', client_id: clientId, location: 'Pune', count: 3 }).returning();
    const spread: Record<string, number> = { Screening: 3, Interview: 2, 'Client Interview': 1, Onboarding: 1, Rejected: 2 };
    let n = 0;
    for (const [stage, howMany] of Object.entries(spread)) {
      for (let i = 0; i < howMany; i++) {
        n += 1;
        await t.app.db.insert(candidates).values({ name: `Candidate ${n}`, email: `c${n}@example.com`, phone: `+91 98765 ${10000 + n}`, position_id: position.id, stage });
      }
    }
    for (const who of ['admin', 'manager']) {
      const funnel = (await dashboard(who)).breakdowns.find((b: { key: string }) => b.key === 'hiring-funnel');
      expect(funnel.items.map((item: { value: string }) => item.value)).toEqual([...BOARD_STAGES]);
      for (const item of funnel.items) {
        expect(item.count, item.value).toBe(spread[item.value] ?? 0);
        expect(await listTotal(who, 'candidate', item.query), item.value).toBe(item.count);
      }
    }
  });
});

describe('weighted pipeline', () => {
  it('sums the deals per stage and currency, weighted by the stage probability', async () => {
    const recorded: { stage: string; value: number; currency: string }[] = [
      { stage: 'lead', value: 10_000, currency: 'EUR' }, { stage: 'lead', value: 2_500.5, currency: 'EUR' },
      { stage: 'proposal', value: 120_000, currency: 'EUR' }, { stage: 'proposal', value: 8_000, currency: 'USD' },
      { stage: 'negotiation', value: 999.99, currency: 'EUR' }, { stage: 'won', value: 50_000, currency: 'EUR' }, { stage: 'lost', value: 7_000, currency: 'EUR' },
    ];
    for (const [i, deal] of recorded.entries()) {
      const res = await t.call('POST', '/api/deal-tracking', {
        token: people.manager.token, body: { title: `Deal ${i}`, client_id: clientId, expected_close_date: '2031-01-31', ...deal, ...(deal.stage === 'lost' ? { lost_reason: 'Budget cut' } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const pipeline = (await dashboard('admin')).pipeline;
    expect(pipeline.resource).toBe('deal-tracking');
    expect(pipeline.by_stage.map((s: { stage: string }) => s.stage)).toEqual([...DEAL_STAGES]);
    for (const stage of pipeline.by_stage) {
      const deals = recorded.filter((d) => d.stage === stage.stage);
      expect(stage.probability).toBe(DEAL_STAGE_PROBABILITY[stage.stage as keyof typeof DEAL_STAGE_PROBABILITY]);
      expect(stage.count, stage.stage).toBe(deals.length);
      const currencies = [...new Set(deals.map((d) => d.currency))].sort();
      expect(stage.amounts, stage.stage).toEqual(currencies.map((currency) => {
        const mine = deals.filter((d) => d.currency === currency);
        const cents = (v: number) => Math.round(v * 100) / 100;
        return {
          currency, value: cents(mine.reduce((sum, d) => sum + d.value, 0)),
          weighted: cents(mine.reduce((sum, d) => sum + cents(d.value * stage.probability / 100), 0)),
        };
      }));
      // Each bar links to the list of that stage: same count.
      expect(await listTotal('admin', 'deal-tracking', { stage: stage.stage }), stage.stage).toBe(stage.count);
    }
    expect(pipeline.by_owner).toEqual([expect.objectContaining({ owner: { id: people.manager.id, name: 'manager' }, count: 5 })]);
    // The manager sees the same pipeline (deals are not scoped).
    expect((await dashboard('manager')).pipeline).toEqual(pipeline);
  });
});

describe('partner invoices awaiting payment', () => {
  it('is shown to those who may open the invoice list and counts that list (a manager: their firms only)', async () => {
    const [managed, other] = await t.app.db.insert(partners).values([
      { name: 'Acme Staffing', email: 'acme@example.com', account_manager_id: people.otherManager.id },
      { name: 'Globex Staffing', email: 'globex@example.com' },
    ]).returning();
    let n = 0;
    for (const [firm, status, total] of [[managed.id, 'approved', 1000], [other.id, 'approved', 250.5], [other.id, 'approved', 100], [other.id, 'paid', 80]] as const) {
      n += 1;
      const [bill] = await t.app.db.insert(preBillings).values({ partner_id: firm, month: `2026-0${n}-01`, currency: 'EUR', total, status: 'approved' }).returning();
      const [invoice] = await t.app.db.insert(partnerInvoices).values({
        partner_id: firm, pre_billing_id: bill.id, invoice_number: `INV-${n}`, invoice_date: `2026-0${n}-28`, due_date: `2026-0${n + 1}-28`, amount: total, tax: 0, total, currency: 'EUR', status,
      }).returning();
      // Issue 21: what was paid of an approved invoice is no longer awaited.
      if (total === 250.5) await t.app.db.insert(partnerInvoicePayments).values({ invoice_id: invoice.id, payment_date: '2026-03-30', amount: 100.25, method: 'cheque', reference: 'CHQ-1' });
    }
    const panelOf = async (who: string) => (await dashboard(who)).invoices_awaiting_payment;
    expect(await panelOf('admin')).toMatchObject({ count: 3, totals: [{ currency: 'EUR', amount: 1250.25 }] });
    expect(await panelOf('finance')).toMatchObject({ count: 3 });
    // The account manager of Acme sees Acme's; a manager of no firm none.
    expect(await panelOf('otherManager')).toMatchObject({ count: 1, totals: [{ currency: 'EUR', amount: 1000 }] });
    expect(await panelOf('manager')).toMatchObject({ count: 0, totals: [] });
    for (const who of ['admin', 'finance', 'manager', 'otherManager']) {
      const panel = (await dashboard(who)).invoices_awaiting_payment;
      expect(panel, who).toMatchObject({ resource: 'partner-invoice', query: { status: 'approved' } });
      expect(await listTotal(who, panel.resource, panel.query), who).toBe(panel.count);
    }
    expect(await dashboard('engineer')).not.toHaveProperty('invoices_awaiting_payment');
  });
});
