CREATE TABLE "imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"resource" varchar(60) NOT NULL,
	"created_by" integer,
	"mode" varchar(10) NOT NULL,
	"rows_total" integer NOT NULL,
	"rows_imported" integer NOT NULL,
	"record_ids" jsonb NOT NULL,
	"invitations_total" integer DEFAULT 0 NOT NULL,
	"invitations_sent" integer DEFAULT 0 NOT NULL,
	"invitations_done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_search_trgm";--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "employee_id" varchar(50);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "job_title" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "department" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "join_date" date;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "exit_date" date;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "work_location_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_created_by_index" ON "imports" USING btree ("created_by");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_work_location_id_cities_id_fk" FOREIGN KEY ("work_location_id") REFERENCES "public"."cities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_employee_id_unique" ON "users" USING btree (lower("employee_id"));--> statement-breakpoint
CREATE INDEX "users_work_location_id_index" ON "users" USING btree ("work_location_id");--> statement-breakpoint
CREATE INDEX "users_department_index" ON "users" USING btree (lower("department"));--> statement-breakpoint
CREATE INDEX "users_search_trgm" ON "users" USING gin (lower(coalesce("name", '') || chr(1) || coalesce("email", '') || chr(1) || coalesce("phone", '') || chr(1) || coalesce("employee_id", '') || chr(1) || coalesce("job_title", '') || chr(1) || coalesce("department", '')) gin_trgm_ops);--> statement-breakpoint
-- Accounts that signed in before the column existed are not "never signed in": their last activity or newest token says they did.
UPDATE "users" SET "last_login_at" = coalesce("last_activity_at", (select max(t."created_at") from "personal_access_tokens" t where t."account_type" = 'app' and t."account_id" = "users"."id"));
