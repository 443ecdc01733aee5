import { type QueryClient, queryOptions, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { SourceCatalog } from "@/lib/contracts/sources/schemas";
import { api } from "../api";
import { endpoints } from "../endpoints";
import type { ApiProblem } from "../problem";
import { endpointQueryKey } from "../query";
import { type SourceData, type SourceRef, sourceKey } from "./sources";

export type CatalogData = z.output<typeof SourceCatalog>;
export type CatalogEntryData = CatalogData["templates"][number];

// The marketplace's catalog queries; only its lazily loaded panels use them, so the TanStack
// parts they need (useQueries, mutations) stay out of the page's first load.

/**
 * How one template scope reaches a source's catalog: `personal` browses through /me (the
 * caller's source of that name, or the server's with `source_scope: "server"`) and marks the
 * caller's installs; `server` browses a server source through /admin and marks server templates.
 */
function catalogRequest(templateScope: ScopeKind, source: SourceRef) {
  if (templateScope === "server") return { endpoint: endpoints.sources.server.catalog, input: { params: { name: source.name } } };
  return { endpoint: endpoints.sources.personal.catalog, input: { params: { name: source.name }, query: { source_scope: source.scope } } };
}

// Every list of sources the console may hold; each shows a source's catalog status.
const sourceLists = () => [endpoints.availableSources.list, endpoints.sources.personal.list, endpoints.sources.server.list];

/** Puts the source as a catalog answer just recorded it into every cached list of sources, without asking the server again. */
function showSourceInLists(queryClient: QueryClient, source: SourceData) {
  for (const list of sourceLists()) {
    queryClient.setQueriesData<SourceData[]>({ queryKey: ["ext-svc", list.method, list.path] }, (sources) =>
      sources?.map((s) => (s.name === source.name && s.scope === source.scope ? source : s)),
    );
  }
}

/** After a failed load the server recorded why (or not): the lists ask it again. */
const refreshSourceLists = (queryClient: QueryClient) =>
  Promise.all(sourceLists().map((list) => queryClient.invalidateQueries({ queryKey: ["ext-svc", list.method, list.path] })));

const callCatalog = api.call as (endpoint: unknown, input: unknown) => Promise<CatalogData>;

/**
 * Loads a catalog (revalidated with the marketplace when `refresh`); a catalog that came puts
 * the catalog status the server recorded into the lists of sources.
 */
async function loadCatalog(queryClient: QueryClient, templateScope: ScopeKind, source: SourceRef, refresh: boolean): Promise<CatalogData> {
  const { endpoint, input } = catalogRequest(templateScope, source);
  const catalog = await callCatalog(endpoint, refresh ? { ...input, query: { ...input.query, refresh: true } } : input);
  showSourceInLists(queryClient, catalog.source);
  return catalog;
}

/**
 * The query of one source's catalog. A marketplace failure takes up to its timeout, so it is
 * not retried by itself. One cache entry per source and template scope, shared by the
 * source's own tab and "All sources".
 */
function catalogQuery(queryClient: QueryClient, templateScope: ScopeKind, source: SourceRef) {
  const { endpoint, input } = catalogRequest(templateScope, source);
  return queryOptions<CatalogData, ApiProblem>({
    queryKey: endpointQueryKey(endpoint, input),
    queryFn: () =>
      loadCatalog(queryClient, templateScope, source, false).catch((error: ApiProblem) => {
        // The server may have recorded the failure as the source's catalog status.
        void refreshSourceLists(queryClient);
        throw error;
      }),
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/** A source's catalog as seen from one template scope. */
export function useCatalog(templateScope: ScopeKind, source: SourceRef) {
  const queryClient = useQueryClient();
  return useQuery(catalogQuery(queryClient, templateScope, source));
}

/** The catalogs of several sources, loaded side by side; each answers (or fails) on its own. */
export function useCatalogs(templateScope: ScopeKind, sources: SourceRef[]) {
  const queryClient = useQueryClient();
  return useQueries({ queries: sources.map((source) => catalogQuery(queryClient, templateScope, source)) });
}

/**
 * Revalidates catalogs with their marketplaces (`?refresh=true`) and shows what came back.
 * Resolves once the lists of sources show the recorded status too; a source whose refresh
 * failed keeps its last catalog, and its failure is in the lists (`catalog_error`) and in the
 * answer, by source.
 */
export function useRefreshCatalogs(templateScope: ScopeKind) {
  const queryClient = useQueryClient();
  return useMutation<Map<string, ApiProblem>, never, SourceRef[]>({
    mutationFn: async (sources) => {
      const failures = new Map<string, ApiProblem>();
      await Promise.all(
        sources.map(async (source) => {
          try {
            const catalog = await loadCatalog(queryClient, templateScope, source, true);
            queryClient.setQueryData(catalogQuery(queryClient, templateScope, source).queryKey, catalog);
          } catch (error) {
            failures.set(sourceKey(source), error as ApiProblem);
          }
        }),
      );
      if (failures.size > 0) await refreshSourceLists(queryClient);
      return failures;
    },
  });
}
