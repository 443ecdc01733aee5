import type { z } from "zod";
import type { ScopeKind } from "@/lib/identity/scope";
import type { SourceCatalog } from "@/lib/sources/schemas";
import { endpoints } from "../endpoints";
import { useEndpointQuery } from "../query";

export type CatalogData = z.output<typeof SourceCatalog>;
export type CatalogEntryData = CatalogData["templates"][number];

/**
 * A source's catalog as seen from one template scope: `personal` browses through /me (the
 * caller's source of that name, or the server's with `sourceScope: "server"`) and marks the
 * caller's installs; `server` browses a server source through /admin and marks server
 * templates. A marketplace failure takes up to its timeout, so it is not retried by itself.
 */
export function useCatalog(templateScope: ScopeKind, sourceName: string, sourceScope: ScopeKind) {
  if (templateScope === "server") {
    return useEndpointQuery(endpoints.sources.server.catalog, { params: { name: sourceName } }, { retry: false, refetchOnWindowFocus: false });
  }
  return useEndpointQuery(
    endpoints.sources.personal.catalog,
    { params: { name: sourceName }, query: { source_scope: sourceScope } },
    { retry: false, refetchOnWindowFocus: false },
  );
}

/**
 * Every source whose catalog the user can browse and install from: their personal sources
 * and the server's, each with its `scope` (GET /ext/svc/template-sources, for members too).
 */
export function useAvailableSources() {
  return useEndpointQuery(endpoints.availableSources.list, undefined);
}
