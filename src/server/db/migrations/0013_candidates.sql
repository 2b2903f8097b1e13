-- Issue 12: candidates moved through the hiring stages (spec §4); assessments and background checks refer to them.
CREATE TABLE "candidates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"email" varchar(255) NOT NULL,
	"phone" varchar(30) NOT NULL,
	"position_id" integer NOT NULL,
	"current_company" varchar(255),
	"total_experience" numeric(4, 1),
	"relevant_experience" numeric(4, 1),
	"skills" varchar(1000),
	"skill_level" smallint,
	"grade_group" varchar(2),
	"currency" varchar(3),
	"current_cost" numeric(14, 2),
	"expected_cost" numeric(14, 2),
	"cost_rating" varchar(2),
	"notice_period_days" integer,
	"work_status" varchar(30),
	"country_id" integer,
	"city_id" integer,
	"source" varchar(100),
	"notes" text,
	"stage" varchar(30) DEFAULT 'Screening' NOT NULL,
	"stage_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recruiter_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_recruiter_id_users_id_fk" FOREIGN KEY ("recruiter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "candidates_email_unique" ON "candidates" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "candidates_phone_unique" ON "candidates" USING btree (regexp_replace("phone", '[^0-9]', '', 'g'));--> statement-breakpoint
CREATE INDEX "candidates_position_id_index" ON "candidates" USING btree ("position_id","stage","created_at");--> statement-breakpoint
CREATE INDEX "candidates_stage_index" ON "candidates" USING btree ("stage","created_at","id");--> statement-breakpoint
CREATE INDEX "candidates_recruiter_id_index" ON "candidates" USING btree ("recruiter_id");--> statement-breakpoint
CREATE INDEX "candidates_country_id_index" ON "candidates" USING btree ("country_id");--> statement-breakpoint
CREATE INDEX "candidates_city_id_index" ON "candidates" USING btree ("city_id");
