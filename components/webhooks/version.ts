import { versionOfRow } from "@/components/forms/edit-conflict";
import { readWebhook, type WebhookData } from "@/lib/client/hooks/webhooks";
import type { ScopeKind } from "@/lib/contracts/scope";

/**
 * What people set on a webhook. The rest changes by itself (a delivery failing or succeeding):
 * a webhook shown before such a change is still the one a person chose to change.
 */
const SET_BY_PEOPLE = ["url", "description", "events", "active"] as const;

/** The version to write `webhook` (as a list or page shows it) against: it read again, refused when someone changed it meanwhile. */
export async function versionOfWebhook(scope: ScopeKind, webhook: WebhookData): Promise<string | undefined> {
  return versionOfRow(webhook, await readWebhook(scope, webhook.id), "webhook", SET_BY_PEOPLE);
}
