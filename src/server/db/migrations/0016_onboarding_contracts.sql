-- Issue 13: onboarding and offboarding with their checklists (templates admins maintain, tasks per
-- person), and client contracts under purchase orders with the people placed under them.
CREATE TABLE "onboardings" (
	"id" serial PRIMARY KEY NOT NULL,
	"person_name" varchar(255) NOT NULL,
	"email" varchar(255),
	"user_id" integer,
	"candidate_id" integer,
	"client_id" integer,
	"manager_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"status" varchar(40) DEFAULT 'Onboarding is in progress' NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "onboarding_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"phase" varchar(20) NOT NULL,
	"title" varchar(255) NOT NULL,
	"description" text,
	"due_after_days" integer DEFAULT 0 NOT NULL,
	"assignee_id" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"status" varchar(10) DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "onboarding_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"onboarding_id" integer NOT NULL,
	"template_id" integer,
	"phase" varchar(20) NOT NULL,
	"title" varchar(255) NOT NULL,
	"assignee_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"completion_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"po_number" varchar(60) NOT NULL,
	"client_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(30) DEFAULT 'Active' NOT NULL,
	"previous_contract_id" integer,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "contract_people" (
	"contract_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "contract_people_contract_id_user_id_pk" PRIMARY KEY("contract_id","user_id")
);--> statement-breakpoint
ALTER TABLE "onboardings" ADD CONSTRAINT "onboardings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboardings" ADD CONSTRAINT "onboardings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboardings" ADD CONSTRAINT "onboardings_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_templates" ADD CONSTRAINT "onboarding_templates_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_tasks" ADD CONSTRAINT "onboarding_tasks_onboarding_id_onboardings_id_fk" FOREIGN KEY ("onboarding_id") REFERENCES "public"."onboardings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_tasks" ADD CONSTRAINT "onboarding_tasks_template_id_onboarding_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."onboarding_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onboarding_tasks" ADD CONSTRAINT "onboarding_tasks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_previous_contract_id_contracts_id_fk" FOREIGN KEY ("previous_contract_id") REFERENCES "public"."contracts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_people" ADD CONSTRAINT "contract_people_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_people" ADD CONSTRAINT "contract_people_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "onboardings_status" ON "onboardings" USING btree ("status","start_date");--> statement-breakpoint
CREATE INDEX "onboardings_start_date" ON "onboardings" USING btree ("start_date","id");--> statement-breakpoint
CREATE INDEX "onboardings_manager_id" ON "onboardings" USING btree ("manager_id");--> statement-breakpoint
CREATE UNIQUE INDEX "onboardings_candidate_id" ON "onboardings" USING btree ("candidate_id");--> statement-breakpoint
CREATE INDEX "onboarding_templates_phase" ON "onboarding_templates" USING btree ("phase","sort_order");--> statement-breakpoint
CREATE INDEX "onboarding_tasks_onboarding_id" ON "onboarding_tasks" USING btree ("onboarding_id","due_date");--> statement-breakpoint
CREATE INDEX "onboarding_tasks_status_due" ON "onboarding_tasks" USING btree ("status","due_date");--> statement-breakpoint
CREATE INDEX "onboarding_tasks_assignee_id" ON "onboarding_tasks" USING btree ("assignee_id","status","due_date");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_po_number" ON "contracts" USING btree ("po_number");--> statement-breakpoint
CREATE INDEX "contracts_status_end" ON "contracts" USING btree ("status","end_date");--> statement-breakpoint
CREATE INDEX "contracts_end_date" ON "contracts" USING btree ("end_date","id");--> statement-breakpoint
CREATE INDEX "contracts_client_id" ON "contracts" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "contracts_previous_contract_id" ON "contracts" USING btree ("previous_contract_id");--> statement-breakpoint
CREATE INDEX "contract_people_user_id" ON "contract_people" USING btree ("user_id");
