CREATE TABLE "holiday_countries" (
	"id" serial PRIMARY KEY NOT NULL,
	"country_id" integer NOT NULL,
	"region" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "holidays" ADD COLUMN "source" varchar(10) DEFAULT 'firm' NOT NULL;--> statement-breakpoint
ALTER TABLE "holidays" ADD COLUMN "is_removed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "holiday_countries" ADD CONSTRAINT "holiday_countries_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "holiday_countries_country" ON "holiday_countries" USING btree ("country_id");--> statement-breakpoint
-- A firm that already keeps holidays for a country has made that country its own: the yearly job loads its public holidays too.
INSERT INTO "holiday_countries" ("country_id") SELECT DISTINCT "country_id" FROM "holidays" ON CONFLICT DO NOTHING;
