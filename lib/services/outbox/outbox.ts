import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users, webhookDeliveries, webhookEvents, webhooks } from "@/db/schema";
import { ALL_EVENTS, USER_EVENT_TYPES, type WebhookEventType } from "@/lib/contracts/webhooks/events";

/**
 * The transactional outbox of CONTRACT §20: an event is recorded with the database (or
 * transaction) of the change it tells of, so it commits with that change, and rolls back with it.
 * Recording one writes the event and a pending first delivery to each webhook that receives it;
 * the delivery workers (lib/services/webhooks/worker.ts) take it from there. An event no webhook
 * receives writes nothing (most writes, on a server without webhooks, cost one read).
 */

/**
 * Who may read what an event is about, and so whose webhooks receive it. Admin webhooks (the
 * server's) receive every event; a user's own webhooks receive the events of what that user may
 * read (CONTRACT §3, §13), never another user's.
 */
export type EventAudience =
  /** A user's own resource (a personal template or source, a bank they own, a rollout they ran). */
  | { kind: "owner"; userId: string }
  /** What every user may read: server templates and server sources. */
  | { kind: "everyone" }
  /** Admins only (a bank without an owner, a remote store's bank, the audit log, keys). */
  | { kind: "admins" };

export const ADMINS: EventAudience = { kind: "admins" };

/** The audience of a resource held in a scope: a personal one's owner, or (server scope, owner null) everyone. */
export const scopeAudience = (resource: { owner: string | null }): EventAudience =>
  resource.owner === null ? { kind: "everyone" } : { kind: "owner", userId: resource.owner };

/** The audience of a bank: its owner; admins only for a bank without one (its owner was deleted, or the remote store's). */
export const bankAudience = (owner: string | null | undefined): EventAudience => (owner ? { kind: "owner", userId: owner } : ADMINS);

export interface OutboxEvent {
  type: WebhookEventType;
  /** The resource as the API shows it (or the audit entry): the body's `data`. */
  data: unknown;
  audience: EventAudience;
}

/** The webhooks that receive an event of `type` meant for `audience`: active, subscribed, and allowed to read it. */
function receivers(type: WebhookEventType, audience: EventAudience): SQL {
  const subscribed = sql`(${webhooks.events} @> array[${type}]::text[] or ${webhooks.events} @> array[${ALL_EVENTS}]::text[])`;
  const server = eq(webhooks.scope, "server");
  // A user's webhook: of a user who may read it, and still active (a deactivated user reads nothing).
  const readers =
    audience.kind === "admins" || !USER_EVENT_TYPES.includes(type)
      ? undefined
      : and(
          eq(webhooks.scope, "personal"),
          audience.kind === "owner" ? eq(webhooks.owner, audience.userId) : undefined,
          sql`exists (select 1 from ${users} where ${users.id} = ${webhooks.owner} and ${users.isActive})`,
        );
  return and(eq(webhooks.active, true), subscribed, readers ? or(server, readers) : server)!;
}

/**
 * Whether any active webhook subscribes to `type`, whoever it is for: lets a change skip the
 * reading that an event nobody receives would need (the banks a template version leaves behind).
 */
export const anyoneListens = (db: Database, type: WebhookEventType) => anyWebhook(db, receivers(type, { kind: "everyone" }));

/** Whether any webhook is `who`. */
async function anyWebhook(db: Database, who: SQL): Promise<boolean> {
  const found = await db.select({ id: webhooks.id }).from(webhooks).where(who).limit(1);
  return found.length > 0;
}

/** A new event's id: the `webhook-id` header of its deliveries. */
export const newEventId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/** The body every delivery of an event sends (and signs) as it is: `{type, timestamp, data}`. */
export const eventBody = (type: string, at: Date, data: unknown) => JSON.stringify({ type, timestamp: at.toISOString(), data });

/**
 * Records `event` in `db` (the transaction of the change it tells of) for every webhook that
 * receives it; answers its id, or null when none does (then nothing is written).
 */
export async function recordEvent(db: Database, event: OutboxEvent): Promise<string | null> {
  const who = receivers(event.type, event.audience);
  if (!(await anyWebhook(db, who))) return null;
  const id = newEventId();
  const at = new Date();
  await db.insert(webhookEvents).values({ id, type: event.type, body: eventBody(event.type, at, event.data), createdAt: at });
  // One statement, however many webhooks receive it: the first attempt of each, due now.
  await db.execute(
    sql`insert into ${webhookDeliveries} (webhook_id, event_id, attempt, status, due_at)
        select ${webhooks.id}, ${id}, 1, 'pending', ${at.toISOString()}::timestamptz from ${webhooks} where ${who}`,
  );
  return id;
}
