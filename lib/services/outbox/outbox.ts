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
 * Whether some active webhook subscribes to a type, whoever it is for: one read of a small table,
 * answered for every type at once, so that a write records (and reads) nothing more for the events
 * nobody subscribes to. On a server without webhooks an audited write costs this one read.
 */
export async function subscribedTypes(db: Database): Promise<(type: WebhookEventType) => boolean> {
  const rows = await db
    .selectDistinct({ type: sql<string>`unnest(${webhooks.events})` })
    .from(webhooks)
    .where(eq(webhooks.active, true));
  const types = new Set(rows.map((row) => row.type));
  return (type) => types.has(ALL_EVENTS) || types.has(type);
}

/** A new event's id: the `webhook-id` header of its deliveries. */
export const newEventId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/** The body every delivery of an event sends (and signs) as it is: `{type, timestamp, data}`. */
export const eventBody = (type: string, at: Date, data: unknown) => JSON.stringify({ type, timestamp: at.toISOString(), data });

/**
 * Records `event` in `db` (the transaction of the change it tells of) for every webhook that
 * receives it, in one statement however many do: the event, and the first attempt of each, due
 * now. When none does, nothing is written.
 */
export async function recordEvent(db: Database, event: OutboxEvent): Promise<void> {
  const id = newEventId();
  const at = new Date().toISOString();
  await db.execute(
    sql`with receiving as (select ${webhooks.id} as webhook_id from ${webhooks} where ${receivers(event.type, event.audience)}),
        recorded as (
          insert into ${webhookEvents} (id, type, body, created_at)
          select ${id}, ${event.type}, ${eventBody(event.type, new Date(at), event.data)}, ${at}::timestamptz
          where exists (select 1 from receiving)
          returning id
        )
        insert into ${webhookDeliveries} (webhook_id, event_id, attempt, status, due_at)
        select receiving.webhook_id, recorded.id, 1, 'pending', ${at}::timestamptz from receiving, recorded`,
  );
}
