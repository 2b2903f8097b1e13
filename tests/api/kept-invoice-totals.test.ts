// The partner invoices' totals kept per state and currency (kept-invoice-totals.ts, decision 054): the
// migration is what the module generates, the admin's dashboard reads them (a scoped caller does not), and
// after random writes to invoices and their payments (payments recorded, moved, changed and deleted;
// states, currencies and totals changed, one row or many; invoices deleted with their payments;
// rolled-back transactions; TRUNCATE) they equal a full recount. Runs on PGlite and PostgreSQL.
import { readFileSync } from 'node:fs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partners } from '../../src/server/db/schema/accounts';
import { partnerInvoicePayments, partnerInvoiceStatuses, partnerInvoices, preBillings } from '../../src/server/db/schema/partner-billing';
import type { Db } from '../../src/server/db/client';
import { INVOICE_TOTALS_TABLE, invoiceTotalsMigration, keptInvoiceTotals } from '../../src/server/modules/dashboard/kept-invoice-totals';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app';
import { expectInvoiceTotalsMatch } from '../helpers/invoice-totals';
import { generator, idsOf, insertRow, type Random } from '../helpers/random-rows';
import { statementsOf } from '../helpers/statements';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const CURRENCIES = ['EUR', 'USD', 'GBP'];
const money = (random: Random) => (1 + random.int(50_000)) / 100;

/** An invoice of a pre-billing of its own (one invoice per pre-billing), in a random state and currency. */
async function insertInvoice(db: Db, random: Random): Promise<void> {
  if (!await insertRow(db, preBillings, random)) throw new Error('no pre-billing');
  const [billing] = await db.select({ id: preBillings.id, partner_id: preBillings.partner_id }).from(preBillings).orderBy(sql`id desc`).limit(1);
  const amount = money(random);
  await db.insert(partnerInvoices).values({
    partner_id: billing.partner_id, pre_billing_id: billing.id, invoice_number: `KT-${billing.id}`, invoice_date: '2026-03-01', due_date: '2026-03-31',
    amount, tax: 0, total: amount, currency: random.pick(CURRENCIES), status: random.pick(partnerInvoiceStatuses),
  });
}

const payment = (invoiceId: number, random: Random) => ({ invoice_id: invoiceId, payment_date: '2026-03-15', amount: money(random), method: 'bank transfer' as const, reference: `R${random.int(1000)}` });

/** One random write to the invoices or their payments; what it was, for the failure message. */
async function randomWrite(db: Db, random: Random): Promise<string> {
  const invoices = await idsOf(db, partnerInvoices);
  const payments = await idsOf(db, partnerInvoicePayments);
  const invoice = () => random.pick(invoices);
  const op = invoices.length < 3 ? 0 : random.int(12);
  if (op <= 1) { await insertInvoice(db, random); return 'invoice inserted'; }
  if (op <= 3) {
    const target = invoice();
    await db.insert(partnerInvoicePayments).values([payment(target, random), ...(random.int(3) === 0 ? [payment(invoice(), random)] : [])]);
    return `payment on #${target}`;
  }
  if (op === 4 && payments.length) {
    const target = random.pick(payments);
    await db.delete(partnerInvoicePayments).where(eq(partnerInvoicePayments.id, target));
    return `payment #${target} deleted`;
  }
  if (op === 5 && payments.length) {
    // A payment changed: its amount, or the invoice it pays.
    const target = random.pick(payments);
    await db.update(partnerInvoicePayments).set(random.int(2) ? { amount: money(random) } : { invoice_id: invoice() }).where(eq(partnerInvoicePayments.id, target));
    return `payment #${target} changed`;
  }
  if (op === 6) {
    const target = invoice();
    const changes = [{ status: random.pick(partnerInvoiceStatuses) }, { currency: random.pick(CURRENCIES) }, { total: money(random) }];
    const set = random.int(3) === 0 ? Object.assign({}, ...changes) : random.pick(changes);
    await db.update(partnerInvoices).set(set).where(eq(partnerInvoices.id, target));
    return `invoice #${target} ${Object.keys(set).join(', ')}`;
  }
  if (op === 7) {
    const some = invoices.filter(() => random.int(3) === 0);
    if (some.length) await db.update(partnerInvoices).set({ status: random.pick(partnerInvoiceStatuses) }).where(inArray(partnerInvoices.id, some));
    return `${some.length} invoices' state`;
  }
  if (op === 8) {
    // Its payments go with it (on delete cascade).
    const target = invoice();
    await db.delete(partnerInvoices).where(eq(partnerInvoices.id, target));
    return `invoice #${target} deleted`;
  }
  if (op === 9) {
    await db.transaction(async (tx) => {
      const target = invoice();
      await tx.insert(partnerInvoicePayments).values(payment(target, random));
      await tx.update(partnerInvoices).set({ status: 'paid' }).where(eq(partnerInvoices.id, target));
      tx.rollback();
    }).catch(() => undefined);
    return 'rolled back';
  }
  if (op === 10) {
    // A change the totals do not read: nothing moves.
    const target = invoice();
    await db.update(partnerInvoices).set({ due_date: '2026-04-30' }).where(eq(partnerInvoices.id, target));
    return `invoice #${target} due date`;
  }
  const some = payments.filter(() => random.int(4) === 0);
  if (some.length) await db.delete(partnerInvoicePayments).where(inArray(partnerInvoicePayments.id, some));
  return `${some.length} payments deleted`;
}

