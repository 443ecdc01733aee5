ALTER TABLE "audit_entries" ADD COLUMN "target_type" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "target_id" text;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "before" json;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD COLUMN "after" json;--> statement-breakpoint
CREATE INDEX "audit_entries_action_idx" ON "audit_entries" USING btree ("action","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_target_type_idx" ON "audit_entries" USING btree ("target_type","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("at");