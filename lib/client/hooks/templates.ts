import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ScopeKind } from "@/lib/identity/scope";
import type { CheckUpdateResult, Template } from "@/lib/templates/schemas";
import { api } from "../api";
import { endpoints } from "../endpoints";
import { endpointQueryKey, useEndpointMutation, useEndpointQuery } from "../query";

// Installed templates of one scope: `personal` (/me/templates) or `server` (/admin/templates,
// admins only). Every hook takes the scope; the two families share their shape.

export type TemplateData = z.output<typeof Template>;
export type CheckUpdateData = z.output<typeof CheckUpdateResult>;
export interface TemplateFilters {
  category?: string | null;
  tag?: string | null;
}

const catalogs = [endpoints.sources.personal.catalog, endpoints.sources.server.catalog];

/** The scope's templates, filtered by category and tag on the server. */
export function useTemplates(scope: ScopeKind, filters: TemplateFilters = {}) {
  const query = { category: filters.category ?? undefined, tag: filters.tag ?? undefined };
  return useEndpointQuery(endpoints.templates[scope].list, { query }, { placeholderData: (previous) => previous });
}

export function useTemplate(scope: ScopeKind, id: string) {
  return useEndpointQuery(endpoints.templates[scope].get, { params: { template_id: id } });
}

export function useCreateTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  return useEndpointMutation(e.create, { invalidates: [e.list] });
}

/** The template's own query holds the answer at once, so an editor reopened on it starts from what was saved. */
const templateKey = (scope: ScopeKind, id: string) => endpointQueryKey(endpoints.templates[scope].get, { params: { template_id: id } });

export function usePatchTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  const queryClient = useQueryClient();
  const mutation = useEndpointMutation(e.patch, { invalidates: [e.list, e.previewUpdate] });
  return {
    ...mutation,
    patch: async (id: string, body: Parameters<typeof mutation.mutateAsync>[0]["body"]) => {
      const template = await mutation.mutateAsync({ params: { template_id: id }, body });
      queryClient.setQueryData(templateKey(scope, id), template);
      return template;
    },
  };
}

/** Installs a catalog entry; the catalogs refresh so their "installed" marks follow. */
export function useInstallTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  return useEndpointMutation(e.install, { invalidates: [e.list, ...catalogs] });
}

/** The query key of one template's update check, shared by the list, its rows and the detail page. */
export const checkUpdateKey = (scope: ScopeKind, id: string) =>
  endpointQueryKey(endpoints.templates[scope].checkUpdate, { params: { template_id: id } });

export function useRemoveTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  const queryClient = useQueryClient();
  const mutation = useEndpointMutation(e.remove, { invalidates: [e.list, ...catalogs] });
  return {
    ...mutation,
    remove: async (id: string) => {
      await mutation.mutateAsync({ params: { template_id: id } });
      queryClient.removeQueries({ queryKey: checkUpdateKey(scope, id) });
      queryClient.removeQueries({ queryKey: templateKey(scope, id) });
    },
  };
}

/**
 * Updates from the source (`force` overwrites local edits). The template's update check then
 * reads "up to date" at the new revision without asking the marketplace again.
 */
export function useUpdateTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  const queryClient = useQueryClient();
  const mutation = useEndpointMutation(e.update, { invalidates: [e.list, e.previewUpdate, ...catalogs] });
  return {
    ...mutation,
    update: async (id: string, force: boolean) => {
      const result = await mutation.mutateAsync({ params: { template_id: id }, query: { force: force ? "true" : "false" } });
      const checked: CheckUpdateData = {
        has_update: false,
        current_revision: result.new_revision,
        latest_revision: result.new_revision,
        source_name: result.template.source_name,
        source_scope: result.template.source_scope,
      };
      queryClient.setQueryData(checkUpdateKey(scope, id), checked);
      queryClient.setQueryData(templateKey(scope, id), result.template);
      return result;
    },
  };
}

/**
 * One template's update check. It asks the marketplace, so it runs only when `enabled`
 * (the detail page) or when "Check all" fetches it; other readers see the cached answer.
 */
export function useCheckUpdate(scope: ScopeKind, id: string, { enabled }: { enabled: boolean }) {
  return useEndpointQuery(
    endpoints.templates[scope].checkUpdate,
    { params: { template_id: id } },
    { enabled, retry: false, staleTime: 60_000 },
  );
}

/** Checks many templates, a few at a time, reporting progress; each answer lands in the cache. */
export function useCheckAllForUpdates(scope: ScopeKind) {
  const queryClient = useQueryClient();
  const endpoint = endpoints.templates[scope].checkUpdate;
  return async (ids: string[], onProgress: (done: number) => void, concurrency = 3) => {
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        await queryClient
          .fetchQuery({
            queryKey: checkUpdateKey(scope, id),
            queryFn: () => api.call(endpoint, { params: { template_id: id } }),
            retry: false,
            staleTime: 0,
          })
          .catch(() => undefined); // the error stays in the cache, where the row shows it
        onProgress(++done);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
  };
}

/** The installed template beside what an update would write. Asks the marketplace. */
export function useUpdatePreview(scope: ScopeKind, id: string) {
  return useEndpointQuery(
    endpoints.templates[scope].previewUpdate,
    { params: { template_id: id } },
    { retry: false, staleTime: 0, refetchOnWindowFocus: false },
  );
}
