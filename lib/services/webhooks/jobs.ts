import "server-only";
import { and, lt, notExists, sql } from "drizzle-orm";
import { type Database, openPostgres } from "@/db/client";
import { webhookDeliveries, webhookEvents } from "@/db/schema";
import { DELIVERY_LOG_DAYS } from "@/lib/contracts/webhooks/events";
import { logError } from "@/lib/platform/log";
import type { AppContext } from "@/lib/services/context";
import { noticeExpiringKeys } from "@/lib/services/identity/api-keys";
import { scheduleJob } from "@/lib/services/jobs/exclusive-job";
import { pruneInBatches, schedulePrune } from "@/lib/services/jobs/prune";
import { createDeliveryWorker } from "./worker";

const HOUR = 3_600_000;
const PRUNE_BATCH = 5000;

/**
 * Deletes the delivery log older than 30 days (CONTRACT §20), then the events no attempt refers to
 * any more; resolves to how many rows went.
 */
export async function pruneDeliveries(db: Database, now: number, signal?: AbortSignal): Promise<number> {
  const before = new Date(now - DELIVERY_LOG_DAYS * 24 * HOUR);
  const attempts = await pruneInBatches(
    async (size) =>
      (
        await db
          .delete(webhookDeliveries)
          .where(
            sql`${webhookDeliveries.seq} in (select seq from ${webhookDeliveries} where ${webhookDeliveries.dueAt} < ${before.toISOString()}::timestamptz limit ${size})`,
          )
          .returning({ seq: webhookDeliveries.seq })
      ).length,
    PRUNE_BATCH,
    signal,
  );
  const unused = and(
    lt(webhookEvents.createdAt, before),
    notExists(db.select({ one: sql`1` }).from(webhookDeliveries).where(sql`${webhookDeliveries.eventId} = ${webhookEvents.id}`)),
  );
  const events = await pruneInBatches(
    async (size) =>
      (
        await db
          .delete(webhookEvents)
          .where(sql`${webhookEvents.id} in (select ${webhookEvents.id} from ${webhookEvents} where ${unused} limit ${size})`)
          .returning({ id: webhookEvents.id })
      ).length,
    PRUNE_BATCH,
    signal,
  );
  return attempts + events;
}

/**
 * This process's part of webhooks (CONTRACT §20): its delivery worker, and its share of two jobs
 * that run one process at a time: `key.expiring` for keys that expire within 7 days (hourly) and
 * the pruning of the delivery log. All stop when the database closes and when the server is told to
 * stop (SIGTERM, SIGINT): the claims of attempts cut short are given back, so another process sends them.
 */
export function startWebhookWork(app: AppContext): void {
  // On PostgreSQL the worker has a connection of its own: its statements never wait for (or hold)
  // one of the pool the requests use, and it uses at most that one. PGlite has one connection anyway.
  const own = app.config.databaseUrl ? openPostgres(app.config.databaseUrl, { max: 1 }) : null;
  const worker = (own ?? Promise.resolve(null)).then(
    (handle) => deliveryWorker(app, handle?.db ?? app.db),
    (error: unknown) => {
      logError("webhook deliveries could not open a database connection of their own; they use the pool's", error);
      return deliveryWorker(app, app.db);
    },
  );
  const stopNotices = scheduleJob(
    app.db,
    { name: "webhook-key-expiry", intervalMs: HOUR, leaseMs: 10 * 60_000 },
    async () => void (await noticeExpiringKeys(app.db, new Date())),
    { pollMs: 5 * 60_000, onError: (error) => logError("telling webhooks of expiring keys failed", error) },
  );
  const stopPrune = schedulePrune(app.db, "webhook-delivery-prune", HOUR, (signal) => pruneDeliveries(app.db, Date.now(), signal));
  const stop = async () => {
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
    stopNotices();
    stopPrune();
    await (await worker).stop();
    await (await own?.catch(() => null))?.close();
  };
  // Beside the server's own handlers (lib/server/http-server.cjs), never instead of them: a
  // listener of ours alone would keep the process from ending on the signal.
  for (const signal of ["SIGTERM", "SIGINT"] as const) if (process.listenerCount(signal) > 0) process.once(signal, stop);
  app.database.onClose(stop);
}

/** This process's delivery worker, sending through `db`, started. */
function deliveryWorker(app: AppContext, db: Database) {
  const worker = createDeliveryWorker({ db, config: app.config, secretKey: app.secretKey, resolveHost: app.resolveHost, clock: Date.now });
  worker.start();
  return worker;
}
