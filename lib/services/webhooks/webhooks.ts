import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { isForeignKeyViolation } from "@/db/errors";
import { webhooks } from "@/db/schema";
import { invalidField, notFound } from "@/lib/contracts/errors";
import { iso, isoOrNull } from "@/lib/contracts/fields";
import { MAX_WEBHOOKS_PER_USER } from "@/lib/contracts/limits";
import type { OwnerScope } from "@/lib/contracts/scope";
import { SECRET_OVERLAP_MS, USER_EVENT_TYPES, type WebhookEventType } from "@/lib/contracts/webhooks/events";
import type { CreateWebhookRequest, UpdateWebhookRequest, Webhook } from "@/lib/contracts/webhooks/schemas";
import { webhookUrlRefusal } from "@/lib/platform/safe-fetch";
import { encryptSecret } from "@/lib/platform/secret-box";
import { assertWithinBound, countRows, type OwnerBound } from "@/lib/services/bounds/owner-bounds";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { checkPrecondition } from "@/lib/services/preconditions";
import { DELIVERY_TIMEOUT_MS } from "./send";

export type WebhookRow = typeof webhooks.$inferSelect;
type WebhookWire = z.input<typeof Webhook>;

export function presentWebhook(row: WebhookRow): WebhookWire {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    active: row.active,
    disabled_reason: row.disabledReason,
    failing_since: isoOrNull(row.failingSince),
    // A previous secret past its overlap signs no more, whether or not a delivery cleared it yet.
    previous_secret_expires_at:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? iso(row.previousSecretExpiresAt) : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** The webhooks of a scope: a user's own, or the server's (admin webhooks). */
const inScope = (scope: OwnerScope) =>
  and(eq(webhooks.scope, scope.kind), scope.owner === null ? isNull(webhooks.owner) : eq(webhooks.owner, scope.owner));

const missing = (id: string) => notFound(`No webhook ${id} exists here.`);

/** The webhook of that id in the scope; 404 otherwise, also for another user's (which looks exactly like a missing one). */
export async function requireWebhook(db: Database, scope: OwnerScope, id: string, lock = false): Promise<WebhookRow> {
  const query = db
    .select()
    .from(webhooks)
    .where(and(inScope(scope), eq(webhooks.id, id)));
  const [row] = lock ? await query.for("update") : await query.limit(1);
  if (!row) throw missing(id);
  return row;
}

export async function listWebhooks(ctx: ServiceContext, { scope }: { scope: OwnerScope }) {
  const rows = await ctx.db.select().from(webhooks).where(inScope(scope)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  return rows.map(presentWebhook);
}

export async function getWebhook(ctx: ServiceContext, { scope, webhookId }: { scope: OwnerScope; webhookId: string }) {
  return presentWebhook(await requireWebhook(ctx.db, scope, webhookId));
}

/** A new secret: `whsec_` and the base64 of 24 random bytes (Standard Webhooks). */
const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

const sealed = (ctx: ServiceContext, secret: string) => encryptSecret(ctx.app.secretKey, secret, "webhook-secret");

/**
 * Refuses (422) what a webhook may not be: an event type of admin webhooks on a user's own, and a
 * URL whose host resolves to a private address (CONTRACT §6) unless WEBHOOK_ALLOWED_HOSTS lists it.
 */
async function checkWebhook(ctx: ServiceContext, scope: OwnerScope, { url, events }: { url?: string; events?: string[] }) {
  if (scope.kind === "personal" && events) {
    const index = events.findIndex((event) => event !== "*" && !USER_EVENT_TYPES.includes(event as WebhookEventType));
    if (index !== -1) throw invalidField(`events[${index}]`, `${events[index]} is sent to admin webhooks only`);
  }
  if (url !== undefined) {
    const policy = { allowedHosts: ctx.app.config.webhooks.allowedHosts, resolveHost: ctx.app.resolveHost, timeoutMs: DELIVERY_TIMEOUT_MS };
    const refusal = await webhookUrlRefusal(policy, url);
    if (refusal) throw invalidField("url", refusal);
  }
}

/** CONTRACT §20: each user holds at most 20 webhooks, and so does the server. */
function webhookBound(scope: OwnerScope): OwnerBound {
  return {
    max: MAX_WEBHOOKS_PER_USER,
    held: (db) => countRows(db, webhooks, inScope(scope)),
    refusal: (held) =>
      `${scope.kind === "personal" ? "You have" : "The server has"} ${held} webhooks; at most ${MAX_WEBHOOKS_PER_USER} are allowed. Remove one first.`,
  };
}

/** The advisory lock key of the server's webhooks (no user id has this form). */
const SERVER_WEBHOOKS = "\u0001server-webhooks";

export async function createWebhook(
  ctx: ServiceContext,
  { scope, body }: { scope: OwnerScope; body: z.output<typeof CreateWebhookRequest> },
) {
  await checkWebhook(ctx, scope, body);
  const secret = newSecret();
  try {
    return await withTransaction(ctx, async (tx) => {
      await assertWithinBound(tx.db, scope.owner ?? SERVER_WEBHOOKS, webhookBound(scope));
      const [row] = await tx.db
        .insert(webhooks)
        .values({
          id: `wh_${randomBytes(12).toString("hex")}`,
          scope: scope.kind,
          owner: scope.owner,
          url: body.url,
          description: body.description ?? null,
          events: body.events,
          active: body.active ?? true,
          secretEncrypted: sealed(ctx, secret),
        })
        .returning();
      const after = presentWebhook(row!);
      await tx.audit.record({ action: "webhook.create", target: { type: "webhook", id: row!.id }, before: null, after });
      return { ...after, secret };
    });
  } catch (error) {
    // A user's webhook's owner (the caller) was deleted while the request ran.
    if (isForeignKeyViolation(error)) throw notFound(`No user ${scope.owner} exists.`);
    throw error;
  }
}

/**
 * Changes a webhook's url, events or description, or pauses (`active: false`) or resumes it.
 * Resuming forgets why it was paused and since when it failed: its deliveries start afresh
 * (pending ones go out again). `{}` changes nothing and is audited all the same.
 */
export async function updateWebhook(
  ctx: ServiceContext,
  { scope, webhookId, body }: { scope: OwnerScope; webhookId: string; body: z.output<typeof UpdateWebhookRequest> },
) {
  await checkWebhook(ctx, scope, body);
  return withTransaction(ctx, async (tx) => {
    const row = await requireWebhook(tx.db, scope, webhookId, true);
    const before = presentWebhook(row);
    checkPrecondition(tx, before);
    const changes = {
      ...(body.url !== undefined && { url: body.url }),
      ...(body.events !== undefined && { events: body.events }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.active !== undefined && { active: body.active }),
      ...(body.active === true && !row.active && { disabledReason: null, failingSince: null }),
    };
    let after = before;
    if (Object.keys(changes).length > 0) {
      const [written] = await tx.db
        .update(webhooks)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(webhooks.id, row.id))
        .returning();
      after = presentWebhook(written!);
    }
    await tx.audit.record({ action: "webhook.update", target: { type: "webhook", id: row.id }, before, after });
    return after;
  });
}

/** Removes a webhook; its deliveries go with it, and its pending ones are never sent. */
export async function deleteWebhook(ctx: ServiceContext, { scope, webhookId }: { scope: OwnerScope; webhookId: string }) {
  await withTransaction(ctx, async (tx) => {
    const row = await requireWebhook(tx.db, scope, webhookId, true);
    const before = presentWebhook(row);
    checkPrecondition(tx, before);
    await tx.db.delete(webhooks).where(eq(webhooks.id, row.id));
    await tx.audit.record({ action: "webhook.delete", target: { type: "webhook", id: row.id }, before, after: null });
  });
}

/**
 * A new secret, answered once (CONTRACT §20). The one it replaces keeps signing beside it for
 * 24 hours, so receivers can switch without losing a delivery; a secret rotated out before that
 * goes at once (two sign at most).
 */
export async function rotateWebhookSecret(ctx: ServiceContext, { scope, webhookId }: { scope: OwnerScope; webhookId: string }) {
  const secret = newSecret();
  return withTransaction(ctx, async (tx) => {
    const row = await requireWebhook(tx.db, scope, webhookId, true);
    const before = presentWebhook(row);
    checkPrecondition(tx, before);
    const now = Date.now();
    const [written] = await tx.db
      .update(webhooks)
      .set({
        secretEncrypted: sealed(ctx, secret),
        previousSecretEncrypted: row.secretEncrypted,
        previousSecretExpiresAt: new Date(now + SECRET_OVERLAP_MS),
        updatedAt: new Date(now),
      })
      .where(eq(webhooks.id, row.id))
      .returning();
    const after = presentWebhook(written!);
    await tx.audit.record({ action: "webhook.rotate_secret", target: { type: "webhook", id: row.id }, before, after });
    return { ...after, secret };
  });
}
