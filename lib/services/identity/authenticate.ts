import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { apiKeys, serviceAccounts, users } from "@/db/schema";
import type { ApiKeyScope } from "@/lib/contracts/identity/schemas";
import type { AuthenticatedActor, Role } from "@/lib/services/context";
import { actorCacheFor } from "./actor-cache";
import { hashApiKey, looksLikeApiKey } from "./api-keys";
import { type KnownStamp, staleStamp, stampDue } from "./usage-stamps";

/** A service account acts with the lower of its own role and its owner's. */
function effectiveRole(own: Role, owner: Role): Role {
  return own === "admin" && owner === "admin" ? "admin" : "member";
}

/** What an API key resolves to, cached per process (lib/services/identity/actor-cache.ts). */
interface KeyLookup {
  actor: AuthenticatedActor;
  keyId: string;
  scope: ApiKeyScope;
  /** When the key stops working (ms since the epoch), or null: never. */
  expiresAt: number | null;
  /** When this process last knew `last_used_at` to be set; moves forward as the key is used. */
  lastUsed: KnownStamp;
}

/**
 * What an API key stands for: its active actor and what the key may do; `expired` for a
 * key of an active actor whose time is up; `unknown` for anything else (never issued,
 * revoked, or its account inactive).
 */
export type ApiKeyCheck =
  | { status: "valid"; actor: AuthenticatedActor; scope: ApiKeyScope }
  | { status: "expired" }
  | { status: "unknown" };

const UNKNOWN: ApiKeyCheck = { status: "unknown" };
const EXPIRED: ApiKeyCheck = { status: "expired" };

/**
 * Checks an API key. Served from the process's actor cache when it holds the key, so the
 * hot path reads nothing; expiry is judged on every use, cached or not, so a cached entry never
 * outlives its key's `expires_at`.
 */
export async function actorForApiKey(db: Database, token: string): Promise<ApiKeyCheck> {
  if (!looksLikeApiKey(token)) return UNKNOWN;
  const tokenHash = hashApiKey(token);
  const cache = actorCacheFor(db);
  const cacheKey = `key:${tokenHash}`;
  let lookup = cache?.get<KeyLookup>(cacheKey);
  if (!lookup) {
    const readAt = cache?.beginRead() ?? 0;
    lookup = (await lookUpApiKey(db, tokenHash)) ?? undefined;
    if (!lookup) return UNKNOWN;
    cache?.store(cacheKey, lookup, readAt);
  }
  if (lookup.expiresAt !== null && lookup.expiresAt <= Date.now()) return EXPIRED;
  await recordKeyUse(db, lookup);
  return { status: "valid", actor: lookup.actor, scope: lookup.scope };
}

// Prepared once per database: building the join with drizzle cost more than running it.
const keyLookups = new WeakMap<Database, ReturnType<typeof prepareKeyLookup>>();

function prepareKeyLookup(db: Database) {
  return db
    .select({
      keyId: apiKeys.id,
      scope: apiKeys.scope,
      expiresAt: apiKeys.expiresAt,
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
    .prepare("actor_for_api_key");
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
  const actor: AuthenticatedActor =
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
  return {
    actor: Object.freeze(actor),
    keyId: row.keyId,
    scope: row.scope,
    expiresAt: row.expiresAt?.getTime() ?? null,
    lastUsed: { stampedAt: row.lastUsedAt?.getTime() ?? null },
  };
}

/** Sets a key's `last_used_at` to now, at most once a minute (./usage-stamps.ts); a key revoked meanwhile updates nothing. */
async function recordKeyUse(db: Database, lookup: KeyLookup): Promise<void> {
  if (!stampDue(lookup.lastUsed)) return;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiKeys.id, lookup.keyId), staleStamp(apiKeys.lastUsedAt)));
}
