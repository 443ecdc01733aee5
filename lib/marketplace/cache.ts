import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { marketplaceCache } from "@/db/schema";
import { safeFetch, type FetchPolicy, type Validators } from "./safe-fetch";

/** cached: a fresh entry answers without any request; revalidate: always ask upstream (conditionally). */
export type FetchMode = "cached" | "revalidate";

export interface CachedFetchRequest {
  url: string;
  authToken: string | null;
  authOrigin: string;
}

/**
 * A body and the cache write it implies. The write is deferred so a caller stores nothing until
 * everything it fetched in one operation has been validated (CONTRACT §6: nothing written on failure).
 */
export interface CachedBody {
  body: string;
  store(): Promise<void>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** One entry per URL and credential: a body fetched with one token never answers for another. */
export function cacheKey(url: string, authToken: string | null): string {
  return sha256(`${url}\0${sha256(authToken ?? "")}`);
}

type CacheRow = typeof marketplaceCache.$inferSelect;

const isFresh = (row: CacheRow, ttlSeconds: number) => Date.now() - row.fetchedAt.getTime() < ttlSeconds * 1000;

export async function fetchThroughCache(
  db: Database,
  policy: FetchPolicy & { cacheTtlSeconds: number },
  req: CachedFetchRequest,
  mode: FetchMode,
): Promise<CachedBody> {
  const key = cacheKey(req.url, req.authToken);
  const [entry] = await db.select().from(marketplaceCache).where(eq(marketplaceCache.cacheKey, key));
  if (entry && mode === "cached" && isFresh(entry, policy.cacheTtlSeconds)) {
    return { body: entry.body, store: async () => {} };
  }
  const hasValidators = entry && (entry.etag !== null || entry.lastModified !== null);
  const conditional = hasValidators ? { etag: entry.etag, lastModified: entry.lastModified } : undefined;
  const result = await safeFetch(policy, { ...req, conditional });
  const fetchedAt = new Date();
  if (result.kind === "body") {
    return { body: result.body, store: () => upsert(db, key, req.url, result.body, result, fetchedAt) };
  }
  // safeFetch only reports not-modified for a conditional request, and those need an entry.
  const cached = entry!;
  // A 304 may carry new validators; keep the old ones where it does not.
  const validators = { etag: result.etag ?? cached.etag, lastModified: result.lastModified ?? cached.lastModified };
  return { body: cached.body, store: () => upsert(db, key, req.url, cached.body, validators, fetchedAt) };
}

async function upsert(db: Database, key: string, url: string, body: string, validators: Validators, fetchedAt: Date) {
  const values = { url, body, etag: validators.etag, lastModified: validators.lastModified, fetchedAt };
  await db
    .insert(marketplaceCache)
    .values({ cacheKey: key, ...values })
    .onConflictDoUpdate({ target: marketplaceCache.cacheKey, set: values });
}
