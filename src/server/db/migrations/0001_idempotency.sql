CREATE TABLE "idempotency_keys" (
	"account_type" varchar(10) NOT NULL,
	"account_id" integer NOT NULL,
	"key" varchar(255) NOT NULL,
	"fingerprint" varchar(64) NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"content_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_type_account_id_key_pk" PRIMARY KEY("account_type","account_id","key")
);
