import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { TemplateContent } from "@/lib/contracts/templates/content-fields";
import type { Template } from "@/lib/contracts/templates/schemas";
import { mapWithConcurrency } from "@/lib/shared/concurrency";
import { api, type CallResult } from "../api";
import { endpoints } from "../endpoints";
import { ApiProblem, describeError } from "../problem";
import { endpointQueryKey, useEndpointMutation, useEndpointQuery } from "../query";

// Installed templates of one scope: `personal` (/me/templates) or `server` (/admin/templates,
// admins only). Every hook takes the scope; the two families share their shape.

export type TemplateData = z.output<typeof Template>;

const catalogs = [endpoints.sources.personal.catalog, endpoints.sources.server.catalog];

/**
 * What shows a template's content or update status, refreshed after anything rewrites
 * templates: the scope's list and each template's own query, the list of usable templates
 * (the bank picker, members' view of server templates), the versions a write records and the
 * catalogs' "installed" marks.
 */
export const templateReaders = (scope: ScopeKind) => {
  const e = endpoints.templates[scope];
  const versions = endpoints.templateLifecycle[scope].versions;
  return [e.list, e.get, e.previewUpdate, versions, endpoints.usableTemplates.list, endpoints.usableTemplates.get, ...catalogs];
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
    ],
  });
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
  return useEndpointMutation(e.install, { invalidates: [e.list, endpoints.usableTemplates.list, ...catalogs] });
}

export function useRemoveTemplate(scope: ScopeKind) {
  const e = endpoints.templates[scope];
  const queryClient = useQueryClient();
  const mutation = useEndpointMutation(e.remove, { invalidates: [e.list, endpoints.usableTemplates.list, ...catalogs] });
  return {
    ...mutation,
    remove: async (id: string) => {
      await mutation.mutateAsync({ params: { template_id: id } });
      queryClient.removeQueries({ queryKey: templateKey(scope, id) });
    },
  };
}

/** How an update treats local edits: refused (`plain`), overwritten (`force`) or kept, merged three ways (`merge`). */
export type UpdateMode = "plain" | "force" | "merge";

const flag = (on: boolean) => (on ? "true" : "false");

/**
 * Updates from the source. The answer is the template as written, up to date at the new
 * revision; the lists refresh around it.
 */
export function useUpdateTemplate(scope: ScopeKind) {
  const queryClient = useQueryClient();
  const mutation = useEndpointMutation(endpoints.templates[scope].update, { invalidates: templateReaders(scope) });
  return {
    ...mutation,
    update: async (id: string, mode: UpdateMode) => {
      const query = { force: flag(mode === "force"), merge: flag(mode === "merge") };
      const result = await mutation.mutateAsync({ params: { template_id: id }, query, body: {} });
      queryClient.setQueryData(templateKey(scope, id), result.template);
      return result;
    },
  };
}

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

/** The update's revision was not the one reviewed: the source changed after the preview. */
export class UpstreamMoved extends Error {
  constructor(readonly revision: string) {
    super(
      `The source changed after you reviewed it (it is now at revision ${revision.slice(0, 8)}), so your choices were not saved. The template now holds the source's latest version; your edits are kept in its versions, to roll back to or edit again.`,
    );
    this.name = "UpstreamMoved";
  }
}

/**
 * Saves a merge whose conflicts a person resolved (CONTRACT §16 leaves that to the client): an
 * update with force=true takes the reviewed upstream revision (a version `update`, the source
 * revision advanced), then a PATCH writes the chosen content, which leaves the template
 * locally modified with that update as the next merge's base. `content` null: the choices came
 * out as upstream's content, so there is nothing to PATCH (and no local edits). When the update
 * brought another revision than the one reviewed, the choices no longer apply: nothing is patched.
 */
export function useSaveResolvedMerge(scope: ScopeKind) {
  const update = useUpdateTemplate(scope);
  const patch = usePatchTemplate(scope);
  return {
    isPending: update.isPending || patch.isPending,
    save: async (id: string, reviewedRevision: string, content: TemplateContent | null) => {
      const updated = await update.update(id, "force");
      if (updated.new_revision !== reviewedRevision) throw new UpstreamMoved(updated.new_revision);
      if (content === null) return updated.template;
      // The merge of two valid manifests, as JSON; the PATCH validates it like any edit (422 if the sides' changes do not fit together).
      return patch.patch(id, content as Parameters<typeof patch.patch>[1]);
    },
  };
}
