CREATE TABLE "partner_invoice_totals" ("status" varchar(30) NOT NULL, "currency" varchar(3) NOT NULL, "slot" smallint NOT NULL, "n" integer NOT NULL, "total" numeric NOT NULL, "paid" numeric NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "partner_invoice_totals_key" ON "partner_invoice_totals" ("status", "currency", "slot");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoices_keep_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A new invoice has no payment yet (a payment references its invoice).
    INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
    SELECT status, currency, (pg_backend_pid() % 32)::smallint, n, total, paid FROM (SELECT status, currency, count(*)::int AS n, sum(total) AS total, 0 AS paid FROM new_rows GROUP BY status, currency) moved ORDER BY status, currency
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = partner_invoice_totals.n + excluded.n,
      total = partner_invoice_totals.total + excluded.total, paid = partner_invoice_totals.paid + excluded.paid;
  ELSIF TG_OP = 'DELETE' THEN
    -- What was paid on a deleted invoice was taken away before its payments went (partner_invoices_forget_paid).
    INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
    SELECT status, currency, (pg_backend_pid() % 32)::smallint, n, total, paid FROM (SELECT status, currency, -count(*)::int AS n, -sum(total) AS total, 0 AS paid FROM old_rows GROUP BY status, currency) moved ORDER BY status, currency
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = partner_invoice_totals.n + excluded.n,
      total = partner_invoice_totals.total + excluded.total, paid = partner_invoice_totals.paid + excluded.paid;
  ELSE
    -- Only the invoices whose state, currency or total changed, each with what is paid on it (its index).
    INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
    SELECT status, currency, (pg_backend_pid() % 32)::smallint, n, total, paid FROM (SELECT status, currency, sum(m.d)::int AS n, sum(m.d * m.total) AS total, coalesce(sum(m.d * p.amount), 0) AS paid FROM (
        SELECT n.id, n.status, n.currency, n.total, 1 AS d
        FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id
        WHERE o.id IS NULL OR (o.status, o.currency, o.total) IS DISTINCT FROM (n.status, n.currency, n.total)
        UNION ALL
        SELECT o.id, o.status, o.currency, o.total, -1 AS d
        FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id
        WHERE n.id IS NULL OR (o.status, o.currency, o.total) IS DISTINCT FROM (n.status, n.currency, n.total)
      ) m LEFT JOIN LATERAL (SELECT sum(amount) AS amount FROM partner_invoice_payments WHERE invoice_id = m.id) p ON true
      GROUP BY status, currency) moved ORDER BY status, currency
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = partner_invoice_totals.n + excluded.n,
      total = partner_invoice_totals.total + excluded.total, paid = partner_invoice_totals.paid + excluded.paid;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_total_inserts" AFTER INSERT ON "partner_invoices" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_keep_totals"();
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_total_updates" AFTER UPDATE ON "partner_invoices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_keep_totals"();
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_total_deletes" AFTER DELETE ON "partner_invoices" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_keep_totals"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoices_forget_paid"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
    SELECT status, currency, (pg_backend_pid() % 32)::smallint, n, total, paid FROM (SELECT OLD.status AS status, OLD.currency AS currency, 0 AS n, 0 AS total, -sum(amount) AS paid
      FROM partner_invoice_payments WHERE invoice_id = OLD.id HAVING count(*) > 0) moved ORDER BY status, currency
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = partner_invoice_totals.n + excluded.n,
      total = partner_invoice_totals.total + excluded.total, paid = partner_invoice_totals.paid + excluded.paid;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_forget_paid" BEFORE DELETE ON "partner_invoices" FOR EACH ROW EXECUTE FUNCTION "partner_invoices_forget_paid"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoice_payments_keep_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM 1 FROM partner_invoices WHERE id IN (SELECT invoice_id FROM new_rows) ORDER BY id FOR SHARE;
    INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
    SELECT status, currency, (pg_backend_pid() % 32)::smallint, n, total, paid FROM (SELECT i.status, i.currency, 0 AS n, 0 AS total, sum(p.amount) AS paid FROM new_rows p JOIN partner_invoices i ON i.id = p.invoice_id GROUP BY status, currency) moved ORDER BY status, currency
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = partner_invoice_totals.n + excluded.n,
      total = partner_invoice_totals.total + excluded.total, paid = partner_invoice_totals.paid + excluded.paid;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM 1 FROM partner_invoices WHERE id IN (SELECT invoice_id FROM old_rows) ORDER BY id FOR SHARE;
    INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
    SELECT status, currency, (pg_backend_pid() % 32)::smallint, n, total, paid FROM (SELECT i.status, i.currency, 0 AS n, 0 AS total, -sum(p.amount) AS paid FROM old_rows p JOIN partner_invoices i ON i.id = p.invoice_id GROUP BY status, currency) moved ORDER BY status, currency
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = partner_invoice_totals.n + excluded.n,
      total = partner_invoice_totals.total + excluded.total, paid = partner_invoice_totals.paid + excluded.paid;
  ELSE
    PERFORM 1 FROM partner_invoices WHERE id IN (SELECT invoice_id FROM new_rows UNION SELECT invoice_id FROM old_rows) ORDER BY id FOR SHARE;
    INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
    SELECT status, currency, (pg_backend_pid() % 32)::smallint, n, total, paid FROM (SELECT i.status, i.currency, 0 AS n, 0 AS total, sum(p.amount) AS paid FROM (
        SELECT invoice_id, amount FROM new_rows UNION ALL SELECT invoice_id, -amount FROM old_rows
      ) p JOIN partner_invoices i ON i.id = p.invoice_id GROUP BY status, currency HAVING sum(p.amount) <> 0) moved ORDER BY status, currency
    ON CONFLICT (status, currency, slot) DO UPDATE SET n = partner_invoice_totals.n + excluded.n,
      total = partner_invoice_totals.total + excluded.total, paid = partner_invoice_totals.paid + excluded.paid;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partner_invoice_payments_total_inserts" AFTER INSERT ON "partner_invoice_payments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoice_payments_keep_totals"();
--> statement-breakpoint
CREATE TRIGGER "partner_invoice_payments_total_updates" AFTER UPDATE ON "partner_invoice_payments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoice_payments_keep_totals"();
--> statement-breakpoint
CREATE TRIGGER "partner_invoice_payments_total_deletes" AFTER DELETE ON "partner_invoice_payments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoice_payments_keep_totals"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoices_clear_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM partner_invoice_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_clear_totals" AFTER TRUNCATE ON "partner_invoices" FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_clear_totals"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoice_payments_clear_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE partner_invoice_totals SET paid = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partner_invoice_payments_clear_totals" AFTER TRUNCATE ON "partner_invoice_payments" FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoice_payments_clear_totals"();
--> statement-breakpoint
INSERT INTO partner_invoice_totals (status, currency, slot, n, total, paid)
  SELECT i.status, i.currency, 0, count(*)::int, sum(i.total), coalesce(sum(p.amount), 0) FROM partner_invoices i
  LEFT JOIN (SELECT invoice_id, sum(amount) AS amount FROM partner_invoice_payments GROUP BY invoice_id) p ON p.invoice_id = i.id
  GROUP BY i.status, i.currency;
