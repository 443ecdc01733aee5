import type { z } from "zod";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { Source } from "@/lib/contracts/sources/schemas";
import { endpoints } from "../endpoints";
import { useEndpointMutation, useEndpointQuery } from "../query";

export type SourceData = z.output<typeof Source>;

/** Which source a catalog belongs to: its name and scope. */
export type SourceRef = Pick<SourceData, "name" | "scope">;

/** A source's identity in maps, tabs and element keys: `personal:acme`. */
export const sourceKey = (source: SourceRef) => `${source.scope}:${source.name}`;

// Template sources of one scope: `personal` (/me) or `server` (/admin, admins only).
// Adding or removing one also refreshes the list of sources available to install from.

export function useSources(scope: ScopeKind) {
  // Each row shows its catalog status, which any operation (a browse on another page, a
  // scheduled check in another process) may have changed: the list is asked again whenever
  // it is shown, so the status is never one a fetch begun before the change left behind.
  return useEndpointQuery(endpoints.sources[scope].list, undefined, { refetchOnMount: "always" });
}

export function useCreateSource(scope: ScopeKind) {
  const e = endpoints.sources[scope];
  return useEndpointMutation(e.create, { invalidates: [e.list, endpoints.availableSources.list] });
}

export function useRemoveSource(scope: ScopeKind) {
  const e = endpoints.sources[scope];
  // The marketplace must not show (and ask for the catalog of) the removed source from its cache.
  return useEndpointMutation(e.remove, {
    invalidates: [e.list],
    removes: [endpoints.availableSources.list, endpoints.sources.personal.catalog, endpoints.sources.server.catalog],
  });
}

/**
 * Every source whose catalog the user can browse and install from: their personal sources
 * and the server's, each with its `scope` (GET /ext/svc/template-sources, for members too).
 */
export function useAvailableSources() {
  return useEndpointQuery(endpoints.availableSources.list, undefined);
}
