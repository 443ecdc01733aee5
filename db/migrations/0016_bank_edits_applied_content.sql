CREATE TABLE "bank_edits" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bank_id" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"before" json NOT NULL,
	"after" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_imports" ADD COLUMN "content" json;--> statement-breakpoint
CREATE INDEX "bank_edits_bank_idx" ON "bank_edits" USING btree ("bank_id","at");--> statement-breakpoint
-- CONTRACT §21: a bank knows its own edits by comparing its content with what its last import left,
-- now kept with each import (`content`). Before §21 nothing but an import wrote an embedded bank's
-- config, mental models and directives, so what each embedded bank holds now is exactly what its
-- newest import left: that import gets it, in the shape the embedded store records (`config`,
-- `mentalModels`, `directives`, each list in the bank's order; BankContents in
-- lib/services/banks/changes.ts). Older imports stay without (their content is not known), as do
-- the remote store's (Hindsight may have been written by others; a migration cannot ask it).
UPDATE "bank_imports" AS i
SET "content" = json_build_object(
  'config', b."config",
  'mentalModels', coalesce((SELECT json_agg(m."entry" ORDER BY m."position") FROM "bank_mental_models" AS m WHERE m."bank_id" = b."id"), '[]'::json),
  'directives', coalesce((SELECT json_agg(d."entry" ORDER BY d."position") FROM "bank_directives" AS d WHERE d."bank_id" = b."id"), '[]'::json)
)
FROM "banks" AS b
WHERE b."id" = i."bank_id"
  AND i."id" = (SELECT n."id" FROM "bank_imports" AS n WHERE n."bank_id" = b."id" ORDER BY n."applied_at" DESC LIMIT 1);
