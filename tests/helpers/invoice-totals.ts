// The partner invoices' kept totals (src/server/modules/dashboard/kept-invoice-totals.ts) against a full
// recount: per state and currency, the invoices, their total and what was paid on them.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { INVOICE_TOTALS_TABLE } from '../../src/server/modules/dashboard/kept-invoice-totals';
import { rowsOf } from './random-rows';

type Totals = { status: string; currency: string; n: number; total: string; paid: string };

/** Keyed by state and currency, zero keys left out (a key kept at zero is no key). */
const byKey = (rows: Totals[]) => Object.fromEntries(rows
  .map((row) => [`${row.status} ${row.currency}`, { n: Number(row.n), total: Number(row.total), paid: Number(row.paid) }] as const)
  .filter(([, v]) => v.n !== 0 || v.total !== 0 || v.paid !== 0));

export async function expectInvoiceTotalsMatch(db: Db, context: string) {
  const recount = await rowsOf<Totals>(db, sql`select i.status, i.currency, count(*)::int as n, sum(i.total)::text as total, coalesce(sum(p.amount), 0)::text as paid
    from partner_invoices i left join (select invoice_id, sum(amount) as amount from partner_invoice_payments group by invoice_id) p on p.invoice_id = i.id
    group by i.status, i.currency`);
  const kept = await rowsOf<Totals>(db, sql`select status, currency, sum(n)::int as n, sum(total)::text as total, sum(paid)::text as paid
    from ${sql.identifier(INVOICE_TOTALS_TABLE)} group by status, currency`);
  const stored = byKey(kept);
  expect(stored, `${INVOICE_TOTALS_TABLE} after ${context}`).toEqual(byKey(recount));
  expect(Object.values(stored).every((v) => v.n >= 0 && v.paid >= 0), `${INVOICE_TOTALS_TABLE}: nothing negative`).toBe(true);
}
