CREATE TABLE "migration_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"migration" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"reported_at" timestamp (3) with time zone
);
