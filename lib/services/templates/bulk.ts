import "server-only";
import { and, asc, isNotNull } from "drizzle-orm";
import type { z } from "zod";
import { templates } from "@/db/schema";
import type { EndpointAuditAction } from "@/lib/contracts/audit-actions";
import { DomainError, nestedProblem } from "@/lib/contracts/errors";
import type { NestedProblem } from "@/lib/contracts/problem-schema";
import type { OwnerScope } from "@/lib/contracts/scope";
import type { CheckUpdatesResult, UpdateAllResult } from "@/lib/contracts/templates/schemas";
import { type ServiceContext, silentAudit, withTransaction } from "@/lib/services/context";
import { type TemplateWire, templatesIn } from "./templates";
import { type PendingWrite, prepareCheck, prepareUpdate, type Written } from "./upstream";

/**
 * Bulk checks and updates over every installed template of one scope (CONTRACT §13). One
 * template's failure is its own `problem` and never stops the others; only a database
 * outage (not a DomainError) fails the whole call. Templates are asked about one after another
 * within one call (one ServiceContext.startedAt), so all templates of one source share one
 * conditional catalog request (CONTRACT §12).
 *
 * The call records ONE entry, about every template at once — target {type: "template", id: "*"},
 * `before` the templates the call wrote as they were, `after` the same templates (in the same
 * order) as the call left them. A check writes the update status (latest_revision,
 * update_checked_at), so every template checked is in it; none written, both are empty arrays.
 *
 * So that entry commits with the writes it lists, the call asks the marketplace about every
 * template first, outside any transaction (no lock is held across a network call), then writes
 * them all and records the entry in one transaction: a call that fails halfway (a crash, a lost
 * database) leaves neither. The writes hold their templates until the call commits, for local
 * work only. An entry per template, each in its own transaction, would keep the same promise,
 * but the log shows a bulk call as one entry (docs/api-decisions.md); and the one entry
 * rewritten in each template's transaction to hold the templates so far would write the whole
 * list again for every template.
 */
const asProblem = (error: unknown) => {
  if (error instanceof DomainError) return nestedProblem(error);
  throw error;
};

interface InstalledTemplate {
  id: string;
  sourceRevision: string | null;
}

async function installedTemplates(ctx: ServiceContext, scope: OwnerScope): Promise<InstalledTemplate[]> {
  return ctx.db
    .select({ id: templates.id, sourceRevision: templates.sourceRevision })
    .from(templates)
    .where(and(templatesIn(scope), isNotNull(templates.sourceName)))
    .orderBy(asc(templates.id));
}

type CheckedTemplate = z.input<typeof CheckUpdatesResult>["results"][number];
type UpdatedTemplate = z.input<typeof UpdateAllResult>["results"][number];

/** A template of the call, once the marketplace was asked: its write, or why it has none. */
type Prepared<R> = { row: InstalledTemplate; write: PendingWrite<Written<R>> } | { row: InstalledTemplate; problem: NestedProblem };

/** How a bulk call answers for each template: written, or refused with its problem. */
interface Answers<R, A> {
  written(row: InstalledTemplate, result: R): A;
  refused(row: InstalledTemplate, problem: NestedProblem): A;
}

/**
 * Asks about every installed template of the scope, one after another (`prepare`), then runs
 * their writes and records the call's entry in one transaction. Each template's write runs in a
 * savepoint with no entry of its own: a refusal there undoes that template's writes alone.
 */
async function writeEveryTemplate<R, A>(
  ctx: ServiceContext,
  { scope, action }: { scope: OwnerScope; action: EndpointAuditAction },
  prepare: (row: InstalledTemplate) => Promise<PendingWrite<Written<R>>>,
  answers: Answers<R, A>,
): Promise<A[]> {
  const prepared: Prepared<R>[] = [];
  for (const row of await installedTemplates(ctx, scope)) {
    try {
      prepared.push({ row, write: await prepare(row) });
    } catch (error) {
      prepared.push({ row, problem: asProblem(error) });
    }
  }
  return withTransaction(ctx, async (tx) => {
    const before: TemplateWire[] = [];
    const after: TemplateWire[] = [];
    const results: A[] = [];
    for (const item of prepared) {
      if ("problem" in item) {
        results.push(answers.refused(item.row, item.problem));
        continue;
      }
      try {
        const written = await withTransaction({ ...tx, audit: silentAudit }, item.write);
        if (written.before !== null && written.after !== null) {
          before.push(written.before);
          after.push(written.after);
        }
        results.push(answers.written(item.row, written.result));
      } catch (error) {
        results.push(answers.refused(item.row, asProblem(error)));
      }
    }
    await tx.audit.record({ action, target: { type: "template", id: "*" }, before, after });
    return results;
  });
}

/** POST T/check-updates. */
export async function checkAllForUpdates(ctx: ServiceContext, { scope }: { scope: OwnerScope }) {
  const results = await writeEveryTemplate(
    ctx,
    { scope, action: "template.check_updates" },
    (row) => prepareCheck(ctx, { scope, templateId: row.id }),
    {
      written: (row, result): CheckedTemplate => ({
        id: row.id,
        has_update: result.has_update,
        current_revision: result.current_revision,
        latest_revision: result.latest_revision,
        problem: null,
      }),
      refused: (row, problem): CheckedTemplate => ({
        id: row.id,
        has_update: false,
        current_revision: row.sourceRevision,
        latest_revision: null,
        problem,
      }),
    },
  );
  return { results };
}

/** POST T/update-all: templates with local edits are skipped with their 409 unless `force`. */
export async function updateAllTemplates(ctx: ServiceContext, { scope, force }: { scope: OwnerScope; force: boolean }) {
  const results = await writeEveryTemplate(
    ctx,
    { scope, action: "template.update_all" },
    (row) => prepareUpdate(ctx, { scope, templateId: row.id, force }),
    {
      written: (row, result): UpdatedTemplate => ({
        id: row.id,
        updated: result.updated,
        previous_revision: result.previous_revision,
        new_revision: result.new_revision,
        problem: null,
      }),
      refused: (row, problem): UpdatedTemplate => ({
        id: row.id,
        updated: false,
        previous_revision: row.sourceRevision,
        new_revision: null,
        problem,
      }),
    },
  );
  return { results };
}
