import { type ScopeKind, scopeOf } from "@/lib/contracts/scope";
import { sourceEndpointsByScope } from "@/lib/contracts/sources/endpoints";
import { handle, route } from "@/lib/http/route";
import { createSource, deleteSource, getSource, listSources, updateSource } from "@/lib/services/sources/sources";
import { browseCatalog } from "@/lib/services/templates/source-catalog";

// One implementation serves /me/template-sources and /admin/template-sources.

export function sourceCollectionRoute(kind: ScopeKind) {
  const endpoints = sourceEndpointsByScope[kind];
  return route({
    GET: handle(endpoints.list, ({ ctx }) => listSources(ctx, { scope: scopeOf(kind, ctx.actor) })),
    POST: handle(endpoints.create, ({ ctx, body }) => createSource(ctx, { scope: scopeOf(kind, ctx.actor), body })),
  });
}

export function sourceItemRoute(kind: ScopeKind) {
  const endpoints = sourceEndpointsByScope[kind];
  return route({
    GET: handle(endpoints.get, ({ ctx, params }) => getSource(ctx, { scope: scopeOf(kind, ctx.actor), name: params.name })),
    PATCH: handle(endpoints.update, ({ ctx, params, body }) =>
      updateSource(ctx, { scope: scopeOf(kind, ctx.actor), name: params.name, body }),
    ),
    DELETE: handle(endpoints.remove, ({ ctx, params }) => deleteSource(ctx, { scope: scopeOf(kind, ctx.actor), name: params.name })),
  });
}

export function sourceCatalogRoute(kind: ScopeKind) {
  const endpoints = sourceEndpointsByScope[kind];
  return route({
    GET: handle(endpoints.catalog, ({ ctx, params, query }) =>
      browseCatalog(ctx, { kind, sourceName: params.name, sourceScope: query.source_scope, refresh: query.refresh }),
    ),
  });
}
