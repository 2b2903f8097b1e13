CREATE TABLE "partner_bank_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner_id" integer NOT NULL,
	"account_holder" varchar(140) NOT NULL,
	"account_number" varchar(42) NOT NULL,
	"bank_code" varchar(14),
	"previous_account_holder" varchar(140),
	"previous_account_number" varchar(42),
	"previous_bank_code" varchar(14),
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"requested_by_id" integer,
	"requested_by_name" varchar(255) NOT NULL,
	"decided_by_id" integer,
	"decided_by_name" varchar(255),
	"decided_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "bank_account_holder" varchar(140);--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "bank_account_number" varchar(42);--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "bank_code" varchar(14);--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "bank_details_approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partner_bank_changes" ADD CONSTRAINT "partner_bank_changes_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_bank_changes" ADD CONSTRAINT "partner_bank_changes_requested_by_id_partner_accounts_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."partner_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_bank_changes" ADD CONSTRAINT "partner_bank_changes_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_bank_changes_partner_id_index" ON "partner_bank_changes" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_bank_changes_one_pending" ON "partner_bank_changes" USING btree ("partner_id") WHERE "partner_bank_changes"."status" = 'pending';