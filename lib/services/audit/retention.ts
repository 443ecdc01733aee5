import "server-only";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { auditEntries } from "@/db/schema";
import { pruneInBatches, schedulePrune } from "@/lib/services/jobs/prune";

/** How long audit entries are kept (docs/api-decisions.md, "Audit log"). */
const AUDIT_RETENTION_DAYS = 365;

const PRUNE_BATCH = 5000;

/** Deletes the entries older than `days`; resolves to how many went. */
export function pruneAuditEntries(db: Database, days: number = AUDIT_RETENTION_DAYS, signal?: AbortSignal): Promise<number> {
  return pruneInBatches(
    async (size) =>
      (
        await db
          .delete(auditEntries)
          .where(
            sql`${auditEntries.seq} in (select seq from ${auditEntries} where ${auditEntries.at} < now() - make_interval(days => ${days}) order by seq limit ${size})`,
          )
          .returning({ seq: auditEntries.seq })
      ).length,
    PRUNE_BATCH,
    signal,
  );
}

/** Once a day, one process at a time. */
export function startAuditRetention(db: Database): () => void {
  return schedulePrune(db, "audit-retention", 24 * 60 * 60_000, (signal) => pruneAuditEntries(db, AUDIT_RETENTION_DAYS, signal));
}
