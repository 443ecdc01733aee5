import "server-only";
import { and, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { templateVersions } from "@/db/schema";
import { conflict, DomainError, type FieldError, unprocessable } from "@/lib/contracts/errors";
import { createContentShape } from "@/lib/contracts/templates/content";
import { DETAIL_KEYS, type DetailKey, type TemplateContent } from "@/lib/contracts/templates/content-fields";
import { checkManifest } from "@/lib/contracts/templates/manifest";
import { type MergeResolutionEntry, mergeTemplate, resolutionsByPath, sameContent } from "@/lib/contracts/templates/merge";
import { errorMap, issuesToFieldErrors } from "@/lib/contracts/validation";
import { presentVersionContent, type TemplateRow } from "./template-fields";

/**
 * The base of a three-way merge (CONTRACT §16): the source's content as the template last took
 * it, as a version kept it. A version without local edits holds it as its own content: an
 * `install` or `update`, a `merge` whose result was upstream's, or a `rollback` to one of those (a
 * rollback puts back the restored version's content, source revision and local-edit mark). A
 * version that kept local edits over it (a `merge`, an `update` with merge=true, or a rollback
 * to one) holds it apart, in `source_content`; so a merge's resolved conflicts do not come back
 * at the next update. Any other version with local edits is never a base. A version at the
 * template's own source revision comes first (the revision is a hash of the source's content,
 * so each holds the same base), else the newest (a version from before `source_content` was kept
 * leaves an older base, which can only raise conflicts, never take a side silently). Null when
 * no such version is kept any more (only the newest 50 are).
 */
async function findMergeBase(db: Database, row: TemplateRow): Promise<{ version: number; content: TemplateContent } | null> {
  const [version] = await db
    .select()
    .from(templateVersions)
    .where(
      and(
        eq(templateVersions.templateRowId, row.rowId),
        inArray(templateVersions.action, ["install", "update", "merge", "rollback"]),
        or(eq(templateVersions.locallyModified, false), isNotNull(templateVersions.sourceContent)),
        isNotNull(templateVersions.sourceRevision),
      ),
    )
    .orderBy(sql`${templateVersions.sourceRevision} is not distinct from ${row.sourceRevision} desc`, desc(templateVersions.version))
    .limit(1);
  return version ? { version: version.version, content: version.sourceContent ?? presentVersionContent(version) } : null;
}

/**
 * The template's content merged with `upstream`, from its base, with the conflicts `resolutions`
 * resolve resolved (CONTRACT §21): what an update with merge=true writes, and whether that still
 * differs from upstream (the template then keeps local edits).
 * 409 `merge-base-missing` when the base is no longer kept: without it local and upstream
 * changes cannot be told apart, and force=true is the way to take upstream's.
 */
export async function mergeWithUpstream(
  db: Database,
  row: TemplateRow,
  upstream: TemplateContent,
  resolutions: readonly MergeResolutionEntry[] = [],
) {
  const base = await findMergeBase(db, row);
  if (!base) {
    throw conflict(
      `Template ${row.id} no longer keeps the version it was last installed or updated from, so its local edits cannot be merged; update with force=true to replace them.`,
      undefined,
      "merge-base-missing",
    );
  }
  const { merged, conflicts, resolved } = mergeTemplate(base.content, presentVersionContent(row), upstream, resolutionsByPath(resolutions));
  return { baseVersion: base.version, base: base.content, merged, conflicts, resolved, locallyModified: !sameContent(merged, upstream) };
}

export type TemplateMerge = Awaited<ReturnType<typeof mergeWithUpstream>>;

/** Whether a path names one of the details (a top-level content field but the manifest), which the manifest check does not cover. */
const isDetailPath = (path: string): path is DetailKey => (DETAIL_KEYS as readonly string[]).includes(path);

/** 422 at each resolution whose path is not one of the conflicts `resolved` (a merge without conflicts resolves none). */
export function requireResolvedConflicts(id: string, resolved: readonly string[], resolutions: readonly MergeResolutionEntry[]) {
  const conflicts = new Set(resolved);
  const unknown: FieldError[] = resolutions.flatMap(({ path }, i) =>
    conflicts.has(path) ? [] : [{ path: `resolutions[${i}].path`, message: `is not a conflict of this merge: ${path}` }],
  );
  if (unknown.length) {
    throw unprocessable(
      `Some resolutions name paths that are not conflicts of merging template ${id} with its source (it or the source may have changed since); nothing was written.`,
      unknown,
      "merge-resolution-unknown",
    );
  }
}

/**
 * Refuses to write a merge that the request's resolutions do not fit (422 at each resolution of
 * a path that is not a conflict, or at a value a detail field cannot hold), that still has
 * conflicts (409 `merge-conflict`, listing the ones left) or whose manifest is invalid (409
 * `merge-invalid`).
 */
export function requireWritableMerge(id: string, merge: TemplateMerge, resolutions: readonly MergeResolutionEntry[] = []) {
  requireResolvedConflicts(id, merge.resolved, resolutions);
  const invalid = resolutions.flatMap(({ path, take, value }, i) => {
    if (take !== "value" || !isDetailPath(path)) return [];
    const checked = createContentShape[path].safeParse(value, { error: errorMap });
    return checked.success ? [] : issuesToFieldErrors(checked.error.issues, ["resolutions", i, "value"]);
  });
  if (invalid.length) throw unprocessable(`Some resolution values cannot be held by their fields; nothing was written.`, invalid);
  if (merge.conflicts.length) {
    const n = merge.conflicts.length;
    const left = resolutions.length ? " left unresolved" : "";
    throw new DomainError(
      "merge-conflict",
      `Template ${id} and its source both changed ${n} path${n > 1 ? "s" : ""} differently${left} (${merge.conflicts.map((c) => c.path).join(", ")}); nothing was written.`,
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
