import { type ScopeKind, scopeOf } from "@/lib/contracts/scope";
import { templateEndpointsByScope } from "@/lib/contracts/templates/endpoints";
import { handle, route } from "@/lib/http/route";
import { createTemplate, deleteTemplate, getTemplateJson, listTemplates, patchTemplate } from "@/lib/services/templates/templates";
import { checkForUpdate, installTemplate, previewUpdate, updateTemplate } from "@/lib/services/templates/upstream";

// One implementation serves /me/templates and /admin/templates; `kind` picks whose rows.

export function templateCollectionRoute(kind: ScopeKind) {
  const e = templateEndpointsByScope[kind];
  return route({
    GET: handle(e.list, ({ ctx, query }) => listTemplates(ctx, { scope: scopeOf(kind, ctx.actor), query })),
    POST: handle(e.create, ({ ctx, body }) => createTemplate(ctx, { scope: scopeOf(kind, ctx.actor), body })),
  });
}

export function templateItemRoute(kind: ScopeKind) {
  const e = templateEndpointsByScope[kind];
  return route({
    GET: handle(e.get, ({ ctx, params }) => getTemplateJson(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id })),
    PATCH: handle(e.patch, ({ ctx, params, body }) =>
      patchTemplate(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id, body }),
    ),
    DELETE: handle(e.remove, ({ ctx, params }) => deleteTemplate(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id })),
  });
}

export function templateInstallRoute(kind: ScopeKind) {
  const e = templateEndpointsByScope[kind];
  return route({
    POST: handle(e.install, ({ ctx, params, body }) => installTemplate(ctx, { kind, templateId: params.template_id, body })),
  });
}

export function templateUpdateRoute(kind: ScopeKind) {
  const e = templateEndpointsByScope[kind];
  return route({
    POST: handle(e.update, ({ ctx, params, query, body }) =>
      updateTemplate(ctx, {
        scope: scopeOf(kind, ctx.actor),
        templateId: params.template_id,
        force: query.force,
        merge: query.merge,
        resolutions: body.resolutions,
      }),
    ),
  });
}

export function templateCheckUpdateRoute(kind: ScopeKind) {
  const e = templateEndpointsByScope[kind];
  return route({
    GET: handle(e.checkUpdate, ({ ctx, params }) =>
      checkForUpdate(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id }),
    ),
  });
}

export function templateUpdatePreviewRoute(kind: ScopeKind) {
  const e = templateEndpointsByScope[kind];
  return route({
    GET: handle(e.previewUpdate, ({ ctx, params, query }) =>
      previewUpdate(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id, merge: query.merge }),
    ),
  });
}
