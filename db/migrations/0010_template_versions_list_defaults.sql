ALTER TABLE "template_versions" ALTER COLUMN "integrations" SET DEFAULT '{}'::text[];--> statement-breakpoint
ALTER TABLE "template_versions" ALTER COLUMN "tags" SET DEFAULT '{}'::text[];