import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { templates } from "@/db/schema";
import { badGateway, badRequest, conflict, type DomainError, notFound } from "@/lib/contracts/errors";
import type { OwnerScope, ScopeKind } from "@/lib/contracts/scope";
import { checkManifest } from "@/lib/contracts/templates/manifest";
import { recordAudit } from "@/lib/services/audit/record";
import type { AppContext } from "@/lib/services/context";
import type { Principal } from "@/lib/services/identity/principal";
import {
  type CatalogTemplate,
  type FetchMode,
  loadCatalogTemplate,
  type MarketplaceDeps,
  type OperationOptions,
} from "@/lib/services/marketplace";
import { withCatalogStatus } from "@/lib/services/sources/catalog-status";
import { findUsableSource } from "@/lib/services/sources/lookup";
import { findSourceWithToken, holdSource } from "@/lib/services/sources/sources";
import { findTemplate, idTaken, insertTemplate, missingTemplate, presentTemplate, requireTemplate, type TemplateRow } from "./templates";
import { recordVersion } from "./version-log";

export const marketplaceDeps = (app: AppContext): MarketplaceDeps => ({
  db: app.db,
  config: app.config.marketplace,
  resolveHost: app.resolveHost,
});

/**
 * Why the marketplace's manifest is not a valid bank template, as the 502 an install or update
 * answers and a browse lists for that entry; null for a valid one.
 */
export function invalidManifestError(sourceName: string, entry: CatalogTemplate): DomainError | null {
  const report = checkManifest(entry.manifest);
  if (report.valid) return null;
  return badGateway(
    `The manifest of template ${entry.id} in source ${sourceName} is not a valid bank template (${report.errors.length} problem${report.errors.length > 1 ? "s" : ""}).`,
    report.errors,
    "invalid-upstream-manifest",
  );
}

const requireValidManifest = (sourceName: string, entry: CatalogTemplate) => {
  const invalid = invalidManifestError(sourceName, entry);
  if (invalid) throw invalid;
};

/** What a catalog entry says about its template: the fields an install copies and a revision covers. */
function entryContent(entry: CatalogTemplate) {
  const { name, description, category, integrations, tags, manifest } = entry;
  return { name, description, category, integrations, tags, manifest };
}

/**
 * The columns an install or update takes from the (validated) catalog entry; the entry is
 * also the latest the source holds, so the update status is current (CONTRACT §13).
 */
const fromEntry = (entry: CatalogTemplate) => ({
  ...entryContent(entry),
  sourceRevision: entry.revision,
  latestRevision: entry.revision,
  updateCheckedAt: new Date(),
});

/**
 * Installs `sourceTemplateId` from a source under `alias_id` or the same id. The id is
 * checked before any request reaches the marketplace; the row is written only after
 * the fetch and validation succeeded.
 */
export async function installTemplate(
  app: AppContext,
  kind: ScopeKind,
  principal: Principal,
  scope: OwnerScope,
  sourceTemplateId: string,
  input: { source_name: string; alias_id?: string; source_scope?: ScopeKind },
  operation: OperationOptions = {},
) {
  const id = input.alias_id ?? sourceTemplateId;
  const source = await findUsableSource(app, kind, principal, input.source_name, input.source_scope);
  // An id taken by the path's template id is fixed by choosing an alias; either way alias_id is the field.
  if (await findTemplate(app.db, scope, id)) throw idTaken(id, "alias_id");
  const { result: entry } = await withCatalogStatus(app, source.row, operation, (observed) =>
    loadCatalogTemplate(marketplaceDeps(app), { url: source.row.url, authToken: source.authToken }, sourceTemplateId, "cached", observed),
  );
  if (!entry) throw notFound(`The catalog of source ${source.row.name} has no template ${sourceTemplateId}.`);
  requireValidManifest(source.row.name, entry);
  // The fetch is over: the transaction holds no lock across a network call.
  const row = await app.db.transaction(async (tx) => {
    if (!(await holdSource(tx, source.row.id))) {
      throw notFound(`No template source named ${input.source_name} is available to you.`);
    }
    const inserted = await insertTemplate(
      tx,
      {
        id,
        scope: scope.kind,
        owner: scope.owner,
        ...fromEntry(entry),
        sourceName: source.row.name,
        sourceScope: source.row.scope,
        sourceOwner: source.row.owner,
        sourceTemplateId,
      },
      "alias_id",
    );
    await recordVersion(tx, inserted, "install", principal.id);
    await recordAudit(tx);
    return inserted;
  });
  return presentTemplate(row);
}

const sourceGone = (row: TemplateRow) =>
  conflict(`Template ${row.id} came from source ${row.sourceName}, which has been removed.`, undefined, "source-gone");

const localEdits = (id: string) =>
  conflict(`Template ${id} has local edits; update with force=true to replace them.`, undefined, "local-edits");

/**
 * The current catalog entry of an installed template, and the row id of the source it came
 * from; 409 when that source or the entry is gone.
 */
