// Issue 11, ARCHITECTURE "Ownership": generated from the definitions. For every partner-owned
// definition, a login of partner A can neither list, read, change, delete, decide, see the history
// of nor download anything of partner B through /api/partner/{segment}. (That no app route answers a
// partner token, and no partner route an app token, is tests/api/security.test.ts's route walk.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/accounts';
import { partnerEngineers, partnerInvoices, preBillings } from '../../src/server/db/schema/partner-billing';
import { attachments } from '../../src/server/db/schema/workflow';
import type { Db } from '../../src/server/db/client';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * A record of each partner-owned definition for a firm, written straight to the database (the
 * test is about reading and writing across firms, not about each resource's own validation). A
 * new partner-owned definition fails the first test until it is given one here.
 */
const seeders: Record<string, (db: Db, partnerId: number, engineerUserId: number) => Promise<number>> = {
  'partner-engineer': async (db, partnerId, userId) => (await db.insert(partnerEngineers).values({
    partner_id: partnerId, user_id: userId, rate_type: 'day', rate: 500, currency: 'EUR', valid_from: '2026-01-01',
  }).returning())[0].id,
  'pre-billing': async (db, partnerId) => (await db.insert(preBillings).values({
    partner_id: partnerId, month: '2026-09-01', currency: 'EUR', total: 1000, status: 'pending',
  }).returning())[0].id,
  'partner-invoice': async (db, partnerId) => {
    const [statement] = await db.insert(preBillings).values({
      partner_id: partnerId, month: '2026-08-01', currency: 'EUR', total: 1000, status: 'approved',
    }).returning();
    return (await db.insert(partnerInvoices).values({
      partner_id: partnerId, pre_billing_id: statement.id, invoice_number: `INV-${partnerId}`, invoice_date: '2026-09-01',
      due_date: '2026-10-01', amount: 1000, tax: 0, total: 1000, currency: 'EUR', status: 'pending',
    }).returning())[0].id;
  },
};

const owned = resourceDefinitions.filter((definition) => definition.owner);

let t: TestApp;
let tokenA: string;
const records = new Map<string, { mine: number; theirs: number; theirFile: number | null }>();

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.createPartner({ email: 'owner-a@example.com', name: 'Firm A' });
  const b = await t.createPartner({ email: 'owner-b@example.com', name: 'Firm B' });
  tokenA = await a.token();
  const [engineer] = await t.app.db.insert(users).values({ name: 'Placed Engineer', email: 'placed@example.com', password: 'x' }).returning();
  for (const definition of owned) {
    const seed = seeders[definition.name];
    if (!seed) continue;
    const mine = await seed(t.app.db, a.partnerId, engineer.id);
    const theirs = await seed(t.app.db, b.partnerId, engineer.id);
    // A stored file of B's record, for every file field (the download must refuse it to A).
    const fileField = Object.entries(definition.fields).find(([, field]) => field.input === 'file')?.[0];
    const theirFile = fileField ? (await t.app.db.insert(attachments).values({
      resource: definition.name, record_id: theirs, field: fileField, storage_key: 'not-there', name: 'theirs.pdf', size: 4, mime: 'application/pdf',
    }).returning())[0].id : null;
    records.set(definition.name, { mine, theirs, theirFile });
  }
});

afterAll(async () => { await t?.close(); });

describe('partner ownership, generated from the definitions', () => {
  it('knows every partner-owned definition', () => {
    expect(owned.map((d) => d.name).sort()).toEqual(Object.keys(seeders).sort());
  });

  for (const definition of owned) {
    const base = `/api/partner/${definition.owner!.segment}`;
    const { permissions } = definition.owner!;
    describe(definition.name, () => {
      it('lists and offers only the caller firm\'s records', async () => {
        const { mine, theirs } = records.get(definition.name)!;
        const list = await t.call('GET', `${base}?per_page=100`, { token: tokenA });
        expect(list.status).toBe(200);
        const ids = list.body.data.map((row: { id: number }) => row.id);
        expect(ids).toContain(mine);
        expect(ids).not.toContain(theirs);
        expect(list.body.meta.total).toBe(ids.length);
        const options = await t.call('GET', `${base}/options`, { token: tokenA });
        expect(options.status).toBe(200);
        expect(options.body.data.map((o: { id: number }) => o.id)).not.toContain(theirs);
        expect((await t.call('GET', `${base}/export`, { token: tokenA })).status).toBe(200);
      });

      it('reads its own record and not another firm\'s', async () => {
        const { mine, theirs } = records.get(definition.name)!;
        expect((await t.call('GET', `${base}/${mine}`, { token: tokenA })).status).toBe(200);
        expect((await t.call('GET', `${base}/${theirs}`, { token: tokenA })).status).toBe(404);
        if (definition.workflow) expect((await t.call('GET', `${base}/${theirs}/history`, { token: tokenA })).status).toBe(404);
      });

      it.runIf(!!permissions.edit)('cannot change another firm\'s record, nor move its own to another firm', async () => {
        const { mine, theirs } = records.get(definition.name)!;
        const before = await t.call('GET', `/api/${definition.name}/${theirs}`, { token: await t.login('admin@example.com', 'password') });
        const patch = await t.call('PATCH', `${base}/${theirs}`, { token: tokenA, body: {} });
        expect(patch.status).toBe(404);
        for (const transition of definition.workflow?.transitions ?? []) {
          const decided = await t.call('POST', `${base}/${theirs}/transitions/${transition.name}`, { token: tokenA, body: { comment: 'x' } });
          expect(decided.status, transition.name).toBe(404);
          const bulk = await t.call('POST', `${base}/transitions/${transition.name}`, { token: tokenA, body: { ids: [theirs], comment: 'x' } });
          expect(bulk.body.data, transition.name).toEqual([expect.objectContaining({ id: theirs, status: 404 })]);
        }
        const after = await t.call('GET', `/api/${definition.name}/${theirs}`, { token: await t.login('admin@example.com', 'password') });
        expect(after.body.data).toEqual(before.body.data);
        const owner = definition.owner!.column;
        const mineBefore = await t.call('GET', `${base}/${mine}`, { token: tokenA });
        await t.call('PATCH', `${base}/${mine}`, { token: tokenA, body: { [owner]: (before.body.data as Record<string, unknown>)[owner] } });
        // Whatever the update answered, the record is still the caller firm's.
        const mineAfter = await t.call('GET', `${base}/${mine}`, { token: tokenA });
        expect(mineAfter.status).toBe(200);
        expect(mineBefore.body.data[owner]).toEqual(expect.any(Number));
        expect(mineAfter.body.data[owner]).toBe(mineBefore.body.data[owner]);
      });

      it.runIf(!!permissions.delete)('cannot delete another firm\'s record', async () => {
        const { theirs } = records.get(definition.name)!;
        expect((await t.call('DELETE', `${base}/${theirs}`, { token: tokenA })).status).toBe(404);
      });

      it.runIf(Object.values(definition.fields).some((field) => field.input === 'file'))('cannot download another firm\'s file', async () => {
        const { mine, theirs, theirFile } = records.get(definition.name)!;
        expect((await t.call('GET', `${base}/${theirs}/attachments/${theirFile}`, { token: tokenA })).status).toBe(404);
        // Nor through its own record's url.
        expect((await t.call('GET', `${base}/${mine}/attachments/${theirFile}`, { token: tokenA })).status).toBe(404);
      });
    });
  }
});
