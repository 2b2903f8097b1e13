CREATE TABLE "reimbursement_batch_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"expense_id" integer NOT NULL,
	"is_released" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reimbursement_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference" varchar(20) NOT NULL,
	"status" varchar(20) DEFAULT 'open' NOT NULL,
	"paid_on" date,
	"payment_reference" varchar(60),
	"created_by" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bank_account_holder" varchar(140);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bank_account_number" varchar(42);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bank_code" varchar(14);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bank_details_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reimbursement_batch_claims" ADD CONSTRAINT "reimbursement_batch_claims_batch_id_reimbursement_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."reimbursement_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reimbursement_batch_claims" ADD CONSTRAINT "reimbursement_batch_claims_expense_id_expenses_id_fk" FOREIGN KEY ("expense_id") REFERENCES "public"."expenses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reimbursement_batches" ADD CONSTRAINT "reimbursement_batches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reimbursement_batches" ADD CONSTRAINT "reimbursement_batches_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reimbursement_batch_claims_live_unique" ON "reimbursement_batch_claims" USING btree ("expense_id") WHERE "reimbursement_batch_claims"."is_released" = false;--> statement-breakpoint
CREATE INDEX "reimbursement_batch_claims_batch" ON "reimbursement_batch_claims" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reimbursement_batches_reference_unique" ON "reimbursement_batches" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "reimbursement_batches_status" ON "reimbursement_batches" USING btree ("status","created_at");--> statement-breakpoint
-- Issue 21: finance (the default finance role) pays claims in batches. The seed grants new
-- permissions on the next start; an existing database gets the permission and the grant here, once.
-- On a fresh database no role exists yet and only the permission row is added (the seed then grants it).
INSERT INTO "permissions" ("name") VALUES ('can-reimburse-expense') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "role_has_permissions" ("role_id", "permission_id")
SELECT r."id", p."id" FROM "roles" r, "permissions" p
WHERE r."name" IN ('finance', 'admin') AND r."account_type" = 'app' AND p."name" = 'can-reimburse-expense'
ON CONFLICT DO NOTHING;
