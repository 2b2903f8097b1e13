ALTER TABLE "deals" ALTER COLUMN "client_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "prospect_name" varchar(255);--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_client_or_prospect" CHECK ("deals"."client_id" is not null or "deals"."prospect_name" is not null);