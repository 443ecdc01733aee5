import "server-only";
import type { Database } from "@/db/client";
import { logError } from "@/lib/platform/log";
import { scheduleJob } from "./exclusive-job";

/**
 * Runs `deleteBatch(size)` (one statement deleting at most `size` old rows, answering how many
 * it deleted) until a batch comes back short or `signal` aborts; resolves to how many went.
 * Batches keep each statement well inside the database time bound (db/bounded-client.ts), even
 * for the first prune of a large table.
 */
export async function pruneInBatches(deleteBatch: (size: number) => Promise<number>, size: number, signal?: AbortSignal): Promise<number> {
  let pruned = 0;
  while (!signal?.aborted) {
    const deleted = await deleteBatch(size);
    pruned += deleted;
    if (deleted < size) break;
  }
  return pruned;
}

/**
 * Starts this process's timer for a prune that runs every `intervalMs`, one process at a time
 * (an exclusive job: its lease keeps runs apart across processes); failures are logged.
 */
export function schedulePrune(
  db: Database,
  name: string,
  intervalMs: number,
  prune: (signal: AbortSignal) => Promise<unknown>,
): () => void {
  return scheduleJob(db, { name, intervalMs, leaseMs: 10 * 60_000 }, async (signal) => void (await prune(signal)), {
    pollMs: Math.min(intervalMs, 15 * 60_000),
    onError: (error) => logError(`the ${name} job failed`, error),
  });
}
