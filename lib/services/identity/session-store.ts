import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, gt, lte, ne, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { consoleSessions, users } from "@/db/schema";
import type { AuthenticatedActor } from "@/lib/services/context";
import { actorCacheFor, actorChangesSettled, invalidateActors } from "@/lib/services/identity/actor-cache";
import { type KnownStamp, staleStamp, stampDue } from "./usage-stamps";

/** How long a console sign-in lasts: a working day, not next-auth's default month. Absolute, never extended. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** A session just started: `id` is the token's secret `sid`, `publicId` its name in answers and the audit log. */
export interface StartedSession {
  id: string;
  publicId: string;
  expiresAt: Date;
}

/**
 * Starts a console session for a user who just signed in: a row whose random id (256 bits)
 * the session token carries as `sid`. The row, not the token, decides whether the session
 * lives, so deleting it ends the session on the next request. The user's expired rows go
 * at the same time, so the table does not grow with every sign-in. `browser` is the short
 * label of the signing-in browser (lib/shared/browser-label.ts), or null.
 */
export async function createSession(db: Database, userId: string, browser: string | null = null): Promise<StartedSession> {
  const id = randomBytes(32).toString("base64url");
  // The database's clock, the one validation compares against, for every process alike.
  const [row] = await db
    .insert(consoleSessions)
    .values({ id, userId, browser, expiresAt: sql`now() + make_interval(secs => ${SESSION_MAX_AGE_SECONDS})` })
    .returning({ id: consoleSessions.id, publicId: consoleSessions.publicId, expiresAt: consoleSessions.expiresAt });
  await db.delete(consoleSessions).where(and(eq(consoleSessions.userId, userId), lte(consoleSessions.expiresAt, sql`now()`)));
  return row!;
}

/** Ends one console session (sign-out), in every process before it returns. Ending one that is already gone is no error. */
export async function endSession(db: Database, sessionId: string): Promise<void> {
  await db.transaction(async (transaction) => {
    await transaction.delete(consoleSessions).where(eq(consoleSessions.id, sessionId));
    await invalidateActors(transaction);
  });
  await actorChangesSettled(db);
}

/**
 * Ends the console sessions of a user (deactivation, password change, sign-out everywhere),
 * except `except`, the session that asked for the change. Run it inside the caller's
 * transaction and call actorChangesSettled after the commit: then it takes effect on
 * the next request in every process.
 */
export async function endUserSessions(db: Database, userId: string, options: { except?: string | null } = {}): Promise<void> {
  const whose = eq(consoleSessions.userId, userId);
  await db.delete(consoleSessions).where(options.except ? and(whose, ne(consoleSessions.id, options.except)) : whose);
  await invalidateActors(db);
}

/** A live session as the actor cache keeps it. */
interface SessionLookup {
  actor: AuthenticatedActor;
  userId: string;
  /** The row's expiry (ms since the epoch): a cached session still ends on time. */
  expiresAt: number;
  /** When this process last knew `last_seen_at` to be set; moves forward as the session is used. */
  lastSeen: KnownStamp;
}

/** Moves a session's `last_seen_at` to now, at most once a minute (./usage-stamps.ts); a session ended meanwhile updates nothing. */
async function recordSessionSeen(db: Database, sessionId: string, lookup: SessionLookup): Promise<void> {
  if (!stampDue(lookup.lastSeen)) return;
  await db
    .update(consoleSessions)
    .set({ lastSeenAt: sql`now()` })
    .where(and(eq(consoleSessions.id, sessionId), staleStamp(consoleSessions.lastSeenAt)));
}

/**
 * The actor of a live session, in one statement: the row exists, belongs to `userId`
 * (the token's subject), has not expired, and its user is active. Rows are deleted with
 * their user, so a session can never serve a later user created with the same id. Served
 * from the process's actor cache while the session is cached and unexpired.
 */
export async function actorForLiveSession(db: Database, sessionId: string, userId: string): Promise<AuthenticatedActor | null> {
  const cache = actorCacheFor(db);
  const cacheKey = `session:${sessionId}`;
  const cached = cache?.get<SessionLookup>(cacheKey);
  if (cached && cached.userId === userId && cached.expiresAt > Date.now()) {
    await recordSessionSeen(db, sessionId, cached);
    return cached.actor;
  }
  const readAt = cache?.beginRead() ?? 0;
  const [row] = await db
    .select({
      id: users.id,
      role: users.role,
      displayName: users.displayName,
      expiresAt: consoleSessions.expiresAt,
      lastSeenAt: consoleSessions.lastSeenAt,
    })
    .from(consoleSessions)
    .innerJoin(users, eq(users.id, consoleSessions.userId))
    .where(
      and(
        eq(consoleSessions.id, sessionId),
        eq(consoleSessions.userId, userId),
        gt(consoleSessions.expiresAt, sql`now()`),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  if (!row) return null;
  const actor: AuthenticatedActor = Object.freeze({
    type: "user",
    id: row.id,
    userId: row.id,
    role: row.role,
    displayName: row.displayName,
    sessionId,
  });
  const lookup: SessionLookup = {
    actor,
    userId,
    expiresAt: row.expiresAt.getTime(),
    lastSeen: { stampedAt: row.lastSeenAt.getTime() },
  };
  await recordSessionSeen(db, sessionId, lookup);
  cache?.store(cacheKey, lookup, readAt);
  return actor;
}