describe('partner invoice totals kept by triggers', () => {
  it('come from the migration the module generates', () => {
    const migration = readFileSync(new URL('../../src/server/db/migrations/0043_dashboard_invoice_totals.sql', import.meta.url), 'utf8');
    expect(migration).toBe(`${invoiceTotalsMigration()}\n`);
  });

  it('answer whoever sees every invoice; a scoped list is summed from the invoices', async () => {
    expect(keptInvoiceTotals(eq(partnerInvoices.status, 'approved'))).not.toBeNull();
    // An account manager's list: the firms they manage.
    const managed = and(eq(partnerInvoices.status, 'approved'), inArray(partnerInvoices.partner_id, t.app.db.select({ id: partners.id }).from(partners).where(eq(partners.account_manager_id, 7))));
    expect(keptInvoiceTotals(managed)).toBeNull();
    const token = await t.login(ADMIN.email, ADMIN.password);
    const sent = (await statementsOf(t.app.db, async () => expect((await t.call('GET', '/api/dashboard', { token })).status).toBe(200))).map((s) => s.sql).join('\n');
    expect(sent).toContain(`from "${INVOICE_TOTALS_TABLE}" as "partner_invoices"`);
  });

  it('equal a full recount after random writes to invoices and payments', { timeout: 300_000 }, async () => {
    const seed = Number(process.env.KEPT_COUNTS_SEED ?? Date.now() % 1_000_000);
    const random = generator(seed);
    const db = t.app.db;
    await expectInvoiceTotalsMatch(db, 'the migration (seed data)');
    for (let i = 0; i < 6; i += 1) await insertInvoice(db, random);
    const done: string[] = [];
    for (let step = 0; step < 300; step += 1) {
      done.push(await randomWrite(db, random).catch((error: Error) => `refused (${error.message.slice(0, 60)})`));
      if (step % 30 === 29) await expectInvoiceTotalsMatch(db, `seed ${seed}, step ${step}: ${done.slice(-3).join('; ')}`);
    }
    // Enough writes were accepted, payments among them, for the comparison to mean something. How many
    // payments are left at the end is chance (deletes take a quarter of them at a time), so one is recorded
    // here to make sure truncating them has something to take away.
    expect(done.filter((line) => !line.startsWith('refused')).length, done.slice(0, 20).join('\n')).toBeGreaterThan(200);
    expect(done.filter((line) => line.startsWith('payment on')).length).toBeGreaterThan(10);
    await db.insert(partnerInvoicePayments).values(payment((await idsOf(db, partnerInvoices))[0], random));
    await expectInvoiceTotalsMatch(db, 'one more payment');
    await db.execute(sql`truncate partner_invoice_payments`);
    await expectInvoiceTotalsMatch(db, 'truncating the payments');
    await db.insert(partnerInvoicePayments).values(payment((await idsOf(db, partnerInvoices))[0], random));
    await db.execute(sql`truncate partner_invoices cascade`);
    await expectInvoiceTotalsMatch(db, 'truncating the invoices');
  });
});
