import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { MergeResolutionEntry } from "@/lib/contracts/templates/merge";
import type { Template } from "@/lib/contracts/templates/schemas";
import { mapWithConcurrency } from "@/lib/shared/concurrency";
import { api, type CallResult } from "../api";
import { endpoints } from "../endpoints";
import { ApiProblem, describeError, nullWhenMissing } from "../problem";
import { endpointQueryKey, useEndpointMutation, useEndpointQuery } from "../query";

// Installed templates of one scope: `personal` (/me/templates) or `server` (/admin/templates,
// admins only). Every hook takes the scope; the two families share their shape.

export type TemplateData = z.output<typeof Template>;

const catalogs = [endpoints.sources.personal.catalog, endpoints.sources.server.catalog];
/** Banks say whether their template has a newer version and what it is: any write of a template's content or its removal changes that. */
const bankReaders = [endpoints.banks.list, endpoints.banks.get];

/**
 * What shows a template's content or update status, refreshed after anything rewrites
 * templates: the scope's list and each template's own query, the list of usable templates
 * (the bank picker, members' view of server templates), the versions a write records, the
 * catalogs' "installed" marks, and the banks.
 */
export const templateReaders = (scope: ScopeKind) => {
  const e = endpoints.templates[scope];
  const versions = endpoints.templateLifecycle[scope].versions;
  return [
    e.list,
    e.get,
    e.previewUpdate,
    versions,
    endpoints.usableTemplates.list,
    endpoints.usableTemplates.get,
    ...catalogs,
    ...bankReaders,
  ];
};

/** Whether the source held a newer revision at the last check (CONTRACT §13's stored status). */
export const hasUpdate = (t: Pick<TemplateData, "source_name" | "source_revision" | "latest_revision">) =>
  t.source_name !== null && t.latest_revision !== null && t.latest_revision !== t.source_revision;

/** Templates the caller may use: their personal ones and the server's (GET /ext/svc/templates). */
export function useUsableTemplates({ enabled = true, scope }: { enabled?: boolean; scope?: ScopeKind } = {}) {
  return useEndpointQuery(
    endpoints.usableTemplates.list,
    {},
    {
      enabled,
      // One scope's part of the list, when asked for: the same cached answer serves both.
      select: scope && ((data) => ({ ...data, templates: data.templates.filter((t) => t.scope === scope) })),
    },
  );
}

export function useUsableTemplate(scope: ScopeKind, id: string, { enabled = true } = {}) {
  return useEndpointQuery(endpoints.usableTemplates.get, { params: { scope, template_id: id } }, { enabled });
}

/**
 * How many templates have an update waiting, from the stored status: the user's own and, for
 * admins, the server's. Shares the templates pages' list queries, so it follows every check.
 */
export function useUpdateCounts(includeServer: boolean) {
  const personal = useEndpointQuery(endpoints.templates.personal.list, {});
  const server = useEndpointQuery(endpoints.templates.server.list, {}, { enabled: includeServer });
  const count = (data: { templates: TemplateData[] } | undefined) => data?.templates.filter(hasUpdate).length ?? 0;
  return { personal: count(personal.data), server: includeServer ? count(server.data) : 0 };
}

/** The scope's templates (the console filters them itself: one cached list serves every view). */
export function useTemplates(scope: ScopeKind, { enabled = true } = {}) {
  return useEndpointQuery(endpoints.templates[scope].list, {}, { enabled });
}

export function useTemplate(scope: ScopeKind, id: string, { enabled = true } = {}) {
  return useEndpointQuery(endpoints.templates[scope].get, { params: { template_id: id } }, { enabled });
}

export function useCreateTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  return useEndpointMutation(e.create, { invalidates: [e.list, endpoints.usableTemplates.list] });
}

/** The template's own query holds the answer at once, so an editor reopened on it starts from what was saved. */
export const templateKey = (scope: ScopeKind, id: string) =>
  endpointQueryKey(endpoints.templates[scope].get, { params: { template_id: id } });

