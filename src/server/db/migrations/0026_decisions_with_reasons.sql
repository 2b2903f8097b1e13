ALTER TABLE "deals" ADD COLUMN "lost_reason" varchar(500);--> statement-breakpoint
ALTER TABLE "candidates" ADD COLUMN "data_consent_at" timestamp with time zone;