CREATE TABLE "two_fa_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_type" varchar(10) NOT NULL,
	"account_id" integer NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD COLUMN "two_fa_secret" text;--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD COLUMN "two_fa_last_step" integer;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "requires_two_fa" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_fa_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_fa_last_step" integer;--> statement-breakpoint
CREATE INDEX "two_fa_recovery_codes_account" ON "two_fa_recovery_codes" USING btree ("account_type","account_id");