import { endpoints } from "../endpoints";
import type { ScopeKind } from "@/lib/identity/scope";
import { useEndpointMutation, useEndpointQuery } from "../query";

// Template sources of one scope: `personal` (/me) or `server` (/admin, admins only).

export function useSources(scope: ScopeKind) {
  return useEndpointQuery(endpoints.sources[scope].list, undefined);
}

export function useCreateSource(scope: ScopeKind) {
  const e = endpoints.sources[scope];
  return useEndpointMutation(e.create, { invalidates: [e.list] });
}

export function useRemoveSource(scope: ScopeKind) {
  const e = endpoints.sources[scope];
  return useEndpointMutation(e.remove, { invalidates: [e.list] });
}
