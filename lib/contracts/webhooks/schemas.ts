import { z } from "zod";
import { timestamp } from "@/lib/contracts/fields";
import { shownOnce } from "@/lib/contracts/shown-once";
import { parseHttpUrl } from "@/lib/contracts/sources/names";
import { ALL_EVENTS, DELIVERY_LOG_DAYS, PING_EVENT, RETRY_DELAYS_MS, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from "./events";

/** The event types in words, for the documents: one line each. */
const EVENT_LIST = WEBHOOK_EVENTS.map(
  (event) => `\`${event.type}\`${"adminOnly" in event ? " (admin webhooks only)" : ""}: ${event.meaning}`,
).join("\n- ");

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()).meta({ description: 'The event types sent to it, or `["*"]`: every type it may receive.' }),
    active: z.boolean().meta({
      description: "Whether events are sent to it. False when paused (PATCH active), or when every delivery failed for 5 days.",
    }),
    disabled_reason: z.string().nullable().meta({
      description: "Why the server paused it (its deliveries kept failing); null while active, or when paused by a PATCH.",
    }),
    failing_since: timestamp.nullable().meta({
      description:
        "When the deliveries that have all failed since began (the first failure after the last success); null when the last one succeeded.",
    }),
    previous_secret_expires_at: timestamp.nullable().meta({
      description: "After a rotate-secret: until when the previous secret still signs beside the new one; null when only one signs.",
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Webhook" });

export const WebhookWithSecret = Webhook.extend({
  secret: shownOnce(
    "The signing secret, `whsec_` and the base64 of 24 random bytes; deliveries are signed with it (Standard Webhooks).",
    "A null secret means it was made but cannot be shown again: rotate the secret to get a new one.",
  ),
}).meta({ id: "WebhookWithSecret" });

const webhookUrl = z
  .string()
  .max(2048)
  .refine((u) => parseHttpUrl(u) !== null, "must be an absolute http or https URL")
  .meta({
    description:
      "Where deliveries are POSTed. Its host must resolve to public addresses only, unless it is listed in WEBHOOK_ALLOWED_HOSTS.",
  });

const EventName = z.enum([ALL_EVENTS, ...WEBHOOK_EVENT_TYPES]);

const eventList = z
  .array(EventName)
  .min(1)
  .superRefine((events, ctx) => {
    events.forEach((event, index) => {
      if (events.indexOf(event) !== index)
        ctx.addIssue({ code: "custom", path: [index], message: `repeats events[${events.indexOf(event)}]` });
    });
    if (events.includes(ALL_EVENTS) && events.length > 1) ctx.addIssue({ code: "custom", message: `"${ALL_EVENTS}" stands alone` });
  })
  .meta({
    description: `The event types to send, or \`["*"]\` for every type the webhook may receive:\n- ${EVENT_LIST}`,
  });

const webhookDescription = z.string().max(1000);

export const CreateWebhookRequest = z
  .strictObject({
    url: webhookUrl,
    events: eventList,
    description: webhookDescription.optional(),
    active: z.boolean().optional().meta({ description: "Default true; false creates it paused." }),
  })
  .meta({
    id: "CreateWebhookRequest",
    example: { url: "https://hooks.example.com/bank-templates", events: ["template.update_available", "rollout.completed"] },
  });

export const UpdateWebhookRequest = z
  .strictObject({
    url: webhookUrl.optional(),
    events: eventList.optional(),
    description: webhookDescription.nullable().optional().meta({ description: "null clears it." }),
    active: z.boolean().optional().meta({
      description: "false pauses it; true resumes it, clearing `disabled_reason` and `failing_since`.",
    }),
  })
  .meta({ id: "UpdateWebhookRequest", description: "Every field optional; `{}` changes nothing.", example: { active: true } });

export const webhookParams = z.object({ webhook_id: z.string() });
export const deliveryParams = webhookParams.extend({ delivery_id: z.string() });

const DeliveryStatus = z.enum(["pending", "succeeded", "failed"]).meta({
  description: "`pending`: due, not made yet; `succeeded`: the receiver answered 2xx in time; `failed`: any other outcome.",
});

export const WebhookDelivery = z
  .object({
    id: z.string(),
    event_id: z.string().meta({ description: "The event's id: the `webhook-id` header, the same on every attempt of one event." }),
    type: z.string().meta({ description: `The event's type (\`${PING_EVENT}\` for a ping).` }),
    attempt: z
      .number()
      .int()
      .meta({
        description: `1 for the first; a failed one is tried again after about ${RETRY_DELAYS_MS.length} growing delays, then given up. A redelivery counts on.`,
      }),
    status: DeliveryStatus,
    response_status: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none came." }),
    duration_ms: z.number().int().nullable().meta({ description: "How long the attempt took; null while pending." }),
    error: z.string().nullable().meta({ description: "Why it failed, in one sentence; null otherwise." }),
    at: timestamp.meta({ description: "When the attempt was made, or for a pending one when it is due." }),
  })
  .meta({ id: "WebhookDelivery" });

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  payload: z.unknown().meta({ description: "The body that was (or will be) sent: `{type, timestamp, data}`." }),
  response_body: z.string().nullable().meta({ description: "The start of the receiver's answer (at most 4 KiB); null when none came." }),
}).meta({ id: "WebhookDeliveryDetail" });

export const WebhookDeliveryList = z
  .object({
    deliveries: z.array(WebhookDelivery),
    next_cursor: z.string().nullable().meta({ description: "Continues after the last delivery; null on the last page." }),
  })
  .meta({ id: "WebhookDeliveryList", description: `The attempts of the last ${DELIVERY_LOG_DAYS} days, newest first.` });

export const DeliveriesQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().optional(),
  status: DeliveryStatus.optional().meta({ description: "Only attempts in this status." }),
  event_id: z.string().optional().meta({ description: "Only the attempts of this event." }),
});
