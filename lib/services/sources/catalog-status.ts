import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { templateSources } from "@/db/schema";
import { DomainError } from "@/lib/contracts/errors";
import type { ProblemType } from "@/lib/contracts/problem-types";
import { logError } from "@/lib/platform/log";
import type { OperationOptions } from "@/lib/services/marketplace";
import { recordEvent, scopeAudience } from "@/lib/services/outbox/outbox";
import { presentSource, type SourceRow } from "./sources";

/**
 * A source's catalog status (`catalog_fetched_at`, `catalog_error` on the wire), recorded by
 * every operation the server runs for a source against its marketplace: browse, install,
 * check-update (single, bulk, scheduled), update preview and update.
 *
 * - Success: the catalog was had and is well formed. When the marketplace answered for it
 *   later than recorded (a fetch, or a revalidation answered 304), `catalog_fetched_at`
 *   becomes that time and `catalog_error` is cleared. A fresh copy from the cache is no news
 *   from the marketplace: it changes nothing, so a failure recorded after that copy was
 *   fetched stays until the marketplace answers again.
 * - Catalog failure: the catalog could not be fetched or parsed (the 502/504 before the
 *   catalog loaded). `catalog_error` becomes the problem's detail; `catalog_fetched_at` keeps
 *   the last success.
 * - Anything after the catalog loaded (template not in the catalog, an invalid or unreachable
 *   manifest, a taken id) and a client that went away is not the catalog's failure.
 *
 * Writes are skipped when the source row the operation read already says the same, and
 * concurrent operations of one process that would write the same values send one statement
 * (each answers once it is stored, so a list asked for after any answer shows the status);
 * the statement itself changes the row only when the values differ (and never moves
 * `catalog_fetched_at` back), so 100 concurrent installs cost at most a handful of writes.
 * A status write lands only while the source still has the URL and token the operation used:
 * one that finishes after the source was changed says nothing about its new location. A failing
 * status write is logged and never changes the operation's outcome.
 */

type CatalogStatus = Pick<SourceRow, "catalogFetchedAt" | "catalogError">;

/**
 * Runs `load` (one marketplace operation for `source`) and records how its catalog load went,
 * with `db` (a call's rootDb: the status stands whatever the call then does); answers its result
 * and the source as now recorded.
 */
export async function withCatalogStatus<T>(
  db: Database,
  source: SourceRow,
  operation: OperationOptions,
  load: (operation: OperationOptions) => Promise<T>,
): Promise<{ result: T; source: SourceRow }> {
  const catalog: { loadedAt?: Date } = {};
  const observed: OperationOptions = {
    ...operation,
    onCatalogLoaded: (fetchedAt) => {
      catalog.loadedAt = fetchedAt;
      operation.onCatalogLoaded?.(fetchedAt);
    },
  };
  let result: T;
  try {
    result = await load(observed);
  } catch (error) {
    if (catalog.loadedAt) await recordCatalogStatus(db, source, succeeded(source, catalog.loadedAt));
    else if (isCatalogFailure(error))
      await recordCatalogStatus(db, source, { catalogFetchedAt: source.catalogFetchedAt, catalogError: error.detail });
    throw error;
  }
  const recorded = catalog.loadedAt ? await recordCatalogStatus(db, source, succeeded(source, catalog.loadedAt)) : source;
  return { result, source: recorded };
}

/** The failures of a catalog that did not load: unreachable, a bad answer, an invalid catalog, a timeout. */
const CATALOG_FAILURES = new Set<ProblemType>([
  "bad-gateway",
  "unusable-upstream-content",
  "invalid-upstream-manifest",
  "upstream-timeout",
]);
const isCatalogFailure = (error: unknown): error is DomainError => error instanceof DomainError && CATALOG_FAILURES.has(error.code);

