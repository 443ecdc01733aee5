import { route } from "@/lib/contracts/endpoint";
import { type ScopeKind, scopePrefix } from "@/lib/contracts/scope";

// Where the template endpoints are (./endpoints.ts and ./lifecycle-endpoints.ts spread these).

/** The template routes of one scope; `/me/templates` and `/admin/templates` differ only in prefix. */
function templateRoutes(kind: ScopeKind) {
  const base = `${scopePrefix(kind)}/templates`;
  const item = `${base}/{template_id}`;
  return {
    list: route("GET", base),
    create: route("POST", base),
    get: route("GET", item),
    patch: route("PATCH", item),
    remove: route("DELETE", item),
    install: route("POST", `${item}/install`),
    update: route("POST", `${item}/update`),
    checkUpdate: route("GET", `${item}/check-update`),
    previewUpdate: route("GET", `${item}/update-preview`),
  };
}

export const templateRoutesByScope = {
  personal: templateRoutes("personal"),
  server: templateRoutes("server"),
} as const;

export const manifestRoutes = {
  validate: route("POST", "/ext/svc/manifests/validate"),
};

/** Versions, rollback and the bulk operations of one scope's templates. */
function lifecycleRoutes(kind: ScopeKind) {
  const base = `${scopePrefix(kind)}/templates`;
  const item = `${base}/{template_id}`;
  return {
    versions: route("GET", `${item}/versions`),
    version: route("GET", `${item}/versions/{version}`),
    rollback: route("POST", `${item}/rollback`),
    checkUpdates: route("POST", `${base}/check-updates`),
    updateAll: route("POST", `${base}/update-all`),
  };
}

export const lifecycleRoutesByScope = {
  personal: lifecycleRoutes("personal"),
  server: lifecycleRoutes("server"),
} as const;

export const usableTemplateRoutes = {
  list: route("GET", "/ext/svc/templates"),
  get: route("GET", "/ext/svc/templates/{scope}/{template_id}"),
};
