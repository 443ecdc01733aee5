import { defineEndpoint } from "@/lib/contracts/endpoint";
import { type ScopeKind, scopePrefix } from "@/lib/contracts/scope";
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
  UpdatePreview,
  UpdateQuery,
  UpdateResult,
  ValidateManifestRequest,
} from "./schemas";

/** The template endpoints of one scope; `/me/templates` and `/admin/templates` differ only in path and access. */
function templateEndpoints(kind: ScopeKind) {
  const base = `${scopePrefix(kind)}/templates`;
  const item = `${base}/{template_id}`;
  const access = kind === "personal" ? "principal" : "admin";
  const whose = kind === "personal" ? "the caller's" : "a server";
  const tag = kind === "personal" ? "Templates (personal)" : "Templates (server)";
  const marketplaceErrors = [404, 409, 502, 504];
  return {
    list: defineEndpoint({
      method: "GET",
      path: base,
      tag,
      access,
      status: 200,
      query: ListTemplatesQuery,
      response: TemplateList,
      summary: `List ${kind} templates by id, filtered by category and tag; paged with limit and cursor`,
    }),
    create: defineEndpoint({
      method: "POST",
      path: base,
      tag,
      access,
      status: 200,
      body: CreateTemplateRequest,
      response: Template,
      errors: [409],
      audit: { action: "template.create", target: `${base}/{id}` },
      summary: `Create ${whose} template from an inline manifest`,
    }),
    get: defineEndpoint({
      method: "GET",
      path: item,
      tag,
      access,
      status: 200,
      params: templateParams,
      response: Template,
      errors: [404],
      summary: `Read ${whose} template`,
    }),
    patch: defineEndpoint({
      method: "PATCH",
      path: item,
      tag,
      access,
      status: 200,
      params: templateParams,
      body: PatchTemplateRequest,
      response: Template,
      errors: [404],
      summary: `Edit ${whose} template; marks an installed one as locally modified`,
      audit: { action: "template.patch" },
    }),
    remove: defineEndpoint({
      method: "DELETE",
      path: item,
      tag,
      access,
      status: 204,
      params: templateParams,
      errors: [404],
      audit: { action: "template.delete" },
      summary: `Delete ${whose} template`,
    }),
    install: defineEndpoint({
      method: "POST",
      path: `${item}/install`,
      tag,
      access,
      status: 200,
      params: templateParams,
      body: InstallTemplateRequest,
      response: Template,
      errors: marketplaceErrors,
      audit: { action: "template.install", target: item },
      summary: `Install template {template_id} of a source as ${whose} template`,
    }),
    update: defineEndpoint({
      method: "POST",
      path: `${item}/update`,
      tag,
      access,
      status: 200,
      params: templateParams,
      query: UpdateQuery,
      response: UpdateResult,
      errors: [400, ...marketplaceErrors],
      audit: { action: "template.update", target: item },
      summary: `Update ${whose} template from its source`,
    }),
    checkUpdate: defineEndpoint({
      method: "GET",
      path: `${item}/check-update`,
      tag,
      access,
      status: 200,
      params: templateParams,
      response: CheckUpdateResult,
      errors: marketplaceErrors,
      summary: `Check whether ${whose} template's source has a newer revision`,
    }),
    previewUpdate: defineEndpoint({
      method: "GET",
      path: `${item}/update-preview`,
      tag,
      access,
      status: 200,
      params: templateParams,
      response: UpdatePreview,
      errors: [400, ...marketplaceErrors],
      summary: `The installed template beside what an update would write (for reviewing a diff)`,
    }),
  };
}

export const templateEndpointsByScope = {
  personal: templateEndpoints("personal"),
  server: templateEndpoints("server"),
} as const;

export const manifestEndpoints = {
  validate: defineEndpoint({
    method: "POST",
    path: "/ext/svc/manifests/validate",
    tag: "Manifests",
    access: "principal",
    status: 200,
    body: ValidateManifestRequest,
    response: ManifestValidation,
    audit: false,
    summary: "Validate a bank-template manifest: errors at their paths, and warnings for keys the schema does not know",
  }),
};
