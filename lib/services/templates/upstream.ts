import "server-only";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { templates } from "@/db/schema";
import { badGateway, badRequest, conflict, type DomainError, invalidField, notFound } from "@/lib/contracts/errors";
import { type OwnerScope, type ScopeKind, scopeOf } from "@/lib/contracts/scope";
import { checkManifest } from "@/lib/contracts/templates/manifest";
import type { MergeResolutionEntry } from "@/lib/contracts/templates/merge";
import type { CheckUpdateResult, InstallTemplateRequest, UpdateResult } from "@/lib/contracts/templates/schemas";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { type CatalogTemplate, loadCatalogTemplate, type MarketplaceDeps, type OperationOptions } from "@/lib/services/marketplace";
import { recordEvent, scopeAudience } from "@/lib/services/outbox/outbox";
import { withCatalogStatus } from "@/lib/services/sources/catalog-status";
import { findUsableSource } from "@/lib/services/sources/lookup";
import { findSourceWithToken, holdSource } from "@/lib/services/sources/sources";
import { mergeWithUpstream, requireResolvedConflicts, requireWritableMerge } from "./merge-base";
import { contentColumns, contentWire } from "./template-fields";
import {
  findTemplate,
  idTaken,
  insertTemplate,
  lockTemplate,
  missingTemplate,
  presentTemplate,
  requireTemplate,
  type TemplateKey,
  type TemplateRow,
  type TemplateWire,
} from "./templates";
import { recordVersion } from "./version-log";

/** What every marketplace fetch of one call shares: the call's start (ServiceContext.startedAt) and its signal. */
export const marketplaceOperation = ({ startedAt, signal }: Pick<ServiceContext, "startedAt" | "signal">): OperationOptions => ({
  since: startedAt,
  signal,
});

