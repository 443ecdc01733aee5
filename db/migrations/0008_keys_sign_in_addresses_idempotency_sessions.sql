CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"sa_id" text,
	"principal_sa" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"state" text NOT NULL,
	"claim_id" text NOT NULL,
	"claimed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status" integer,
	"headers" json,
	"body" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_principal_sa_key_pk" PRIMARY KEY("user_id","principal_sa","key")
);
--> statement-breakpoint
CREATE TABLE "sign_in_addresses" (
	"user_id" text NOT NULL,
	"address" text NOT NULL,
	"last_success_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sign_in_addresses_user_id_address_pk" PRIMARY KEY("user_id","address")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scope" text DEFAULT 'write' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "public_id" text DEFAULT ('ses_' || replace(gen_random_uuid()::text, '-', '')) NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "browser" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_sa_id_service_accounts_owner_user_id_id_fk" FOREIGN KEY ("user_id","sa_id") REFERENCES "public"."service_accounts"("owner_user_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_addresses" ADD CONSTRAINT "sign_in_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sign_in_addresses_last_success_idx" ON "sign_in_addresses" USING btree ("last_success_at");--> statement-breakpoint
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_public_id_unique" UNIQUE("public_id");