import { and, eq, ne } from "drizzle-orm";
import type { Database } from "@/db/client";
import { consoleSessions } from "@/db/schema";

/**
 * Ends the console sessions of a user (deactivation, password change, sign-out everywhere),
 * except `except`, the session that asked for the change. Takes effect on the next request.
 */
export async function endUserSessions(db: Database, userId: string, options: { except?: string | null } = {}): Promise<void> {
  const whose = eq(consoleSessions.userId, userId);
  await db.delete(consoleSessions).where(options.except ? and(whose, ne(consoleSessions.id, options.except)) : whose);
}
