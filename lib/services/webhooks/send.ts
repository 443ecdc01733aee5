import "server-only";
import { createHmac } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { performance } from "node:perf_hooks";
import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users, webhookDeliveries, webhookEvents, webhooks } from "@/db/schema";
import { DomainError } from "@/lib/contracts/errors";
import { DISABLE_AFTER_FAILING_MS, RETRY_DELAYS_MS } from "@/lib/contracts/webhooks/events";
import type { ResolveHost } from "@/lib/platform/address";
import type { Config } from "@/lib/platform/config";
import { safePost } from "@/lib/platform/safe-fetch";
import { decryptSecret } from "@/lib/platform/secret-box";

/**
 * Sending one delivery attempt (CONTRACT §20) and recording how it went: shared by the delivery
 * workers (lib/services/webhooks/worker.ts) and a ping, which sends at once.
 */

/** A delivery succeeds on a 2xx within this long (the whole exchange). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** How much of a receiver's answer is read and kept. */
const RESPONSE_EXCERPT_BYTES = 4096;

/** How long a claim holds a delivery: far beyond one attempt, so only a stopped process's claims lapse. */
export const CLAIM_MS = 60_000;

/** What sending needs of the app, and its clock (tests move it on by days). */
export interface SendDeps {
  db: Database;
  config: Config;
  secretKey: Buffer;
  resolveHost?: ResolveHost;
  /** Milliseconds since the epoch, now. */
  clock: () => number;
}

/** A claimed attempt, with what sending it takes. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  attempt: number;
  retries: boolean;
  url: string;
  body: string;
  /** The secrets that sign it, sealed: the current one, and the previous one during its overlap. */
  secrets: string[];
}

/** How an attempt went. */
interface Outcome {
  ok: boolean;
  at: Date;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

/**
 * The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with
 * each secret's bytes (the base64 after `whsec_`), space-separated when two sign.
 */
function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    })
    .join(" ");
}

/** Text a database column can hold: PostgreSQL text refuses U+0000, which a receiver may send. */
const storable = (text: string) => text.replaceAll("\u0000", "");

/**
 * Sends one claimed attempt: a POST of the event's body, signed, under the fetch safety rules of
 * CONTRACT §6 with WEBHOOK_ALLOWED_HOSTS, within 10 s, reading at most 4 KiB of the answer and
 * following no redirect. Never throws: a failure is the outcome. `cancel` stops it (shutdown).
 */
export async function sendDelivery(deps: SendDeps, delivery: ClaimedDelivery, cancel?: AbortSignal): Promise<Outcome> {
  const at = new Date(deps.clock());
  const timestamp = Math.floor(at.getTime() / 1000);
  const secrets = delivery.secrets.map((sealed) => decryptSecret(deps.secretKey, sealed, "webhook-secret"));
  const headers = {
    "content-type": "application/json",
    "user-agent": "bank-templates-webhooks",
    "webhook-id": delivery.eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, delivery.eventId, timestamp, delivery.body),
  };
  const policy = {
    allowedHosts: deps.config.webhooks.allowedHosts,
    resolveHost: deps.resolveHost,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    maxResponseBytes: RESPONSE_EXCERPT_BYTES,
  };
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const answer = await safePost(policy, { url: delivery.url, headers, body: delivery.body, cancel });
    const ok = answer.status >= 200 && answer.status <= 299;
    const error = ok ? null : `The receiver answered ${`${answer.status} ${STATUS_CODES[answer.status] ?? ""}`.trim()}.`;
    return { ok, at, responseStatus: answer.status, durationMs: took(), error, responseBody: storable(answer.body) };
  } catch (error) {
    const detail = error instanceof DomainError ? error.detail : "The delivery failed on our side.";
    return { ok: false, at, responseStatus: null, durationMs: took(), error: detail, responseBody: null };
  }
}

/** When attempt `attempt` (failed) is tried again, with ±10% jitter; null after the last retry. */
function retryAt(attempt: number, at: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined) return null;
  return new Date(at.getTime() + Math.round(delay * (0.9 + 0.2 * random())));
}

/** What recording an attempt's outcome sets on it (and frees its claim). */
const madeAttempt = (outcome: Outcome) => ({
  status: outcome.ok ? ("succeeded" as const) : ("failed" as const),
  at: outcome.at,
  responseStatus: outcome.responseStatus,
  durationMs: outcome.durationMs,
  error: outcome.error,
  responseBody: outcome.responseBody,
  claimedBy: null,
  claimedUntil: null,
});

/** The attempt, if `holder` still holds its claim (one that lapsed was taken over, and the taker records its own). */
const heldBy = (delivery: ClaimedDelivery, holder: string) =>
  and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.claimedBy, holder), eq(webhookDeliveries.status, "pending"));

/**
 * Records an attempt's outcome, if `holder` still holds its claim. A success is one statement: the
 * attempt, and the webhook's `failing_since` cleared if it was set (only then is the webhook's row
 * written, so deliveries to a healthy webhook do not queue on it). A failure is one transaction:
 * the attempt, the next attempt when it is retried, and the webhook's health: `failing_since` set
 * if unset, and the webhook paused once its deliveries have all failed for 5 days.
 */
