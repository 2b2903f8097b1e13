// Issue 23: every row a resource route sends carries `abilities: { update, delete }` for the caller,
// computed by the predicate the write routes refuse with. The walk below takes every registered
// definition, as several principals (admin, a manager, an engineer, finance, a narrow role, a partner
// login), and for each row they see tries the update and the delete: where an ability is false the
// route refuses, where it is true it does not answer 403. A new definition joins the walk by itself.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, roleHasPermissions, roles } from '../../src/server/db/schema/accounts';
import { ownDocuments } from '../../src/server/db/schema/compliance';
import { expenses, holidays, leaveApplications, leaveTypes } from '../../src/server/db/schema/hr';
import { cities, clients, countries, employeeTypes, expenseCategories, positions, questionCategories } from '../../src/server/db/schema/master-data';
import { contracts, onboardings } from '../../src/server/db/schema/onboarding';
import { bgvChecks, deals, requests } from '../../src/server/db/schema/operations';
import { partnerEngineers, partnerInvoices, preBillings } from '../../src/server/db/schema/partner-billing';
import { timeSheets } from '../../src/server/db/schema/time-sheets';
import { candidates } from '../../src/server/db/schema/recruitment';
import { allPermissions } from '../../src/shared/permissions';
import type { ResourceDefinition } from '../../src/shared/resources/define';
import { LEAVE_APPROVED_NO_BACK_FILL, LEAVE_PENDING } from '../../src/shared/resources/leave-application';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;

interface Principal { name: string; id: number; token: string; area: 'app' | 'partner'; partnerId?: number }
const principals: Principal[] = [];
/** Accounts the walk signs in with: never deleted by it (a later principal still needs them). */
const principalIds = new Set<number>();

beforeAll(async () => {
  t = await createTestApp();
  const add = async (name: string, values: Parameters<TestApp['createUser']>[0], roleNames?: string[]) => {
    const created = await t.createUser(values, roleNames);
    principalIds.add(created.id);
    return { name, id: created.id, token: await created.token(), area: 'app' as const };
  };
  // A narrow role: sees everything, and may edit and delete people, roles and expenses only (never an admin's account, never a role it holds).
  const narrowPermissions = [
    ...allPermissions.filter((p) => p.startsWith('can-view-')),
    'can-edit-user', 'can-delete-user', 'can-edit-admin', 'can-delete-admin', 'can-edit-role', 'can-delete-role', 'can-edit-expense', 'can-delete-expense',
  ];
  const [narrowRole] = await t.app.db.insert(roles).values({ name: 'abilities-narrow' }).returning({ id: roles.id });
  const ids = new Map((await t.app.db.select({ id: permissions.id, name: permissions.name }).from(permissions)).map((p) => [p.name, p.id]));
  await t.app.db.insert(roleHasPermissions).values(narrowPermissions.map((name) => ({ role_id: narrowRole.id, permission_id: ids.get(name)! })));

  const manager = await add('manager', { email: 'abilities-manager@example.com', name: 'Mona Manager', user_type: 'manager' });
  const engineer = await add('engineer', { email: 'abilities-engineer@example.com', name: 'Eli Engineer', user_type: 'user', parent_id: manager.id });
  const finance = await add('finance', { email: 'abilities-finance@example.com', name: 'Fay Finance', user_type: 'user', parent_id: manager.id }, ['user', 'finance']);
  const narrow = await add('narrow role', { email: 'abilities-narrow@example.com', name: 'Nia Narrow', user_type: 'user' }, ['abilities-narrow']);
  const partner = await t.createPartner({ email: 'abilities-partner@example.com', name: 'Pat Partner' });
  principals.push(
    { name: 'partner', id: partner.id, token: await partner.token(), area: 'partner', partnerId: partner.partnerId },
    engineer, narrow, finance, manager,
    { name: 'admin', id: 1, token: await t.login(ADMIN.email, ADMIN.password), area: 'app' },
  );
  principalIds.add(1);
});
afterAll(async () => { await t?.close(); });

/**
 * A fresh set of records, some of every principal's own (an engineer's claim, a manager's claim, an
 * approved one, their own documents), so each principal walks rows it owns and rows it does not.
 * Made again before each principal's walk, since the walk deletes what it may.
 */
