import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { signInAddresses } from "@/db/schema";
import { pruneInBatches, schedulePrune } from "@/lib/services/jobs/prune";
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
// keep the table small, by an hourly job, never on a sign-in's path.
const PRUNE_BATCH = 1000;

/** Deletes the rows whose last success is older than KNOWN_ADDRESS_DAYS; resolves to how many went. */
export function pruneSignInAddresses(db: Database, signal?: AbortSignal): Promise<number> {
  const stale = lt(signInAddresses.lastSuccessAt, sql`now() - ${KNOWN_FOR}`);
  // The outer condition is re-checked on rows a sign-in refreshed meanwhile, so those stay.
  return pruneInBatches(
    async (size) =>
      (
        await db
          .delete(signInAddresses)
          .where(
            and(
              stale,
              sql`(${signInAddresses.userId}, ${signInAddresses.address}) in (
                select old.user_id, old.address from ${signInAddresses} old
                where old.last_success_at < now() - ${KNOWN_FOR}
                limit ${size})`,
            ),
          )
          .returning({ userId: signInAddresses.userId })
      ).length,
    PRUNE_BATCH,
    signal,
  );
}

/** Hourly, one process at a time. */
export function startSignInAddressPrune(db: Database): () => void {
  return schedulePrune(db, "sign-in-address-prune", 60 * 60_000, (signal) => pruneSignInAddresses(db, signal));
}
