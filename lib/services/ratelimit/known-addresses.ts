import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { signInAddresses } from "@/db/schema";
import { KNOWN_ADDRESS_DAYS } from "./limits";

/**
 * The addresses each user signed in from successfully (CONTRACT §18), which exempt that user
 * id from the address's limit on failed sign-ins for KNOWN_ADDRESS_DAYS.
 */
const KNOWN_FOR = sql.raw(`interval '${KNOWN_ADDRESS_DAYS} days'`);

/** Records a successful sign-in of `userId` from `address`: one upsert (any transaction of the caller's). */
export async function recordSignInAddress(db: Database, userId: string, address: string): Promise<void> {
  await db
    .insert(signInAddresses)
    .values({ userId, address, lastSuccessAt: sql`now()` })
    .onConflictDoUpdate({ target: [signInAddresses.userId, signInAddresses.address], set: { lastSuccessAt: sql`now()` } });
  await pruneOccasionally(db);
}

/** Whether `userId` signed in successfully from `address` within the last KNOWN_ADDRESS_DAYS. */
export async function isKnownSignInAddress(db: Database, userId: string, address: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: signInAddresses.userId })
    .from(signInAddresses)
    .where(
      and(
        eq(signInAddresses.userId, userId),
        eq(signInAddresses.address, address),
        gt(signInAddresses.lastSuccessAt, sql`now() - ${KNOWN_FOR}`),
      ),
    )
    .limit(1);
  return row !== undefined;
}

// Rows past 30 days exempt nobody (the check above reads the date); they are deleted only to
// keep the table small: each process prunes at most every PRUNE_INTERVAL_MS, PRUNE_BATCH rows
// at a time, so no sign-in pays for a large delete.
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const PRUNE_BATCH = 1000;
// Per process, not per handle: sign-ins write through a fresh transaction handle each time.
let lastPruneAt = 0;

async function pruneOccasionally(db: Database): Promise<void> {
  const now = Date.now();
  if (now - lastPruneAt < PRUNE_INTERVAL_MS) return;
  lastPruneAt = now;
  await pruneSignInAddresses(db);
}

/** Deletes up to PRUNE_BATCH rows whose last success is older than KNOWN_ADDRESS_DAYS, in one statement. */
export async function pruneSignInAddresses(db: Database): Promise<void> {
  const stale = lt(signInAddresses.lastSuccessAt, sql`now() - ${KNOWN_FOR}`);
  // The outer condition is re-checked on rows a sign-in refreshed meanwhile, so those stay.
  await db.delete(signInAddresses).where(
    and(
      stale,
      sql`(${signInAddresses.userId}, ${signInAddresses.address}) in (
        select old.user_id, old.address from ${signInAddresses} old
        where old.last_success_at < now() - ${KNOWN_FOR}
        limit ${sql.raw(String(PRUNE_BATCH))})`,
    ),
  );
}
