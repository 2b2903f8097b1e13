CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_type" varchar(10),
	"actor_id" integer,
	"actor_name" varchar(255),
	"action" varchar(12) NOT NULL,
	"resource" varchar(60) NOT NULL,
	"record_id" integer,
	"record_title" varchar(255),
	"changes" jsonb NOT NULL,
	"transition" varchar(60)
);
--> statement-breakpoint
CREATE INDEX "audit_log_created" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_record" ON "audit_log" USING btree ("resource","record_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_resource" ON "audit_log" USING btree ("resource","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_type","actor_id","created_at","id");