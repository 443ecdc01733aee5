import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { Source } from "@/lib/contracts/sources/schemas";
import { api } from "../api";
import { endpoints } from "../endpoints";
import { describeError } from "../problem";
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

/** One source as it is now (GET …/template-sources/{name}): its ETag is the version an edit is written against. */
export function useSource(scope: ScopeKind, name: string) {
  return useEndpointQuery(endpoints.sources[scope].get, { params: { name } }, { staleTime: 0 });
}

export function useCreateSource(scope: ScopeKind) {
  const e = endpoints.sources[scope];
  return useEndpointMutation(e.create, { invalidates: [e.list, endpoints.availableSources.list] });
}

export function useUpdateSource(scope: ScopeKind) {
  const e = endpoints.sources[scope];
  // A new url or token makes every catalog the console holds for the source stale.
  return useEndpointMutation(e.update, {
    invalidates: [e.list, endpoints.availableSources.list],
    removes: [endpoints.sources.personal.catalog, endpoints.sources.server.catalog],
  });
}

/** What one fetch of a source's catalog found: how many templates (and how many cannot be installed), or why it failed. */
export type CatalogCheck = { ok: true; templates: number; unusable: number } | { ok: false; reason: string };

/**
 * Fetches a source's catalog once from its marketplace (revalidating any cached copy), as
 * the console does right after a source was added or changed, so the user sees at once
 * whether the URL (and token) work. The lists of sources are read again afterwards: the
 * server recorded the outcome as the source's catalog status.
 */
export function useCatalogCheck(scope: ScopeKind) {
  const queryClient = useQueryClient();
  const lists = [endpoints.sources[scope].list, endpoints.availableSources.list];
  return async (name: string): Promise<CatalogCheck> => {
    let check: CatalogCheck;
    try {
      const catalog =
        scope === "server"
          ? await api.call(endpoints.sources.server.catalog, { params: { name }, query: { refresh: "true" } })
          : await api.call(endpoints.sources.personal.catalog, { params: { name }, query: { source_scope: "personal", refresh: "true" } });
      check = { ok: true, templates: catalog.templates.length, unusable: catalog.templates.filter((t) => t.problem).length };
    } catch (error) {
      check = { ok: false, reason: describeError(error) };
    }
    await Promise.all(lists.map((e) => queryClient.invalidateQueries({ queryKey: ["ext-svc", e.method, e.path] })));
    return check;
  };
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
