import "server-only";
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { consoleSessions, users } from "@/db/schema";
import { notFound, unauthorized } from "@/lib/contracts/errors";
import { iso } from "@/lib/contracts/fields";
import type { SessionSnapshot } from "@/lib/services/audit/record";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { actorChangesSettled, invalidateActors } from "./actor-cache";

// The caller's own console sessions (CONTRACT §11, §18). A session is named by its public id
// everywhere here; its `id` (the token's `sid`) never leaves this module.

type SessionRow = typeof consoleSessions.$inferSelect;

/** A session as its audit entries show it, the same shape as sign-in and sign-out entries. */
const snapshot = (row: SessionRow): SessionSnapshot => ({ id: row.publicId, user_id: row.userId, expires_at: iso(row.expiresAt) });

const live = (userId: string) => and(eq(consoleSessions.userId, userId), gt(consoleSessions.expiresAt, sql`now()`));

/** The caller's live sessions, the most recently started first; `current` marks the one asking. */
export async function listSessions(ctx: ServiceContext) {
  const { actor } = ctx;
  const rows = await ctx.db
    .select()
    .from(consoleSessions)
    .where(live(actor.userId))
    .orderBy(desc(consoleSessions.createdAt), desc(consoleSessions.publicId));
  return {
    sessions: rows.map((row) => ({
      id: row.publicId,
      created_at: iso(row.createdAt),
      last_seen_at: iso(row.lastSeenAt),
      browser: row.browser,
      current: actor.sessionId !== undefined && row.id === actor.sessionId,
    })),
  };
}

/**
 * Ends one of the caller's sessions, in one conditional statement: another user's session, or
 * one already ended, is 404 alike. It is refused in every process before this returns.
 */
export async function endSession(ctx: ServiceContext, { sessionId }: { sessionId: string }): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const [ended] = await tx.db
      .delete(consoleSessions)
      .where(and(eq(consoleSessions.userId, ctx.actor.userId), eq(consoleSessions.publicId, sessionId)))
      .returning();
    if (!ended) throw notFound(`You have no session ${sessionId}.`);
    await invalidateActors(tx.db);
    await tx.audit.record({
      action: "session.revoke",
      target: { type: "session", id: ended.publicId },
      before: snapshot(ended),
      after: null,
    });
  });
  await actorChangesSettled(ctx.db);
}

/**
 * Ends every session of the caller but the one asking (all of them for an API key). The
 * user's row is locked first, so two sessions asking at once take turns (as a password
 * change does): the second finds its own session ended by the first and is refused, instead
 * of both ending each other and leaving the user signed out everywhere.
 */
export async function endOtherSessions(ctx: ServiceContext): Promise<{ ended: number }> {
  const { actor } = ctx;
  const current = actor.sessionId;
  const ended = await withTransaction(ctx, async (tx) => {
    await tx.db.select({ id: users.id }).from(users).where(eq(users.id, actor.userId)).for("update");
    if (current !== undefined) {
      const [own] = await tx.db.select({ id: consoleSessions.id }).from(consoleSessions).where(eq(consoleSessions.id, current)).limit(1);
      if (!own) throw unauthorized("This session has ended.");
    }
    // Live ones only: an expired row is no session to end (the next sign-in clears it).
    const whose = live(actor.userId);
    const rows = await tx.db
      .delete(consoleSessions)
      .where(current === undefined ? whose : and(whose, ne(consoleSessions.id, current)))
      .returning();
    if (rows.length === 0) return 0;
    await invalidateActors(tx.db);
    for (const row of rows) {
      await tx.audit.record({
        action: "session.revoke",
        target: { type: "session", id: row.publicId },
        before: snapshot(row),
        after: null,
      });
    }
    return rows.length;
  });
  if (ended > 0) await actorChangesSettled(ctx.db);
  return { ended };
}