async function seedRecords(round: number) {
  const db = t.app.db;
  const byName = Object.fromEntries(principals.map((p) => [p.name, p]));
  const [country] = await db.insert(countries).values({ name: `Abilitania ${round}`, code: `A${round}` }).returning();
  await db.insert(cities).values({ name: `Ability Town ${round}`, country_id: country.id });
  const [client] = await db.insert(clients).values({ name: `Able Client ${round}` }).returning();
  await db.insert(employeeTypes).values({ name: `Contractor ${round}` });
  const [category] = await db.insert(expenseCategories).values({ name: `Travel ${round}` }).returning();
  const [position] = await db.insert(positions).values({ title: `Developer ${round}`, client_id: client.id, location: 'Pune', count: 1 }).returning();
  await db.insert(questionCategories).values({ name: `Java ${round}` });
  await db.insert(holidays).values({ country_id: country.id, date: `2031-01-${String(round + 1).padStart(2, '0')}`, name: `Ability Day ${round}` });
  const [leaveType] = await db.select().from(leaveTypes).limit(1);
  const claim = { expense_category_id: category.id, expense_date: '2026-11-02', amount: 40, currency: 'EUR', description: 'Taxi' };
  for (const who of ['engineer', 'manager', 'finance', 'narrow role']) {
    const owner = byName[who].id;
    await db.insert(expenses).values([{ ...claim, user_id: owner, status: 'pending' }, { ...claim, user_id: owner, status: 'approved' }]);
    await db.insert(ownDocuments).values({ user_id: owner, title: `Passport ${round}`, document_type: 'other' });
    await db.insert(leaveApplications).values({ user_id: owner, leave_type_id: leaveType.id, from_date: '2031-02-03', to_date: '2031-02-03', days: 1, status: LEAVE_PENDING });
    await db.insert(leaveApplications).values({ user_id: owner, leave_type_id: leaveType.id, from_date: '2031-02-04', to_date: '2031-02-04', days: 1, status: LEAVE_APPROVED_NO_BACK_FILL });
  }
  await db.insert(partnerEngineers).values({ partner_id: byName.partner.partnerId!, user_id: byName.engineer.id, rate_type: 'day', rate: '500', currency: 'EUR', valid_from: `20${30 + round}-01-01`, valid_to: `20${30 + round}-12-31` } as never);
  const [candidate] = await db.insert(candidates).values({ name: `Cara Candidate ${round}`, email: `cara${round}@example.com`, phone: `+44123456${round}`, position_id: position.id } as never).returning();
  // The partner's statements (one waiting, one approved and invoiced) and the invoice: the partner login
  // walks its own, staff walk them all.
  const year = 2030 + round;
  const [, approved] = await db.insert(preBillings).values([
    { partner_id: byName.partner.partnerId!, month: `${year}-01-01`, currency: 'EUR', total: 500, status: 'pending' },
    { partner_id: byName.partner.partnerId!, month: `${year}-02-01`, currency: 'EUR', total: 800, status: 'approved' },
  ] as never).returning();
  await db.insert(partnerInvoices).values({
    partner_id: byName.partner.partnerId!, pre_billing_id: approved.id, invoice_number: `INV-${round}`, invoice_date: `${year}-03-01`, due_date: `${year}-03-31`,
    amount: 800, total: 800, currency: 'EUR', status: 'pending',
  } as never);
  // Time sheets of an engineer and of a manager, one waiting and one decided each.
  for (const who of ['engineer', 'manager']) {
    const sheet = { user_id: byName[who].id, client_id: client.id, period_type: 'month', period_start: `${year}-01-01`, period_end: `${year}-01-31`, hours: 160,
      file_key: `abilities/${round}-${who}.pdf`, file_name: 'march.pdf', file_size: 100, file_mime: 'application/pdf' };
    await db.insert(timeSheets).values([{ ...sheet, status: 'pending' }, { ...sheet, status: 'approved' }] as never);
  }
  await db.insert(contracts).values({
    po_number: `PO-ABILITY-${round}`, client_id: client.id, owner_id: byName.manager.id, start_date: `${year}-01-01`, end_date: `${year}-12-31`, value: 12000, currency: 'EUR',
  } as never);
  await db.insert(bgvChecks).values({ candidate_id: candidate.id, vendor: 'First Advantage', initiated_on: `${year}-01-05` } as never);
  await db.insert(deals).values({ title: `Deal ${round}`, client_id: client.id, value: 1000, currency: 'EUR', stage: 'lead', probability: 10, owner_id: byName.manager.id } as never);
  await db.insert(requests).values({ title: `Laptop ${round}`, created_by: byName.engineer.id, status: 'Requested', euc_or_network: 'EUC', priority: 'Low' } as never);
  await db.insert(onboardings).values({ person_name: `Nora New ${round}`, manager_id: byName.manager.id, start_date: '2031-03-01' } as never);
}

type Row = { id: number; abilities?: { update: unknown; delete: unknown } };

const baseOf = (definition: ResourceDefinition, principal: Principal) =>
  (principal.area === 'app' ? `/api/${definition.name}` : `/api/partner/${definition.owner!.segment}`);
const permissionsOf = (definition: ResourceDefinition, principal: Principal) =>
  (principal.area === 'app' ? definition.permissions : definition.owner!.permissions);

/** The statuses of a refusal: 403 (not yours, not your permission), 409 (its state), 422 (your own account). */
const REFUSALS = [403, 409, 422];

