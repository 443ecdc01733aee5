// No imports: the console lists the event types (grouped, with their meaning) without the schemas.

/**
 * Every event a webhook can subscribe to (CONTRACT §20), in the order the console lists them:
 * its `type`, the group it is shown in, one line on what it means and what its `data` holds.
 * `adminOnly` types go to admin webhooks only (P/admin/webhooks); a user's webhook may not name them.
 */
export const WEBHOOK_EVENTS = [
  {
    type: "template.update_available",
    group: "Templates",
    meaning: "A check found a newer revision of an installed template in its source. data: the template.",
  },
  {
    type: "template.updated",
    group: "Templates",
    meaning: "A template's content changed: updated or merged from its source, or edited. data: the template after.",
  },
  {
    type: "template.rolled_back",
    group: "Templates",
    meaning: "A template was rolled back to an earlier version. data: the template after.",
  },
  { type: "template.deleted", group: "Templates", meaning: "A template was deleted. data: the template as it was." },
  { type: "bank.created", group: "Banks", meaning: "Applying a template created a bank. data: the bank." },
  {
    type: "bank.updated",
    group: "Banks",
    meaning: "A bank was changed: an import or a rollout applied a template to it. data: the bank after.",
  },
  {
    type: "bank.behind",
    group: "Banks",
    meaning: "The template a bank last applied got a newer version, so the bank is behind it. data: the bank (its list entry).",
  },
  { type: "bank.deleted", group: "Banks", meaning: "A bank was deleted. data: the bank as it was." },
  {
    type: "policy.changed",
    group: "Banks",
    meaning: "A bank's policy was put, restored or deleted. data: {bank_id, document}, document null once deleted.",
  },
  {
    type: "rollout.completed",
    group: "Banks",
    meaning: "A rollout of a template to banks finished (not a dry run). data: {template, results} as the rollout answered.",
  },
  {
    type: "source.fetch_failed",
    group: "Sources",
    meaning: "A template source's catalog stopped loading (it could not be fetched, or is invalid). data: the source.",
  },
  {
    type: "key.expiring",
    group: "Server",
    adminOnly: true,
    meaning: "An API key expires within 7 days. data: the key, with user_id and service_account_id.",
  },
  {
    type: "audit.entry",
    group: "Server",
    adminOnly: true,
    meaning: "Anything was written through the API: every audit entry. data: the entry.",
  },
] as const satisfies ReadonlyArray<{ type: string; group: string; meaning: string; adminOnly?: true }>;

/** An event type a webhook can subscribe to. */
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]["type"];

export const WEBHOOK_EVENT_TYPES = WEBHOOK_EVENTS.map((event) => event.type) as [WebhookEventType, ...WebhookEventType[]];

/** The types a user's own webhook may subscribe to: all but the admin-only ones. */
export const USER_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENTS.filter((event) => !("adminOnly" in event)).map(
  (event) => event.type,
);

/** Subscribes to every type the webhook may receive. */
export const ALL_EVENTS = "*";

/** The event POST .../ping sends at once, whatever the webhook subscribes to. */
export const PING_EVENT = "webhook.ping";

/**
 * When a failed delivery is tried again (CONTRACT §20): after about 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h (each with jitter); the attempt after the last of these failing, the delivery is failed.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** A webhook whose every delivery failed for this long is paused (`active: false`). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;

/** How long a rotated-out secret still signs beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** How long deliveries (and their events) are kept and listed. */
export const DELIVERY_LOG_DAYS = 30;