/** What the marketplace code needs of a call: its cache is written through the root database (ServiceContext.rootDb). */
export const marketplaceDeps = ({ app, rootDb }: Pick<ServiceContext, "app" | "rootDb">): MarketplaceDeps => ({
  db: rootDb,
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

/**
 * The columns an install or update takes from the (validated) catalog entry; the entry is
 * also the latest the source holds, so the update status is current (CONTRACT §13).
 */
const fromEntry = (entry: CatalogTemplate) => ({
  ...contentColumns(entry),
  sourceRevision: entry.revision,
  latestRevision: entry.revision,
  updateCheckedAt: new Date(),
});

/**
 * Installs `templateId` of a source under `alias_id` or the same id, as a template of the
 * caller's `kind` scope. The id is checked before any request reaches the marketplace; the row
 * is written only after the fetch and validation succeeded.
 */
export async function installTemplate(
  ctx: ServiceContext,
  { kind, templateId: sourceTemplateId, body }: { kind: ScopeKind; templateId: string; body: z.output<typeof InstallTemplateRequest> },
) {
  const scope = scopeOf(kind, ctx.actor);
  const id = body.alias_id ?? sourceTemplateId;
  const source = await findUsableSource(ctx, kind, body.source_name, body.source_scope);
  // An id taken by the path's template id is fixed by choosing an alias; either way alias_id is the field.
  if (await findTemplate(ctx.db, scope, id)) throw idTaken(id, "alias_id");
  const { result: entry } = await withCatalogStatus(ctx.rootDb, source.row, marketplaceOperation(ctx), (observed) =>
    loadCatalogTemplate(marketplaceDeps(ctx), { url: source.row.url, authToken: source.authToken }, sourceTemplateId, "cached", observed),
  );
  if (!entry) throw notFound(`The catalog of source ${source.row.name} has no template ${sourceTemplateId}.`);
  requireValidManifest(source.row.name, entry);
  // The fetch is over: the transaction holds no lock across a network call.
  return withTransaction(ctx, async (tx) => {
    if (!(await holdSource(tx.db, source.row.id))) {
      throw notFound(`No template source named ${body.source_name} is available to you.`);
    }
    const inserted = await insertTemplate(
      tx.db,
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
    await recordVersion(tx.db, inserted, "install", tx.actor.id);
    const after = presentTemplate(inserted);
    await tx.audit.record({ action: "template.install", target: { type: "template", id }, before: null, after });
    return after;
  });
}

const sourceGone = (row: TemplateRow) =>
  conflict(`Template ${row.id} came from source ${row.sourceName}, which has been removed.`, undefined, "source-gone");

const localEdits = (id: string) =>
  conflict(`Template ${id} has local edits; update with force=true to replace them.`, undefined, "local-edits");

/**
 * The current catalog entry of an installed template, revalidated upstream (CONTRACT §12: check
 * and update always ask), and the row id of the source it came from; 409 when that source or
 * the entry is gone.
 */
async function latestEntry(ctx: ServiceContext, row: TemplateRow): Promise<{ entry: CatalogTemplate; sourceId: string }> {
  const sourceScope = { kind: row.sourceScope, owner: row.sourceOwner } as OwnerScope;
  const source = await findSourceWithToken(ctx.db, ctx.app.secretKey, sourceScope, row.sourceName!);
  if (!source) throw sourceGone(row);
  const sourceTemplateId = row.sourceTemplateId ?? row.id;
  const { result: entry } = await withCatalogStatus(ctx.rootDb, source.row, marketplaceOperation(ctx), (observed) =>
    loadCatalogTemplate(
      marketplaceDeps(ctx),
      { url: source.row.url, authToken: source.authToken },
      sourceTemplateId,
      "revalidate",
      observed,
    ),
  );
  if (!entry) {
    throw conflict(`Template ${sourceTemplateId} is no longer in the catalog of source ${row.sourceName}.`, undefined, "template-gone");
  }
  requireValidManifest(source.row.name, entry);
  return { entry, sourceId: source.row.id };
}

/**
 * A write prepared outside any transaction (the marketplace has answered), to run in the
 * transaction it is given: one of its own, or with the other writes of a bulk call.
 */
export type PendingWrite<T> = (tx: ServiceContext) => Promise<T>;

/** What a write of a template made: the answer, and the template before and after (null: nothing written). */
export interface Written<R> {
  result: R;
  before: TemplateWire | null;
  after: TemplateWire | null;
}

/**
 * Asks the source for a template's update status (as GET check-update answers it); the write it
 * returns keeps the status, answering it with the template before and after (null when nothing
 * was written: no source, or deleted meanwhile).
 */
export async function prepareCheck(
  ctx: ServiceContext,
  { scope, templateId: id }: TemplateKey,
): Promise<PendingWrite<Written<z.input<typeof CheckUpdateResult>>>> {
  const row = await requireTemplate(ctx.db, scope, id);
  if (row.sourceName === null) {
    const result = { has_update: false, current_revision: null, latest_revision: null, source_name: null, source_scope: null };
    return async () => ({ result, before: null, after: null });
  }
  const { entry } = await latestEntry(ctx, row);
  const result = {
    has_update: entry.revision !== row.sourceRevision,
    current_revision: row.sourceRevision,
    latest_revision: entry.revision,
    source_name: row.sourceName,
    source_scope: row.sourceScope,
  };
  return async (tx) => {
    const status = await recordUpdateStatus(tx.db, row, entry.revision);
    return { result, before: status && presentTemplate(status.before), after: status && presentTemplate(status.after) };
  };
}

/** A template's update status, asked for and written at once (see prepareCheck). */
export async function checkOne(ctx: ServiceContext, input: TemplateKey) {
  return withTransaction(ctx, await prepareCheck(ctx, input));
}

/**
 * Checks and updates whose calls overlap share one conditional catalog request (CONTRACT §12):
 * each accepts an answer received after its call began (ServiceContext.startedAt), and every
 * template of a bulk check is of one call. The status it writes is not audited (GET check-update is a read; check-updates audits its own entry).
 */
export async function checkForUpdate(ctx: ServiceContext, input: TemplateKey) {
  return (await checkOne(ctx, input)).result;
}

/**
 * Keeps what a check found (CONTRACT §13: `latest_revision`, `update_checked_at`) on the row that
 * was read, and answers the row before and after; a row deleted meanwhile is left alone (null).
 * The row is locked first, so `before` is what the status was written over, however long ago
 * the row was read (a bulk call writes after asking about every template). A revision the source
 * holds beyond the installed one, and that no check had found before, is the event
 * `template.update_available` (CONTRACT §20), whoever checked: a user, a bulk call, the scheduler.
 */
async function recordUpdateStatus(db: Database, row: TemplateRow, latestRevision: string) {
  const [current] = await db.select().from(templates).where(eq(templates.rowId, row.rowId)).for("update");
  if (!current) return null;
  const [written] = await db
    .update(templates)
    .set({ latestRevision, updateCheckedAt: sql`now()` })
    .where(eq(templates.rowId, row.rowId))
    .returning();
  if (latestRevision !== current.sourceRevision && latestRevision !== current.latestRevision) {
    await recordEvent(db, { type: "template.update_available", data: presentTemplate(written!), audience: scopeAudience(current) });
  }
  return { before: current, after: written! };
}

/**
 * The installed template and what its source holds now, for reviewing an update before applying
 * it; with `merge`, also what an update with merge=true would write and its conflicts. Writes nothing.
 */
export async function previewUpdate(ctx: ServiceContext, { scope, templateId: id, merge }: TemplateKey & { merge: boolean }) {
  const row = await requireTemplate(ctx.db, scope, id);
  if (row.sourceName === null) throw badRequest(`Template ${id} was not installed from a source; it has no upstream.`, "not-from-source");
  const { entry } = await latestEntry(ctx, row);
  const latest = contentWire(entry);
  const preview = {
    has_update: entry.revision !== row.sourceRevision,
    current_revision: row.sourceRevision!,
    latest_revision: entry.revision,
    locally_modified: row.locallyModified,
    current: presentTemplate(row),
    latest,
  };
  if (!merge) return preview;
  const merged = await mergeWithUpstream(ctx.db, row, latest);
  return {
    ...preview,
    merge: {
      base_version: merged.baseVersion,
      base: merged.base,
      merged: merged.merged,
      conflicts: merged.conflicts,
      locally_modified: merged.locallyModified,
    },
  };
}

/** How an update treats local edits (see updateTemplate). */
interface UpdateOptions {
  force: boolean;
  merge?: boolean;
  /** With `merge` only: the request's resolutions of its conflicts. */
  resolutions?: readonly MergeResolutionEntry[];
}

/**
 * Asks the source for a template's latest revision, refusing what needs no network first; the
 * write it returns makes the update (see updateTemplate), audited with its context's audit, and
 * answers it with the template before and after.
 */
export async function prepareUpdate(
  ctx: ServiceContext,
  { scope, templateId: id, force, merge = false, resolutions }: TemplateKey & UpdateOptions,
): Promise<PendingWrite<Written<z.input<typeof UpdateResult>>>> {
  if (resolutions && !merge) throw invalidField("resolutions", "is only allowed with merge=true");
  const row = await requireTemplate(ctx.db, scope, id);
  if (row.sourceName === null)
    throw badRequest(`Template ${id} was not installed from a source, so it cannot be updated from one.`, "not-from-source");
  // Local edits block a plain update; `force` overwrites them and `merge` keeps them.
  const editsBlock = (r: TemplateRow) => r.locallyModified && !force && !merge;
  if (editsBlock(row)) throw localEdits(id);
  const { entry, sourceId } = await latestEntry(ctx, row);
  const previous = row.sourceRevision!;
  const audited = async (tx: ServiceContext, before: TemplateWire, after: TemplateWire) => {
    await tx.audit.record({ action: "template.update", target: { type: "template", id }, before, after });
    return { before, after };
  };
  if (entry.revision === previous && !force) {
    // Nothing to merge, so nothing a resolution could resolve.
    if (resolutions) requireResolvedConflicts(id, [], resolutions);
    return async (tx) => {
      const status = await recordUpdateStatus(tx.db, row, entry.revision);
      const { before, after } = await audited(tx, presentTemplate(status?.before ?? row), presentTemplate(status?.after ?? row));
      return { result: { updated: false, previous_revision: previous, new_revision: previous, template: after }, before, after };
    };
  }
  return async (tx) => {
    if (!(await holdSource(tx.db, sourceId))) throw sourceGone(row);
    // The row that was read, still without local edits (unless `force` or `merge`): a PATCH or DELETE meanwhile wins.
    const current = await lockTemplate(tx.db, scope, id);
    if (current.rowId !== row.rowId) throw missingTemplate(scope, id);
    if (editsBlock(current)) throw localEdits(id);
    // A merge reads base and local under the lock, so a PATCH meanwhile is merged, never lost.
    const upstream = contentWire(entry);
    const merged = merge ? await mergeWithUpstream(tx.db, current, upstream, resolutions) : null;
    if (merged) requireWritableMerge(id, merged, resolutions);
    const [written] = await tx.db
      .update(templates)
      .set({
        ...fromEntry(entry),
        ...(merged ? contentColumns(merged.merged) : {}),
        locallyModified: merged?.locallyModified ?? false,
        updatedAt: new Date(),
      })
      .where(eq(templates.rowId, row.rowId))
      .returning();
    // One version whatever the merge resolved: `merge` when the request resolved conflicts
    // (CONTRACT §21), keeping the source's content beside edits kept, as the next merge's base.
    await recordVersion(tx.db, written!, merged?.resolved.length ? "merge" : "update", tx.actor.id, {
      sourceContent: merged?.locallyModified ? upstream : null,
    });
    const { before, after } = await audited(tx, presentTemplate(current), presentTemplate(written!));
    return { result: { updated: true, previous_revision: previous, new_revision: entry.revision, template: after }, before, after };
  };
}

/**
 * Rewrites the template from its source. Local edits block it unless `force` (they are
 * overwritten) or `merge` (they are merged three ways with the source's changes, CONTRACT §16:
 * conflicts answer 409 and write nothing, unless `resolutions` resolve every one, CONTRACT §21);
 * an unchanged revision is a no-op unless `force`. The marketplace is asked first; the write
 * then holds the source and applies only to the row that was read, and only while it still
 * has no local edits (unless `force` or `merge`), so a PATCH or DELETE meanwhile is never
 * overwritten.
 */
export async function updateTemplate(ctx: ServiceContext, input: TemplateKey & UpdateOptions) {
  return (await withTransaction(ctx, await prepareUpdate(ctx, input))).result;
}
