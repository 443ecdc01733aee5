import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, gte, lt, max } from "drizzle-orm";
import type { z } from "zod";
import { webhookDeliveries, webhookEvents } from "@/db/schema";
import { notFound } from "@/lib/contracts/errors";
import { iso } from "@/lib/contracts/fields";
import type { OwnerScope } from "@/lib/contracts/scope";
import { DELIVERY_LOG_DAYS, PING_EVENT } from "@/lib/contracts/webhooks/events";
import type { DeliveriesQuery, WebhookDelivery } from "@/lib/contracts/webhooks/schemas";
import { decodeCursor, encodeCursor } from "@/lib/platform/cursor";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { eventBody, newEventId } from "@/lib/services/outbox/outbox";
import { CLAIM_MS, type ClaimedDelivery, recordOutcome, sendDelivery, signingSecrets } from "./send";
import { presentWebhook, requireWebhook } from "./webhooks";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type DeliveryWire = z.input<typeof WebhookDelivery>;

/** The columns of an attempt as the log shows it, with its event's type. */
const logColumns = {
  seq: webhookDeliveries.seq,
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  type: webhookEvents.type,
  attempt: webhookDeliveries.attempt,
  status: webhookDeliveries.status,
  responseStatus: webhookDeliveries.responseStatus,
  durationMs: webhookDeliveries.durationMs,
  error: webhookDeliveries.error,
  at: webhookDeliveries.at,
  dueAt: webhookDeliveries.dueAt,
};

type LogRow = Pick<DeliveryRow, "id" | "eventId" | "attempt" | "status" | "responseStatus" | "durationMs" | "error" | "at" | "dueAt"> & {
  type: string;
};

function presentDelivery(row: LogRow): DeliveryWire {
  return {
    id: row.id,
    event_id: row.eventId,
    type: row.type,
    attempt: row.attempt,
    status: row.status,
    response_status: row.responseStatus,
    duration_ms: row.durationMs,
    error: row.error,
    at: iso(row.at ?? row.dueAt),
  };
}

/** The start of the log: attempts due within the last 30 days (older ones are pruned). */
const logStart = () => new Date(Date.now() - DELIVERY_LOG_DAYS * 24 * 3_600_000);

interface WebhookKey {
  scope: OwnerScope;
  webhookId: string;
}

/** GET .../deliveries: the attempts of the last 30 days, newest first, paged by an opaque cursor bound to the filters. */
export async function listDeliveries(
  ctx: ServiceContext,
  { scope, webhookId, query }: WebhookKey & { query: z.output<typeof DeliveriesQuery> },
) {
  const webhook = await requireWebhook(ctx.db, scope, webhookId);
  const context = JSON.stringify(["webhook-deliveries", webhook.id, query.status ?? null, query.event_id ?? null]);
  const after = query.cursor === undefined ? null : Number(decodeCursor(ctx.app.secretKey, query.cursor, context));
  const rows = await ctx.db
    .select(logColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhook.id),
        gte(webhookDeliveries.dueAt, logStart()),
        query.status === undefined ? undefined : eq(webhookDeliveries.status, query.status),
        query.event_id === undefined ? undefined : eq(webhookDeliveries.eventId, query.event_id),
        after === null ? undefined : lt(webhookDeliveries.seq, after),
      ),
    )
    .orderBy(desc(webhookDeliveries.seq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    deliveries: page.map(presentDelivery),
    next_cursor: rows.length > query.limit && last ? encodeCursor(ctx.app.secretKey, String(last.seq), context) : null,
  };
}

/** An attempt of the webhook, with its event's body; 404 when the webhook or the attempt is not there (or not the caller's). */
async function requireDelivery(ctx: ServiceContext, { scope, webhookId, deliveryId }: WebhookKey & { deliveryId: string }, lock = false) {
  const webhook = await requireWebhook(ctx.db, scope, webhookId, lock);
  const [row] = await ctx.db
    .select({
      ...logColumns,
      body: webhookEvents.body,
      responseBody: webhookDeliveries.responseBody,
      webhookId: webhookDeliveries.webhookId,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.webhookId, webhook.id), eq(webhookDeliveries.id, deliveryId)))
    .limit(1);
  if (!row) throw notFound(`Webhook ${webhookId} has no delivery ${deliveryId}.`);
  return row;
}

