ALTER TABLE "template_versions" ADD COLUMN "homepage_url" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "homepage_url" text;