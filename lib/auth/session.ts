import "server-only";
import { decode } from "next-auth/jwt";
import type { AppContext, AuthenticatedActor } from "@/lib/services/context";
import { actorForLiveSession, SESSION_MAX_AGE_SECONDS } from "@/lib/services/identity/session-store";
import { nextAuthSecret } from "./secret";

export { SESSION_MAX_AGE_SECONDS };

/** Whose session a token names: its subject and its console_sessions row. */
export interface SessionClaims {
  userId: string;
  sessionId: string;
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * The user id and session id in a session token, or null when the token is forged, damaged,
 * expired, or of the old format without a session id (such a token cannot be ended, so it
 * is not honoured).
 */
export async function sessionClaims(app: Pick<AppContext, "secretKey">, token: string): Promise<SessionClaims | null> {
  try {
    const jwt = await decode({ token, secret: nextAuthSecret(app.secretKey) });
    return nonEmpty(jwt?.sub) && nonEmpty(jwt?.sid) ? { userId: jwt.sub, sessionId: jwt.sid } : null;
  } catch {
    return null;
  }
}

/**
 * The actor behind a session token, re-read from the database on every use so that
 * sign-out, a password change, deactivating or deleting a user end their sessions at once.
 * Null when not valid.
 */
export async function actorForSession(app: Pick<AppContext, "db" | "secretKey">, token: string): Promise<AuthenticatedActor | null> {
  const claims = await sessionClaims(app, token);
  return claims ? actorForLiveSession(app.db, claims.sessionId, claims.userId) : null;
}
