import "server-only";
import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { marketplaceCache } from "@/db/schema";
import { countMarketplaceFetch } from "@/lib/platform/metrics";
import { pause, throwIfGone } from "@/lib/platform/operation";
import { type FetchPolicy, safeFetch, type Validators } from "@/lib/platform/safe-fetch";
import {
  coalesce,
  leaseHolder,
  leaseIsLive,
  pruneDeadLeases,
  type Resolved,
  releaseLease,
  takeLease,
} from "@/lib/services/marketplace/single-flight";

/** cached: a fresh entry answers without any request; revalidate: always ask upstream (conditionally). */
export type FetchMode = "cached" | "revalidate";

export interface CachedFetchRequest {
  url: string;
  authToken: string | null;
  authOrigin: string;
}

/**
 * How to read one kind of document (a catalog, a manifest). `read` throws an DomainError for a
 * body that is not a well-formed document of that kind; such a body is never cached, so a
 * marketplace that fixes it is heard at once. Whatever `read` returns is shared by every
 * caller of one flight, so callers must not modify it.
 */
export interface CachedDocument<T> {
  kind: string;
  read(url: string, body: string): T;
  /** Whether a body read as `value` may be kept (default: yes); one that is not is refetched next time. */
  cacheable?(value: T): boolean;
}

