DROP INDEX "partner_invoices_partner";--> statement-breakpoint
CREATE INDEX "partner_invoices_partner" ON "partner_invoices" USING btree ("partner_id","created_at","id");