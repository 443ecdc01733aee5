CREATE TABLE "bank_restores" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_id" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"restored_from" text NOT NULL,
	"content" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_imports" ADD COLUMN "written" json;--> statement-breakpoint
CREATE INDEX "bank_restores_bank_idx" ON "bank_restores" USING btree ("bank_id","at");