describe('abilities on every row', () => {
  it('are offered exactly where the update and delete routes let the caller through, for every definition and principal', async () => {
    const walked = new Map<string, number>();
    const seen = { update: { true: 0, false: 0 }, delete: { true: 0, false: 0 } };
    let round = 0;
    for (const principal of principals) {
      await seedRecords(++round);
      for (const definition of resourceDefinitions) {
        if (principal.area === 'partner' && !definition.owner) continue;
        const base = baseOf(definition, principal);
        const list = await t.call('GET', `${base}?per_page=40`, { token: principal.token });
        if (list.status === 403) continue;
        expect(list.status, `${principal.name} lists ${definition.name}: ${JSON.stringify(list.body)}`).toBe(200);
        const rows = list.body.data as Row[];
        walked.set(definition.name, (walked.get(definition.name) ?? 0) + rows.length);
        const perms = permissionsOf(definition, principal);
        for (const row of rows) {
          const where = `${principal.name}, ${definition.name} #${row.id}`;
          // The guard: no row without its abilities, whether or not the definition has write routes.
          expect(row.abilities, where).toEqual({ update: expect.any(Boolean), delete: expect.any(Boolean) });
          const shown = await t.call('GET', `${base}/${row.id}`, { token: principal.token });
          if (definition.routes.show || shown.status === 200) expect(shown.body.data.abilities, `${where} (show)`).toEqual(row.abilities);
          const { update, delete: remove } = row.abilities as { update: boolean; delete: boolean };
          seen.update[String(update) as 'true' | 'false']++;
          seen.delete[String(remove) as 'true' | 'false']++;

          // Update with nothing changed: what is refused here is refused whatever is sent.
          const patched = await t.call('PATCH', `${base}/${row.id}`, { token: principal.token, body: {} });
          if (!perms.edit) expect(update, `${where}: no update route`).toBe(false);
          else if (update) expect(patched.status, `${where}: update offered but ${JSON.stringify(patched.body)}`).not.toBe(403);
          else expect(REFUSALS, `${where}: update not offered but ${patched.status} ${JSON.stringify(patched.body)}`).toContain(patched.status);

          if (!perms.delete) { expect(remove, `${where}: no delete route`).toBe(false); continue; }
          // A principal's own account is kept for the walks after this one (the refusal of your own account is still tried).
          if (remove && ['admin', 'manager', 'user'].includes(definition.name) && principalIds.has(row.id)) continue;
          const deleted = await t.call('DELETE', `${base}/${row.id}`, { token: principal.token });
          // Offered: it goes, or it is still in use elsewhere (409 names what uses it), never 403.
          if (remove) expect([200, 409], `${where}: delete offered but ${deleted.status} ${JSON.stringify(deleted.body)}`).toContain(deleted.status);
          else expect(REFUSALS, `${where}: delete not offered but ${deleted.status} ${JSON.stringify(deleted.body)}`).toContain(deleted.status);
        }
      }
    }
    // The walk walked: rows of the definitions the seed fills, and both answers of each ability.
    for (const name of ['expense', 'document', 'user', 'manager', 'admin', 'role', 'permission', 'leave-application', 'country', 'partner-engineer', 'candidate', 'deal-tracking', 'request', 'onboarding',
      'pre-billing', 'partner-invoice', 'time-sheet', 'contract', 'bgv-check']) {
      expect(walked.get(name) ?? 0, `${name} walked: ${JSON.stringify([...walked])}`).toBeGreaterThan(0);
    }
    expect(seen.update.true).toBeGreaterThan(0);
    expect(seen.update.false).toBeGreaterThan(0);
    expect(seen.delete.true).toBeGreaterThan(0);
    expect(seen.delete.false).toBeGreaterThan(0);
  }, 600_000);

  it('does not offer a manager Edit on an engineer\'s expense, and offers the engineer theirs while pending', async () => {
    const manager = principals.find((p) => p.name === 'manager')!;
    const engineer = principals.find((p) => p.name === 'engineer')!;
    const [category] = await t.app.db.insert(expenseCategories).values({ name: 'Meals (abilities)' }).returning();
    const [claim] = await t.app.db.insert(expenses).values({
      user_id: engineer.id, expense_category_id: category.id, expense_date: '2026-11-03', amount: 12, currency: 'EUR', description: 'Lunch', status: 'pending',
    }).returning();
    const asManager = await t.call('GET', `/api/expense/${claim.id}`, { token: manager.token });
    expect(asManager.body.data.abilities).toEqual({ update: false, delete: false });
    const refused = await t.call('PATCH', `/api/expense/${claim.id}`, { token: manager.token, body: { description: 'Changed' } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only the claimant can change this expense.');
    // The engineer's role may change a claim but not delete one (can-delete-expense is not theirs).
    expect((await t.call('GET', `/api/expense/${claim.id}`, { token: engineer.token })).body.data.abilities).toEqual({ update: true, delete: false });
    // Decided: the claimant may no longer edit or delete it either.
    await t.app.db.update(expenses).set({ status: 'approved' }).where(eq(expenses.id, claim.id));
    expect((await t.call('GET', `/api/expense/${claim.id}`, { token: engineer.token })).body.data.abilities).toEqual({ update: false, delete: false });
  });
});
