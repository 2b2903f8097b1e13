-- The dashboard's figures over 100,000-record lists (docs/benchmarks.md "Dashboard"): index-only
-- counts for the requests assigned to the caller by status, the approved invoices' totals per
-- currency, the onboardings with an overdue task (the pending tasks past due), and the requests by
-- status and candidates by stage (narrow indexes: a count scans every entry).
CREATE INDEX "requests_assign_to_status_index" ON "requests" USING btree ("assign_to","status");--> statement-breakpoint
CREATE INDEX "requests_status_count_index" ON "requests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "partner_invoices_status_currency" ON "partner_invoices" USING btree ("status","currency","total");--> statement-breakpoint
CREATE INDEX "onboarding_tasks_pending_due" ON "onboarding_tasks" USING btree ("due_date","onboarding_id") WHERE "onboarding_tasks"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "candidates_stage_count_index" ON "candidates" USING btree ("stage");