/** Status after a load whose catalog the marketplace answered at `fetchedAt`: unchanged unless that is news. */
function succeeded(source: SourceRow, fetchedAt: Date): CatalogStatus {
  const recorded = source.catalogFetchedAt;
  if (recorded && recorded >= fetchedAt) return { catalogFetchedAt: recorded, catalogError: source.catalogError };
  return { catalogFetchedAt: fetchedAt, catalogError: null };
}

const sameStatus = (a: CatalogStatus, b: CatalogStatus) =>
  a.catalogError === b.catalogError && a.catalogFetchedAt?.getTime() === b.catalogFetchedAt?.getTime();

const statusKey = (status: CatalogStatus) => `${status.catalogFetchedAt?.getTime() ?? ""}\0${status.catalogError ?? ""}`;

// Status writes running now, per database handle (two apps in one test process stay apart)
// and source row id: the values being written and the write itself.
const writesByDatabase = new WeakMap<Database, Map<string, { key: string; done: Promise<void> }>>();

async function recordCatalogStatus(db: Database, source: SourceRow, status: CatalogStatus): Promise<SourceRow> {
  const recorded = { ...source, ...status };
  if (sameStatus(source, status)) return recorded;
  let writes = writesByDatabase.get(db);
  if (!writes) {
    writes = new Map();
    writesByDatabase.set(db, writes);
  }
  const key = statusKey(status);
  const running = writes.get(source.id);
  // The same values are being written: wait for that write, so no answer goes out before the
  // status it reports is stored (a list asked for right after it must show it).
  if (running?.key === key) {
    await running.done;
    return recorded;
  }
  const done = writeCatalogStatus(db, source, status);
  const write = { key, done };
  writes.set(source.id, write);
  try {
    await done;
  } finally {
    if (writes.get(source.id) === write) writes.delete(source.id);
  }
  return recorded;
}

/**
 * The conditional statement of one status write; a failure is logged, never thrown. A failure
 * recorded over a catalog that loaded (no error recorded) is the event `source.fetch_failed`
 * (CONTRACT §20): its catalog stopped loading. It is recorded in the transaction that records the
 * failure, holding the row, so of operations failing at once one records it.
 */
async function writeCatalogStatus(db: Database, source: SourceRow, status: CatalogStatus): Promise<void> {
  try {
    // A row deleted meanwhile matches nothing; the conditions skip writes another operation made already.
    const fetchedAt = sql`${status.catalogFetchedAt?.toISOString() ?? null}::timestamptz`;
    const column = templateSources.catalogFetchedAt;
    // The status is about the location and credential the operation used: once the source was
    // moved or its token changed (PATCH), what was learned about the old ones is not recorded.
    const sameLocation = and(
      eq(templateSources.id, source.id),
      eq(templateSources.url, source.url),
      source.authTokenEncrypted === null
        ? isNull(templateSources.authTokenEncrypted)
        : eq(templateSources.authTokenEncrypted, source.authTokenEncrypted),
    );
    const failure = status.catalogError;
    if (failure === null) {
      // A success applies only while it is news (an operation may have recorded a later one meanwhile).
      await db
        .update(templateSources)
        .set({ catalogFetchedAt: sql`${fetchedAt}`, catalogError: null })
        .where(and(sameLocation, sql`(${column} is null or ${column} < ${fetchedAt})`));
      return;
    }
    await db.transaction(async (tx) => {
      const [held] = await tx
        .select({ catalogError: templateSources.catalogError })
        .from(templateSources)
        .where(sameLocation)
        .for("update");
      if (!held || held.catalogError === failure) return;
      const [written] = await tx.update(templateSources).set({ catalogError: failure }).where(sameLocation).returning();
      if (held.catalogError === null && written) {
        await recordEvent(tx, { type: "source.fetch_failed", data: presentSource(written), audience: scopeAudience(written) });
      }
    });
  } catch (error) {
    logError("recording a source's catalog status failed", error, { source_id: source.id });
  }
}
