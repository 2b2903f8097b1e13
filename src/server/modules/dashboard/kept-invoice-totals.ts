// The partner invoices' totals kept per state and currency (issue 27, decision 054): how many invoices,
// how much they total and how much has been paid on them, so that the dashboard's "invoices awaiting
// payment" reads a state's few rows instead of every approved invoice and its payments.
//
// Kept like the per-state rollups (kept-counts.ts, decision 052): statement-level triggers with
// transition tables in the writing transaction, each statement adding what it moved to the row of its
// backend's slot (a state and currency's figures are the sum of its slots). Two tables move them: an
// invoice's state, currency or total (partner_invoices), and its payments (partner_invoice_payments).
// The SQL is generated here into migration 0043 (scripts/generate-kept-counts.ts);
// tests/api/kept-invoice-totals.test.ts checks the migration against it and the totals against a
// recount after random writes to both tables, on both databases.
import { getTableName, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { partnerInvoices } from '../../db/schema/partner-billing';
import { ROLLUP_SLOTS } from './kept-counts';

export const INVOICE_TOTALS_TABLE = 'partner_invoice_totals';

const slot = `(pg_backend_pid() % ${ROLLUP_SLOTS})::smallint`;
const key = 'status, currency';

/** One upsert adding `moved` (rows of status, currency, n, total, paid) to the writer's slot, in key order. */
const addTotals = (moved: string) => `INSERT INTO ${INVOICE_TOTALS_TABLE} (status, currency, slot, n, total, paid)
    SELECT status, currency, ${slot}, n, total, paid FROM (${moved}) moved ORDER BY ${key}
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = ${INVOICE_TOTALS_TABLE}.n + excluded.n,
      total = ${INVOICE_TOTALS_TABLE}.total + excluded.total, paid = ${INVOICE_TOTALS_TABLE}.paid + excluded.paid;`;

/** Invoices whose state, currency or total a statement changed, as they were (old_rows, -1) or are now (new_rows, +1). */
const changedSide = (side: 'o' | 'n', other: 'o' | 'n', sign: string) => `SELECT ${side}.id, ${side}.status, ${side}.currency, ${side}.total, ${sign} AS d
        FROM ${side === 'n' ? 'new_rows' : 'old_rows'} ${side} LEFT JOIN ${other === 'n' ? 'new_rows' : 'old_rows'} ${other} ON ${other}.id = ${side}.id
        WHERE ${other}.id IS NULL OR (o.status, o.currency, o.total) IS DISTINCT FROM (n.status, n.currency, n.total)`;

const invoicesFunction = `CREATE OR REPLACE FUNCTION "partner_invoices_keep_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A new invoice has no payment yet (a payment references its invoice).
    ${addTotals(`SELECT ${key}, count(*)::int AS n, sum(total) AS total, 0 AS paid FROM new_rows GROUP BY ${key}`)}
  ELSIF TG_OP = 'DELETE' THEN
    -- What was paid on a deleted invoice was taken away before its payments went (partner_invoices_forget_paid).
    ${addTotals(`SELECT ${key}, -count(*)::int AS n, -sum(total) AS total, 0 AS paid FROM old_rows GROUP BY ${key}`)}
  ELSE
    -- Only the invoices whose state, currency or total changed, each with what is paid on it (its index).
    ${addTotals(`SELECT ${key}, sum(m.d)::int AS n, sum(m.d * m.total) AS total, coalesce(sum(m.d * p.amount), 0) AS paid FROM (
        ${changedSide('n', 'o', '1')}
        UNION ALL
        ${changedSide('o', 'n', '-1')}
      ) m LEFT JOIN LATERAL (SELECT sum(amount) AS amount FROM partner_invoice_payments WHERE invoice_id = m.id) p ON true
      GROUP BY ${key}`)}
  END IF;
  RETURN NULL;
END
$$;`;

/**
 * A deleted invoice's payments are deleted by its foreign key's cascade before the invoice's statement
 * trigger runs, and then their invoice is gone: what they paid is taken away here, before, per row.
 */
const forgetPaidFunction = `CREATE OR REPLACE FUNCTION "partner_invoices_forget_paid"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${addTotals(`SELECT OLD.status AS status, OLD.currency AS currency, 0 AS n, 0 AS total, -sum(amount) AS paid
      FROM partner_invoice_payments WHERE invoice_id = OLD.id HAVING count(*) > 0`)}
  RETURN OLD;
END
$$;`;

/**
 * A payment moves its invoice's paid amount. The invoices are locked first (FOR SHARE): a concurrent
 * change of an invoice's state then waits for this transaction (or this waits for it and reads the new
 * state), so a payment never lands in the state its invoice just left. A payment whose invoice is gone
 * (deleted by the cascade) was already taken away.
 */
const paymentsFunction = `CREATE OR REPLACE FUNCTION "partner_invoice_payments_keep_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM partner_invoices WHERE id IN (SELECT invoice_id FROM new_rows) ORDER BY id FOR SHARE;
    ${addTotals(`SELECT i.status, i.currency, 0 AS n, 0 AS total, sum(p.amount) AS paid FROM new_rows p JOIN partner_invoices i ON i.id = p.invoice_id GROUP BY ${key}`)}
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM 1 FROM partner_invoices WHERE id IN (SELECT invoice_id FROM old_rows) ORDER BY id FOR SHARE;
    ${addTotals(`SELECT i.status, i.currency, 0 AS n, 0 AS total, -sum(p.amount) AS paid FROM old_rows p JOIN partner_invoices i ON i.id = p.invoice_id GROUP BY ${key}`)}
  ELSE
    PERFORM 1 FROM partner_invoices WHERE id IN (SELECT invoice_id FROM new_rows UNION SELECT invoice_id FROM old_rows) ORDER BY id FOR SHARE;
    ${addTotals(`SELECT i.status, i.currency, 0 AS n, 0 AS total, sum(p.amount) AS paid FROM (
        SELECT invoice_id, amount FROM new_rows UNION ALL SELECT invoice_id, -amount FROM old_rows
      ) p JOIN partner_invoices i ON i.id = p.invoice_id GROUP BY ${key} HAVING sum(p.amount) <> 0`)}
  END IF;
  RETURN NULL;
END
$$;`;

const clearFunction = (name: string, body: string) => `CREATE OR REPLACE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${body}
  RETURN NULL;
END
$$;`;

const statementTriggers = (table: string, prefix: string, fn: string) => [
  `CREATE TRIGGER "${prefix}_inserts" AFTER INSERT ON "${table}" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"();`,
  `CREATE TRIGGER "${prefix}_updates" AFTER UPDATE ON "${table}" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"();`,
  `CREATE TRIGGER "${prefix}_deletes" AFTER DELETE ON "${table}" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"();`,
];

/** Migration 0043's SQL for the totals: the table, the triggers on both tables and the initial fill (slot 0). */
export const invoiceTotalsMigration = () => [
  `CREATE TABLE "${INVOICE_TOTALS_TABLE}" ("status" varchar(30) NOT NULL, "currency" varchar(3) NOT NULL, "slot" smallint NOT NULL, "n" integer NOT NULL, "total" numeric NOT NULL, "paid" numeric NOT NULL);`,
  `CREATE UNIQUE INDEX "${INVOICE_TOTALS_TABLE}_key" ON "${INVOICE_TOTALS_TABLE}" ("status", "currency", "slot");`,
  invoicesFunction,
  ...statementTriggers('partner_invoices', 'partner_invoices_total', 'partner_invoices_keep_totals'),
  forgetPaidFunction,
  `CREATE TRIGGER "partner_invoices_forget_paid" BEFORE DELETE ON "partner_invoices" FOR EACH ROW EXECUTE FUNCTION "partner_invoices_forget_paid"();`,
  paymentsFunction,
  ...statementTriggers('partner_invoice_payments', 'partner_invoice_payments_total', 'partner_invoice_payments_keep_totals'),
  clearFunction('partner_invoices_clear_totals', `DELETE FROM ${INVOICE_TOTALS_TABLE};`),
  `CREATE TRIGGER "partner_invoices_clear_totals" AFTER TRUNCATE ON "partner_invoices" FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_clear_totals"();`,
  clearFunction('partner_invoice_payments_clear_totals', `UPDATE ${INVOICE_TOTALS_TABLE} SET paid = 0;`),
  `CREATE TRIGGER "partner_invoice_payments_clear_totals" AFTER TRUNCATE ON "partner_invoice_payments" FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoice_payments_clear_totals"();`,
  `INSERT INTO ${INVOICE_TOTALS_TABLE} (status, currency, slot, n, total, paid)
  SELECT i.status, i.currency, 0, count(*)::int, sum(i.total), coalesce(sum(p.amount), 0) FROM partner_invoices i
  LEFT JOIN (SELECT invoice_id, sum(amount) AS amount FROM partner_invoice_payments GROUP BY invoice_id) p ON p.invoice_id = i.id
  GROUP BY i.status, i.currency;`,
].join('\n--> statement-breakpoint\n');

const dialect = new PgDialect();
// The list's condition names the invoices' table; the totals are read under that name.
const invoices = getTableName(partnerInvoices);
const stateColumn = `"${invoices}"."${partnerInvoices.status.name}"`;

/**
 * Per currency, the invoices under `where` (the invoice list's, by its table's name): how many and what
 * is outstanding (their total less what was paid on them), from the kept totals when `where` reads the
 * state and nothing else (a caller who sees the whole list), else null: a scoped caller (an account
 * manager, the firms they manage) is answered from the invoices themselves.
 */
export function keptInvoiceTotals(where: SQL | undefined): SQL | null {
  const text = where ? dialect.sqlToQuery(where).sql : '';
  if (text.split(stateColumn).join('').includes('"')) return null;
  return sql`(select coalesce(json_agg(r order by r.currency), '[]'::json) from (
    select ${sql.identifier(invoices)}.currency as currency, sum(n)::int as count, sum(total) - sum(paid) as total
    from ${sql.identifier(INVOICE_TOTALS_TABLE)} as ${sql.identifier(invoices)}${where ? sql` where ${where}` : sql``}
    group by 1 having sum(n) > 0) r)`;
}
