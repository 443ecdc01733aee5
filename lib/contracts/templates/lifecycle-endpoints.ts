import { z } from "zod";
import { defineEndpoint } from "@/lib/contracts/endpoint";
import type { ScopeKind } from "@/lib/contracts/scope";
import { lifecycleRoutesByScope, templateRoutesByScope, usableTemplateRoutes } from "./routes";
import {
  CheckUpdatesResult,
  ListTemplatesQuery,
  RollbackRequest,
  Template,
  TemplateList,
  TemplateVersion,
  TemplateVersionList,
  templateId,
  templateParams,
  templateVersionParams,
  UpdateAllResult,
  UpdateQuery,
} from "./schemas";

/** Versions, rollback and the bulk operations of one scope's templates (CONTRACT §13). */
function lifecycleEndpoints(kind: ScopeKind) {
  const routes = lifecycleRoutesByScope[kind];
  const templates = templateRoutesByScope[kind];
  const access = kind === "personal" ? "authenticated" : "admin";
  const whose = kind === "personal" ? "the caller's" : "a server";
  const tag = kind === "personal" ? "Templates (personal)" : "Templates (server)";
  return {
    versions: defineEndpoint({
      ...routes.versions,
      tag,
      access,
      status: 200,
      params: templateParams,
      response: TemplateVersionList,
      errors: [404],
      summary: `List the versions of ${whose} template, newest first`,
    }),
    version: defineEndpoint({
      ...routes.version,
      tag,
      access,
      status: 200,
      params: templateVersionParams,
      response: TemplateVersion,
      errors: [404],
      summary: `Read one version of ${whose} template, with its content`,
    }),
    rollback: defineEndpoint({
      ...routes.rollback,
      tag,
      access,
      status: 200,
      params: templateParams,
      body: RollbackRequest,
      response: Template,
      errors: [404],
      audit: { action: "template.rollback", target: templates.get.path },
      conditional: "if-match",
      summary: `Restore a version of ${whose} template (its content, source revision and local-edit mark); records a rollback version`,
    }),
    checkUpdates: defineEndpoint({
      ...routes.checkUpdates,
      tag,
      access,
      status: 200,
      response: CheckUpdatesResult,
      audit: { action: "template.check_updates", target: templates.list.path },
      summary: `Check every installed ${kind} template for updates; one template's failure is its own problem`,
    }),
    updateAll: defineEndpoint({
      ...routes.updateAll,
      tag,
      access,
      status: 200,
      query: UpdateQuery,
      response: UpdateAllResult,
      audit: { action: "template.update_all", target: templates.list.path },
      summary: `Update every installed ${kind} template; local edits are skipped with a 409 problem unless force=true`,
    }),
  };
}

export const lifecycleEndpointsByScope = {
  personal: lifecycleEndpoints("personal"),
  server: lifecycleEndpoints("server"),
} as const;

/** Read access for every authenticated caller (CONTRACT §13): their personal templates and every server template. */
export const usableTemplateEndpoints = {
  list: defineEndpoint({
    ...usableTemplateRoutes.list,
    tag: "Templates (usable)",
    access: "authenticated",
    status: 200,
    query: ListTemplatesQuery,
    response: TemplateList,
    summary: "List the templates the caller may use: its personal ones and every server template, personal first, then by id",
  }),
  get: defineEndpoint({
    ...usableTemplateRoutes.get,
    tag: "Templates (usable)",
    access: "authenticated",
    status: 200,
    params: z.object({ scope: z.enum(["personal", "server"]), template_id: templateId }),
    response: Template,
    errors: [404],
    summary: "Read one template the caller may use: `personal/{id}` of its own, or `server/{id}`",
  }),
};