/** GET .../deliveries/{delivery_id}: the attempt, the body it sends and the start of the answer it got. */
export async function getDelivery(ctx: ServiceContext, input: WebhookKey & { deliveryId: string }) {
  const row = await requireDelivery(ctx, input);
  return { ...presentDelivery(row), payload: JSON.parse(row.body) as unknown, response_body: row.responseBody };
}

/**
 * POST .../redeliver: the attempt's event once more to its webhook, as a new attempt due now
 * (numbered after the event's last, tried once, sent by a delivery worker within a few seconds,
 * even to a paused webhook: it was asked for). Answers it, pending.
 */
export async function redeliver(ctx: ServiceContext, input: WebhookKey & { deliveryId: string }) {
  return withTransaction(ctx, async (tx) => {
    // Holding the webhook, so it cannot go before the attempt is recorded.
    const row = await requireDelivery(tx, input, true);
    const [last] = await tx.db
      .select({ attempt: max(webhookDeliveries.attempt) })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.webhookId, row.webhookId), eq(webhookDeliveries.eventId, row.eventId)));
    const [queued] = await tx.db
      .insert(webhookDeliveries)
      .values({
        webhookId: row.webhookId,
        eventId: row.eventId,
        attempt: (last?.attempt ?? row.attempt) + 1,
        retries: false,
        status: "pending",
        dueAt: new Date(),
      })
      .returning();
    const answer = presentDelivery({ ...queued!, type: row.type });
    await tx.audit.record({ action: "webhook.redeliver", target: { type: "webhook", id: row.webhookId }, before: null, after: answer });
    return answer;
  });
}

/**
 * POST .../ping: a `webhook.ping` (its data the webhook) sent now, whether the webhook is paused or
 * not, and answered as its attempt came out, within the 10 s a delivery may take. The attempt is
 * recorded (and audited) claimed by this request before it is sent, so a delivery worker never
 * sends it too, unless this process stops before it is done: then one sends it once its claim lapses.
 */
export async function pingWebhook(ctx: ServiceContext, { scope, webhookId }: WebhookKey) {
  const holder = `ping-${randomUUID()}`;
  const claimed = await withTransaction(ctx, async (tx): Promise<ClaimedDelivery> => {
    const webhook = await requireWebhook(tx.db, scope, webhookId, true);
    const eventId = newEventId();
    const now = new Date();
    const body = eventBody(PING_EVENT, now, presentWebhook(webhook));
    await tx.db.insert(webhookEvents).values({ id: eventId, type: PING_EVENT, body, createdAt: now });
    const [queued] = await tx.db
      .insert(webhookDeliveries)
      .values({
        webhookId: webhook.id,
        eventId,
        attempt: 1,
        retries: false,
        status: "pending",
        dueAt: now,
        claimedBy: holder,
        claimedUntil: new Date(now.getTime() + CLAIM_MS),
      })
      .returning();
    const pending = presentDelivery({ ...queued!, type: PING_EVENT });
    await tx.audit.record({ action: "webhook.ping", target: { type: "webhook", id: webhook.id }, before: null, after: pending });
    const { id, attempt, retries } = queued!;
    return { id, webhookId: webhook.id, eventId, attempt, retries, url: webhook.url, body, secrets: signingSecrets(webhook, now) };
  });
  const deps = { db: ctx.db, config: ctx.app.config, secretKey: ctx.app.secretKey, resolveHost: ctx.app.resolveHost, clock: Date.now };
  await recordOutcome(ctx.db, claimed, await sendDelivery(deps, claimed), holder);
  const [row] = await ctx.db
    .select(logColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, claimed.id));
  if (!row) throw notFound(`No webhook ${webhookId} exists here.`);
  return presentDelivery(row);
}
