import "server-only";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { conflict, invalidField, tooManyRequests } from "@/lib/contracts/errors";
import type { ChangePasswordRequest } from "@/lib/contracts/identity/schemas";
import { recordAudit } from "@/lib/services/audit/record";
import { endUserSessions } from "@/lib/services/identity/session-store";
import { tooManySignInsMessage } from "@/lib/services/ratelimit/messages";
import { admitSignInAttempt, settleSignInAttempt } from "@/lib/services/ratelimit/sign-in";
import { hashPassword, verifyPassword } from "./passwords";
import type { Principal } from "./principal";
import { principalChangesSettled } from "./principal-cache";

/**
 * Changes a user's own password and ends their other console sessions (CONTRACT §11): a
 * session cookie that asked keeps its own session, an API key caller ends all of them.
 *
 * Argon2 takes tens of milliseconds, so verifying and hashing run before the transaction
 * (which then holds a connection only for two statements). The write is conditional on the
 * hash that was verified and on the user being active, so a concurrent change of the
 * password (or deactivation) is never silently overwritten: it answers 409 instead.
 * Wrong current passwords count as failed sign-ins of that user id and address, so a
 * stolen session cannot be used to guess the password faster than the sign-in page allows.
 */
export async function changeOwnPassword(
  db: Database,
  principal: Principal,
  input: z.output<typeof ChangePasswordRequest>,
  clientAddress: string,
): Promise<void> {
  const admission = await admitSignInAttempt(db, principal.userId, clientAddress);
  if (!admission.admitted) {
    throw tooManyRequests(tooManySignInsMessage(admission.retryAfterSeconds), admission.retryAfterSeconds);
  }
  const [current] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, principal.userId)).limit(1);
  const verifiedHash = current?.passwordHash ?? null;
  // A user without a password has no current password to give: the same answer as a wrong one.
  const verified = verifiedHash !== null && (await verifyPassword(verifiedHash, input.current_password));
  await settleSignInAttempt(db, admission.attempt, !verified);
  if (!verified) {
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
    await recordAudit(tx);
    return true;
  });
  if (!changed) throw conflict("The password or the account was changed meanwhile; try again.");
  // endUserSessions invalidated cached sessions; the other sessions end everywhere before we answer.
  await principalChangesSettled(db);
}
