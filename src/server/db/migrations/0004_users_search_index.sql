DROP INDEX "users_name_trgm";--> statement-breakpoint
DROP INDEX "users_email_trgm";--> statement-breakpoint
DROP INDEX "users_phone_trgm";--> statement-breakpoint
CREATE INDEX "users_search_trgm" ON "users" USING gin (lower(coalesce("name", '') || chr(1) || coalesce("email", '') || chr(1) || coalesce("phone", '')) gin_trgm_ops);