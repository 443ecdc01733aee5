import type { ScopeKind } from "@/lib/contracts/scope";
import { ALL_EVENTS, WEBHOOK_EVENTS } from "@/lib/contracts/webhooks/events";

// The event types as the console offers them: grouped, in the contract's order and words.

type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The types a webhook of `scope` may subscribe to, by group: a user's own leave out the admin-only ones. */
export function eventGroups(scope: ScopeKind): { group: string; events: WebhookEvent[] }[] {
  const groups = new Map<string, WebhookEvent[]>();
  for (const event of WEBHOOK_EVENTS) {
    if (scope === "personal" && "adminOnly" in event) continue;
    groups.set(event.group, [...(groups.get(event.group) ?? []), event]);
  }
  return [...groups].map(([group, events]) => ({ group, events }));
}

/** A webhook's events in a few words: "Every event", or the types, the first few named. */
export function eventsSummary(events: readonly string[]): string {
  if (events.includes(ALL_EVENTS)) return "Every event";
  const named = events.slice(0, 3).join(", ");
  return events.length > 3 ? `${named} and ${events.length - 3} more` : named;
}
