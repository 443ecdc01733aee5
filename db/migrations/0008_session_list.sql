ALTER TABLE "console_sessions" ADD COLUMN "public_id" text DEFAULT ('ses_' || replace(gen_random_uuid()::text, '-', '')) NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "last_seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD COLUMN "browser" text;--> statement-breakpoint
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_public_id_unique" UNIQUE("public_id");