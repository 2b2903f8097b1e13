CREATE TABLE "onboarding_pending_due" (
	"onboarding_id" integer PRIMARY KEY NOT NULL,
	"due_date" date NOT NULL
);
--> statement-breakpoint
CREATE INDEX "onboarding_pending_due_date" ON "onboarding_pending_due" USING btree ("due_date","onboarding_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "onboarding_tasks_keep_pending_due"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    ids := ARRAY(SELECT DISTINCT "onboarding_id" FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    ids := ARRAY(SELECT DISTINCT "onboarding_id" FROM old_rows);
  ELSE
    -- An update that leaves the status, due date and onboarding alone moves no earliest date.
    ids := ARRAY(SELECT DISTINCT unnest(ARRAY[n."onboarding_id", o."onboarding_id"]) FROM new_rows n JOIN old_rows o ON o."id" = n."id"
      WHERE (n."onboarding_id", n."status", n."due_date") IS DISTINCT FROM (o."onboarding_id", o."status", o."due_date"));
  END IF;
  IF cardinality(ids) = 0 THEN RETURN NULL; END IF;
  -- Writers of one onboarding's tasks take turns (in id order, so they cannot deadlock): the recount
  -- below then sees the other's committed tasks, and the last to write counts last.
  PERFORM 1 FROM "onboardings" WHERE "id" = ANY(ids) ORDER BY "id" FOR NO KEY UPDATE;
  DELETE FROM "onboarding_pending_due" WHERE "onboarding_id" = ANY(ids);
  INSERT INTO "onboarding_pending_due" ("onboarding_id", "due_date")
    SELECT "onboarding_id", min("due_date") FROM "onboarding_tasks" WHERE "onboarding_id" = ANY(ids) AND "status" = 'pending' GROUP BY "onboarding_id";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "onboarding_tasks_pending_due_inserts" AFTER INSERT ON "onboarding_tasks" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "onboarding_tasks_keep_pending_due"();
--> statement-breakpoint
CREATE TRIGGER "onboarding_tasks_pending_due_updates" AFTER UPDATE ON "onboarding_tasks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "onboarding_tasks_keep_pending_due"();
--> statement-breakpoint
CREATE TRIGGER "onboarding_tasks_pending_due_deletes" AFTER DELETE ON "onboarding_tasks" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "onboarding_tasks_keep_pending_due"();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "onboarding_tasks_clear_pending_due"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "onboarding_pending_due";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "onboarding_tasks_clear_pending_due" AFTER TRUNCATE ON "onboarding_tasks" FOR EACH STATEMENT EXECUTE FUNCTION "onboarding_tasks_clear_pending_due"();
--> statement-breakpoint
INSERT INTO "onboarding_pending_due" ("onboarding_id", "due_date")
  SELECT "onboarding_id", min("due_date") FROM "onboarding_tasks" WHERE "status" = 'pending' GROUP BY "onboarding_id";
