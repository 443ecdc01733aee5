import "server-only";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { users } from "@/db/schema";
import { conflict, invalidField, tooManyRequests } from "@/lib/contracts/errors";
import type { ChangePasswordRequest } from "@/lib/contracts/identity/schemas";
import { tooManySignInsMessage } from "@/lib/contracts/identity/sign-in-messages";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { endUserSessions } from "@/lib/services/identity/session-store";
import { admitSignInAttempt, settleSignInAttempt } from "@/lib/services/ratelimit/sign-in";
import { actorChangesSettled } from "./actor-cache";
import { hashPassword, verifyPassword } from "./passwords";
import { presentUser, selectLinkedUsers } from "./users";

/**
 * Changes a user's own password and ends their other console sessions (CONTRACT §11): a
 * session cookie that asked keeps its own session, an API key caller ends all of them.
 *
 * Argon2 takes tens of milliseconds, so verifying and hashing run before the transaction
 * (which then holds a connection only for a few statements). The write is conditional on the
 * hash that was verified and on the user being active, so a concurrent change of the
 * password (or deactivation) is never silently overwritten: it answers 409 instead.
 * Wrong current passwords count as failed sign-ins of that user id and address, so a
 * stolen session cannot be used to guess the password faster than the sign-in page allows.
 */
export async function changeOwnPassword(
  ctx: ServiceContext,
  { body, clientAddress }: { body: z.output<typeof ChangePasswordRequest>; clientAddress: string },
): Promise<void> {
  const { db, actor } = ctx;
  const admission = await admitSignInAttempt(db, actor.userId, clientAddress);
  if (!admission.admitted) {
    throw tooManyRequests(tooManySignInsMessage(admission.retryAfterSeconds), admission.retryAfterSeconds);
  }
  const [current] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.userId)).limit(1);
  const verifiedHash = current?.passwordHash ?? null;
  // A user without a password has no current password to give: the same answer as a wrong one.
  const verified = verifiedHash !== null && (await verifyPassword(verifiedHash, body.current_password));
  await settleSignInAttempt(db, admission.attempt, !verified);
  if (!verified) {
    throw invalidField("current_password", "is not your current password", "wrong-password");
  }
  const newHash = await hashPassword(body.new_password);

  const changed = await withTransaction(ctx, async (tx) => {
    const unchanged = and(eq(users.id, actor.userId), eq(users.passwordHash, verifiedHash), eq(users.isActive, true));
    // Locked, so the entry's `before` is the row this write replaces.
    const [before] = await selectLinkedUsers(tx.db).where(unchanged).for("update", { of: users });
    if (!before) return false;
    const [after] = await tx.db
      .update(users)
      .set({ passwordHash: newHash, updatedAt: new Date() })
      .where(eq(users.id, actor.userId))
      .returning();
    await endUserSessions(tx.db, actor.userId, { except: actor.sessionId ?? null });
    await tx.audit.record({
      action: "user.password.change",
      target: { type: "user", id: actor.userId },
      before: presentUser(before),
      after: presentUser({ user: after!, identity: before.identity }),
    });
    return true;
  });
  if (!changed) throw conflict("The password or the account was changed meanwhile; try again.");
  // endUserSessions invalidated cached sessions; the other sessions end everywhere before we answer.
  await actorChangesSettled(db);
}
