-- Issue 10: the compliance document library. Library documents (their versions are the files of
-- their "file" field in attachments), their assignments to people, and people's own documents.
CREATE TABLE "library_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" varchar(255) NOT NULL,
	"category" varchar(20) NOT NULL,
	"action" varchar(20) NOT NULL,
	"description" text,
	"expiry_date" date,
	"status" varchar(10) DEFAULT 'active' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "document_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"assigned_by" integer,
	"due_date" date NOT NULL,
	"message" text,
	"status" varchar(20) NOT NULL,
	"version" integer NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "own_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" varchar(255) NOT NULL,
	"document_type" varchar(30) NOT NULL,
	"expiry_date" date,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "library_documents" ADD CONSTRAINT "library_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_document_id_library_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."library_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_assignments" ADD CONSTRAINT "document_assignments_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "own_documents" ADD CONSTRAINT "own_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "library_documents_title" ON "library_documents" USING btree ("title");--> statement-breakpoint
CREATE INDEX "library_documents_category" ON "library_documents" USING btree ("category");--> statement-breakpoint
CREATE INDEX "library_documents_expiry_date" ON "library_documents" USING btree ("expiry_date");--> statement-breakpoint
CREATE INDEX "document_assignments_user_status" ON "document_assignments" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "document_assignments_document" ON "document_assignments" USING btree ("document_id","status");--> statement-breakpoint
CREATE INDEX "document_assignments_status_due" ON "document_assignments" USING btree ("status","due_date");--> statement-breakpoint
CREATE INDEX "document_assignments_created_at" ON "document_assignments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "document_assignments_assigned_by" ON "document_assignments" USING btree ("assigned_by");--> statement-breakpoint
CREATE INDEX "own_documents_user" ON "own_documents" USING btree ("user_id","expiry_date");--> statement-breakpoint
CREATE INDEX "own_documents_expiry_date" ON "own_documents" USING btree ("expiry_date");
