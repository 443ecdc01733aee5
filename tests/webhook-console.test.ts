// What the console says about webhooks: the events it offers, a webhook's events and its failing, in words.
import { describe, expect, it } from "vitest";
import { eventGroups, eventsSummary } from "@/components/webhooks/events";
import { failingSentence, isFailing } from "@/components/webhooks/status";
import { formatTimestamp } from "@/lib/client/format";
import type { WebhookData } from "@/lib/client/hooks/webhooks";
import { USER_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from "@/lib/contracts/webhooks/events";

const webhook = (state: Partial<WebhookData> = {}): WebhookData => ({
  id: "wh_1",
  url: "https://hooks.example.com/x",
  description: null,
  events: ["*"],
  active: true,
  disabled_reason: null,
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: "2026-11-01T00:00:00.000Z",
  updated_at: "2026-11-01T00:00:00.000Z",
  ...state,
});

describe("the events a webhook is offered", () => {
  it("are every type, in groups, for the server's; a user's own leave the admin-only ones out", () => {
    const types = (scope: "personal" | "server") => eventGroups(scope).flatMap((g) => g.events.map((e) => e.type));
    expect(types("server")).toEqual(WEBHOOK_EVENT_TYPES);
    expect(types("personal")).toEqual(USER_EVENT_TYPES);
    expect(eventGroups("personal").map((g) => g.group)).toEqual(["Templates", "Banks", "Sources"]);
    expect(eventGroups("server").map((g) => g.group)).toEqual(["Templates", "Banks", "Sources", "Server"]);
  });

  it("are summed up in a few words", () => {
    expect(eventsSummary(["*"])).toBe("Every event");
    expect(eventsSummary(["bank.created", "rollout.completed"])).toBe("bank.created, rollout.completed");
    expect(eventsSummary(["a", "b", "c", "d", "e"])).toBe("a, b, c and 2 more");
  });
});

describe("a failing webhook", () => {
  it("is one whose deliveries fail, or that the server paused for it; not one paused by a person", () => {
    expect(isFailing(webhook())).toBe(false);
    expect(isFailing(webhook({ active: false }))).toBe(false);
    const since = "2026-11-30T12:00:00.000Z";
    expect(isFailing(webhook({ failing_since: since }))).toBe(true);
    expect(failingSentence(webhook({ failing_since: since }))).toBe(`Every delivery has failed since ${formatTimestamp(since)}.`);
    const paused = webhook({ active: false, failing_since: since, disabled_reason: "Every delivery failed for 5 days." });
    expect(isFailing(paused)).toBe(true);
    expect(failingSentence(paused)).toBe("Paused by the server: Every delivery failed for 5 days.");
    expect(failingSentence(webhook())).toBeNull();
  });
});
