CREATE TABLE "leave_applications_state_counts" ("status" varchar(100), "slot" smallint NOT NULL, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "leave_applications_state_counts_key" ON "leave_applications_state_counts" ("status", "slot") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "leave_applications_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "leave_applications_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM new_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "leave_applications_counts".n + excluded.n;
    INSERT INTO "leave_applications_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "leave_applications_state_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "leave_applications_counts" ("status", "user_id", n) SELECT "status", "user_id", -count(*)::int FROM old_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "leave_applications_counts".n + excluded.n;
    INSERT INTO "leave_applications_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "leave_applications_state_counts".n + excluded.n;
  ELSE
    INSERT INTO "leave_applications_counts" ("status", "user_id", n) SELECT "status", "user_id", sum(d)::int FROM (SELECT "status", "user_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id" HAVING sum(d) <> 0 ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "leave_applications_counts".n + excluded.n;
    INSERT INTO "leave_applications_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "leave_applications_state_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "leave_applications_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "leave_applications_counts";
  DELETE FROM "leave_applications_state_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "leave_applications_state_counts" ("status", "slot", n) SELECT "status", 0, count(*)::int FROM "leave_applications" GROUP BY "status";
--> statement-breakpoint
CREATE TABLE "expenses_state_counts" ("status" varchar(40), "slot" smallint NOT NULL, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "expenses_state_counts_key" ON "expenses_state_counts" ("status", "slot") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "expenses_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "expenses_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM new_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "expenses_counts".n + excluded.n;
    INSERT INTO "expenses_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "expenses_state_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "expenses_counts" ("status", "user_id", n) SELECT "status", "user_id", -count(*)::int FROM old_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "expenses_counts".n + excluded.n;
    INSERT INTO "expenses_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "expenses_state_counts".n + excluded.n;
  ELSE
    INSERT INTO "expenses_counts" ("status", "user_id", n) SELECT "status", "user_id", sum(d)::int FROM (SELECT "status", "user_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id" HAVING sum(d) <> 0 ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "expenses_counts".n + excluded.n;
    INSERT INTO "expenses_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "expenses_state_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "expenses_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "expenses_counts";
  DELETE FROM "expenses_state_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "expenses_state_counts" ("status", "slot", n) SELECT "status", 0, count(*)::int FROM "expenses" GROUP BY "status";
--> statement-breakpoint
CREATE TABLE "time_sheets_state_counts" ("status" varchar(20), "slot" smallint NOT NULL, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "time_sheets_state_counts_key" ON "time_sheets_state_counts" ("status", "slot") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "time_sheets_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "time_sheets_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM new_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "time_sheets_counts".n + excluded.n;
    INSERT INTO "time_sheets_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "time_sheets_state_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "time_sheets_counts" ("status", "user_id", n) SELECT "status", "user_id", -count(*)::int FROM old_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "time_sheets_counts".n + excluded.n;
    INSERT INTO "time_sheets_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "time_sheets_state_counts".n + excluded.n;
  ELSE
    INSERT INTO "time_sheets_counts" ("status", "user_id", n) SELECT "status", "user_id", sum(d)::int FROM (SELECT "status", "user_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id" HAVING sum(d) <> 0 ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "time_sheets_counts".n + excluded.n;
    INSERT INTO "time_sheets_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "time_sheets_state_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "time_sheets_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "time_sheets_counts";
  DELETE FROM "time_sheets_state_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "time_sheets_state_counts" ("status", "slot", n) SELECT "status", 0, count(*)::int FROM "time_sheets" GROUP BY "status";
--> statement-breakpoint
CREATE TABLE "pre_billings_state_counts" ("status" varchar(30), "slot" smallint NOT NULL, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "pre_billings_state_counts_key" ON "pre_billings_state_counts" ("status", "slot") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pre_billings_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "pre_billings_counts" ("status", "partner_id", n) SELECT "status", "partner_id", count(*)::int FROM new_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "pre_billings_counts".n + excluded.n;
    INSERT INTO "pre_billings_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "pre_billings_state_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "pre_billings_counts" ("status", "partner_id", n) SELECT "status", "partner_id", -count(*)::int FROM old_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "pre_billings_counts".n + excluded.n;
    INSERT INTO "pre_billings_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "pre_billings_state_counts".n + excluded.n;
  ELSE
    INSERT INTO "pre_billings_counts" ("status", "partner_id", n) SELECT "status", "partner_id", sum(d)::int FROM (SELECT "status", "partner_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "partner_id", -1 AS d FROM old_rows) moved GROUP BY "status", "partner_id" HAVING sum(d) <> 0 ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "pre_billings_counts".n + excluded.n;
    INSERT INTO "pre_billings_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "pre_billings_state_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pre_billings_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "pre_billings_counts";
  DELETE FROM "pre_billings_state_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "pre_billings_state_counts" ("status", "slot", n) SELECT "status", 0, count(*)::int FROM "pre_billings" GROUP BY "status";
--> statement-breakpoint
CREATE TABLE "partner_invoices_state_counts" ("status" varchar(30), "slot" smallint NOT NULL, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "partner_invoices_state_counts_key" ON "partner_invoices_state_counts" ("status", "slot") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoices_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "partner_invoices_counts" ("status", "partner_id", n) SELECT "status", "partner_id", count(*)::int FROM new_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "partner_invoices_counts".n + excluded.n;
    INSERT INTO "partner_invoices_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "partner_invoices_state_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "partner_invoices_counts" ("status", "partner_id", n) SELECT "status", "partner_id", -count(*)::int FROM old_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "partner_invoices_counts".n + excluded.n;
    INSERT INTO "partner_invoices_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "partner_invoices_state_counts".n + excluded.n;
  ELSE
    INSERT INTO "partner_invoices_counts" ("status", "partner_id", n) SELECT "status", "partner_id", sum(d)::int FROM (SELECT "status", "partner_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "partner_id", -1 AS d FROM old_rows) moved GROUP BY "status", "partner_id" HAVING sum(d) <> 0 ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "partner_invoices_counts".n + excluded.n;
    INSERT INTO "partner_invoices_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "partner_invoices_state_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoices_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "partner_invoices_counts";
  DELETE FROM "partner_invoices_state_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "partner_invoices_state_counts" ("status", "slot", n) SELECT "status", 0, count(*)::int FROM "partner_invoices" GROUP BY "status";
--> statement-breakpoint
CREATE TABLE "document_assignments_state_counts" ("status" varchar(20), "slot" smallint NOT NULL, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "document_assignments_state_counts_key" ON "document_assignments_state_counts" ("status", "slot") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "document_assignments_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "document_assignments_counts" ("status", "user_id", "assigned_by", n) SELECT "status", "user_id", "assigned_by", count(*)::int FROM new_rows GROUP BY "status", "user_id", "assigned_by" ORDER BY "status", "user_id", "assigned_by" ON CONFLICT ("status", "user_id", "assigned_by") DO UPDATE SET n = "document_assignments_counts".n + excluded.n;
    INSERT INTO "document_assignments_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "document_assignments_state_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "document_assignments_counts" ("status", "user_id", "assigned_by", n) SELECT "status", "user_id", "assigned_by", -count(*)::int FROM old_rows GROUP BY "status", "user_id", "assigned_by" ORDER BY "status", "user_id", "assigned_by" ON CONFLICT ("status", "user_id", "assigned_by") DO UPDATE SET n = "document_assignments_counts".n + excluded.n;
    INSERT INTO "document_assignments_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "document_assignments_state_counts".n + excluded.n;
  ELSE
    INSERT INTO "document_assignments_counts" ("status", "user_id", "assigned_by", n) SELECT "status", "user_id", "assigned_by", sum(d)::int FROM (SELECT "status", "user_id", "assigned_by", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", "assigned_by", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id", "assigned_by" HAVING sum(d) <> 0 ORDER BY "status", "user_id", "assigned_by" ON CONFLICT ("status", "user_id", "assigned_by") DO UPDATE SET n = "document_assignments_counts".n + excluded.n;
    INSERT INTO "document_assignments_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "document_assignments_state_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "document_assignments_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "document_assignments_counts";
  DELETE FROM "document_assignments_state_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "document_assignments_state_counts" ("status", "slot", n) SELECT "status", 0, count(*)::int FROM "document_assignments" GROUP BY "status";
--> statement-breakpoint
CREATE TABLE "requests_state_counts" ("status" varchar(30), "slot" smallint NOT NULL, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "requests_state_counts_key" ON "requests_state_counts" ("status", "slot") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "requests_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "requests_counts" ("status", "created_by", "assign_to", n) SELECT "status", "created_by", "assign_to", count(*)::int FROM new_rows GROUP BY "status", "created_by", "assign_to" ORDER BY "status", "created_by", "assign_to" ON CONFLICT ("status", "created_by", "assign_to") DO UPDATE SET n = "requests_counts".n + excluded.n;
    INSERT INTO "requests_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "requests_state_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "requests_counts" ("status", "created_by", "assign_to", n) SELECT "status", "created_by", "assign_to", -count(*)::int FROM old_rows GROUP BY "status", "created_by", "assign_to" ORDER BY "status", "created_by", "assign_to" ON CONFLICT ("status", "created_by", "assign_to") DO UPDATE SET n = "requests_counts".n + excluded.n;
    INSERT INTO "requests_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "requests_state_counts".n + excluded.n;
  ELSE
    INSERT INTO "requests_counts" ("status", "created_by", "assign_to", n) SELECT "status", "created_by", "assign_to", sum(d)::int FROM (SELECT "status", "created_by", "assign_to", 1 AS d FROM new_rows UNION ALL SELECT "status", "created_by", "assign_to", -1 AS d FROM old_rows) moved GROUP BY "status", "created_by", "assign_to" HAVING sum(d) <> 0 ORDER BY "status", "created_by", "assign_to" ON CONFLICT ("status", "created_by", "assign_to") DO UPDATE SET n = "requests_counts".n + excluded.n;
    INSERT INTO "requests_state_counts" ("status", "slot", n) SELECT "status", (pg_backend_pid() % 32)::smallint, sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status", "slot") DO UPDATE SET n = "requests_state_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "requests_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "requests_counts";
  DELETE FROM "requests_state_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "requests_state_counts" ("status", "slot", n) SELECT "status", 0, count(*)::int FROM "requests" GROUP BY "status";
