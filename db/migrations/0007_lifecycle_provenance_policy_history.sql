CREATE TABLE "bank_policy_changes" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_id" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"before" json,
	"after" json,
	"restored_from" text
);
--> statement-breakpoint
ALTER TABLE "bank_imports" ADD COLUMN "template_row" text;--> statement-breakpoint
ALTER TABLE "bank_imports" ADD COLUMN "template_version" integer;--> statement-breakpoint
ALTER TABLE "bank_imports" ADD COLUMN "locally_modified" boolean;--> statement-breakpoint
ALTER TABLE "banks" ADD COLUMN "last_applied_template_row" text;--> statement-breakpoint
ALTER TABLE "banks" ADD COLUMN "last_applied_version" integer;--> statement-breakpoint
ALTER TABLE "banks" ADD COLUMN "last_applied_locally_modified" boolean;--> statement-breakpoint
CREATE INDEX "bank_policy_changes_bank_idx" ON "bank_policy_changes" USING btree ("bank_id","at");--> statement-breakpoint
CREATE INDEX "banks_last_applied_template_row_idx" ON "banks" USING btree ("last_applied_template_row","id");