-- Issue 21: a contract renewed by a new PO runs under its own PO until its end date, and only then
-- becomes 'Expired New PO Released'. Contracts moved there on the day their new PO was recorded, before
-- they ended, go back to Active (the daily expiry moves them on when they end); their history says so.
WITH reopened AS (
  UPDATE "contracts" SET "status" = 'Active', "updated_at" = now()
  WHERE "status" = 'Expired New PO Released' AND "end_date" > current_date
  RETURNING "id", to_char("end_date", 'YYYY-MM-DD') AS "end_date"
)
INSERT INTO "workflow_history" ("resource", "record_id", "transition", "from_status", "to_status", "comment")
SELECT 'contract', "id", 'reopen', 'Expired New PO Released', 'Active', 'Runs under its own PO until its end date, ' || "end_date" || '.'
FROM reopened;
