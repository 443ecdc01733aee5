import type { ScopeKind } from "@/lib/contracts/scope";

// Where the console shows webhooks: a user's own under /webhooks, the server's under /admin/webhooks.

/** The page listing a scope's webhooks. */
export const webhooksPath = (scope: ScopeKind) => (scope === "personal" ? "/webhooks" : "/admin/webhooks");

/** One webhook's page: what it is sent, and its deliveries. */
export const webhookPath = (scope: ScopeKind, id: string) => `${webhooksPath(scope)}/${encodeURIComponent(id)}`;