async function latestEntry(
  app: AppContext,
  row: TemplateRow,
  mode: FetchMode,
  operation: OperationOptions,
): Promise<{ entry: CatalogTemplate; sourceId: string }> {
  const sourceScope = { kind: row.sourceScope, owner: row.sourceOwner } as OwnerScope;
  const source = await findSourceWithToken(app.db, app.secretKey, sourceScope, row.sourceName!);
  if (!source) throw sourceGone(row);
  const sourceTemplateId = row.sourceTemplateId ?? row.id;
  const { result: entry } = await withCatalogStatus(app, source.row, operation, (observed) =>
    loadCatalogTemplate(marketplaceDeps(app), { url: source.row.url, authToken: source.authToken }, sourceTemplateId, mode, observed),
  );
  if (!entry) {
    throw conflict(`Template ${sourceTemplateId} is no longer in the catalog of source ${row.sourceName}.`, undefined, "template-gone");
  }
  requireValidManifest(source.row.name, entry);
  return { entry, sourceId: source.row.id };
}

/**
 * `operation.since` defaults to the call's start: checks and updates running at the same time
 * share one conditional catalog request (CONTRACT §12); a bulk check passes its own start.
 */
export async function checkForUpdate(app: AppContext, scope: OwnerScope, id: string, operation: OperationOptions = {}) {
  operation = { since: Date.now(), ...operation };
  const row = await requireTemplate(app.db, scope, id);
  if (row.sourceName === null) {
    return { has_update: false, current_revision: null, latest_revision: null, source_name: null, source_scope: null };
  }
  const { entry } = await latestEntry(app, row, "revalidate", operation);
  await recordUpdateStatus(app.db, row, entry.revision);
  return {
    has_update: entry.revision !== row.sourceRevision,
    current_revision: row.sourceRevision,
    latest_revision: entry.revision,
    source_name: row.sourceName,
    source_scope: row.sourceScope,
  };
}

/** Keeps what a check found (CONTRACT §13: `latest_revision`, `update_checked_at`); a row deleted meanwhile is left alone. */
async function recordUpdateStatus(db: Database, row: TemplateRow, latestRevision: string): Promise<void> {
  await db.update(templates).set({ latestRevision, updateCheckedAt: sql`now()` }).where(eq(templates.rowId, row.rowId));
}

/** The installed template and what its source holds now, for reviewing an update before applying it. */
export async function previewUpdate(app: AppContext, scope: OwnerScope, id: string, operation: OperationOptions = {}) {
  operation = { since: Date.now(), ...operation };
  const row = await requireTemplate(app.db, scope, id);
  if (row.sourceName === null) throw badRequest(`Template ${id} was not installed from a source; it has no upstream.`, "not-from-source");
  const { entry } = await latestEntry(app, row, "revalidate", operation);
  return {
    has_update: entry.revision !== row.sourceRevision,
    current_revision: row.sourceRevision!,
    latest_revision: entry.revision,
    locally_modified: row.locallyModified,
    current: presentTemplate(row),
    latest: entryContent(entry),
  };
}

/**
 * Rewrites the template from its source. Local edits block it unless `force`; an
 * unchanged revision is a no-op unless `force`. The marketplace is asked first; the write
 * then holds the source and applies only to the row that was read, and only while it still
 * has no local edits (unless `force`), so a PATCH or DELETE meanwhile is never overwritten.
 */
export async function updateTemplate(
  app: AppContext,
  scope: OwnerScope,
  id: string,
  force: boolean,
  actor: string,
  operation: OperationOptions = {},
) {
  operation = { since: Date.now(), ...operation };
  const row = await requireTemplate(app.db, scope, id);
  if (row.sourceName === null)
    throw badRequest(`Template ${id} was not installed from a source, so it cannot be updated from one.`, "not-from-source");
  if (row.locallyModified && !force) throw localEdits(id);
  const { entry, sourceId } = await latestEntry(app, row, "revalidate", operation);
  const previous = row.sourceRevision!;
  if (entry.revision === previous && !force) {
    await app.db.transaction(async (tx) => {
      await recordUpdateStatus(tx, row, entry.revision);
      await recordAudit(tx);
    });
    const checked = (await findTemplate(app.db, scope, id)) ?? row;
    return { updated: false, previous_revision: previous, new_revision: previous, template: presentTemplate(checked) };
  }
  const updated = await app.db.transaction(async (tx) => {
    if (!(await holdSource(tx, sourceId))) throw sourceGone(row);
    const sameRow = eq(templates.rowId, row.rowId);
    const [written] = await tx
      .update(templates)
      .set({ ...fromEntry(entry), locallyModified: false, updatedAt: new Date() })
      .where(force ? sameRow : and(sameRow, eq(templates.locallyModified, false)))
      .returning();
    if (written) {
      await recordVersion(tx, written, "update", actor);
      await recordAudit(tx);
      return written;
    }
    const [still] = await tx.select({ rowId: templates.rowId }).from(templates).where(sameRow);
    throw still ? localEdits(id) : missingTemplate(scope, id);
  });
  return { updated: true, previous_revision: previous, new_revision: entry.revision, template: presentTemplate(updated) };
}
