CREATE TABLE "leave_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"leave_type_id" integer NOT NULL,
	"year" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"days" numeric(5, 1) NOT NULL,
	"effective_on" date NOT NULL,
	"expires_on" date,
	"reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leave_types" ADD COLUMN "accrual" varchar(10) DEFAULT 'yearly' NOT NULL;--> statement-breakpoint
ALTER TABLE "leave_types" ADD COLUMN "carry_forward_cap" numeric(5, 1) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leave_types" ADD COLUMN "carry_forward_expiry_month" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_leave_type_id_leave_types_id_fk" FOREIGN KEY ("leave_type_id") REFERENCES "public"."leave_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leave_ledger" ADD CONSTRAINT "leave_ledger_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leave_ledger_user_year_idx" ON "leave_ledger" USING btree ("user_id","year");--> statement-breakpoint
CREATE UNIQUE INDEX "leave_ledger_carried_unique" ON "leave_ledger" USING btree ("user_id","leave_type_id","year") WHERE "leave_ledger"."kind" = 'carried';