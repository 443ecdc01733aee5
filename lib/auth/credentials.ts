import type { Database } from "@/db/client";
import { hashPassword, verifyPassword } from "@/lib/services/identity/passwords";
import { findUser } from "@/lib/services/identity/users";

/** What next-auth keeps of a signed-in user; `id` becomes the session's `sub`. */
export interface SignedInUser {
  id: string;
  name: string;
  email: string | null;
}

// A hash to verify against when the user does not exist, so that a wrong user name takes
// as long as a wrong password and sign-in answers do not reveal which users exist.
let decoyHash: Promise<string> | undefined;

/** The user for a user name (the user id) and password; null when wrong, passwordless or inactive. */
export async function verifyCredentials(db: Database, username: unknown, password: unknown): Promise<SignedInUser | null> {
  if (typeof username !== "string" || typeof password !== "string" || username === "" || password === "") return null;
  const user = await findUser(db, username.trim().toLowerCase());
  if (!user?.passwordHash) {
    decoyHash ??= hashPassword("decoy password for timing");
    await verifyPassword(await decoyHash, password);
    return null;
  }
  const valid = await verifyPassword(user.passwordHash, password);
  if (!valid || !user.isActive) return null;
  return { id: user.id, name: user.displayName, email: user.email };
}
