ALTER TABLE "time_sheets" DROP CONSTRAINT "time_sheets_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "time_sheets" ADD CONSTRAINT "time_sheets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;