import { formatTimestamp } from "@/lib/client/format";
import type { WebhookData } from "@/lib/client/hooks/webhooks";

// A webhook's state in words, the same on its list, its page and Home.

/** Its deliveries are failing, or the server paused it because they kept failing. */
export const isFailing = (webhook: WebhookData) => webhook.failing_since !== null || webhook.disabled_reason !== null;

/** Why a failing webhook needs looking at, in a sentence; null when it does not. */
export function failingSentence(webhook: WebhookData): string | null {
  if (webhook.disabled_reason !== null) return `Paused by the server: ${webhook.disabled_reason}`;
  if (webhook.failing_since !== null) return `Every delivery has failed since ${formatTimestamp(webhook.failing_since)}.`;
  return null;
}

/** A delivery attempt's status as a badge's colour. */
export const DELIVERY_STATUS_COLOR = { pending: "blue", succeeded: "green", failed: "red" } as const;
