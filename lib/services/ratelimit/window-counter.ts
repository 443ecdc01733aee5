import "server-only";
import { and, eq, gt, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { rateLimits } from "@/db/schema";

/**
 * One limit of CONTRACT §11: at most `limit` counted events per `key` (a user id, a client
 * address) in fixed windows of `windowSeconds`. A window starts with the first event counted
 * after the previous one ended. Fixed windows admit up to twice the limit across a window
 * boundary; that is the price of one row per key and one statement per event.
 */
export interface RateLimit {
  /** Names the counter family; stored in `rate_limits.bucket`. */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/** A key to count one event for, under one limit. */
export interface CountedKey {
  limit: RateLimit;
  key: string;
}

/** A counter right after this event was counted. */
export interface WindowCount extends CountedKey {
  /** Events in the current window, this one included. */
  count: number;
  /** The window's start in milliseconds since the epoch, as stored; identifies the window. */
  windowStartMs: number;
  /** Whole seconds until the window ends (at least 1). */
  secondsLeft: number;
}

export const isOverLimit = (counted: WindowCount): boolean => counted.count > counted.limit.limit;

// All times come from the database's clock (now()), so processes on hosts whose clocks
// disagree still share one window per key.
const NOW = sql`now()`;

/** The window length of the row's own bucket, as an interval (the buckets of one statement may differ). */
function windowLengthOf(limits: RateLimit[]): SQL {
  const cases = limits.map((l) => sql`when ${l.bucket}::text then ${sql.raw(String(Math.trunc(l.windowSeconds)))}`);
  return sql`(case ${rateLimits.bucket} ${sql.join(cases, sql` `)} end * interval '1 second')`;
}

/**
 * Counts one event for every key, in ONE statement, and answers each counter afterwards.
 *
 * INSERT … ON CONFLICT DO UPDATE takes the row lock of every counter it touches, so
 * concurrent events for one key (from any process) are serialised by PostgreSQL and each
 * sees a distinct count: no event is lost, none is counted twice. An expired window, or a
 * row whose count was taken back to 0, starts a new window at this event. Rows are written
 * in (bucket, key) order so two statements never lock the same rows in opposite orders.
 */
export async function countEvents(db: Database, keys: CountedKey[]): Promise<WindowCount[]> {
  if (keys.length === 0) return [];
  const ordered = [...keys].sort((a, b) => compare(a.limit.bucket, b.limit.bucket) || compare(a.key, b.key));
  const limits = uniqueLimits(ordered);
  const windowLength = windowLengthOf(limits);
  const restarts = sql`(${rateLimits.windowStart} + ${windowLength} <= ${NOW} or ${rateLimits.count} <= 0)`;
  const rows = await db
    .insert(rateLimits)
    .values(ordered.map(({ limit, key }) => ({ bucket: limit.bucket, key, windowStart: NOW, count: 1 })))
    .onConflictDoUpdate({
      target: [rateLimits.bucket, rateLimits.key],
      // SET expressions all read the row as it was before this statement.
      set: {
        windowStart: sql`case when ${restarts} then ${NOW} else ${rateLimits.windowStart} end`,
        count: sql`case when ${restarts} then 1 else ${rateLimits.count} + 1 end`,
      },
    })
    .returning({
      bucket: rateLimits.bucket,
      key: rateLimits.key,
      count: rateLimits.count,
      windowStartMs: sql<number>`(extract(epoch from ${rateLimits.windowStart}) * 1000)::float8`.mapWith(Number),
      secondsLeft: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${windowLength} - ${NOW})))::int`.mapWith(Number),
    });
  await sweepExpired(db, limits);
  return ordered.map((counted) => {
    const row = rows.find((r) => r.bucket === counted.limit.bucket && r.key === counted.key);
    if (!row) throw new RateLimitStoreError(`The counter ${counted.limit.bucket} was not returned by the database.`);
    return { ...counted, count: row.count, windowStartMs: row.windowStartMs, secondsLeft: Math.max(1, row.secondsLeft) };
  });
}

/**
 * Takes back events counted by `countEvents` (an attempt that turned out not to be a
 * failure), in one statement. Only within the window they were counted in: a window that
 * has ended since keeps its fresh count. The rows are locked in (bucket, key) order first, as
 * `countEvents` locks them: an UPDATE alone locks in whatever order it finds the rows, and two
 * statements locking the same two counters in opposite orders deadlock.
 */
export async function takeBack(db: Database, counted: WindowCount[]): Promise<void> {
  if (counted.length === 0) return;
  const sameWindow = counted.map((c) =>
    and(
      eq(rateLimits.bucket, c.limit.bucket),
      eq(rateLimits.key, c.key),
      sql`(extract(epoch from ${rateLimits.windowStart}) * 1000)::float8 = ${c.windowStartMs}::float8`,
    ),
  );
  const locked = db
    .select({ bucket: rateLimits.bucket, key: rateLimits.key })
    .from(rateLimits)
    .where(and(gt(rateLimits.count, 0), or(...sameWindow)))
    // Byte order, as `compare` sorts countEvents' rows (the database's collation may differ).
    .orderBy(sql`${rateLimits.bucket} collate "C"`, sql`${rateLimits.key} collate "C"`)
    .for("update");
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(sql`(${rateLimits.bucket}, ${rateLimits.key}) in ${locked}`);
}

/** Thrown when the database answers a counter statement in a way it never should. */
class RateLimitStoreError extends Error {}

// Expired rows are deleted opportunistically: each process sweeps a bucket at most every
// SWEEP_INTERVAL_MS, at most SWEEP_BATCH rows at a time, so the table stays about as large
// as the number of keys active in one window, and no request ever pays for a large delete.
const SWEEP_INTERVAL_MS = 10_000;
const SWEEP_BATCH = 1000;
const lastSweeps = new WeakMap<Database, Map<string, number>>();

async function sweepExpired(db: Database, limits: RateLimit[]): Promise<void> {
  let sweptAt = lastSweeps.get(db);
  if (!sweptAt) {
    sweptAt = new Map();
    lastSweeps.set(db, sweptAt);
  }
  const now = Date.now();
  for (const limit of limits) {
    if (now - (sweptAt.get(limit.bucket) ?? 0) < SWEEP_INTERVAL_MS) continue;
    sweptAt.set(limit.bucket, now);
    await sweepExpiredCounters(db, limit);
  }
}

/** Deletes up to SWEEP_BATCH counters of the limit's bucket whose window has passed, in one statement. */
export async function sweepExpiredCounters(db: Database, limit: RateLimit): Promise<void> {
  const windowLength = sql`(${sql.raw(String(Math.trunc(limit.windowSeconds)))} * interval '1 second')`;
  // The outer condition is re-checked on rows another statement reset meanwhile, so a
  // counter that has just started a new window is never deleted.
  await db.delete(rateLimits).where(
    and(
      eq(rateLimits.bucket, limit.bucket),
      sql`${rateLimits.windowStart} + ${windowLength} <= ${NOW}`,
      sql`(${rateLimits.bucket}, ${rateLimits.key}) in (
        select expired.bucket, expired.key from ${rateLimits} expired
        where expired.bucket = ${limit.bucket}::text and expired.window_start + ${windowLength} <= ${NOW}
        limit ${sql.raw(String(SWEEP_BATCH))})`,
    ),
  );
}

function uniqueLimits(keys: CountedKey[]): RateLimit[] {
  const byBucket = new Map<string, RateLimit>();
  for (const { limit } of keys) {
    const known = byBucket.get(limit.bucket);
    if (known && known.windowSeconds !== limit.windowSeconds) {
      throw new RateLimitStoreError(`The bucket ${limit.bucket} is used with two window lengths.`);
    }
    byBucket.set(limit.bucket, limit);
  }
  return [...byBucket.values()];
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
