import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { auditEntries } from "@/db/schema";
import { logError } from "@/lib/platform/log";
import { type ExclusiveJob, scheduleJob } from "@/lib/services/jobs/exclusive-job";

/** How long audit entries are kept (README, "Audit log"). */
const AUDIT_RETENTION_DAYS = 365;

// Deleting in batches keeps each statement well inside the database time bound (db/bounded-client.ts),
// even for the first prune of a large table.
const PRUNE_BATCH = 5000;

/** Once a day, one process at a time (lib/services/jobs/exclusive-job.ts). */
const auditRetentionJob: ExclusiveJob = { name: "audit-retention", intervalMs: 24 * 60 * 60_000, leaseMs: 10 * 60_000 };

/** Deletes the entries older than `days`; resolves to how many went. */
export async function pruneAuditEntries(db: Database, days: number = AUDIT_RETENTION_DAYS, signal?: AbortSignal): Promise<number> {
  let pruned = 0;
  while (!signal?.aborted) {
    const batch = await db
      .delete(auditEntries)
      .where(
        sql`${auditEntries.seq} in (select seq from ${auditEntries} where ${auditEntries.at} < now() - make_interval(days => ${days}) order by seq limit ${PRUNE_BATCH})`,
      )
      .returning({ seq: auditEntries.seq });
    pruned += batch.length;
    if (batch.length < PRUNE_BATCH) break;
  }
  return pruned;
}

/** Starts this process's timer; the job's lease keeps prunes one at a time and a day apart across processes. */
export function startAuditRetention(db: Database): () => void {
  return scheduleJob(db, auditRetentionJob, async (signal) => void (await pruneAuditEntries(db, AUDIT_RETENTION_DAYS, signal)), {
    pollMs: 15 * 60_000,
    onError: (error) => logError("audit retention prune failed", error),
  });
}
