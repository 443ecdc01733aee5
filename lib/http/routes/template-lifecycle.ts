import { type ScopeKind, scopeOf } from "@/lib/contracts/scope";
import { lifecycleEndpointsByScope, usableTemplateEndpoints } from "@/lib/contracts/templates/lifecycle-endpoints";
import { handle, route } from "@/lib/http/route";
import { checkAllForUpdates, updateAllTemplates } from "@/lib/services/templates/bulk";
import { getUsableTemplate, listUsableTemplates } from "@/lib/services/templates/usable";
import { getVersion, listVersions, rollbackTemplate } from "@/lib/services/templates/versions";

// The route files of CONTRACT §13 for /me/templates and /admin/templates: one implementation, two scopes.

export function templateVersionsRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    GET: handle(e.versions, ({ ctx, params }) => listVersions(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id })),
  });
}

export function templateVersionRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    GET: handle(e.version, ({ ctx, params }) =>
      getVersion(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id, version: params.version }),
    ),
  });
}

export function templateRollbackRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    POST: handle(e.rollback, ({ ctx, params, body }) =>
      rollbackTemplate(ctx, { scope: scopeOf(kind, ctx.actor), templateId: params.template_id, version: body.version }),
    ),
  });
}

export function templateCheckUpdatesRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    POST: handle(e.checkUpdates, ({ ctx }) => checkAllForUpdates(ctx, { scope: scopeOf(kind, ctx.actor) })),
  });
}

export function templateUpdateAllRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    POST: handle(e.updateAll, ({ ctx, query }) => updateAllTemplates(ctx, { scope: scopeOf(kind, ctx.actor), force: query.force })),
  });
}

export function usableTemplatesRoute() {
  return route({
    GET: handle(usableTemplateEndpoints.list, ({ ctx, query }) => listUsableTemplates(ctx, { query })),
  });
}

export function usableTemplateRoute() {
  return route({
    GET: handle(usableTemplateEndpoints.get, ({ ctx, params }) =>
      getUsableTemplate(ctx, { kind: params.scope, templateId: params.template_id }),
    ),
  });
}
