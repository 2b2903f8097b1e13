-- Capability links for the public pages (candidate form, assessments): only the token's hash is kept.
CREATE TABLE "capability_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"purpose" varchar(60) NOT NULL,
	"subject_id" integer NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_by" integer,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "capability_links" ADD CONSTRAINT "capability_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "capability_links_token_hash_unique" ON "capability_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "capability_links_subject" ON "capability_links" USING btree ("purpose","subject_id");
