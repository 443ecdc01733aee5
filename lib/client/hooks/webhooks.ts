import { keepPreviousData, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { z } from "zod";
import type { ScopeKind } from "@/lib/contracts/scope";
import type { Webhook, WebhookDelivery } from "@/lib/contracts/webhooks/schemas";
import { api } from "../api";
import { endpoints } from "../endpoints";
import { endpointQueryKey, useEndpointMutation, useEndpointQuery } from "../query";

// Webhooks of one scope (CONTRACT §20): `personal` (/me, a user's own) or `server` (/admin, admins only).

export type WebhookData = z.output<typeof Webhook>;
export type DeliveryData = z.output<typeof WebhookDelivery>;

/** How many attempts a page of the delivery log shows. */
const DELIVERIES_PAGE = 50;

/** While an attempt is pending (a redelivery, a retry due) its outcome comes within seconds: the log is read again this often. */
const PENDING_REFRESH_MS = 1_000;

export function useWebhooks(scope: ScopeKind, { enabled = true } = {}) {
  // A delivery, in any process, may have started or ended a webhook's failing: asked again whenever shown.
  return useEndpointQuery(endpoints.webhooks[scope].list, undefined, { refetchOnMount: "always", enabled });
}

/** One webhook as it is now: its ETag is the version a change is written against. */
export function useWebhook(scope: ScopeKind, id: string | null) {
  return useEndpointQuery(endpoints.webhooks[scope].get, { params: { webhook_id: id ?? "" } }, { enabled: id !== null, staleTime: 0 });
}

/** Reads a webhook again, for a write made from a list's row (which has no ETag of its own). */
export const readWebhook = (scope: ScopeKind, id: string) => api.call(endpoints.webhooks[scope].get, { params: { webhook_id: id } });

/** Every write to a webhook shows in its list and on its page. */
const webhookReads = (scope: ScopeKind) => [endpoints.webhooks[scope].list, endpoints.webhooks[scope].get];

export function useCreateWebhook(scope: ScopeKind) {
  return useEndpointMutation(endpoints.webhooks[scope].create, { invalidates: webhookReads(scope) });
}

export function useUpdateWebhook(scope: ScopeKind) {
  return useEndpointMutation(endpoints.webhooks[scope].update, { invalidates: webhookReads(scope) });
}

export function useRotateWebhookSecret(scope: ScopeKind) {
  return useEndpointMutation(endpoints.webhooks[scope].rotateSecret, { invalidates: webhookReads(scope) });
}

export function useRemoveWebhook(scope: ScopeKind) {
  const e = endpoints.webhooks[scope];
  // Its page, still showing as the removal ends, goes then; questions about it would answer 404.
  return useEndpointMutation(e.remove, {
    invalidates: [e.list],
    forget: ({ params }) => [endpointQueryKey(e.get, { params })],
  });
}

/** A ping's attempt (or a redelivery's) joins the log, and may start or end the webhook's failing. */
const afterAttempt = (scope: ScopeKind) => [...webhookReads(scope), endpoints.webhooks[scope].deliveries];

export function usePingWebhook(scope: ScopeKind) {
  return useEndpointMutation(endpoints.webhooks[scope].ping, { invalidates: afterAttempt(scope) });
}

export function useRedeliver(scope: ScopeKind) {
  return useEndpointMutation(endpoints.webhooks[scope].redeliver, { invalidates: afterAttempt(scope) });
}

/**
 * One page of a webhook's delivery log, newest first, from `cursor` (null: the newest). While an
 * attempt on it is pending the page is read again every second, until its outcome shows; the
 * page shown stays up while the next one loads.
 */
export function useDeliveries(scope: ScopeKind, id: string, cursor: string | null) {
  const queryClient = useQueryClient();
  const query = useEndpointQuery(
    endpoints.webhooks[scope].deliveries,
    { params: { webhook_id: id }, query: { limit: DELIVERIES_PAGE, ...(cursor ? { cursor } : {}) } },
    {
      placeholderData: keepPreviousData,
      refetchInterval: (query) => (isPending(query.state.data) ? PENDING_REFRESH_MS : false),
    },
  );
  // An attempt's outcome may start or end the webhook's failing: once none is pending, the webhook is read again.
  const pending = isPending(query.data);
  const wasPending = useRef(pending);
  useEffect(() => {
    if (wasPending.current && !pending) {
      for (const e of webhookReads(scope)) void queryClient.invalidateQueries({ queryKey: ["ext-svc", e.method, e.path] });
    }
    wasPending.current = pending;
  }, [pending, queryClient, scope]);
  return query;
}

const isPending = (page: { deliveries: DeliveryData[] } | undefined) => page?.deliveries.some((d) => d.status === "pending") ?? false;

/** One attempt with the payload sent and the start of the receiver's answer. */
export function useDelivery(scope: ScopeKind, id: string, deliveryId: string) {
  return useEndpointQuery(endpoints.webhooks[scope].delivery, { params: { webhook_id: id, delivery_id: deliveryId } });
}
