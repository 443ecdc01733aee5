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
    GET: handle(e.versions, ({ ctx, params }) => listVersions(ctx.app.db, scopeOf(kind, ctx.principal), params.template_id)),
  });
}

export function templateVersionRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    GET: handle(e.version, ({ ctx, params }) => getVersion(ctx.app.db, scopeOf(kind, ctx.principal), params.template_id, params.version)),
  });
}

export function templateRollbackRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    POST: handle(e.rollback, ({ ctx, params, body }) =>
      rollbackTemplate(ctx.app.db, scopeOf(kind, ctx.principal), params.template_id, body.version, ctx.principal.id),
    ),
  });
}

export function templateCheckUpdatesRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    POST: handle(e.checkUpdates, ({ ctx }) => checkAllForUpdates(ctx.app, scopeOf(kind, ctx.principal), { signal: ctx.request.signal })),
  });
}

export function templateUpdateAllRoute(kind: ScopeKind) {
  const e = lifecycleEndpointsByScope[kind];
  return route({
    POST: handle(e.updateAll, ({ ctx, query }) =>
      updateAllTemplates(ctx.app, scopeOf(kind, ctx.principal), query.force, ctx.principal.id, { signal: ctx.request.signal }),
    ),
  });
}

export function usableTemplatesRoute() {
  return route({
    GET: handle(usableTemplateEndpoints.list, ({ ctx, query }) => listUsableTemplates(ctx.app.db, ctx.app.secretKey, ctx.principal, query)),
  });
}

export function usableTemplateRoute() {
  return route({
    GET: handle(usableTemplateEndpoints.get, ({ ctx, params }) =>
      getUsableTemplate(ctx.app.db, ctx.principal, params.scope, params.template_id),
    ),
  });
}
