CREATE TABLE "audit_entries" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"principal_type" text NOT NULL,
	"principal_id" text NOT NULL,
	"user_id" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"request_id" text NOT NULL,
	CONSTRAINT "audit_entries_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "bank_imports" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_id" text NOT NULL,
	"template" text NOT NULL,
	"source_revision" text,
	"applied_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"import_result" json NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"job" text PRIMARY KEY NOT NULL,
	"holder" text,
	"lease_until" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "template_versions" (
	"template_row_id" text NOT NULL,
	"version" integer NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"category" text,
	"integrations" text[] NOT NULL,
	"tags" text[] NOT NULL,
	"manifest" json NOT NULL,
	"source_revision" text,
	"locally_modified" boolean NOT NULL,
	CONSTRAINT "template_versions_template_row_id_version_pk" PRIMARY KEY("template_row_id","version")
);
--> statement-breakpoint
ALTER TABLE "template_sources" ADD COLUMN "catalog_fetched_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "template_sources" ADD COLUMN "catalog_error" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "latest_revision" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "update_checked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_row_id_templates_row_id_fk" FOREIGN KEY ("template_row_id") REFERENCES "public"."templates"("row_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entries_principal_idx" ON "audit_entries" USING btree ("principal_id","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_target_idx" ON "audit_entries" USING btree ("target","seq");--> statement-breakpoint
CREATE INDEX "bank_imports_bank_idx" ON "bank_imports" USING btree ("bank_id","applied_at");