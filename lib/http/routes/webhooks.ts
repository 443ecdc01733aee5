import { type ScopeKind, scopeOf } from "@/lib/contracts/scope";
import { webhookEndpointsByScope } from "@/lib/contracts/webhooks/endpoints";
import { handle, route } from "@/lib/http/route";
import { getDelivery, listDeliveries, pingWebhook, redeliver } from "@/lib/services/webhooks/deliveries";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from "@/lib/services/webhooks/webhooks";

// One implementation serves /me/webhooks (a user's own) and /admin/webhooks (the server's).

export function webhookCollectionRoute(kind: ScopeKind) {
  const endpoints = webhookEndpointsByScope[kind];
  return route({
    GET: handle(endpoints.list, ({ ctx }) => listWebhooks(ctx, { scope: scopeOf(kind, ctx.actor) })),
    POST: handle(endpoints.create, ({ ctx, body }) => createWebhook(ctx, { scope: scopeOf(kind, ctx.actor), body })),
  });
}

export function webhookItemRoute(kind: ScopeKind) {
  const endpoints = webhookEndpointsByScope[kind];
  return route({
    GET: handle(endpoints.get, ({ ctx, params }) => getWebhook(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id })),
    PATCH: handle(endpoints.update, ({ ctx, params, body }) =>
      updateWebhook(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id, body }),
    ),
    DELETE: handle(endpoints.remove, ({ ctx, params }) =>
      deleteWebhook(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id }),
    ),
  });
}

export function webhookRotateSecretRoute(kind: ScopeKind) {
  const endpoints = webhookEndpointsByScope[kind];
  return route({
    POST: handle(endpoints.rotateSecret, ({ ctx, params }) =>
      rotateWebhookSecret(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id }),
    ),
  });
}

export function webhookPingRoute(kind: ScopeKind) {
  const endpoints = webhookEndpointsByScope[kind];
  return route({
    POST: handle(endpoints.ping, ({ ctx, params }) => pingWebhook(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id })),
  });
}

export function webhookDeliveriesRoute(kind: ScopeKind) {
  const endpoints = webhookEndpointsByScope[kind];
  return route({
    GET: handle(endpoints.deliveries, ({ ctx, params, query }) =>
      listDeliveries(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id, query }),
    ),
  });
}

export function webhookDeliveryRoute(kind: ScopeKind) {
  const endpoints = webhookEndpointsByScope[kind];
  return route({
    GET: handle(endpoints.delivery, ({ ctx, params }) =>
      getDelivery(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id, deliveryId: params.delivery_id }),
    ),
  });
}

export function webhookRedeliverRoute(kind: ScopeKind) {
  const endpoints = webhookEndpointsByScope[kind];
  return route({
    POST: handle(endpoints.redeliver, ({ ctx, params }) =>
      redeliver(ctx, { scope: scopeOf(kind, ctx.actor), webhookId: params.webhook_id, deliveryId: params.delivery_id }),
    ),
  });
}
