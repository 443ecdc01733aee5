import { route } from "@/lib/contracts/endpoint";
import { type ScopeKind, scopePrefix } from "@/lib/contracts/scope";

// Where the template-source endpoints are (./endpoints.ts spreads these).

/** The template-source routes of one scope; `/me` and `/admin` differ only in prefix. */
function sourceRoutes(kind: ScopeKind) {
  const base = `${scopePrefix(kind)}/template-sources`;
  return {
    list: route("GET", base),
    create: route("POST", base),
    get: route("GET", `${base}/{name}`),
    update: route("PATCH", `${base}/{name}`),
    remove: route("DELETE", `${base}/{name}`),
    catalog: route("GET", `${base}/{name}/catalog`),
  };
}

export const sourceRoutesByScope = {
  personal: sourceRoutes("personal"),
  server: sourceRoutes("server"),
} as const;

export const availableSourceRoutes = {
  list: route("GET", "/ext/svc/template-sources"),
};