export function usePatchTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  const queryClient = useQueryClient();
  const mutation = useEndpointMutation(e.patch, {
    invalidates: [
      e.list,
      e.previewUpdate,
      endpoints.templateLifecycle[scope].versions,
      endpoints.usableTemplates.list,
      endpoints.usableTemplates.get,
      ...bankReaders,
    ],
  });
  return {
    ...mutation,
    /** Writes the changes if the template is still at `version` (its ETag), else 412 `precondition-failed`. */
    patch: async (id: string, body: Parameters<typeof mutation.mutateAsync>[0]["body"], version: string | undefined) => {
      const template = await mutation.mutateAsync({ params: { template_id: id }, body, ifMatch: version });
      queryClient.setQueryData(templateKey(scope, id), template);
      return template;
    },
  };
}

type VersionSummary = CallResult<(typeof endpoints.templateLifecycle)[ScopeKind]["versions"]>["versions"][number];

/**
 * For a save refused because the template changed meanwhile: the template as it is now (null:
 * deleted), read again so every view of it follows, and its versions, newest first (null when
 * they cannot be read: who changed it is then not known).
 */
export function useReadTemplateNow(scope: ScopeKind) {
  const queryClient = useQueryClient();
  const e = endpoints.templates[scope];
  const versions = endpoints.templateLifecycle[scope].versions;
  return async (id: string): Promise<{ now: TemplateData | null; versions: VersionSummary[] | null }> => {
    const params = { template_id: id };
    const now = await nullWhenMissing(
      queryClient.fetchQuery({ queryKey: templateKey(scope, id), queryFn: () => api.call(e.get, { params }), staleTime: 0 }),
    );
    const list = await queryClient
      .fetchQuery({ queryKey: endpointQueryKey(versions, { params }), queryFn: () => api.call(versions, { params }), staleTime: 0 })
      .catch(() => null);
    return { now, versions: list?.versions ?? null };
  };
}

/** Installs a catalog entry; the catalogs refresh so their "installed" marks follow. */
export function useInstallTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  return useEndpointMutation(e.install, { invalidates: [e.list, endpoints.usableTemplates.list, ...catalogs] });
}

export function useRemoveTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  const mutation = useEndpointMutation(e.remove, {
    invalidates: [e.list, endpoints.usableTemplates.list, ...catalogs, ...bankReaders],
    // The template's own query and the list of banks made from it would answer 404 now.
    forget: ({ params }) => [
      templateKey(scope, params.template_id),
      endpointQueryKey(endpoints.banks.list, { query: { template: `${scope}/${params.template_id}` } }),
    ],
  });
  return {
    ...mutation,
    /** Deletes the template if it is still at `version` (the ETag of the one shown). */
    remove: (id: string, version: string | undefined) =>
      mutation.mutateAsync({ params: { template_id: id }, ifMatch: version }).then(() => undefined),
  };
}

/** How an update treats local edits: refused (`plain`), overwritten (`force`) or kept, merged three ways (`merge`). */
export type UpdateMode = "plain" | "force" | "merge";

const flag = (on: boolean) => (on ? "true" : "false");

/**
 * Updates from the source; a merge may carry the resolutions of its conflicts (CONTRACT §21),
 * written at once as one version. The answer is the template as written, up to date at the new
 * revision; the lists refresh around it. A merge refused because its conflicts are no longer the
 * ones resolved (the template or the source changed meanwhile) refreshes the update previews, so
 * the review shows the conflicts as they are now.
 */
export function useUpdateTemplate(scope: ScopeKind) {
  const queryClient = useQueryClient();
  const endpoint = endpoints.templates[scope].update;
  const mutation = useEndpointMutation(endpoint, { invalidates: templateReaders(scope) });
  return {
    ...mutation,
    /** Updates the template from its source, if it is still at `version` (the ETag of the one reviewed). */
    update: async (id: string, mode: UpdateMode, version: string | undefined, resolutions?: MergeResolutionEntry[]) => {
      const query = { force: flag(mode === "force"), merge: flag(mode === "merge") };
      const body = resolutions ? { resolutions } : {};
      try {
        const result = await mutation.mutateAsync({ params: { template_id: id }, query, body, ifMatch: version });
        queryClient.setQueryData(templateKey(scope, id), result.template);
        return result;
      } catch (error) {
        const preview = endpoints.templates[scope].previewUpdate;
        if (isStaleMerge(error)) await queryClient.invalidateQueries({ queryKey: ["ext-svc", preview.method, preview.path] });
        throw error;
      }
    },
  };
}

