import "server-only";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { apiKeys, serviceAccounts, users } from "@/db/schema";
import type { Principal, Role } from "@/lib/services/context";
import { hashApiKey, looksLikeApiKey } from "./api-keys";
import { principalCacheFor } from "./principal-cache";

export type { Principal, Role } from "@/lib/services/context";

/** A service account acts with the lower of its own role and its owner's. */
function effectiveRole(own: Role, owner: Role): Role {
  return own === "admin" && owner === "admin" ? "admin" : "member";
}

/** What an API key resolves to, cached per process (lib/services/identity/principal-cache.ts). */
interface KeyLookup {
  principal: Principal;
  keyId: string;
  /** When this process last knew `last_used_at` to be set; moves forward as the key is used. */
  lastUsedAt: Date | null;
}

/**
 * The active principal an API key stands for, or null (unknown, revoked, or inactive). Served
 * from the process's principal cache when it holds the key, so the hot path reads nothing.
 */
export async function principalForApiKey(db: Database, token: string): Promise<Principal | null> {
  if (!looksLikeApiKey(token)) return null;
  const tokenHash = hashApiKey(token);
  const cache = principalCacheFor(db);
  const cacheKey = `key:${tokenHash}`;
  const cached = cache?.get<KeyLookup>(cacheKey);
  if (cached) {
    await recordKeyUse(db, cached);
    return cached.principal;
  }
  const readAt = cache?.beginRead() ?? 0;
  const lookup = await lookUpApiKey(db, tokenHash);
  if (!lookup) return null;
  await recordKeyUse(db, lookup);
  cache?.store(cacheKey, lookup, readAt);
  return lookup.principal;
}

// Prepared once per database: building the join with drizzle cost more than running it.
const keyLookups = new WeakMap<Database, ReturnType<typeof prepareKeyLookup>>();

function prepareKeyLookup(db: Database) {
  return db
    .select({
      keyId: apiKeys.id,
      lastUsedAt: apiKeys.lastUsedAt,
      userId: users.id,
      userName: users.displayName,
      userRole: users.role,
      userActive: users.isActive,
      saId: serviceAccounts.id,
      saName: serviceAccounts.displayName,
      saRole: serviceAccounts.role,
      saActive: serviceAccounts.isActive,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(serviceAccounts, and(eq(serviceAccounts.ownerUserId, apiKeys.userId), eq(serviceAccounts.id, apiKeys.serviceAccountId)))
    .where(eq(apiKeys.tokenHash, sql.placeholder("tokenHash")))
    .limit(1)
    .prepare("principal_for_api_key");
}

async function lookUpApiKey(db: Database, tokenHash: string): Promise<KeyLookup | null> {
  let query = keyLookups.get(db);
  if (!query) {
    query = prepareKeyLookup(db);
    keyLookups.set(db, query);
  }
  const [row] = await query.execute({ tokenHash });
  if (!row?.userActive) return null;
  if (row.saId !== null && !row.saActive) return null;
  const principal: Principal =
    row.saId === null
      ? { type: "user", id: row.userId, userId: row.userId, role: row.userRole, displayName: row.userName }
      : {
          type: "service_account",
          id: row.saId,
          userId: row.userId,
          role: effectiveRole(row.saRole!, row.userRole),
          displayName: row.saName!,
        };
  // Shared by every request the cache serves: nobody may change it.
  return { principal: Object.freeze(principal), keyId: row.keyId, lastUsedAt: row.lastUsedAt };
}

/** How stale `last_used_at` may get: one write per key per minute at most (CONTRACT §11). */
const KEY_USE_RESOLUTION_MS = 60_000;

/**
 * Sets a key's `last_used_at` to now when it is older than a minute. Conditional, so
 * processes racing on one key write it once; a key revoked meanwhile updates nothing.
 * The lookup remembers the write, so this process tries again only a minute later.
 */
async function recordKeyUse(db: Database, lookup: KeyLookup): Promise<void> {
  const { lastUsedAt } = lookup;
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() < KEY_USE_RESOLUTION_MS) return;
  lookup.lastUsedAt = new Date();
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiKeys.id, lookup.keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
}

/** The principal of a signed-in console user, re-read so deactivation takes effect at once. */
export async function principalForUser(db: Database, userId: string): Promise<Principal | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!row?.isActive) return null;
  return { type: "user", id: row.id, userId: row.id, role: row.role, displayName: row.displayName };
}
