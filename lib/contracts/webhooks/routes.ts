import { route } from "@/lib/contracts/endpoint";
import { type ScopeKind, scopePrefix } from "@/lib/contracts/scope";

// Where the webhook endpoints are (./endpoints.ts spreads these).

/** The webhook routes of one scope; `/me` (a user's own) and `/admin` (the server's) differ only in prefix. */
function webhookRoutes(kind: ScopeKind) {
  const base = `${scopePrefix(kind)}/webhooks`;
  const item = `${base}/{webhook_id}`;
  const delivery = `${item}/deliveries/{delivery_id}`;
  return {
    list: route("GET", base),
    create: route("POST", base),
    get: route("GET", item),
    update: route("PATCH", item),
    remove: route("DELETE", item),
    rotateSecret: route("POST", `${item}/rotate-secret`),
    ping: route("POST", `${item}/ping`),
    deliveries: route("GET", `${item}/deliveries`),
    delivery: route("GET", delivery),
    redeliver: route("POST", `${delivery}/redeliver`),
  };
}

export const webhookRoutesByScope = {
  personal: webhookRoutes("personal"),
  server: webhookRoutes("server"),
} as const;
