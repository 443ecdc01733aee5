CREATE TABLE "marketplace_fetch_leases" (
	"cache_key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_directives" ALTER COLUMN "entry" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "bank_mental_models" ALTER COLUMN "entry" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "bank_policies" ALTER COLUMN "document" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "banks" ALTER COLUMN "config" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "banks" ALTER COLUMN "config" SET DEFAULT '{}'::json;--> statement-breakpoint
ALTER TABLE "templates" ALTER COLUMN "manifest" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "marketplace_cache" ADD COLUMN "used_at" timestamp (3) with time zone DEFAULT now() NOT NULL;