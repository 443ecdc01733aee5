import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { TemplateVersionSummary } from "@/lib/contracts/templates/schemas";
import { api } from "../api";
import { endpoints } from "../endpoints";
import { endpointQueryKey, useEndpointMutation, useEndpointQuery } from "../query";
import { templateKey, templateReaders } from "./templates";

// A template's recorded versions (CONTRACT §13): every write of its content is one, newest
// first, and a rollback restores one as a new version. Same scopes as ./templates.ts.

export type VersionSummaryData = z.output<typeof TemplateVersionSummary>;

const versionsKey = (scope: ScopeKind, id: string) =>
  endpointQueryKey(endpoints.templateLifecycle[scope].versions, { params: { template_id: id } });

/**
 * The template's versions, newest first (the newest is its current content). Asked again on
 * every visit: this console's writes refresh it, but a write elsewhere (another user, a
 * program, the template deleted and made again under its id) would not show otherwise.
 */
export function useTemplateVersions(scope: ScopeKind, id: string) {
  return useEndpointQuery(endpoints.templateLifecycle[scope].versions, { params: { template_id: id } }, { refetchOnMount: "always" });
}

/**
 * One version with its content; nothing is asked while `version` is null. (Not cached for
 * good although a version never changes: a template deleted and made again numbers anew.)
 */
export function useTemplateVersion(scope: ScopeKind, id: string, version: number | null) {
  return useEndpointQuery(
    endpoints.templateLifecycle[scope].version,
    { params: { template_id: id, version: version ?? 0 } },
    { enabled: version !== null },
  );
}

/**
 * Restores a version's content. Whatever shows the template follows: its own query holds the
 * answer at once, and the lists and the update preview refresh. Resolves to the template and
 * the number of the version the rollback recorded (null should the fresh list not show one).
 */
export function useRollbackTemplate(scope: ScopeKind, id: string) {
  const lifecycle = endpoints.templateLifecycle[scope];
  const queryClient = useQueryClient();
  const mutation = useEndpointMutation(lifecycle.rollback, { invalidates: templateReaders(scope) });
  return {
    ...mutation,
    /** Rolls back to `version` if the template is still at `current` (the ETag of the one shown). */
    rollback: async (version: number, current: string | undefined) => {
      const template = await mutation.mutateAsync({ params: { template_id: id }, body: { version }, ifMatch: current });
      queryClient.setQueryData(templateKey(scope, id), template);
      // The mutation refreshed the versions list (a template reader); read it from the cache,
      // asking the server only if no page held it: it names the version just recorded.
      const { versions } = await queryClient.fetchQuery({
        queryKey: versionsKey(scope, id),
        queryFn: () => api.call(lifecycle.versions, { params: { template_id: id } }),
      });
      return { template, recorded: versions[0]?.version ?? null };
    },
  };
}
