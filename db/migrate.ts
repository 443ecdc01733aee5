import "server-only";
import { isNull, sql } from "drizzle-orm";
import { type Database, type DatabaseHandle, migrationsFolder, openPostgres } from "./client";
import { migrationReports } from "./schema";

// Any fixed 64-bit number; it names the lock every process takes before migrating.
const MIGRATION_LOCK_ID = 7_214_903_118;

/**
 * Applies the committed drizzle migrations. Idempotent. On PostgreSQL a session-level
 * advisory lock on a dedicated connection serialises processes that start together.
 */
export async function runMigrations(handle: DatabaseHandle, postgresUrl?: string): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder });
    return;
  }
  if (!postgresUrl) throw new Error("runMigrations needs the PostgreSQL URL");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const lockHandle = await openPostgres(postgresUrl, { max: 1, bounded: false });
  try {
    await lockHandle.db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    try {
      await migrate(lockHandle.db as never, { migrationsFolder });
    } finally {
      await lockHandle.db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
    }
  } finally {
    await lockHandle.close();
  }
}

/**
 * What migrations reported (a migration_reports row: the orphan bank policies one removed) that
 * no process has printed yet, oldest first, each as one line naming its migration. Marks them
 * printed in the same statement, so of processes starting together exactly one prints each.
 */
export async function takeMigrationReports(db: Database): Promise<string[]> {
  const taken = await db
    .update(migrationReports)
    .set({ reportedAt: sql`now()` })
    .where(isNull(migrationReports.reportedAt))
    .returning({ id: migrationReports.id, migration: migrationReports.migration, message: migrationReports.message });
  return taken.sort((a, b) => a.id - b.id).map((report) => `Migration ${report.migration}: ${report.message}`);
}
