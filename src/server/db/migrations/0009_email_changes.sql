CREATE TABLE "email_changes" (
	"account_type" varchar(10) NOT NULL,
	"account_id" integer NOT NULL,
	"email" varchar(255) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_changes_account_type_account_id_pk" PRIMARY KEY("account_type","account_id")
);
