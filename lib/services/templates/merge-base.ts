import "server-only";
import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "@/db/client";
import { templateVersions } from "@/db/schema";
import { conflict, DomainError } from "@/lib/contracts/errors";
import type { TemplateContent } from "@/lib/contracts/templates/content-fields";
import { checkManifest } from "@/lib/contracts/templates/manifest";
import { mergeTemplate, sameContent } from "@/lib/contracts/templates/merge";
import { presentVersionContent, type TemplateRow } from "./template-fields";

/**
 * The base of a three-way merge (CONTRACT §16): the newest version whose content is the source's
 * as it was installed or updated. That is an `install` or `update` version, or a `rollback`
 * that restored one: a rollback puts back the restored version's content, source revision and
 * local-edit mark, so a rollback without local edits holds the source's content at its revision
 * just as the version it restored did (and the template's source revision is then that one's).
 * A version with local edits is never a base. Null when no such version is kept any more (only
 * the newest 50 are).
 */
async function findMergeBase(db: Database, rowId: string): Promise<{ version: number; content: TemplateContent } | null> {
  const [row] = await db
    .select()
    .from(templateVersions)
    .where(
      and(
        eq(templateVersions.templateRowId, rowId),
        inArray(templateVersions.action, ["install", "update", "rollback"]),
        eq(templateVersions.locallyModified, false),
        isNotNull(templateVersions.sourceRevision),
      ),
    )
    .orderBy(desc(templateVersions.version))
    .limit(1);
  return row ? { version: row.version, content: presentVersionContent(row) } : null;
}

/**
 * The template's content merged with `upstream`, from its base: what an update with merge=true
 * writes, and whether that still differs from upstream (the template then keeps local edits).
 * 409 `merge-base-missing` when the base is no longer kept: without it local and upstream
 * changes cannot be told apart, and force=true is the way to take upstream's.
 */
export async function mergeWithUpstream(db: Database, row: TemplateRow, upstream: TemplateContent) {
  const base = await findMergeBase(db, row.rowId);
  if (!base) {
    throw conflict(
      `Template ${row.id} no longer keeps the version it was last installed or updated from, so its local edits cannot be merged; update with force=true to replace them.`,
      undefined,
      "merge-base-missing",
    );
  }
  const { merged, conflicts } = mergeTemplate(base.content, presentVersionContent(row), upstream);
  return { baseVersion: base.version, base: base.content, merged, conflicts, locallyModified: !sameContent(merged, upstream) };
}

export type TemplateMerge = Awaited<ReturnType<typeof mergeWithUpstream>>;

/** Refuses to write a merge with conflicts (409 `merge-conflict`, listing them) or one whose manifest is invalid (409 `merge-invalid`). */
export function requireWritableMerge(id: string, merge: TemplateMerge) {
  if (merge.conflicts.length) {
    const n = merge.conflicts.length;
    throw new DomainError(
      "merge-conflict",
      `Template ${id} and its source both changed ${n} path${n > 1 ? "s" : ""} differently (${merge.conflicts.map((c) => c.path).join(", ")}); nothing was written.`,
      { conflicts: merge.conflicts },
    );
  }
  const report = checkManifest(merge.merged.manifest);
  if (!report.valid) {
    throw conflict(
      `Merging template ${id} with its source would give an invalid manifest; nothing was written.`,
      report.errors,
      "merge-invalid",
    );
  }
}
