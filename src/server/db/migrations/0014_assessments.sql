-- Issue 12: timed online assessments. A send (assessments) opens one attempt, whose drawn questions
-- are copied into assessment_answers with the answers given.
CREATE TABLE "assessments" (
	"id" serial PRIMARY KEY NOT NULL,
	"candidate_id" integer NOT NULL,
	"question_category_ids" jsonb NOT NULL,
	"questions_per_level" jsonb NOT NULL,
	"duration_minutes" integer NOT NULL,
	"link_id" integer,
	"link_expires_at" timestamp with time zone NOT NULL,
	"sent_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "assessment_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"assessment_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"closed_reason" varchar(20),
	"tab_leaves" integer DEFAULT 0 NOT NULL,
	"question_count" integer NOT NULL,
	"correct_count" integer,
	"scores" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "assessment_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"attempt_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"question_category_id" integer NOT NULL,
	"category_name" varchar(150) NOT NULL,
	"skill_level" smallint NOT NULL,
	"question" text NOT NULL,
	"options" jsonb NOT NULL,
	"correct_answer" varchar(500) NOT NULL,
	"answer" varchar(500),
	"answered_at" timestamp with time zone,
	"is_correct" boolean
);--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_attempts" ADD CONSTRAINT "assessment_attempts_assessment_id_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_answers" ADD CONSTRAINT "assessment_answers_attempt_id_assessment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."assessment_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assessments_candidate_id_index" ON "assessments" USING btree ("candidate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_attempts_assessment_id_unique" ON "assessment_attempts" USING btree ("assessment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_answers_attempt_question_unique" ON "assessment_answers" USING btree ("attempt_id","question_id");
