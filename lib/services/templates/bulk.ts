import "server-only";
import { and, asc, isNotNull } from "drizzle-orm";
import { templates } from "@/db/schema";
import type { EndpointAuditAction } from "@/lib/contracts/audit/actions";
import { DomainError, nestedProblem } from "@/lib/contracts/errors";
import type { OwnerScope } from "@/lib/contracts/scope";
import { silentAudit } from "@/lib/services/audit/record";
import type { ServiceContext } from "@/lib/services/context";
import { type TemplateWire, templatesIn } from "./templates";
import { checkOne, updateOne } from "./upstream";

/**
 * Bulk checks and updates over every installed template of one scope (CONTRACT §13). One
 * template's failure is its own `problem` and never stops the others; only a database
 * outage (not a DomainError) fails the whole call. Templates are handled one after another
 * with one shared `since`, so all templates of one source share one conditional catalog
 * request (CONTRACT §12).
 *
 * Each template is written in its own transaction, with no entry of its own (a silent audit):
 * the call records ONE entry when it is done, about every template at once — target
 * {type: "template", id: "*"}, `before` the templates the call wrote as they were, `after` the
 * same templates (in the same order) as the call left them. A check writes the update status
 * (latest_revision, update_checked_at), so every template checked is in it; none written, both
 * are empty arrays.
 */
const asProblem = (error: unknown) => {
  if (error instanceof DomainError) return nestedProblem(error);
  throw error;
};

async function installedTemplates(ctx: ServiceContext, scope: OwnerScope) {
  return ctx.db
    .select({ id: templates.id, sourceRevision: templates.sourceRevision })
    .from(templates)
    .where(and(templatesIn(scope), isNotNull(templates.sourceName)))
    .orderBy(asc(templates.id));
}

/** The written templates of a bulk call, before and after, for its one audit entry. */
function changes() {
  const before: TemplateWire[] = [];
  const after: TemplateWire[] = [];
  return {
    add(written: { before: TemplateWire | null; after: TemplateWire | null }) {
      if (written.before === null || written.after === null) return;
      before.push(written.before);
      after.push(written.after);
    },
    record: (ctx: ServiceContext, action: EndpointAuditAction) =>
      ctx.audit.record({ action, target: { type: "template", id: "*" }, before, after }),
  };
}

/** POST T/check-updates. */
export async function checkAllForUpdates(ctx: ServiceContext, { scope }: { scope: OwnerScope }) {
  const each = { ...ctx, audit: silentAudit };
  const since = Date.now();
  const written = changes();
  const results = [];
  for (const row of await installedTemplates(ctx, scope)) {
    try {
      const checked = await checkOne(each, { scope, templateId: row.id, since });
      written.add(checked);
      results.push({
        id: row.id,
        has_update: checked.result.has_update,
        current_revision: checked.result.current_revision,
        latest_revision: checked.result.latest_revision,
        problem: null,
      });
    } catch (error) {
      results.push({
        id: row.id,
        has_update: false,
        current_revision: row.sourceRevision,
        latest_revision: null,
        problem: asProblem(error),
      });
    }
  }
  await written.record(ctx, "template.check_updates");
  return { results };
}

/** POST T/update-all: templates with local edits are skipped with their 409 unless `force`. */
export async function updateAllTemplates(ctx: ServiceContext, { scope, force }: { scope: OwnerScope; force: boolean }) {
  const each = { ...ctx, audit: silentAudit };
  const since = Date.now();
  const written = changes();
  const results = [];
  for (const row of await installedTemplates(ctx, scope)) {
    try {
      const outcome = await updateOne(each, { scope, templateId: row.id, force, since });
      written.add(outcome);
      results.push({
        id: row.id,
        updated: outcome.result.updated,
        previous_revision: outcome.result.previous_revision,
        new_revision: outcome.result.new_revision,
        problem: null,
      });
    } catch (error) {
      results.push({ id: row.id, updated: false, previous_revision: row.sourceRevision, new_revision: null, problem: asProblem(error) });
    }
  }
  await written.record(ctx, "template.update_all");
  return { results };
}
