CREATE TABLE "notification_preferences" (
	"account_type" varchar(10) NOT NULL,
	"account_id" integer NOT NULL,
	"channels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_digest" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_account_type_account_id_pk" PRIMARY KEY("account_type","account_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "kind" varchar(60) DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "is_in_app" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "mail" varchar(10);