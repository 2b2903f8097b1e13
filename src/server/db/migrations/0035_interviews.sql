CREATE TABLE "interviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"candidate_id" integer NOT NULL,
	"stage" varchar(30) NOT NULL,
	"scheduled_on" varchar(10) NOT NULL,
	"start_time" varchar(5) NOT NULL,
	"duration_minutes" smallint NOT NULL,
	"time_zone" varchar(64) NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"interviewer_ids" jsonb NOT NULL,
	"location" varchar(500) NOT NULL,
	"notes" text,
	"status" varchar(20) DEFAULT 'scheduled' NOT NULL,
	"ics_uid" varchar(100) NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offer_letters" (
	"id" serial PRIMARY KEY NOT NULL,
	"candidate_id" integer NOT NULL,
	"template_id" integer,
	"body" text NOT NULL,
	"start_date" varchar(10) NOT NULL,
	"rate" numeric(14, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"rate_period" varchar(10) NOT NULL,
	"status" varchar(20) DEFAULT 'sent' NOT NULL,
	"capability_link_id" integer,
	"signed_name" varchar(200),
	"responded_at" timestamp with time zone,
	"responded_ip" varchar(64),
	"decline_reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offer_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(150) NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scorecards" (
	"id" serial PRIMARY KEY NOT NULL,
	"interview_id" integer NOT NULL,
	"interviewer_id" integer NOT NULL,
	"ratings" jsonb NOT NULL,
	"strengths" text,
	"concerns" text,
	"recommendation" varchar(20) NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "scorecard_criteria" jsonb;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_letters" ADD CONSTRAINT "offer_letters_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_letters" ADD CONSTRAINT "offer_letters_template_id_offer_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."offer_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_letters" ADD CONSTRAINT "offer_letters_capability_link_id_capability_links_id_fk" FOREIGN KEY ("capability_link_id") REFERENCES "public"."capability_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_letters" ADD CONSTRAINT "offer_letters_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scorecards" ADD CONSTRAINT "scorecards_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scorecards" ADD CONSTRAINT "scorecards_interviewer_id_users_id_fk" FOREIGN KEY ("interviewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interviews_candidate_id_index" ON "interviews" USING btree ("candidate_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "interviews_ics_uid_unique" ON "interviews" USING btree ("ics_uid");--> statement-breakpoint
CREATE INDEX "offer_letters_candidate_id_index" ON "offer_letters" USING btree ("candidate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_templates_name_unique" ON "offer_templates" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "scorecards_interview_interviewer_unique" ON "scorecards" USING btree ("interview_id","interviewer_id");