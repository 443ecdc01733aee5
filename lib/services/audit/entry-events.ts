import "server-only";
import { isDeepStrictEqual } from "node:util";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { templates } from "@/db/schema";
import type { OwnerScope } from "@/lib/contracts/scope";
import type { WebhookEventType } from "@/lib/contracts/webhooks/events";
import { bankOwner } from "@/lib/services/banks/access";
import { banksLeftBehind } from "@/lib/services/banks/store";
import { ADMINS, bankAudience, type OutboxEvent, recordEvent, scopeAudience, subscribedTypes } from "@/lib/services/outbox/outbox";
import { templatesIn } from "@/lib/services/templates/templates";
import { currentVersion } from "@/lib/services/templates/version-log";
import type { Entry } from "./log";

/**
 * The events an audit entry records, in its transaction (CONTRACT §20): `audit.entry` for admin
 * webhooks, and the event of the change it records, read from the entry itself (its target type,
 * action, before and after: the resource as the API answers it), so every write through the API
 * (the console and the CLI call it too) tells webhooks of itself with no call of its own:
 *
 * - template: `template.deleted`; `template.updated`, or `template.rolled_back` for a rollback,
 *   when its content was written (its `updated_at` moved: status checks leave it, and a PATCH of
 *   nothing does too), and `bank.behind` for each bank that had applied the version before.
 *   Creations and installs are not events.
 * - bank: `bank.created`, `bank.updated`, `bank.deleted`.
 * - policy: `policy.changed`, unless the document stayed the same.
 *
 * Entries of several resources (`template.update_all`) hold lists: each pair is one change.
 * The types no active webhook subscribes to are neither recorded nor read for (subscribedTypes):
 * without webhooks, an entry costs one read.
 */
export async function recordEntryEvents(db: Database, entry: Entry): Promise<void> {
  const subscribed = await subscribedTypes(db);
  const events: OutboxEvent[] = [{ type: "audit.entry", data: entry, audience: ADMINS }];
  for (const [before, after] of pairs(entry.before, entry.after)) {
    events.push(...(await changeEvents(db, subscribed, entry, before, after)));
  }
  for (const event of events) if (subscribed(event.type)) await recordEvent(db, event);
}

/** Whether some webhook subscribes to a type (subscribedTypes): what an event nobody receives need not read. */
type Subscribed = (type: WebhookEventType) => boolean;

type Resource = Record<string, unknown>;

/** The (before, after) of each resource an entry records: one, or each of a list's. */
function pairs(before: unknown, after: unknown): Array<[Resource | null, Resource | null]> {
  const resource = (value: unknown) => (value && typeof value === "object" && !Array.isArray(value) ? (value as Resource) : null);
  if (Array.isArray(before) && Array.isArray(after)) return before.map((b, i) => [resource(b), resource(after[i])]);
  return [[resource(before), resource(after)]];
}

async function changeEvents(
  db: Database,
  subscribed: Subscribed,
  entry: Entry,
  before: Resource | null,
  after: Resource | null,
): Promise<OutboxEvent[]> {
  switch (entry.target_type) {
    case "template":
      return templateEvents(db, subscribed, entry.action, before, after);
    case "bank": {
      const bank = after ?? before;
      if (!bank) return [];
      const type = before === null ? "bank.created" : after === null ? "bank.deleted" : "bank.updated";
      return [{ type, data: bank, audience: bankAudience(bank.owner as string | null) }];
    }
    case "policy": {
      const bankId = entry.target_id;
      if (bankId === null || !subscribed("policy.changed") || isDeepStrictEqual(before, after)) return [];
      const data = after ?? { bank_id: bankId, document: null };
      return [{ type: "policy.changed", data, audience: bankAudience(await bankOwner(db, bankId)) }];
    }
    default:
      return [];
  }
}

async function templateEvents(
  db: Database,
  subscribed: Subscribed,
  action: string,
  before: Resource | null,
  after: Resource | null,
): Promise<OutboxEvent[]> {
  if (before === null) return [];
  const owner = before.owner as string | null;
  const audience = scopeAudience({ owner });
  if (after === null) return [{ type: "template.deleted", data: before, audience }];
  if (before.updated_at === after.updated_at) return [];
  const changed: OutboxEvent = {
    type: action === "template.rollback" ? "template.rolled_back" : "template.updated",
    data: after,
    audience,
  };
  // The version this write recorded left behind the banks that had applied the one before it.
  if (!subscribed("bank.behind")) return [changed];
  const scope = { kind: after.scope, owner } as OwnerScope;
  const [row] = await db
    .select({ rowId: templates.rowId })
    .from(templates)
    .where(and(templatesIn(scope), eq(templates.id, after.id as string)));
  if (!row) return [changed];
  const behind = await banksLeftBehind(db, { templateRow: row.rowId, version: await currentVersion(db, row.rowId) });
  return [changed, ...behind.map((bank): OutboxEvent => ({ type: "bank.behind", data: bank, audience: bankAudience(bank.owner) }))];
}
