CREATE TABLE "push_deliveries" (
	"notification_id" uuid NOT NULL,
	"subscription_id" integer NOT NULL,
	"sent_for" timestamp with time zone NOT NULL,
	CONSTRAINT "push_deliveries_notification_id_subscription_id_pk" PRIMARY KEY("notification_id","subscription_id")
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_type" varchar(10) NOT NULL,
	"account_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" varchar(200) NOT NULL,
	"auth" varchar(100) NOT NULL,
	"user_agent" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_deliveries" ADD CONSTRAINT "push_deliveries_subscription_id_push_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."push_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_account_endpoint" ON "push_subscriptions" USING btree ("account_type","account_id","endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_account" ON "push_subscriptions" USING btree ("account_type","account_id");