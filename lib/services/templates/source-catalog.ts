import { nestedProblem } from "@/lib/contracts/errors";
import "server-only";
import { and, eq, isNull, or } from "drizzle-orm";
import { templates } from "@/db/schema";
import { type ScopeKind, scopeOf } from "@/lib/contracts/scope";
import type { ServiceContext } from "@/lib/services/context";
import { type CatalogListing, loadCatalog, withProblem } from "@/lib/services/marketplace";
import { withCatalogStatus } from "@/lib/services/sources/catalog-status";
import { findUsableSource } from "@/lib/services/sources/lookup";
import { presentSource } from "@/lib/services/sources/sources";
import { templatesIn } from "@/lib/services/templates/templates";
import { invalidManifestError, marketplaceDeps, marketplaceOperation } from "@/lib/services/templates/upstream";

export interface BrowseInput {
  /** Whose catalog view: the caller's personal scope (/me) or the server's (/admin). */
  kind: ScopeKind;
  sourceName: string;
  sourceScope?: ScopeKind;
  /** Revalidate the catalog with the marketplace instead of using a fresh cached copy. */
  refresh?: boolean;
}

/**
 * A source's catalog, to see templates before installing them (CONTRACT §5), in the
 * marketplace's own order, each marked with the ids it is already installed under, in the
 * caller's scope and in the server's. An entry that install would refuse (manifest unavailable
 * or not a valid bank template) is listed with its `problem` and no revision (CONTRACT §12).
 */
export async function browseCatalog(ctx: ServiceContext, { kind, sourceName, sourceScope, refresh }: BrowseInput) {
  const source = await findUsableSource(ctx, kind, sourceName, sourceScope);
  // When the client goes away (ctx.signal), fetching stops.
  const { result: catalog, source: recorded } = await withCatalogStatus(ctx.rootDb, source.row, marketplaceOperation(ctx), (operation) =>
    loadCatalog(marketplaceDeps(ctx), { url: source.row.url, authToken: source.authToken }, refresh ? "revalidate" : "cached", operation),
  );
  // One query for both lists: the caller's own templates from this very source (name, scope and
  // owner of the source, as install recorded them) and, under /me, the server's as well.
  const own = scopeOf(kind, ctx.actor);
  const scopes = own.kind === "server" ? templatesIn(own) : or(templatesIn(own), templatesIn(scopeOf("server", ctx.actor)));
  const installed = await ctx.db
    .select({ id: templates.id, scope: templates.scope, sourceTemplateId: templates.sourceTemplateId })
    .from(templates)
    .where(
      and(
        scopes,
        eq(templates.sourceName, source.row.name),
        eq(templates.sourceScope, source.row.scope),
        source.row.owner === null ? isNull(templates.sourceOwner) : eq(templates.sourceOwner, source.row.owner),
      ),
    );
  const installedAs = idsByEntry(installed.filter((row) => row.scope === own.kind));
  const installedAsServer = idsByEntry(installed.filter((row) => row.scope === "server"));
  return {
    source: presentSource(recorded),
    templates: catalog.templates.map((listing) => ({
      ...installable(source.row.name, listing),
      installed_as: installedAs(listing.id),
      installed_as_server: installedAsServer(listing.id),
    })),
  };
}

/** The ids installed from each catalog id (sorted, whatever the rows' order). */
function idsByEntry(rows: { id: string; sourceTemplateId: string | null }[]) {
  const byEntry = new Map<string, string[]>();
  for (const row of rows) {
    if (row.sourceTemplateId === null) continue;
    byEntry.set(row.sourceTemplateId, [...(byEntry.get(row.sourceTemplateId) ?? []), row.id]);
  }
  return (entryId: string) => (byEntry.get(entryId) ?? []).toSorted();
}

/** The listing as install would see it: a resolved entry whose manifest is invalid gets that problem. */
function installable(sourceName: string, listing: CatalogListing): CatalogListing {
  if (listing.problem) return listing;
  const invalid = invalidManifestError(sourceName, listing);
  return invalid ? withProblem(listing, nestedProblem(invalid)) : listing;
}
