-- Decision 045: a subscription made before migration 0038 has no session, so nothing but the client's own
-- sign-out ever ended it. It goes; the same person's browser registers again when they turn it on.
DELETE FROM "push_subscriptions" WHERE "token_id" IS NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ALTER COLUMN "token_id" SET NOT NULL;
