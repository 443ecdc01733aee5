import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { templates, templateVersions } from "@/db/schema";
import { notFound } from "@/lib/contracts/errors";
import { iso } from "@/lib/contracts/fields";
import type { OwnerScope } from "@/lib/contracts/scope";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { checkPrecondition } from "@/lib/services/preconditions";
import { presentTemplate, presentVersionContent, presentVersionState, versionSnapshot } from "./template-fields";
import { lockTemplate, missingTemplate, type TemplateKey, templatesIn } from "./templates";
import { recordVersion } from "./version-log";

type VersionRow = typeof templateVersions.$inferSelect;

function presentVersionSummary(row: VersionRow) {
  return {
    version: row.version,
    action: row.action,
    created_at: iso(row.createdAt),
    actor: row.actor,
    restored_version: row.restoredVersion,
    ...presentVersionState(row),
  };
}

const presentVersion = (row: VersionRow) => ({ ...presentVersionSummary(row), ...presentVersionContent(row) });

async function templateRowId(db: Database, scope: OwnerScope, id: string): Promise<string> {
  const [row] = await db
    .select({ rowId: templates.rowId })
    .from(templates)
    .where(and(templatesIn(scope), eq(templates.id, id)))
    .limit(1);
  if (!row) throw missingTemplate(scope, id);
  return row.rowId;
}

/** GET T/{id}/versions: newest first. */
export async function listVersions({ db }: ServiceContext, { scope, templateId: id }: TemplateKey) {
  const rowId = await templateRowId(db, scope, id);
  const rows = await db
    .select()
    .from(templateVersions)
    .where(eq(templateVersions.templateRowId, rowId))
    .orderBy(desc(templateVersions.version));
  return { versions: rows.map(presentVersionSummary) };
}

const missingVersion = (id: string, version: number) => notFound(`Template ${id} has no version ${version}.`);

/** GET T/{id}/versions/{version}: the content as that version wrote it. */
export async function getVersion({ db }: ServiceContext, { scope, templateId: id, version }: TemplateKey & { version: number }) {
  const rowId = await templateRowId(db, scope, id);
  const [row] = await db
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.templateRowId, rowId), eq(templateVersions.version, version)))
    .limit(1);
  if (!row) throw missingVersion(id, version);
  return presentVersion(row);
}

/**
 * POST T/{id}/rollback: restores a version's content, `source_revision` and
 * `locally_modified`, and records a `rollback` version, in one transaction that locks the
 * template row first (a concurrent delete answers 404, a concurrent write waits its turn).
 */
export async function rollbackTemplate(ctx: ServiceContext, { scope, templateId: id, version }: TemplateKey & { version: number }) {
  return withTransaction(ctx, async (tx) => {
    const { db, actor, audit } = tx;
    const current = await lockTemplate(db, scope, id);
    checkPrecondition(tx, presentTemplate(current));
    const [target] = await db
      .select()
      .from(templateVersions)
      .where(and(eq(templateVersions.templateRowId, current.rowId), eq(templateVersions.version, version)))
      .limit(1);
    if (!target) throw missingVersion(id, version);
    const [restored] = await db
      .update(templates)
      .set({ ...versionSnapshot(target), updatedAt: new Date() })
      .where(eq(templates.rowId, current.rowId))
      .returning();
    // The source's content the restored version kept edits over stays the next merge's base.
    await recordVersion(db, restored!, "rollback", actor.id, { restoredVersion: version, sourceContent: target.sourceContent });
    const after = presentTemplate(restored!);
    await audit.record({ action: "template.rollback", target: { type: "template", id }, before: presentTemplate(current), after });
    return after;
  });
}