export async function recordOutcome(db: Database, delivery: ClaimedDelivery, outcome: Outcome, holder: string): Promise<void> {
  if (outcome.ok) {
    const made = db
      .$with("made")
      .as(
        db
          .update(webhookDeliveries)
          .set(madeAttempt(outcome))
          .where(heldBy(delivery, holder))
          .returning({ webhookId: webhookDeliveries.webhookId }),
      );
    await db
      .with(made)
      .update(webhooks)
      .set({ failingSince: null })
      .where(and(inArray(webhooks.id, db.select({ id: made.webhookId }).from(made)), isNotNull(webhooks.failingSince)));
    return;
  }
  await db.transaction(async (tx) => {
    const [made] = await tx
      .update(webhookDeliveries)
      .set(madeAttempt(outcome))
      .where(heldBy(delivery, holder))
      .returning({ id: webhookDeliveries.id });
    if (!made) return;
    const next = delivery.retries ? retryAt(delivery.attempt, outcome.at) : null;
    if (next) {
      await tx.insert(webhookDeliveries).values({
        webhookId: delivery.webhookId,
        eventId: delivery.eventId,
        attempt: delivery.attempt + 1,
        status: "pending",
        dueAt: next,
      });
    }
    const [webhook] = await tx
      .update(webhooks)
      .set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${outcome.at.toISOString()}::timestamptz)` })
      .where(eq(webhooks.id, delivery.webhookId))
      .returning();
    const since = webhook?.failingSince;
    if (webhook?.active && since && outcome.at.getTime() - since.getTime() >= DISABLE_AFTER_FAILING_MS) {
      await tx
        .update(webhooks)
        .set({
          active: false,
          disabledReason: `Paused by the server: every delivery failed from ${since.toISOString()} to ${outcome.at.toISOString()}, the last with: ${outcome.error}`,
          updatedAt: outcome.at,
        })
        .where(eq(webhooks.id, delivery.webhookId));
    }
  });
}

/** Gives back a claim unsent (this process stops), so another process sends it at once rather than after the claim lapses. */
export async function releaseClaim(db: Database, deliveryId: string, holder: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ claimedBy: null, claimedUntil: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.claimedBy, holder)));
}

/**
 * Claims up to `limit` attempts that are due at `now` and nobody holds (or whose holder's claim
 * lapsed), oldest due first, and answers them with what sending them takes: one statement, whose
 * `FOR UPDATE SKIP LOCKED` lets processes claiming at once each take others, so every attempt goes
 * out once. A paused webhook's scheduled attempts wait until it is resumed; a ping or a redelivery
 * (asked for, not scheduled) goes all the same. Those of a deactivated user's webhooks wait until
 * the user is active again.
 */
export async function claimDue(
  db: Database,
  { holder, limit, now }: { holder: string; limit: number; now: number },
): Promise<ClaimedDelivery[]> {
  const at = new Date(now);
  const due = db.$with("due").as(
    db
      .select({
        id: sql<string>`${webhookDeliveries.id}`.as("due_id"),
        body: webhookEvents.body,
        url: webhooks.url,
        secretEncrypted: webhooks.secretEncrypted,
        previousSecretEncrypted: webhooks.previousSecretEncrypted,
        previousSecretExpiresAt: webhooks.previousSecretExpiresAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.dueAt, at),
          or(isNull(webhookDeliveries.claimedUntil), lte(webhookDeliveries.claimedUntil, at)),
          or(eq(webhooks.active, true), eq(webhookDeliveries.retries, false)),
          // A user's webhook sends nothing more once its user is deactivated (what they may read is nothing).
          or(isNull(webhooks.owner), sql`exists (select 1 from ${users} where ${users.id} = ${webhooks.owner} and ${users.isActive})`),
        ),
      )
      .orderBy(webhookDeliveries.dueAt, webhookDeliveries.seq)
      .limit(limit)
      .for("update", { of: webhookDeliveries, skipLocked: true }),
  );
  const claimed = await db
    .with(due)
    .update(webhookDeliveries)
    .set({ claimedBy: holder, claimedUntil: new Date(now + CLAIM_MS) })
    .from(due)
    .where(eq(webhookDeliveries.id, due.id))
    .returning({
      id: webhookDeliveries.id,
      webhookId: webhookDeliveries.webhookId,
      eventId: webhookDeliveries.eventId,
      attempt: webhookDeliveries.attempt,
      retries: webhookDeliveries.retries,
      body: due.body,
      url: due.url,
      secretEncrypted: due.secretEncrypted,
      previousSecretEncrypted: due.previousSecretEncrypted,
      previousSecretExpiresAt: due.previousSecretExpiresAt,
    });
  return claimed.map(({ secretEncrypted, previousSecretEncrypted, previousSecretExpiresAt, ...delivery }) => ({
    ...delivery,
    secrets: signingSecrets({ secretEncrypted, previousSecretEncrypted, previousSecretExpiresAt }, at),
  }));
}

/** The sealed secrets of a webhook that sign at `at`: its current one, and the previous one during its overlap. */
export function signingSecrets(
  webhook: { secretEncrypted: string; previousSecretEncrypted: string | null; previousSecretExpiresAt: Date | null },
  at: Date,
): string[] {
  const { secretEncrypted, previousSecretEncrypted, previousSecretExpiresAt } = webhook;
  return previousSecretEncrypted && previousSecretExpiresAt && previousSecretExpiresAt > at
    ? [secretEncrypted, previousSecretEncrypted]
    : [secretEncrypted];
}
