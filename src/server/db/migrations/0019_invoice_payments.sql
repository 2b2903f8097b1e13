CREATE TABLE "partner_invoice_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"payment_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"method" varchar(20) NOT NULL,
	"reference" varchar(100) NOT NULL,
	"recorded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "pre_billings_partner_month";--> statement-breakpoint
ALTER TABLE "pre_billings" ADD COLUMN "supplements_id" integer;--> statement-breakpoint
ALTER TABLE "partner_invoice_payments" ADD CONSTRAINT "partner_invoice_payments_invoice_id_partner_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."partner_invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_invoice_payments" ADD CONSTRAINT "partner_invoice_payments_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_invoice_payments_invoice" ON "partner_invoice_payments" USING btree ("invoice_id","payment_date");--> statement-breakpoint
ALTER TABLE "pre_billings" ADD CONSTRAINT "pre_billings_supplements_id_pre_billings_id_fk" FOREIGN KEY ("supplements_id") REFERENCES "public"."pre_billings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pre_billings_supplements_id_index" ON "pre_billings" USING btree ("supplements_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pre_billings_partner_month" ON "pre_billings" USING btree ("partner_id","month") WHERE "pre_billings"."supplements_id" is null;--> statement-breakpoint
-- Invoices marked paid before payments were itemised: one payment of their total on their payment date, so nothing reads as outstanding.
INSERT INTO "partner_invoice_payments" ("invoice_id", "payment_date", "amount", "method", "reference")
SELECT "id", coalesce("payment_date", "updated_at"::date), "total", 'other', 'Marked paid before payments were recorded'
FROM "partner_invoices" WHERE "status" = 'paid';
