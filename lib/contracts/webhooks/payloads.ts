import { z } from "zod";
import { AuditEntry } from "@/lib/contracts/audit/schemas";
import { BankDetail, BankSummary, RolloutBankResult } from "@/lib/contracts/banks/schemas";
import { timestamp } from "@/lib/contracts/fields";
import { ApiKey } from "@/lib/contracts/identity/schemas";
import { PolicyDocument } from "@/lib/contracts/policy/schemas";
import { Source } from "@/lib/contracts/sources/schemas";
import { Template } from "@/lib/contracts/templates/schemas";
import { PING_EVENT, WEBHOOK_EVENTS, type WebhookEventType } from "./events";
import { Webhook } from "./schemas";

/** Every event a delivery can carry: the subscribable types and the ping. */
export type DeliveredEventType = WebhookEventType | typeof PING_EVENT;

/** What each event's `data` holds (CONTRACT §20): the resource as the API shows it, or the audit entry. */
const EVENT_DATA = {
  "template.update_available": Template,
  "template.updated": Template,
  "template.rolled_back": Template,
  "template.deleted": Template,
  "bank.created": BankDetail,
  "bank.updated": BankDetail,
  "bank.behind": BankSummary,
  "bank.deleted": BankDetail,
  "policy.changed": z
    .object({ bank_id: z.string(), document: PolicyDocument.nullable().meta({ description: "null once the policy was deleted." }) })
    .meta({ id: "WebhookPolicyChange" }),
  "rollout.completed": z
    .object({ template: z.string(), results: z.array(RolloutBankResult) })
    .meta({ id: "WebhookRolloutCompletion", description: "The rollout's template ref and its answer's results." }),
  "source.fetch_failed": Source,
  "key.expiring": ApiKey.extend({
    user_id: z.string().meta({ description: "The user the key belongs to, or whose service account it belongs to." }),
    service_account_id: z.string().nullable().meta({ description: "The service account it belongs to; null for a user's own key." }),
  }).meta({ id: "WebhookExpiringKey" }),
  "audit.entry": AuditEntry,
  [PING_EVENT]: Webhook,
} satisfies Record<DeliveredEventType, z.ZodType>;

const pascal = (type: string) => type.replace(/(^|[._])([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/** The body of a delivery of `type`: `{type, timestamp, data}` (the OpenAPI document's `webhooks`). */
function eventBody<T extends DeliveredEventType>(type: T) {
  return z
    .object({
      type: z.literal(type),
      timestamp: timestamp.meta({ description: "When the event happened (the same on every attempt)." }),
      data: EVENT_DATA[type],
    })
    .meta({ id: `WebhookEvent${pascal(type)}` });
}

/** One line on each event, as the documents say it. */
const MEANING: Record<DeliveredEventType, string> = {
  ...(Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event.type, event.meaning])) as Record<WebhookEventType, string>),
  [PING_EVENT]: "Sent by POST .../ping, whatever the webhook subscribes to. data: the webhook.",
};

/** Every delivered event's body schema and meaning, by type. */
export const WEBHOOK_EVENT_BODIES = {} as Record<DeliveredEventType, { meaning: string; body: z.ZodType }>;
for (const type of Object.keys(EVENT_DATA) as DeliveredEventType[]) {
  WEBHOOK_EVENT_BODIES[type] = { meaning: MEANING[type], body: eventBody(type) };
}
