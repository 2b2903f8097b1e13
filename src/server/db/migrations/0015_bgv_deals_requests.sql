-- Issue 13, part A: background-verification checks (of a candidate or an employee) with their
-- components, deals with clients, and service requests with their comment thread.
CREATE TABLE "bgv_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"candidate_id" integer,
	"user_id" integer,
	"vendor" varchar(255) NOT NULL,
	"initiated_on" date NOT NULL,
	"completed_on" date,
	"result" varchar(20) DEFAULT 'pending' NOT NULL,
	"notes" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bgv_checks_one_subject" CHECK (num_nonnulls("bgv_checks"."candidate_id", "bgv_checks"."user_id") = 1)
);--> statement-breakpoint
CREATE TABLE "bgv_check_components" (
	"id" serial PRIMARY KEY NOT NULL,
	"bgv_check_id" integer NOT NULL,
	"component" varchar(30) NOT NULL,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"remarks" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "deals" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(255) NOT NULL,
	"client_id" integer NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"stage" varchar(20) NOT NULL,
	"probability" smallint NOT NULL,
	"expected_close_date" date,
	"owner_id" integer NOT NULL,
	"next_step" varchar(255),
	"next_step_date" date,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "deal_pipeline_totals" (
	"stage" varchar(20) NOT NULL,
	"owner_id" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"count" integer NOT NULL,
	"value" numeric(16, 2) NOT NULL,
	"weighted" numeric(16, 2) NOT NULL,
	CONSTRAINT "deal_pipeline_totals_stage_owner_id_currency_pk" PRIMARY KEY("stage","owner_id","currency")
);--> statement-breakpoint
CREATE TABLE "requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_by" integer NOT NULL,
	"assign_to" integer,
	"title" varchar(255) NOT NULL,
	"status" varchar(30) NOT NULL,
	"requesting_partner" varchar(255),
	"euc_or_network" varchar(20) NOT NULL,
	"support_model" varchar(100),
	"client_name" varchar(255),
	"gps_contact" varchar(255),
	"delivery_contact" varchar(255),
	"contract_renewal_date" date,
	"country_id" integer,
	"city_id" integer,
	"estimated_start_date" date,
	"estimated_end_date" date,
	"request_type" varchar(100),
	"partner_id" integer,
	"priority" varchar(10) NOT NULL,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sow_start_date" date,
	"sow_end_date" date,
	"description" text,
	"comment" text,
	"last_status_updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "request_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"user_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "bgv_checks" ADD CONSTRAINT "bgv_checks_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bgv_checks" ADD CONSTRAINT "bgv_checks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bgv_checks" ADD CONSTRAINT "bgv_checks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bgv_check_components" ADD CONSTRAINT "bgv_check_components_bgv_check_id_bgv_checks_id_fk" FOREIGN KEY ("bgv_check_id") REFERENCES "public"."bgv_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_assign_to_users_id_fk" FOREIGN KEY ("assign_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_comments" ADD CONSTRAINT "request_comments_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_comments" ADD CONSTRAINT "request_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bgv_checks_candidate_id_index" ON "bgv_checks" USING btree ("candidate_id");--> statement-breakpoint
CREATE INDEX "bgv_checks_user_id_index" ON "bgv_checks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "bgv_checks_result_index" ON "bgv_checks" USING btree ("result","id");--> statement-breakpoint
CREATE INDEX "bgv_checks_initiated_on_index" ON "bgv_checks" USING btree ("initiated_on","id");--> statement-breakpoint
CREATE UNIQUE INDEX "bgv_check_components_check_component" ON "bgv_check_components" USING btree ("bgv_check_id","component");--> statement-breakpoint
CREATE INDEX "deals_stage_index" ON "deals" USING btree ("stage","id");--> statement-breakpoint
CREATE INDEX "deals_owner_id_index" ON "deals" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "deals_client_id_index" ON "deals" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "deals_expected_close_date_index" ON "deals" USING btree ("expected_close_date","id");--> statement-breakpoint
CREATE INDEX "requests_status_index" ON "requests" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "requests_assign_to_index" ON "requests" USING btree ("assign_to");--> statement-breakpoint
CREATE INDEX "requests_created_by_index" ON "requests" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "requests_partner_id_index" ON "requests" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "requests_country_id_index" ON "requests" USING btree ("country_id");--> statement-breakpoint
CREATE INDEX "requests_city_id_index" ON "requests" USING btree ("city_id");--> statement-breakpoint
CREATE INDEX "requests_created_at_index" ON "requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "request_comments_request_id_index" ON "request_comments" USING btree ("request_id","id");--> statement-breakpoint
-- The pipeline's totals follow every change of a deal in its own transaction (a weighted value is
-- rounded to cents per deal, as the list shows it); a TRUNCATE empties them.
CREATE OR REPLACE FUNCTION deals_keep_pipeline_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE deal_pipeline_totals SET count = count - 1, value = value - OLD.value, weighted = weighted - round(OLD.value * OLD.probability / 100.0, 2)
      WHERE stage = OLD.stage AND owner_id = OLD.owner_id AND currency = OLD.currency;
    DELETE FROM deal_pipeline_totals WHERE stage = OLD.stage AND owner_id = OLD.owner_id AND currency = OLD.currency AND count = 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO deal_pipeline_totals (stage, owner_id, currency, count, value, weighted)
      VALUES (NEW.stage, NEW.owner_id, NEW.currency, 1, NEW.value, round(NEW.value * NEW.probability / 100.0, 2))
      ON CONFLICT (stage, owner_id, currency) DO UPDATE SET count = deal_pipeline_totals.count + 1,
        value = deal_pipeline_totals.value + excluded.value, weighted = deal_pipeline_totals.weighted + excluded.weighted;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER deals_pipeline_totals AFTER INSERT OR UPDATE OR DELETE ON deals FOR EACH ROW EXECUTE FUNCTION deals_keep_pipeline_totals();--> statement-breakpoint
CREATE OR REPLACE FUNCTION deals_clear_pipeline_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM deal_pipeline_totals;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER deals_truncate_pipeline_totals AFTER TRUNCATE ON deals FOR EACH STATEMENT EXECUTE FUNCTION deals_clear_pipeline_totals();
