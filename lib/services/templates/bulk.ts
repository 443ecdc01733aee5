import "server-only";
import { and, asc, isNotNull } from "drizzle-orm";
import { templates } from "@/db/schema";
import { DomainError, nestedProblem } from "@/lib/contracts/errors";
import type { OwnerScope } from "@/lib/contracts/scope";
import { recordAudit } from "@/lib/services/audit/record";
import type { AppContext } from "@/lib/services/context";
import type { OperationOptions } from "@/lib/services/marketplace";
import { templatesIn } from "./templates";
import { checkForUpdate, updateTemplate } from "./upstream";

/**
 * Bulk checks and updates over every installed template of one scope (CONTRACT §13). One
 * template's failure is its own `problem` and never stops the others; only a database
 * outage (not a DomainError) fails the whole call. Templates are handled one after another
 * with one shared `since`, so all templates of one source share one conditional catalog
 * request (CONTRACT §12).
 */
const asProblem = (error: unknown) => {
  if (error instanceof DomainError) return nestedProblem(error);
  throw error;
};

async function installedTemplates(app: AppContext, scope: OwnerScope) {
  return app.db
    .select({ id: templates.id, sourceRevision: templates.sourceRevision })
    .from(templates)
    .where(and(templatesIn(scope), isNotNull(templates.sourceName)))
    .orderBy(asc(templates.id));
}

/** POST T/check-updates. */
export async function checkAllForUpdates(app: AppContext, scope: OwnerScope, operation: OperationOptions = {}) {
  const shared = { since: Date.now(), ...operation };
  const results = [];
  for (const row of await installedTemplates(app, scope)) {
    try {
      const checked = await checkForUpdate(app, scope, row.id, shared);
      results.push({
        id: row.id,
        has_update: checked.has_update,
        current_revision: checked.current_revision,
        latest_revision: checked.latest_revision,
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
  // One entry for the whole request; the checks wrote only status, template by template.
  await recordAudit(app.db);
  return { results };
}

/** POST T/update-all: templates with local edits are skipped with their 409 unless `force`. */
export async function updateAllTemplates(
  app: AppContext,
  scope: OwnerScope,
  force: boolean,
  actor: string,
  operation: OperationOptions = {},
) {
  const shared = { since: Date.now(), ...operation };
  const results = [];
  for (const row of await installedTemplates(app, scope)) {
    try {
      const outcome = await updateTemplate(app, scope, row.id, force, actor, shared);
      results.push({
        id: row.id,
        updated: outcome.updated,
        previous_revision: outcome.previous_revision,
        new_revision: outcome.new_revision,
        problem: null,
      });
    } catch (error) {
      results.push({ id: row.id, updated: false, previous_revision: row.sourceRevision, new_revision: null, problem: asProblem(error) });
    }
  }
  // The entry committed with the first template updated; when none was, it is recorded now (a no-op otherwise).
  await recordAudit(app.db);
  return { results };
}
