// Issue 20: a notification goes only to people who can open what it links to (the screen's account
// type and permission, checked once in notify()), and the default roles carry what their notifications
// need: the manager role opens the pre-billing statements its account managers are told of.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissions, roleHasPermissions, roles } from '../../src/server/db/schema/accounts';
import { notifications } from '../../src/server/db/schema/notifications';
import { inTransaction } from '../../src/server/lib/transaction';
import { notify, notifyEach, type Recipient } from '../../src/server/modules/notification/notify';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
const people: Record<string, Recipient> = {};

beforeAll(async () => {
  t = await createTestApp();
  people.manager = { type: 'app', id: (await t.createUser({ email: 'manager@example.com', user_type: 'manager' })).id };
  people.engineer = { type: 'app', id: (await t.createUser({ email: 'engineer@example.com', user_type: 'user' })).id };
  people.finance = { type: 'app', id: (await t.createUser({ email: 'finance@example.com', user_type: 'user' }, ['finance'])).id };
  people.partner = { type: 'partner', id: (await t.createPartner({ email: 'firm@example.com' })).id };
});
afterAll(async () => { await t?.close(); });

/** Who got a stored notification with this title. */
async function toldOf(title: string): Promise<string[]> {
  const rows = await t.app.db.select().from(notifications).where(sql`${notifications.data}->>'title' = ${title}`);
  const names = Object.entries(people).filter(([, who]) => rows.some((row) => row.notifiable_type === who.type && row.notifiable_id === who.id));
  return names.map(([name]) => name).sort();
}
const everyone = () => Object.values(people);

describe('notify() tells only those who can open the link', () => {
  it('leaves out staff without the screen\'s permission and partners from a staff screen', async () => {
    await inTransaction(t.app, (tx) => notify(tx, everyone(), { title: 'Statement in', message: 'A statement arrived.', url: '/ikk-partner/pre-billing/7' }));
    expect(await toldOf('Statement in')).toEqual(['finance', 'manager']);
  });

  it('leaves out staff from a partner portal screen', async () => {
    await inTransaction(t.app, (tx) => notify(tx, everyone(), { title: 'Statement returned', message: 'Correct it.', url: '/partner/pre-billing/7' }));
    expect(await toldOf('Statement returned')).toEqual(['partner']);
  });

  it('reads the screen from a link with a query or an absolute address', async () => {
    await inTransaction(t.app, (tx) => notify(tx, everyone(), { title: 'Contract ends', message: 'Soon.', url: '/contract/3?tab=history' }));
    expect(await toldOf('Contract ends')).toEqual(['manager']);
    await inTransaction(t.app, (tx) => notify(tx, everyone(), { title: 'Expense to review', message: 'One.', url: 'https://pmo.example.com/expense/4' }));
    expect(await toldOf('Expense to review')).toEqual(['engineer', 'finance', 'manager']);
  });

  it('tells everyone when there is no link, or one to a screen that needs no permission', async () => {
    await inTransaction(t.app, (tx) => notify(tx, everyone(), { title: 'No link', message: 'Hello.', url: null }));
    expect(await toldOf('No link')).toEqual(['engineer', 'finance', 'manager', 'partner']);
    await inTransaction(t.app, (tx) => notify(tx, [people.engineer, people.manager], { title: 'Bell', message: 'See all.', url: '/notification' }));
    expect(await toldOf('Bell')).toEqual(['engineer', 'manager']);
  });

  it('checks each message of a batch against its own link', async () => {
    await inTransaction(t.app, (tx) => notifyEach(tx, [
      { recipients: everyone(), content: { title: 'Batch: pre-billing', message: '', url: '/ikk-partner/pre-billing/1' } },
      { recipients: everyone(), content: { title: 'Batch: time sheet', message: '', url: '/time-sheet' } },
    ]));
    expect(await toldOf('Batch: pre-billing')).toEqual(['finance', 'manager']);
    expect(await toldOf('Batch: time sheet')).toEqual(['engineer', 'manager']);
  });
});

describe('the manager role opens pre-billing statements', () => {
  it('is granted on an existing database by the migration, once', async () => {
    const [manager] = await t.app.db.select().from(roles).where(and(eq(roles.name, 'manager'), eq(roles.account_type, 'app')));
    const [view] = await t.app.db.select().from(permissions).where(eq(permissions.name, 'can-view-pre-billing'));
    const granted = () => t.app.db.select().from(roleHasPermissions).where(and(eq(roleHasPermissions.role_id, manager.id), eq(roleHasPermissions.permission_id, view.id)));
    expect(await granted()).toHaveLength(1);
    // A database seeded before issue 20: the role lacks it until the migration runs.
    await t.app.db.delete(roleHasPermissions).where(and(eq(roleHasPermissions.role_id, manager.id), eq(roleHasPermissions.permission_id, view.id)));
    const migration = readFileSync(join(__dirname, '../../src/server/db/migrations/0018_manager_views_pre_billing.sql'), 'utf8');
    await t.app.db.execute(sql.raw(migration));
    await t.app.db.execute(sql.raw(migration));
    expect(await granted()).toHaveLength(1);
  });
});