/** A merge refused because the conflicts it resolved are not the ones there are now. */
export const isStaleMerge = (error: unknown) =>
  error instanceof ApiProblem && (error.problemType === "merge-conflict" || error.problemType === "merge-resolution-unknown");

/**
 * One template's update check: asks the marketplace and stores the answer on the template
 * (`latest_revision`, `update_checked_at`), so the template and the lists are read again.
 */
export function useCheckUpdate(scope: ScopeKind) {
  return useEndpointMutation(endpoints.templates[scope].checkUpdate, { invalidates: templateReaders(scope) });
}

export type CheckUpdatesResult = CallResult<(typeof endpoints.templateLifecycle)[ScopeKind]["checkUpdates"]>["results"][number];

/** Checks every installed template of the scope in one request (POST …/check-updates). */
export function useCheckAllForUpdates(scope: ScopeKind) {
  return useEndpointMutation(endpoints.templateLifecycle[scope].checkUpdates, { invalidates: templateReaders(scope) });
}

/** How one template fared in "Update all". */
export type UpdateOutcome =
  | { id: string; outcome: "updated"; revision: string }
  | { id: string; outcome: "skipped"; detail: string }
  | { id: string; outcome: "failed"; detail: string };

/**
 * Updates the given templates one request each, two at a time, so the console can show
 * progress (POST …/update-all answers only at the end). A template with local edits is
 * skipped unless `force`; one template's failure never stops the others. The lists refresh
 * once at the end.
 */
export function useUpdateMany(scope: ScopeKind) {
  const queryClient = useQueryClient();
  const endpoint = endpoints.templates[scope].update;
  return async (ids: string[], force: boolean, onOutcome: (outcome: UpdateOutcome) => void, concurrency = 2) => {
    await mapWithConcurrency(ids, concurrency, async (id) => {
      try {
        const result = await api.call(endpoint, { params: { template_id: id }, query: { force: force ? "true" : "false" }, body: {} });
        onOutcome({ id, outcome: "updated", revision: result.new_revision });
      } catch (error) {
        const skipped = error instanceof ApiProblem && error.problemType === "local-edits";
        onOutcome({ id, outcome: skipped ? "skipped" : "failed", detail: describeError(error) });
      }
    });
    await Promise.all(templateReaders(scope).map((e) => queryClient.invalidateQueries({ queryKey: ["ext-svc", e.method, e.path] })));
  };
}

export type UpdatePreviewData = CallResult<(typeof endpoints.templates)[ScopeKind]["previewUpdate"]>;

/** One template's preview before a bulk update: what it would write, or why it could not be had. */
export type PreviewOutcome = { id: string; preview: UpdatePreviewData } | { id: string; preview: null; detail: string };

/** How many update previews run at once: each asks the marketplace, so a few at a time. */
const PREVIEW_CONCURRENCY = 4;

/**
 * Fetches the update previews of `ids`, PREVIEW_CONCURRENCY at a time, reporting each as it
 * comes so the console can show progress; one failure never stops the others. Answers them in
 * the order of `ids`.
 */
export function usePreviewMany(scope: ScopeKind) {
  const endpoint = endpoints.templates[scope].previewUpdate;
  return (ids: string[], onPreview: (outcome: PreviewOutcome) => void) =>
    mapWithConcurrency(ids, PREVIEW_CONCURRENCY, async (id): Promise<PreviewOutcome> => {
      let outcome: PreviewOutcome;
      try {
        outcome = { id, preview: await api.call(endpoint, { params: { template_id: id } }) };
      } catch (error) {
        outcome = { id, preview: null, detail: describeError(error) };
      }
      onPreview(outcome);
      return outcome;
    });
}

/**
 * The installed template beside what an update would write; with `merge`, also the three-way
 * merge that keeps local edits and its conflicts. Asks the marketplace.
 */
export function useUpdatePreview(scope: ScopeKind, id: string, { merge = false, enabled = true } = {}) {
  return useEndpointQuery(
    endpoints.templates[scope].previewUpdate,
    { params: { template_id: id }, query: { merge: flag(merge) } },
    { retry: false, staleTime: 0, refetchOnWindowFocus: false, enabled },
  );
}
