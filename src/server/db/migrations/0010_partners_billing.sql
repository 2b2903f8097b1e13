-- Issue 11: partner firms own their records and may have several logins. The login table
-- "partners" becomes "partner_accounts" (account type partner, unchanged ids: tokens, roles and
-- notifications still point at the same logins) and "partners" is now the firm. Each existing login
-- gets a firm of its own, with the login's id, named after its company.
ALTER TABLE "partners" RENAME TO "partner_accounts";--> statement-breakpoint
ALTER TABLE "partner_accounts" RENAME CONSTRAINT "partners_pkey" TO "partner_accounts_pkey";--> statement-breakpoint
ALTER SEQUENCE "partners_id_seq" RENAME TO "partner_accounts_id_seq";--> statement-breakpoint
ALTER INDEX "partners_email_unique" RENAME TO "partner_accounts_email_unique";--> statement-breakpoint
CREATE TABLE "partners" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"contact_name" varchar(255),
	"email" varchar(255) NOT NULL,
	"phone" varchar(30),
	"address" text,
	"country_id" integer,
	"city_id" integer,
	"tax_id" varchar(60),
	"payment_terms_days" integer DEFAULT 30 NOT NULL,
	"account_manager_id" integer,
	"status" varchar(10) DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "partner_engineers" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"rate_type" varchar(10) NOT NULL,
	"rate" numeric(14, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "partner_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"pre_billing_id" integer NOT NULL,
	"invoice_number" varchar(60) NOT NULL,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"tax" numeric(14, 2) DEFAULT 0 NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(30) DEFAULT 'pending' NOT NULL,
	"payment_date" date,
	"submitted_by" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "pre_billing_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"pre_billing_id" integer NOT NULL,
	"engineer_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"quantity" numeric(7, 2) NOT NULL,
	"rate_type" varchar(10) NOT NULL,
	"rate" numeric(14, 2) NOT NULL,
	"amount" numeric(14, 2) NOT NULL
);--> statement-breakpoint
CREATE TABLE "pre_billing_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"pre_billing_id" integer NOT NULL,
	"version" integer NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"lines" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "pre_billings" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"month" date NOT NULL,
	"currency" varchar(3) NOT NULL,
	"total" numeric(14, 2) DEFAULT 0 NOT NULL,
	"note" text,
	"status" varchar(30) DEFAULT 'pending' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"submitted_by" integer,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
INSERT INTO "partners" ("id", "name", "email", "phone", "status", "created_at", "updated_at")
  SELECT "id", coalesce(nullif("company_name", ''), "name") || CASE WHEN count(*) OVER (PARTITION BY lower(coalesce(nullif("company_name", ''), "name"))) > 1 THEN ' (' || "id" || ')' ELSE '' END,
    "email", "phone", "status", "created_at", "updated_at"
  FROM "partner_accounts";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"partners"', 'id'), coalesce((SELECT max("id") FROM "partners"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD COLUMN "partner_id" integer;--> statement-breakpoint
UPDATE "partner_accounts" SET "partner_id" = "id";--> statement-breakpoint
ALTER TABLE "partner_accounts" ALTER COLUMN "partner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "partner_accounts" DROP COLUMN "company_name";--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD CONSTRAINT "partner_accounts_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_accounts_partner_id_index" ON "partner_accounts" USING btree ("partner_id");--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_account_manager_id_users_id_fk" FOREIGN KEY ("account_manager_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_engineers" ADD CONSTRAINT "partner_engineers_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_engineers" ADD CONSTRAINT "partner_engineers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_invoices" ADD CONSTRAINT "partner_invoices_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_invoices" ADD CONSTRAINT "partner_invoices_pre_billing_id_pre_billings_id_fk" FOREIGN KEY ("pre_billing_id") REFERENCES "public"."pre_billings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_invoices" ADD CONSTRAINT "partner_invoices_submitted_by_partner_accounts_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."partner_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_invoices" ADD CONSTRAINT "partner_invoices_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_billing_lines" ADD CONSTRAINT "pre_billing_lines_pre_billing_id_pre_billings_id_fk" FOREIGN KEY ("pre_billing_id") REFERENCES "public"."pre_billings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_billing_lines" ADD CONSTRAINT "pre_billing_lines_engineer_id_partner_engineers_id_fk" FOREIGN KEY ("engineer_id") REFERENCES "public"."partner_engineers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_billing_lines" ADD CONSTRAINT "pre_billing_lines_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_billing_versions" ADD CONSTRAINT "pre_billing_versions_pre_billing_id_pre_billings_id_fk" FOREIGN KEY ("pre_billing_id") REFERENCES "public"."pre_billings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_billings" ADD CONSTRAINT "pre_billings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_billings" ADD CONSTRAINT "pre_billings_submitted_by_partner_accounts_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."partner_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pre_billings" ADD CONSTRAINT "pre_billings_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partners_name_unique" ON "partners" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "partners_country_id_index" ON "partners" USING btree ("country_id");--> statement-breakpoint
CREATE INDEX "partners_city_id_index" ON "partners" USING btree ("city_id");--> statement-breakpoint
CREATE INDEX "partners_account_manager_id_index" ON "partners" USING btree ("account_manager_id");--> statement-breakpoint
CREATE INDEX "partner_engineers_partner" ON "partner_engineers" USING btree ("partner_id","user_id");--> statement-breakpoint
CREATE INDEX "partner_engineers_user_id_index" ON "partner_engineers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_invoices_number" ON "partner_invoices" USING btree ("partner_id",lower("invoice_number"));--> statement-breakpoint
CREATE UNIQUE INDEX "partner_invoices_pre_billing" ON "partner_invoices" USING btree ("pre_billing_id");--> statement-breakpoint
CREATE INDEX "partner_invoices_partner" ON "partner_invoices" USING btree ("partner_id","id");--> statement-breakpoint
CREATE INDEX "partner_invoices_status" ON "partner_invoices" USING btree ("status","due_date");--> statement-breakpoint
CREATE INDEX "pre_billing_lines_pre_billing" ON "pre_billing_lines" USING btree ("pre_billing_id");--> statement-breakpoint
CREATE INDEX "pre_billing_lines_engineer_id_index" ON "pre_billing_lines" USING btree ("engineer_id");--> statement-breakpoint
CREATE INDEX "pre_billing_lines_client_id_index" ON "pre_billing_lines" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pre_billing_versions_version" ON "pre_billing_versions" USING btree ("pre_billing_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "pre_billings_partner_month" ON "pre_billings" USING btree ("partner_id","month");--> statement-breakpoint
CREATE INDEX "pre_billings_status" ON "pre_billings" USING btree ("status","month");--> statement-breakpoint
CREATE INDEX "pre_billings_month" ON "pre_billings" USING btree ("month","id");
