import { z } from "zod";
import { defineEndpoint } from "@/lib/contracts/endpoint";
import type { ScopeKind } from "@/lib/contracts/scope";
import { webhookRoutesByScope } from "./routes";
import {
  CreateWebhookRequest,
  DeliveriesQuery,
  deliveryParams,
  UpdateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookWithSecret,
  webhookParams,
} from "./schemas";

/** The webhook endpoints of one scope (CONTRACT §20); `/me` and `/admin` differ only in route, access and the events allowed. */
function webhookEndpoints(kind: ScopeKind) {
  const routes = webhookRoutesByScope[kind];
  const access = kind === "personal" ? "authenticated" : "admin";
  const which = kind === "personal" ? "the caller's own" : "the server's";
  const tag = "Webhooks";
  // Writes about one webhook name it in their entry, not the sub-path they were sent to.
  const target = routes.get.path;
  return {
    list: defineEndpoint({
      ...routes.list,
      tag,
      access,
      status: 200,
      summary: `List ${which} webhooks, oldest first`,
      response: z.array(Webhook),
    }),
    create: defineEndpoint({
      ...routes.create,
      tag,
      access,
      status: 201,
      summary: `Add a webhook ${kind === "personal" ? "for the caller's events" : "for server-wide events"}; its secret is shown only in this answer`,
      body: CreateWebhookRequest,
      response: WebhookWithSecret,
      errors: [409, 422],
      audit: { action: "webhook.create", target },
    }),
    get: defineEndpoint({
      ...routes.get,
      tag,
      access,
      status: 200,
      summary: `Read one of ${which} webhooks`,
      params: webhookParams,
      response: Webhook,
      errors: [404],
    }),
    update: defineEndpoint({
      ...routes.update,
      tag,
      access,
      status: 200,
      summary: "Change a webhook's url, events or description, or pause and resume it",
      params: webhookParams,
      body: UpdateWebhookRequest,
      response: Webhook,
      errors: [404, 422],
      audit: { action: "webhook.update" },
      conditional: "if-match",
    }),
    remove: defineEndpoint({
      ...routes.remove,
      tag,
      access,
      status: 204,
      summary: "Remove a webhook and its delivery log",
      params: webhookParams,
      errors: [404],
      audit: { action: "webhook.delete" },
      conditional: "if-match",
    }),
    rotateSecret: defineEndpoint({
      ...routes.rotateSecret,
      tag,
      access,
      status: 200,
      summary: "Give a webhook a new secret, shown only in this answer; for 24 hours the previous one signs as well",
      params: webhookParams,
      response: WebhookWithSecret,
      errors: [404],
      audit: { action: "webhook.rotate_secret", target },
      conditional: "if-match",
    }),
    ping: defineEndpoint({
      ...routes.ping,
      tag,
      access,
      status: 200,
      summary: "Send a webhook.ping to the webhook now (paused or not) and answer the attempt, successful or not",
      params: webhookParams,
      response: WebhookDelivery,
      errors: [404],
      audit: { action: "webhook.ping", target },
    }),
    deliveries: defineEndpoint({
      ...routes.deliveries,
      tag,
      access,
      status: 200,
      summary: "The delivery attempts of the last 30 days, newest first; paged with limit and cursor",
      params: webhookParams,
      query: DeliveriesQuery,
      response: WebhookDeliveryList,
      errors: [404],
    }),
    delivery: defineEndpoint({
      ...routes.delivery,
      tag,
      access,
      status: 200,
      summary: "One delivery attempt, with the payload sent and the start of the receiver's answer",
      params: deliveryParams,
      response: WebhookDeliveryDetail,
      errors: [404],
    }),
    redeliver: defineEndpoint({
      ...routes.redeliver,
      tag,
      access,
      status: 202,
      summary: "Send that delivery's event again, soon (one attempt, no retries); answers the pending attempt",
      params: deliveryParams,
      response: WebhookDelivery,
      errors: [404],
      audit: { action: "webhook.redeliver", target },
    }),
  };
}

export const webhookEndpointsByScope = {
  personal: webhookEndpoints("personal"),
  server: webhookEndpoints("server"),
} as const;
