import { endpoints } from "../endpoints";
import type { ScopeKind } from "@/lib/identity/scope";
import { useEndpointMutation, useEndpointQuery } from "../query";

// Template sources of one scope: `personal` (/me) or `server` (/admin, admins only).
// Adding or removing one also refreshes the list of sources available to install from.

export function useSources(scope: ScopeKind) {
  return useEndpointQuery(endpoints.sources[scope].list, undefined);
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
