CREATE TABLE "users_counts" ("user_type" varchar(10), "status" varchar(10), "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "users_counts_key" ON "users_counts" ("user_type", "status") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "users_counts" ("user_type", "status", n) SELECT "user_type", "status", count(*)::int FROM new_rows GROUP BY "user_type", "status" ORDER BY "user_type", "status" ON CONFLICT ("user_type", "status") DO UPDATE SET n = "users_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "users_counts" ("user_type", "status", n) SELECT "user_type", "status", -count(*)::int FROM old_rows GROUP BY "user_type", "status" ORDER BY "user_type", "status" ON CONFLICT ("user_type", "status") DO UPDATE SET n = "users_counts".n + excluded.n;
  ELSE
    INSERT INTO "users_counts" ("user_type", "status", n) SELECT "user_type", "status", sum(d)::int FROM (SELECT "user_type", "status", 1 AS d FROM new_rows UNION ALL SELECT "user_type", "status", -1 AS d FROM old_rows) moved GROUP BY "user_type", "status" HAVING sum(d) <> 0 ORDER BY "user_type", "status" ON CONFLICT ("user_type", "status") DO UPDATE SET n = "users_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_count_inserts" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "users_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "users_count_updates" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "users_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "users_count_deletes" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "users_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "users_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "users_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_clear_counts" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "users_clear_counts"();
--> statement-breakpoint
INSERT INTO "users_counts" ("user_type", "status", n) SELECT "user_type", "status", count(*)::int FROM "users" GROUP BY "user_type", "status";
--> statement-breakpoint
CREATE TABLE "positions_counts" ("status" varchar(10), "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "positions_counts_key" ON "positions_counts" ("status") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "positions_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "positions_counts" ("status", n) SELECT "status", count(*)::int FROM new_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status") DO UPDATE SET n = "positions_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "positions_counts" ("status", n) SELECT "status", -count(*)::int FROM old_rows GROUP BY "status" ORDER BY "status" ON CONFLICT ("status") DO UPDATE SET n = "positions_counts".n + excluded.n;
  ELSE
    INSERT INTO "positions_counts" ("status", n) SELECT "status", sum(d)::int FROM (SELECT "status", 1 AS d FROM new_rows UNION ALL SELECT "status", -1 AS d FROM old_rows) moved GROUP BY "status" HAVING sum(d) <> 0 ORDER BY "status" ON CONFLICT ("status") DO UPDATE SET n = "positions_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "positions_count_inserts" AFTER INSERT ON "positions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "positions_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "positions_count_updates" AFTER UPDATE ON "positions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "positions_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "positions_count_deletes" AFTER DELETE ON "positions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "positions_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "positions_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "positions_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "positions_clear_counts" AFTER TRUNCATE ON "positions" FOR EACH STATEMENT EXECUTE FUNCTION "positions_clear_counts"();
--> statement-breakpoint
INSERT INTO "positions_counts" ("status", n) SELECT "status", count(*)::int FROM "positions" GROUP BY "status";
--> statement-breakpoint
CREATE TABLE "leave_applications_counts" ("status" varchar(100), "user_id" integer, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "leave_applications_counts_key" ON "leave_applications_counts" ("status", "user_id") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "leave_applications_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "leave_applications_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM new_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "leave_applications_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "leave_applications_counts" ("status", "user_id", n) SELECT "status", "user_id", -count(*)::int FROM old_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "leave_applications_counts".n + excluded.n;
  ELSE
    INSERT INTO "leave_applications_counts" ("status", "user_id", n) SELECT "status", "user_id", sum(d)::int FROM (SELECT "status", "user_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id" HAVING sum(d) <> 0 ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "leave_applications_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "leave_applications_count_inserts" AFTER INSERT ON "leave_applications" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "leave_applications_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "leave_applications_count_updates" AFTER UPDATE ON "leave_applications" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "leave_applications_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "leave_applications_count_deletes" AFTER DELETE ON "leave_applications" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "leave_applications_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "leave_applications_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "leave_applications_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "leave_applications_clear_counts" AFTER TRUNCATE ON "leave_applications" FOR EACH STATEMENT EXECUTE FUNCTION "leave_applications_clear_counts"();
--> statement-breakpoint
INSERT INTO "leave_applications_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM "leave_applications" GROUP BY "status", "user_id";
--> statement-breakpoint
CREATE TABLE "expenses_counts" ("status" varchar(40), "user_id" integer, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "expenses_counts_key" ON "expenses_counts" ("status", "user_id") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "expenses_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "expenses_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM new_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "expenses_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "expenses_counts" ("status", "user_id", n) SELECT "status", "user_id", -count(*)::int FROM old_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "expenses_counts".n + excluded.n;
  ELSE
    INSERT INTO "expenses_counts" ("status", "user_id", n) SELECT "status", "user_id", sum(d)::int FROM (SELECT "status", "user_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id" HAVING sum(d) <> 0 ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "expenses_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "expenses_count_inserts" AFTER INSERT ON "expenses" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "expenses_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "expenses_count_updates" AFTER UPDATE ON "expenses" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "expenses_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "expenses_count_deletes" AFTER DELETE ON "expenses" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "expenses_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "expenses_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "expenses_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "expenses_clear_counts" AFTER TRUNCATE ON "expenses" FOR EACH STATEMENT EXECUTE FUNCTION "expenses_clear_counts"();
--> statement-breakpoint
INSERT INTO "expenses_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM "expenses" GROUP BY "status", "user_id";
--> statement-breakpoint
CREATE TABLE "time_sheets_counts" ("status" varchar(20), "user_id" integer, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "time_sheets_counts_key" ON "time_sheets_counts" ("status", "user_id") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "time_sheets_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "time_sheets_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM new_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "time_sheets_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "time_sheets_counts" ("status", "user_id", n) SELECT "status", "user_id", -count(*)::int FROM old_rows GROUP BY "status", "user_id" ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "time_sheets_counts".n + excluded.n;
  ELSE
    INSERT INTO "time_sheets_counts" ("status", "user_id", n) SELECT "status", "user_id", sum(d)::int FROM (SELECT "status", "user_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id" HAVING sum(d) <> 0 ORDER BY "status", "user_id" ON CONFLICT ("status", "user_id") DO UPDATE SET n = "time_sheets_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "time_sheets_count_inserts" AFTER INSERT ON "time_sheets" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "time_sheets_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "time_sheets_count_updates" AFTER UPDATE ON "time_sheets" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "time_sheets_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "time_sheets_count_deletes" AFTER DELETE ON "time_sheets" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "time_sheets_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "time_sheets_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "time_sheets_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "time_sheets_clear_counts" AFTER TRUNCATE ON "time_sheets" FOR EACH STATEMENT EXECUTE FUNCTION "time_sheets_clear_counts"();
--> statement-breakpoint
INSERT INTO "time_sheets_counts" ("status", "user_id", n) SELECT "status", "user_id", count(*)::int FROM "time_sheets" GROUP BY "status", "user_id";
--> statement-breakpoint
CREATE TABLE "pre_billings_counts" ("status" varchar(30), "partner_id" integer, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "pre_billings_counts_key" ON "pre_billings_counts" ("status", "partner_id") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pre_billings_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "pre_billings_counts" ("status", "partner_id", n) SELECT "status", "partner_id", count(*)::int FROM new_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "pre_billings_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "pre_billings_counts" ("status", "partner_id", n) SELECT "status", "partner_id", -count(*)::int FROM old_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "pre_billings_counts".n + excluded.n;
  ELSE
    INSERT INTO "pre_billings_counts" ("status", "partner_id", n) SELECT "status", "partner_id", sum(d)::int FROM (SELECT "status", "partner_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "partner_id", -1 AS d FROM old_rows) moved GROUP BY "status", "partner_id" HAVING sum(d) <> 0 ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "pre_billings_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "pre_billings_count_inserts" AFTER INSERT ON "pre_billings" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pre_billings_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "pre_billings_count_updates" AFTER UPDATE ON "pre_billings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "pre_billings_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "pre_billings_count_deletes" AFTER DELETE ON "pre_billings" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "pre_billings_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pre_billings_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "pre_billings_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "pre_billings_clear_counts" AFTER TRUNCATE ON "pre_billings" FOR EACH STATEMENT EXECUTE FUNCTION "pre_billings_clear_counts"();
--> statement-breakpoint
INSERT INTO "pre_billings_counts" ("status", "partner_id", n) SELECT "status", "partner_id", count(*)::int FROM "pre_billings" GROUP BY "status", "partner_id";
--> statement-breakpoint
CREATE TABLE "partner_invoices_counts" ("status" varchar(30), "partner_id" integer, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "partner_invoices_counts_key" ON "partner_invoices_counts" ("status", "partner_id") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoices_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "partner_invoices_counts" ("status", "partner_id", n) SELECT "status", "partner_id", count(*)::int FROM new_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "partner_invoices_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "partner_invoices_counts" ("status", "partner_id", n) SELECT "status", "partner_id", -count(*)::int FROM old_rows GROUP BY "status", "partner_id" ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "partner_invoices_counts".n + excluded.n;
  ELSE
    INSERT INTO "partner_invoices_counts" ("status", "partner_id", n) SELECT "status", "partner_id", sum(d)::int FROM (SELECT "status", "partner_id", 1 AS d FROM new_rows UNION ALL SELECT "status", "partner_id", -1 AS d FROM old_rows) moved GROUP BY "status", "partner_id" HAVING sum(d) <> 0 ORDER BY "status", "partner_id" ON CONFLICT ("status", "partner_id") DO UPDATE SET n = "partner_invoices_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_count_inserts" AFTER INSERT ON "partner_invoices" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_count_updates" AFTER UPDATE ON "partner_invoices" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_count_deletes" AFTER DELETE ON "partner_invoices" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "partner_invoices_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "partner_invoices_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "partner_invoices_clear_counts" AFTER TRUNCATE ON "partner_invoices" FOR EACH STATEMENT EXECUTE FUNCTION "partner_invoices_clear_counts"();
--> statement-breakpoint
INSERT INTO "partner_invoices_counts" ("status", "partner_id", n) SELECT "status", "partner_id", count(*)::int FROM "partner_invoices" GROUP BY "status", "partner_id";
--> statement-breakpoint
CREATE TABLE "document_assignments_counts" ("status" varchar(20), "user_id" integer, "assigned_by" integer, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "document_assignments_counts_key" ON "document_assignments_counts" ("status", "user_id", "assigned_by") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "document_assignments_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "document_assignments_counts" ("status", "user_id", "assigned_by", n) SELECT "status", "user_id", "assigned_by", count(*)::int FROM new_rows GROUP BY "status", "user_id", "assigned_by" ORDER BY "status", "user_id", "assigned_by" ON CONFLICT ("status", "user_id", "assigned_by") DO UPDATE SET n = "document_assignments_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "document_assignments_counts" ("status", "user_id", "assigned_by", n) SELECT "status", "user_id", "assigned_by", -count(*)::int FROM old_rows GROUP BY "status", "user_id", "assigned_by" ORDER BY "status", "user_id", "assigned_by" ON CONFLICT ("status", "user_id", "assigned_by") DO UPDATE SET n = "document_assignments_counts".n + excluded.n;
  ELSE
    INSERT INTO "document_assignments_counts" ("status", "user_id", "assigned_by", n) SELECT "status", "user_id", "assigned_by", sum(d)::int FROM (SELECT "status", "user_id", "assigned_by", 1 AS d FROM new_rows UNION ALL SELECT "status", "user_id", "assigned_by", -1 AS d FROM old_rows) moved GROUP BY "status", "user_id", "assigned_by" HAVING sum(d) <> 0 ORDER BY "status", "user_id", "assigned_by" ON CONFLICT ("status", "user_id", "assigned_by") DO UPDATE SET n = "document_assignments_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "document_assignments_count_inserts" AFTER INSERT ON "document_assignments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "document_assignments_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "document_assignments_count_updates" AFTER UPDATE ON "document_assignments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "document_assignments_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "document_assignments_count_deletes" AFTER DELETE ON "document_assignments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "document_assignments_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "document_assignments_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "document_assignments_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "document_assignments_clear_counts" AFTER TRUNCATE ON "document_assignments" FOR EACH STATEMENT EXECUTE FUNCTION "document_assignments_clear_counts"();
--> statement-breakpoint
INSERT INTO "document_assignments_counts" ("status", "user_id", "assigned_by", n) SELECT "status", "user_id", "assigned_by", count(*)::int FROM "document_assignments" GROUP BY "status", "user_id", "assigned_by";
--> statement-breakpoint
CREATE TABLE "requests_counts" ("status" varchar(30), "created_by" integer, "assign_to" integer, "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "requests_counts_key" ON "requests_counts" ("status", "created_by", "assign_to") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "requests_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "requests_counts" ("status", "created_by", "assign_to", n) SELECT "status", "created_by", "assign_to", count(*)::int FROM new_rows GROUP BY "status", "created_by", "assign_to" ORDER BY "status", "created_by", "assign_to" ON CONFLICT ("status", "created_by", "assign_to") DO UPDATE SET n = "requests_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "requests_counts" ("status", "created_by", "assign_to", n) SELECT "status", "created_by", "assign_to", -count(*)::int FROM old_rows GROUP BY "status", "created_by", "assign_to" ORDER BY "status", "created_by", "assign_to" ON CONFLICT ("status", "created_by", "assign_to") DO UPDATE SET n = "requests_counts".n + excluded.n;
  ELSE
    INSERT INTO "requests_counts" ("status", "created_by", "assign_to", n) SELECT "status", "created_by", "assign_to", sum(d)::int FROM (SELECT "status", "created_by", "assign_to", 1 AS d FROM new_rows UNION ALL SELECT "status", "created_by", "assign_to", -1 AS d FROM old_rows) moved GROUP BY "status", "created_by", "assign_to" HAVING sum(d) <> 0 ORDER BY "status", "created_by", "assign_to" ON CONFLICT ("status", "created_by", "assign_to") DO UPDATE SET n = "requests_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "requests_count_inserts" AFTER INSERT ON "requests" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "requests_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "requests_count_updates" AFTER UPDATE ON "requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "requests_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "requests_count_deletes" AFTER DELETE ON "requests" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "requests_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "requests_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "requests_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "requests_clear_counts" AFTER TRUNCATE ON "requests" FOR EACH STATEMENT EXECUTE FUNCTION "requests_clear_counts"();
--> statement-breakpoint
INSERT INTO "requests_counts" ("status", "created_by", "assign_to", n) SELECT "status", "created_by", "assign_to", count(*)::int FROM "requests" GROUP BY "status", "created_by", "assign_to";
--> statement-breakpoint
CREATE TABLE "candidates_counts" ("stage" varchar(30), "n" integer NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "candidates_counts_key" ON "candidates_counts" ("stage") NULLS NOT DISTINCT;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "candidates_keep_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "candidates_counts" ("stage", n) SELECT "stage", count(*)::int FROM new_rows GROUP BY "stage" ORDER BY "stage" ON CONFLICT ("stage") DO UPDATE SET n = "candidates_counts".n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "candidates_counts" ("stage", n) SELECT "stage", -count(*)::int FROM old_rows GROUP BY "stage" ORDER BY "stage" ON CONFLICT ("stage") DO UPDATE SET n = "candidates_counts".n + excluded.n;
  ELSE
    INSERT INTO "candidates_counts" ("stage", n) SELECT "stage", sum(d)::int FROM (SELECT "stage", 1 AS d FROM new_rows UNION ALL SELECT "stage", -1 AS d FROM old_rows) moved GROUP BY "stage" HAVING sum(d) <> 0 ORDER BY "stage" ON CONFLICT ("stage") DO UPDATE SET n = "candidates_counts".n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "candidates_count_inserts" AFTER INSERT ON "candidates" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "candidates_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "candidates_count_updates" AFTER UPDATE ON "candidates" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "candidates_keep_counts"();
--> statement-breakpoint
CREATE TRIGGER "candidates_count_deletes" AFTER DELETE ON "candidates" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "candidates_keep_counts"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "candidates_clear_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "candidates_counts";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "candidates_clear_counts" AFTER TRUNCATE ON "candidates" FOR EACH STATEMENT EXECUTE FUNCTION "candidates_clear_counts"();
--> statement-breakpoint
INSERT INTO "candidates_counts" ("stage", n) SELECT "stage", count(*)::int FROM "candidates" GROUP BY "stage";
