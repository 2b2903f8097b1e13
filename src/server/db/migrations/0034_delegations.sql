CREATE TABLE "delegations" (
	"id" serial PRIMARY KEY NOT NULL,
	"manager_id" integer NOT NULL,
	"delegate_id" integer NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"note" text,
	"created_by" integer,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delegations_range" CHECK ("delegations"."ends_on" >= "delegations"."starts_on"),
	CONSTRAINT "delegations_not_self" CHECK ("delegations"."delegate_id" <> "delegations"."manager_id")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "on_behalf_of_name" varchar(255);--> statement-breakpoint
ALTER TABLE "workflow_history" ADD COLUMN "on_behalf_of_id" integer;--> statement-breakpoint
ALTER TABLE "workflow_history" ADD COLUMN "on_behalf_of_name" varchar(255);--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegate_id_users_id_fk" FOREIGN KEY ("delegate_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delegations_delegate" ON "delegations" USING btree ("delegate_id","ends_on");--> statement-breakpoint
CREATE INDEX "delegations_manager" ON "delegations" USING btree ("manager_id","ends_on");