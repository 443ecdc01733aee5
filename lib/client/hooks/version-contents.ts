import { useQueries } from "@tanstack/react-query";
import type { ScopeKind } from "@/lib/contracts/scope";
import { api, type CallResult } from "../api";
import { endpoints } from "../endpoints";
import type { ApiProblem } from "../problem";
import { endpointQueryKey } from "../query";

// Apart from ./versions.ts: only the template page's changelog, loaded after the page, reads
// several versions at once, so TanStack's useQueries stays out of the pages' first load.

export type VersionData = CallResult<(typeof endpoints.templateLifecycle)[ScopeKind]["version"]>;

/**
 * Several versions of a template with their content, side by side (the changelog compares each
 * with the one before it); each answers on its own. The same cache entries as useTemplateVersion.
 */
export function useTemplateVersionContents(scope: ScopeKind, id: string, versions: number[]) {
  const endpoint = endpoints.templateLifecycle[scope].version;
  return useQueries({
    queries: versions.map((version) => {
      const input = { params: { template_id: id, version } };
      return {
        queryKey: endpointQueryKey(endpoint, input),
        queryFn: () => api.call(endpoint, input) as Promise<VersionData>,
      };
    }),
    combine: (results) => results.map((r) => ({ data: r.data, error: r.error as ApiProblem | null })),
  });
}
