import { defineEndpoint } from "@/lib/contracts/endpoint";
import type { ScopeKind } from "@/lib/contracts/scope";
import { manifestRoutes, templateRoutesByScope } from "./routes";
import {
  CheckUpdateResult,
  CreateTemplateRequest,
  InstallTemplateRequest,
  ListTemplatesQuery,
  ManifestValidation,
  PatchTemplateRequest,
  Template,
  TemplateList,
  templateParams,
  UpdateOneQuery,
  UpdatePreview,
  UpdatePreviewQuery,
  UpdateRequest,
  UpdateResult,
  ValidateManifestRequest,
} from "./schemas";

/** The template endpoints of one scope; `/me/templates` and `/admin/templates` differ only in route and access. */
function templateEndpoints(kind: ScopeKind) {
  const routes = templateRoutesByScope[kind];
  const access = kind === "personal" ? "authenticated" : "admin";
  const whose = kind === "personal" ? "the caller's" : "a server";
  const tag = kind === "personal" ? "Templates (personal)" : "Templates (server)";
  const marketplaceErrors = [404, 409, 502, 504];
  return {
    list: defineEndpoint({
      ...routes.list,
      tag,
      access,
      status: 200,
      query: ListTemplatesQuery,
      response: TemplateList,
      summary: `List ${kind} templates by id, filtered by category and tag; paged with limit and cursor`,
    }),
    create: defineEndpoint({
      ...routes.create,
      tag,
      access,
      status: 200,
      body: CreateTemplateRequest,
      response: Template,
      errors: [409],
      audit: { action: "template.create", target: `${routes.list.path}/{id}` },
      summary: `Create ${whose} template from an inline manifest`,
    }),
    get: defineEndpoint({
      ...routes.get,
      tag,
      access,
      status: 200,
      params: templateParams,
      response: Template,
      errors: [404],
      summary: `Read ${whose} template`,
    }),
    patch: defineEndpoint({
      ...routes.patch,
      tag,
      access,
      status: 200,
      params: templateParams,
      body: PatchTemplateRequest,
      response: Template,
      errors: [404],
      summary: `Edit ${whose} template; marks an installed one as locally modified`,
      audit: { action: "template.patch" },
      conditional: "if-match",
    }),
    remove: defineEndpoint({
      ...routes.remove,
      tag,
      access,
      status: 204,
      params: templateParams,
      errors: [404],
      audit: { action: "template.delete" },
      conditional: "if-match",
      summary: `Delete ${whose} template`,
    }),
    install: defineEndpoint({
      ...routes.install,
      tag,
      access,
      status: 200,
      params: templateParams,
      body: InstallTemplateRequest,
      response: Template,
      errors: marketplaceErrors,
      audit: { action: "template.install", target: routes.get.path },
      summary: `Install template {template_id} of a source as ${whose} template`,
    }),
    update: defineEndpoint({
      ...routes.update,
      tag,
      access,
      status: 200,
      params: templateParams,
      query: UpdateOneQuery,
      body: UpdateRequest,
      optionalBody: true,
      response: UpdateResult,
      errors: [400, ...marketplaceErrors],
      audit: { action: "template.update", target: routes.get.path },
      conditional: "if-match",
      summary: `Update ${whose} template from its source; merge=true keeps local edits (409 merge-conflict when both sides changed a path, unless the body's resolutions resolve it)`,
    }),
    checkUpdate: defineEndpoint({
      ...routes.checkUpdate,
      tag,
      access,
      status: 200,
      params: templateParams,
      response: CheckUpdateResult,
      errors: marketplaceErrors,
      summary: `Check whether ${whose} template's source has a newer revision`,
    }),
    previewUpdate: defineEndpoint({
      ...routes.previewUpdate,
      tag,
      access,
      status: 200,
      params: templateParams,
      query: UpdatePreviewQuery,
      response: UpdatePreview,
      errors: [400, ...marketplaceErrors],
      summary: `The installed template beside what an update would write (for reviewing a diff); merge=true adds the three-way merge and its conflicts`,
    }),
  };
}

export const templateEndpointsByScope = {
  personal: templateEndpoints("personal"),
  server: templateEndpoints("server"),
} as const;

export const manifestEndpoints = {
  validate: defineEndpoint({
    ...manifestRoutes.validate,
    tag: "Manifests",
    access: "authenticated",
    status: 200,
    body: ValidateManifestRequest,
    response: ManifestValidation,
    audit: false,
    summary: "Validate a bank-template manifest: errors at their paths, and warnings for keys the schema does not know",
  }),
};
