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
 * The sources whose catalogs a user can browse: their personal sources, and for admins the
 * server sources too. Members have no endpoint listing server sources, so that query stays off.
 */
export function useBrowsableSources(isAdmin: boolean) {
  const personal = useEndpointQuery(endpoints.sources.personal.list, undefined);
  const server = useEndpointQuery(endpoints.sources.server.list, undefined, { enabled: isAdmin });
  return { personal, server: isAdmin ? server : null };
}
