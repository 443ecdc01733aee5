import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { isForeignKeyViolation } from "@/db/errors";
import { apiKeys } from "@/db/schema";
import { notFound } from "@/lib/contracts/errors";
import { iso, isoOrNull } from "@/lib/contracts/fields";
import type { ApiKeyScope } from "@/lib/contracts/identity/schemas";
import { MAX_API_KEYS_PER_ACTOR } from "@/lib/contracts/limits";
import { assertWithinBound, countRows, type OwnerBound } from "@/lib/services/bounds/owner-bounds";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { ADMINS, recordEvent } from "@/lib/services/outbox/outbox";
import { actorChangesSettled, invalidateActors } from "./actor-cache";

// The fixed prefix keeps keys recognisable in logs and scanners, and never `eyJ` (a JWT).
const TOKEN_PREFIX = "hbk_";
const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.length + 8;

/** Whose key: a user (`serviceAccountId` null) or one of that user's service accounts. */
export interface KeyOwner {
  userId: string;
  serviceAccountId: string | null;
}

// Keys carry 256 random bits, so one fast hash suffices; a slow password hash would add nothing.
export function hashApiKey(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function looksLikeApiKey(token: string): boolean {
  return token.length >= 16 && token.length <= 512;
}

function generateApiKey(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

const ownerFilter = (owner: KeyOwner) =>
  and(
    eq(apiKeys.userId, owner.userId),
    owner.serviceAccountId === null ? isNull(apiKeys.serviceAccountId) : eq(apiKeys.serviceAccountId, owner.serviceAccountId),
  );

const publicColumns = {
  id: apiKeys.id,
  prefix: apiKeys.prefix,
  description: apiKeys.description,
  scope: apiKeys.scope,
  expires_at: apiKeys.expiresAt,
  created_at: apiKeys.createdAt,
  last_used_at: apiKeys.lastUsedAt,
};

type KeyRow = {
  id: string;
  prefix: string;
  description: string | null;
  scope: ApiKeyScope;
  expires_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
};
const present = (row: KeyRow) => ({
  ...row,
  expires_at: isoOrNull(row.expires_at),
  created_at: iso(row.created_at),
  last_used_at: isoOrNull(row.last_used_at),
});

/** What a new key may do and how long it lives (CONTRACT §18). */
export interface KeySettings {
  description: string | null;
  /** Default `write`. */
  scope?: ApiKeyScope;
  /** Days from now, by the database's clock; null or absent: never expires. */
  expiresInDays?: number | null;
}

/** Keys that still work: revoking deletes the row, so only expiry is left to filter. */
const stillWorks = or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`));

export async function listApiKeys(ctx: ServiceContext, { owner }: { owner: KeyOwner }) {
  const rows = await ctx.db.select(publicColumns).from(apiKeys).where(ownerFilter(owner)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map(present);
}

/** 404 naming the owner a key was created for, when that owner is gone. */
const ownerGone = (owner: KeyOwner) =>
  notFound(owner.serviceAccountId === null ? `No user ${owner.userId} exists.` : `You have no service account ${owner.serviceAccountId}.`);

/**
 * Inserts a key for `owner` (a row-level helper: createApiKey audits it; a benchmark seeds with
 * it); the token is in the answer and nowhere else, ever.
 */
export async function insertApiKey(db: Database, owner: KeyOwner, { description, scope = "write", expiresInDays = null }: KeySettings) {
  const token = generateApiKey();
  const [inserted] = await db
    .insert(apiKeys)
    .values({
      id: `key_${randomBytes(9).toString("base64url")}`,
      userId: owner.userId,
      serviceAccountId: owner.serviceAccountId,
      tokenHash: hashApiKey(token),
      prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
      description,
      scope,
      expiresAt: expiresInDays === null ? null : sql`now() + make_interval(days => ${expiresInDays}::int)`,
    })
    .returning(publicColumns);
  return { ...present(inserted!), token };
}

/** The bound on an owner's keys: those that still work (CONTRACT §18). */
const keyBound = (owner: KeyOwner): OwnerBound => ({
  max: MAX_API_KEYS_PER_ACTOR,
  held: (db) => countRows(db, apiKeys, and(ownerFilter(owner), stillWorks)),
  refusal: () =>
    `This ${owner.serviceAccountId === null ? "user" : "service account"} already holds ${MAX_API_KEYS_PER_ACTOR} working API keys, the most it may; revoke one first.`,
});

/**
 * Creates a key for `owner`; the token is in the answer and nowhere else, ever (the audit
 * entry loses it to redact.ts). At most MAX_API_KEYS_PER_ACTOR working keys, counted and
 * inserted under the owning user's bounds lock (lib/services/bounds/owner-bounds.ts), then 409
 * `limit-reached`. An owner deleted since the caller looked it up fails the foreign key: 404,
 * as if it had been missing all along.
 */
export async function createApiKey(ctx: ServiceContext, { owner, ...settings }: { owner: KeyOwner } & KeySettings) {
  try {
    return await withTransaction(ctx, async (tx) => {
      await assertWithinBound(tx.db, owner.userId, keyBound(owner));
      const created = await insertApiKey(tx.db, owner, settings);
      await tx.audit.record({ action: "api_key.create", target: { type: "api_key", id: created.id }, before: null, after: created });
      return created;
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw ownerGone(owner);
    throw error;
  }
}

/** Revokes a key; it stops working in every process before this returns. */
export async function deleteApiKey(ctx: ServiceContext, { owner, keyId }: { owner: KeyOwner; keyId: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [deleted] = await tx.db
      .delete(apiKeys)
      .where(and(ownerFilter(owner), eq(apiKeys.id, keyId)))
      .returning(publicColumns);
    if (!deleted) throw notFound(`No API key ${keyId} exists here.`);
    await invalidateActors(tx.db);
    await tx.audit.record({ action: "api_key.revoke", target: { type: "api_key", id: keyId }, before: present(deleted), after: null });
  });
  await actorChangesSettled(ctx.db);
}

/** How far ahead admin webhooks learn that a key expires (CONTRACT §20 `key.expiring`). */
const EXPIRY_NOTICE_MS = 7 * 24 * 3_600_000;

/** Keys told of per transaction: a first run over many keys goes in bounded steps. */
const EXPIRY_NOTICES_PER_STEP = 200;

/**
 * Records `key.expiring` for every key that expires within 7 days after `now` and was not told of
 * yet, marking each in the transaction that records its event: once per key, whichever process
 * runs it. Answers how many it told of.
 */
export async function noticeExpiringKeys(db: Database, now: Date): Promise<number> {
  const soon = and(
    isNull(apiKeys.expiryNoticeAt),
    gt(apiKeys.expiresAt, now),
    lte(apiKeys.expiresAt, new Date(now.getTime() + EXPIRY_NOTICE_MS)),
  );
  let told = 0;
  for (;;) {
    const step = await db.transaction(async (tx) => {
      const due = tx
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(soon)
        .limit(EXPIRY_NOTICES_PER_STEP)
        .for("update", { skipLocked: true });
      const marked = await tx
        .update(apiKeys)
        .set({ expiryNoticeAt: now })
        .where(and(inArray(apiKeys.id, due), soon))
        .returning({ ...publicColumns, userId: apiKeys.userId, serviceAccountId: apiKeys.serviceAccountId });
      for (const { userId, serviceAccountId, ...key } of marked) {
        const data = { ...present(key), user_id: userId, service_account_id: serviceAccountId };
        await recordEvent(tx, { type: "key.expiring", data, audience: ADMINS });
      }
      return marked.length;
    });
    told += step;
    if (step < EXPIRY_NOTICES_PER_STEP) return told;
  }
}