export interface CachedFetchOptions {
  mode: FetchMode;
  /** A revalidating fetch accepts an answer received after this moment (ms since the epoch). */
  since: number;
  signal?: AbortSignal;
  /** The entry as `readEntries` found it just before (null: none), which spares reading it again. */
  known?: CacheRow | null;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** One entry per URL and credential: a body fetched with one token never answers for another. */
export function cacheKey(url: string, authToken: string | null): string {
  return sha256(`${url}\0${sha256(authToken ?? "")}`);
}

export type CacheRow = typeof marketplaceCache.$inferSelect;

/** Entries unused this long are deleted (CONTRACT §12). */
const CACHE_RETENTION_DAYS = 7;
/** used_at is a day-granular fact; writing it more often than this only costs. */
const TOUCH_EVERY_MS = 60_000;
/** How often one process sweeps the cache for unused entries. */
const PRUNE_EVERY_MS = 60 * 60_000;
/** Between two looks at the cache while another process fetches. */
const POLL_MS = 75;
/** A lease outlives its holder's fetch by this much (database writes, parsing); then others take over. */
const LEASE_MARGIN_MS = 5_000;
/** Attempts at the lease before fetching regardless, should holders keep failing or dying. */
const LEASE_ATTEMPTS = 3;
/** Keys per query of readEntries. */
const READ_BATCH = 500;

/**
 * A body of `document`'s kind for `req.url` and when the marketplace last answered for it
 * (fetched or revalidated), from the shared cache or from upstream, with one
 * upstream request for all concurrent callers of every process (CONTRACT §12).
 *
 * The process that fetches stores a successful answer (2xx, or 304 for the body it already
 * holds) as soon as it is read as a well-formed document, before the operation that asked for
 * it has finished: other processes wait for exactly that write. The cache is a copy of what
 * the marketplace serves, not the caller's data; an operation that later fails (an invalid
 * manifest, an id that is taken) still writes nothing of the user's (CONTRACT §6).
 */
export async function fetchThroughCache<T>(
  db: Database,
  policy: FetchPolicy & { cacheTtlSeconds: number },
  req: CachedFetchRequest,
  document: CachedDocument<T>,
  options: CachedFetchOptions,
): Promise<Resolved<T>> {
  throwIfGone(options.signal);
  pruneNowAndThen(db);
  const key = cacheKey(req.url, req.authToken);
  const accepts = acceptance(options, policy.cacheTtlSeconds);
  return coalesce(db, `${document.kind}\0${key}`, accepts, options.signal, (signal) =>
    resolveShared(db, policy, req, key, document, accepts, signal, options.known),
  );
}

/** Which entries a caller may use: a fresh one, or one revalidated after the caller began. */
function acceptance(options: CachedFetchOptions, ttlSeconds: number): (fetchedAt: Date) => boolean {
  if (options.mode === "revalidate") return (fetchedAt) => fetchedAt.getTime() > options.since;
  return (fetchedAt) => Date.now() - fetchedAt.getTime() < ttlSeconds * 1000;
}

async function resolveShared<T>(
  db: Database,
  policy: FetchPolicy,
  req: CachedFetchRequest,
  key: string,
  document: CachedDocument<T>,
  accepts: (fetchedAt: Date) => boolean,
  signal: AbortSignal,
  known: CacheRow | null | undefined,
): Promise<Resolved<T>> {
  const leaseMs = policy.timeoutMs + LEASE_MARGIN_MS;
  for (let attempt = 1; ; attempt++) {
    const entry = attempt === 1 && known !== undefined ? (known ?? undefined) : await readEntry(db, key);
    if (entry && accepts(entry.fetchedAt)) {
      countMarketplaceFetch("cache_fresh");
      return serveEntry(db, req.url, entry, document);
    }
    if (attempt > LEASE_ATTEMPTS) return fetchAndStore(db, policy, req, key, entry, document, signal, null);

    const holder = leaseHolder();
    if (await takeLease(db, key, holder, leaseMs)) {
      let released = false;
      try {
        // Another holder may have finished between the look above and taking the lease.
        const current = await readEntry(db, key);
        if (current && accepts(current.fetchedAt)) {
          countMarketplaceFetch("shared");
          return await serveEntry(db, req.url, current, document);
        }
        const fetched = await fetchAndStore(db, policy, req, key, current, document, signal, holder);
        released = true;
        return fetched;
      } finally {
        // When this fails (database gone), the lease runs out by itself and others take over.
        if (!released) await releaseLease(db, key, holder).catch(() => {});
      }
    }
    const awaited = await awaitOtherHolder(db, key, accepts, signal);
    if (awaited) {
      countMarketplaceFetch("shared");
      return serveEntry(db, req.url, awaited, document);
    }
  }
}

/**
 * Another process holds the lease: polls the entry until it is one this caller may use, or
 * until the lease is released or runs out (null: the holder failed or died; try again).
 */
async function awaitOtherHolder(
  db: Database,
  key: string,
  accepts: (fetchedAt: Date) => boolean,
  signal: AbortSignal,
): Promise<CacheRow | null> {
  for (;;) {
    await pause(POLL_MS, signal);
    const entry = await readEntry(db, key);
    if (entry && accepts(entry.fetchedAt)) return entry;
    if (!(await leaseIsLive(db, key))) return null;
  }
}

async function readEntry(db: Database, key: string): Promise<CacheRow | undefined> {
  const [entry] = await db.select().from(marketplaceCache).where(eq(marketplaceCache.cacheKey, key));
  return entry;
}

/** The entries of many keys in few queries, for an operation about to fetch them all. */
export async function readEntries(db: Database, keys: string[]): Promise<Map<string, CacheRow>> {
  const found = new Map<string, CacheRow>();
  for (let start = 0; start < keys.length; start += READ_BATCH) {
    const batch = keys.slice(start, start + READ_BATCH);
    for (const row of await db.select().from(marketplaceCache).where(inArray(marketplaceCache.cacheKey, batch))) {
      found.set(row.cacheKey, row);
    }
  }
  return found;
}

async function serveEntry<T>(db: Database, url: string, entry: CacheRow, document: CachedDocument<T>): Promise<Resolved<T>> {
  const value = document.read(url, entry.body);
  if (Date.now() - entry.usedAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(marketplaceCache).set({ usedAt: sql`now()` }).where(eq(marketplaceCache.cacheKey, entry.cacheKey));
  }
  return { value, fetchedAt: entry.fetchedAt };
}

async function fetchAndStore<T>(
  db: Database,
  policy: FetchPolicy,
  req: CachedFetchRequest,
  key: string,
  entry: CacheRow | undefined,
  document: CachedDocument<T>,
  signal: AbortSignal,
  holder: string | null,
): Promise<Resolved<T>> {
  const hasValidators = entry && (entry.etag !== null || entry.lastModified !== null);
  const conditional = hasValidators ? { etag: entry.etag, lastModified: entry.lastModified } : undefined;
  const result = await safeFetch(policy, { ...req, conditional, cancel: signal }).catch((error: unknown) => {
    countMarketplaceFetch(signal.aborted ? "cancelled" : "failed");
    throw error;
  });
  countMarketplaceFetch(result.kind === "body" ? "fetched" : "not_modified");
  const fetchedAt = new Date();
  // safeFetch only reports not-modified for a conditional request, and those need an entry.
  const body = result.kind === "body" ? result.body : entry!.body;
  // A 304 may carry new validators; keep the old ones where it does not.
  const validators =
    result.kind === "body" ? result : { etag: result.etag ?? entry!.etag, lastModified: result.lastModified ?? entry!.lastModified };
  const value = document.read(req.url, body);
  if (document.cacheable?.(value) === false) {
    // Not kept as good: the entry stays as it was (older, so no caller takes it for this answer), and
    // waiters see the lease go and fetch themselves.
    if (holder) await releaseLease(db, key, holder);
  } else await store(db, key, req.url, body, validators, fetchedAt, holder);
  return { value, fetchedAt };
}

/**
 * Writes the entry and, in the same statement, releases the writer's lease: a waiter that
 * sees the lease gone sees the entry too, and the pair costs one round trip.
 */
async function store(db: Database, key: string, url: string, body: string, validators: Validators, fetchedAt: Date, holder: string | null) {
  const at = fetchedAt.toISOString();
  await db.execute(sql`
    with stored as (
      insert into marketplace_cache (cache_key, url, body, etag, last_modified, fetched_at, used_at)
      values (${key}, ${url}, ${body}, ${validators.etag}, ${validators.lastModified}, ${at}::timestamptz, ${at}::timestamptz)
      on conflict (cache_key) do update set
        url = excluded.url, body = excluded.body, etag = excluded.etag, last_modified = excluded.last_modified,
        fetched_at = excluded.fetched_at, used_at = excluded.used_at
      returning 1
    )
    delete from marketplace_fetch_leases where cache_key = ${key} and holder = ${holder ?? ""}`);
}

/**
 * Deletes what was cached for the catalog at `catalogUrl` with `authToken`: the catalog and the
 * manifests of its folder fetched with that credential (other credentials' entries stay). Used
 * when a source moves or changes its token, so nothing fetched for its old location or
 * credential answers for it again. Answers how many entries went.
 */
export async function dropCachedCatalog(db: Database, catalogUrl: string, authToken: string | null): Promise<number> {
  const folder = new URL(".", catalogUrl).toString();
  const inFolder = sql`left(${marketplaceCache.url}, ${folder.length}) = ${folder}`;
  const candidates = await db.select({ key: marketplaceCache.cacheKey, url: marketplaceCache.url }).from(marketplaceCache).where(inFolder);
  const keys = candidates.filter((entry) => entry.key === cacheKey(entry.url, authToken)).map((entry) => entry.key);
  if (keys.length === 0) return 0;
  const dropped = await db
    .delete(marketplaceCache)
    .where(inArray(marketplaceCache.cacheKey, keys))
    .returning({ key: marketplaceCache.cacheKey });
  return dropped.length;
}

/** Rows per DELETE, and DELETEs per sweep: every statement stays short, and so does a sweep. */
const PRUNE_BATCH = 1_000;
const PRUNE_BATCHES = 50;

/**
 * Deletes cache entries no operation used for CACHE_RETENTION_DAYS (and leases of long-dead
 * holders); answers how many entries went. A backlog larger than one sweep goes in the next.
 */
export async function pruneMarketplaceCache(db: Database): Promise<number> {
  const unused = sql`${marketplaceCache.usedAt} < now() - ${`${CACHE_RETENTION_DAYS} days`}::interval`;
  let deleted = 0;
  for (let batch = 0; batch < PRUNE_BATCHES; batch++) {
    const victims = db.select({ key: marketplaceCache.cacheKey }).from(marketplaceCache).where(unused).limit(PRUNE_BATCH);
    const gone = await db
      .delete(marketplaceCache)
      .where(and(inArray(marketplaceCache.cacheKey, victims), unused))
      .returning({ key: marketplaceCache.cacheKey });
    deleted += gone.length;
    if (gone.length < PRUNE_BATCH) break;
  }
  await pruneDeadLeases(db);
  return deleted;
}

const lastPruneByDatabase = new WeakMap<Database, number>();

/**
 * Prunes at most once per PRUNE_EVERY_MS per process, in the background: one bounded DELETE
 * that no request waits for. A failure (database away) is retried on the next schedule.
 */
function pruneNowAndThen(db: Database): void {
  const last = lastPruneByDatabase.get(db);
  if (last !== undefined && Date.now() - last < PRUNE_EVERY_MS) return;
  lastPruneByDatabase.set(db, Date.now());
  pruneMarketplaceCache(db).catch(() => {});
}
