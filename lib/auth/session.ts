import { decode } from "next-auth/jwt";
import { principalForUser, type Principal } from "@/lib/identity/principal";
import type { AppContext } from "@/lib/server/app";
import { nextAuthSecret } from "./secret";

/** How long a console sign-in lasts: a working day, not next-auth's default month. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** The user id in a session token, or null when the token is forged, damaged or expired. */
export async function sessionUserId(app: Pick<AppContext, "secretKey">, token: string): Promise<string | null> {
  try {
    const jwt = await decode({ token, secret: nextAuthSecret(app.secretKey) });
    return typeof jwt?.sub === "string" && jwt.sub !== "" ? jwt.sub : null;
  } catch {
    return null;
  }
}

/**
 * The principal behind a session token, re-read from the database on every use so that
 * deactivating or deleting a user ends their sessions at once. Null when not valid.
 */
export async function principalForSession(app: Pick<AppContext, "db" | "secretKey">, token: string): Promise<Principal | null> {
  const userId = await sessionUserId(app, token);
  return userId ? principalForUser(app.db, userId) : null;
}

