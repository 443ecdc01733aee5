import "server-only";
import { and, eq, lte, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { templateVersions } from "@/db/schema";
import { type TemplateRow, versionSnapshot } from "./template-fields";

/**
 * Template versions (CONTRACT §13): every write of a template's content records the content
 * as written, numbered from 1 per template, newest 50 kept. Recorded in the write's own
 * transaction, after the write: the write locked the template row, so concurrent writes of
 * one template number their versions one after another.
 */
export type VersionAction = (typeof templateVersions.$inferSelect)["action"];

/** How many versions of a template are kept. */
const KEPT_VERSIONS = 50;

/** What some versions keep beside the row: the version a rollback restored, the source's content a merge kept edits over. */
type VersionExtras = Partial<Pick<typeof templateVersions.$inferInsert, "restoredVersion" | "sourceContent">>;

/**
 * Records the row as it now is; `db` must be the transaction that wrote it. A rollback names
 * the version it restored (`restoredVersion`); an update that kept local edits, the source's
 * content it merged them with (`sourceContent`, the next merge's base).
 */
export async function recordVersion(
  db: Database,
  row: TemplateRow,
  action: VersionAction,
  actor: string,
  { restoredVersion = null, sourceContent = null }: VersionExtras = {},
): Promise<number> {
  const [recorded] = await db
    .insert(templateVersions)
    .values({
      templateRowId: row.rowId,
      version: sql`(select coalesce(max(${templateVersions.version}), 0) + 1 from ${templateVersions} where ${templateVersions.templateRowId} = ${row.rowId})`,
      action,
      actor,
      restoredVersion,
      sourceContent,
      ...versionSnapshot(row),
    })
    .returning({ version: templateVersions.version });
  const version = recorded!.version;
  if (version > KEPT_VERSIONS) {
    await db
      .delete(templateVersions)
      .where(and(eq(templateVersions.templateRowId, row.rowId), lte(templateVersions.version, version - KEPT_VERSIONS)));
  }
  return version;
}

/** The template's current version number: that of its newest version (every template has one from its creation on). */
export async function currentVersion(db: Database, rowId: string): Promise<number> {
  const [row] = await db
    .select({ version: sql<number>`max(${templateVersions.version})` })
    .from(templateVersions)
    .where(eq(templateVersions.templateRowId, rowId));
  return Number(row?.version ?? 0);
}
