import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { endUserSessions } from "@/lib/auth/session-store";
import { conflict, invalidField } from "@/lib/http/errors";
import { hashPassword, verifyPassword } from "./passwords";
import type { Principal } from "./principal";
import type { ChangePasswordRequest } from "./schemas";

/**
 * Changes a user's own password and ends their other console sessions (CONTRACT §11): a
 * session cookie that asked keeps its own session, an API key caller ends all of them.
 *
 * Argon2 takes tens of milliseconds, so verifying and hashing run before the transaction
 * (which then holds a connection only for two statements). The write is conditional on the
 * hash that was verified and on the user being active, so a concurrent change of the
 * password (or deactivation) is never silently overwritten: it answers 409 instead.
 */
export async function changeOwnPassword(
  db: Database,
  principal: Principal,
  input: z.output<typeof ChangePasswordRequest>,
): Promise<void> {
  const [current] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, principal.userId))
    .limit(1);
  const verifiedHash = current?.passwordHash ?? null;
  // A user without a password has no current password to give: the same answer as a wrong one.
  if (verifiedHash === null || !(await verifyPassword(verifiedHash, input.current_password))) {
    throw invalidField("current_password", "is not your current password", "wrong-password");
  }
  const newHash = await hashPassword(input.new_password);

  const changed = await db.transaction(async (tx) => {
    const updated = await tx
      .update(users)
      .set({ passwordHash: newHash, updatedAt: new Date() })
      .where(and(eq(users.id, principal.userId), eq(users.passwordHash, verifiedHash), eq(users.isActive, true)))
      .returning({ id: users.id });
    if (updated.length === 0) return false;
    await endUserSessions(tx, principal.userId, { except: principal.sessionId ?? null });
    return true;
  });
  if (!changed) throw conflict("The password or the account was changed meanwhile; try again.");
}
