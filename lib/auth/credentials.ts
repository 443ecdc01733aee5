import type { Database } from "@/db/client";
import { BOOTSTRAP_ADMIN_ID } from "@/lib/contracts/identity/sign-in-messages";
import type { Config } from "@/lib/platform/config";
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

/** The sign-in page's error code of a password sign-in refused because PASSWORD_SIGN_IN=false. */
export const PASSWORD_SIGN_IN_OFF = "PasswordSignInOff";

/**
 * The user for a user name (the user id) and password; null when wrong, passwordless or
 * inactive. With PASSWORD_SIGN_IN=false only the bootstrap admin may: anyone else is refused
 * before their password is read, the same for every user name, so it reveals nothing.
 */
export async function verifyCredentials(
  db: Database,
  config: Pick<Config, "passwordSignIn">,
  username: unknown,
  password: unknown,
): Promise<SignedInUser | null | typeof PASSWORD_SIGN_IN_OFF> {
  if (typeof username !== "string" || typeof password !== "string" || username === "" || password === "") return null;
  const id = username.trim().toLowerCase();
  if (!config.passwordSignIn && id !== BOOTSTRAP_ADMIN_ID) return PASSWORD_SIGN_IN_OFF;
  const user = await findUser(db, id);
  if (!user?.passwordHash) {
    decoyHash ??= hashPassword("decoy password for timing");
    await verifyPassword(await decoyHash, password);
    return null;
  }
  const valid = await verifyPassword(user.passwordHash, password);
  if (!valid || !user.isActive) return null;
  return { id: user.id, name: user.displayName, email: user.email };
}
