import { randomBytes } from "node:crypto";
import { and, eq, gt, lte, ne, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { consoleSessions, users } from "@/db/schema";
import type { Principal } from "@/lib/identity/principal";

/** How long a console sign-in lasts: a working day, not next-auth's default month. Absolute, never extended. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/**
 * Starts a console session for a user who just signed in: a row whose random id (256 bits)
 * the session token carries as `sid`. The row, not the token, decides whether the session
 * lives, so deleting it ends the session on the next request. The user's expired rows go
 * at the same time, so the table does not grow with every sign-in.
 */
export async function createSession(db: Database, userId: string): Promise<{ id: string; expiresAt: Date }> {
  const id = randomBytes(32).toString("base64url");
  // The database's clock, the one validation compares against, for every process alike.
  const [row] = await db
    .insert(consoleSessions)
    .values({ id, userId, expiresAt: sql`now() + make_interval(secs => ${SESSION_MAX_AGE_SECONDS})` })
    .returning({ id: consoleSessions.id, expiresAt: consoleSessions.expiresAt });
  await db.delete(consoleSessions).where(and(eq(consoleSessions.userId, userId), lte(consoleSessions.expiresAt, sql`now()`)));
  return row!;
}

/** Ends one console session (sign-out). Ending one that is already gone is no error. */
export async function endSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(consoleSessions).where(eq(consoleSessions.id, sessionId));
}

/**
 * Ends the console sessions of a user (deactivation, password change, sign-out everywhere),
 * except `except`, the session that asked for the change. Takes effect on the next request.
 */
export async function endUserSessions(db: Database, userId: string, options: { except?: string | null } = {}): Promise<void> {
  const whose = eq(consoleSessions.userId, userId);
  await db.delete(consoleSessions).where(options.except ? and(whose, ne(consoleSessions.id, options.except)) : whose);
}

/**
 * The principal of a live session, in one statement: the row exists, belongs to `userId`
 * (the token's subject), has not expired, and its user is active. Rows are deleted with
 * their user, so a session can never serve a later user created with the same id.
 */
export async function principalForLiveSession(db: Database, sessionId: string, userId: string): Promise<Principal | null> {
  const [row] = await db
    .select({ id: users.id, role: users.role, displayName: users.displayName })
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
  return { type: "user", id: row.id, userId: row.id, role: row.role, displayName: row.displayName, sessionId };
}
