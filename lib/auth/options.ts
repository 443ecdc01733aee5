import "server-only";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { consoleSessions, users } from "@/db/schema";
import { iso } from "@/lib/contracts/fields";
import { logError, logger } from "@/lib/platform/log";
import { getApp } from "@/lib/server/app";
import { recordSessionEntry } from "@/lib/services/audit/record";
import type { AppContext } from "@/lib/services/context";
import { actorChangesSettled } from "@/lib/services/identity/actor-cache";
import { createSession, endSession } from "@/lib/services/identity/session-store";
import { signInWithSso } from "@/lib/services/identity/sso";
import { recordSignInAddress } from "@/lib/services/ratelimit/known-addresses";
import { browserLabel } from "@/lib/shared/browser-label";
import { redirectWithinSite } from "./callback-url";
import { PASSWORD_SIGN_IN_OFF, verifyCredentials } from "./credentials";
import { OIDC_PROVIDER_ID, oidcProvider, type SsoFailure, ssoFailureOf, ssoIdentityFromClaims } from "./oidc";
import { nextAuthSecret } from "./secret";
import { SESSION_MAX_AGE_SECONDS } from "./session";

export const CREDENTIALS_PROVIDER_ID = "credentials";
const SIGN_IN_PATH = "/signin";

/** Where a refused single sign-on sends the person: the sign-in page, saying why. */
const signInPageWithError = (code: string) => `${SIGN_IN_PATH}?${new URLSearchParams({ error: code })}`;

// next-auth v4 builds its callback and redirect URLs from NEXTAUTH_URL, or from the
// request's Host when AUTH_TRUST_HOST is set. A self-hosted console is reached under
// whatever name its users type, so trust the Host unless the operator pinned NEXTAUTH_URL.
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

/**
 * next-auth's configuration for one request: JWT sessions in http-only SameSite=Lax
 * cookies (`Secure` and `__Secure-` over https), user name and password for local users,
 * and the optional OIDC provider. Sign-ins and sign-outs are audit entries (CONTRACT §17)
 * with the request's id, naming the session by its public id (never the token's `sid`).
 * `userAgent` is the request's header, of which a new session keeps only a short label. A
 * sign-in also records the client address it came from (when given), which exempts that user
 * id from the address's sign-in limit (CONTRACT §18). `onSsoFailure` hears why a single sign-on
 * failed at the provider's end, which next-auth itself reports only as OAuthSignin or OAuthCallback.
 */
export function authOptions(
  app: Pick<AppContext, "db" | "secretKey" | "config">,
  {
    https,
    requestId = randomUUID(),
    clientAddress,
    userAgent = null,
    onSsoFailure,
  }: {
    https: boolean;
    requestId?: string;
    clientAddress?: string;
    userAgent?: string | null;
    onSsoFailure?: (failure: SsoFailure) => void;
  },
): AuthOptions {
  const sso = app.config.sso;
  return {
    secret: nextAuthSecret(app.secretKey),
    useSecureCookies: https,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    // next-auth prints its own multi-line text to the console; here each is one JSON line of
    // the process's log (a warning: what it reports is a client's request it refused or a
    // provider that failed, and the request's answer says which).
    logger: {
      error: (code, metadata) => {
        const error = describeAuthError(metadata);
        logger.warn({ request_id: requestId, code, error }, "next-auth error");
        const failure = ssoFailureOf(code, error);
        if (failure) onSsoFailure?.(failure);
      },
      warn: (code) => logger.warn({ request_id: requestId, code }, "next-auth warning"),
      debug: () => {},
    },
    providers: [
      CredentialsProvider({
        id: CREDENTIALS_PROVIDER_ID,
        name: "User name and password",
        credentials: {
          username: { label: "User name", type: "text" },
          password: { label: "Password", type: "password" },
        },
        // A thrown error's message is the sign-in page's error code (next-auth's rule for authorize).
        authorize: async (credentials) => {
          const user = await verifyCredentials(app.db, app.config, credentials?.username, credentials?.password);
          if (user === PASSWORD_SIGN_IN_OFF) throw new Error(PASSWORD_SIGN_IN_OFF);
          return user;
        },
      }),
      ...(sso ? [oidcProvider(sso)] : []),
    ],
    callbacks: {
      redirect: redirectWithinSite,
      // A single sign-on's account becomes a user here (lib/services/identity/sso.ts); a refusal
      // goes back to the sign-in page with its reason. Credentials were checked in authorize.
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID || !sso) return true;
        try {
          const identity = ssoIdentityFromClaims({ ...profile }, sso);
          const outcome = await signInWithSso(app.db, identity, sso, requestId);
          if (!outcome.ok) return signInPageWithError(outcome.refusal);
          // next-auth hands this same object to the jwt callback as `user`: the session is our user's, not the account's.
          Object.assign(user, outcome.user);
          return true;
        } catch (error) {
          logError("single sign-on failed", error, { request_id: requestId });
          return signInPageWithError("SignInUnavailable");
        }
      },
      // A fresh sign-in (credentials or OIDC) starts a console_sessions row; the token names
      // it as `sid`, and only while that row lives is the token honoured (CONTRACT §11).
      // Keep the token small: who (sub), their display name and the session; the role is
      // re-read per request.
      async jwt({ token, user }) {
        if (user) {
          const session = await app.db.transaction(async (transaction) => {
            const started = await createSession(transaction, user.id, browserLabel(userAgent));
            await transaction.update(users).set({ lastSignInAt: sql`now()` }).where(eq(users.id, user.id));
            const snapshot = { id: started.publicId, user_id: user.id, expires_at: iso(started.expiresAt) };
            await recordSessionEntry(transaction, { kind: "sign-in", userId: user.id, requestId, session: snapshot });
            if (clientAddress !== undefined) await recordSignInAddress(transaction, user.id, clientAddress);
            return started;
          });
          return { sub: user.id, name: user.name ?? user.id, sid: session.id };
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { id: token.sub, name: token.name } };
      },
    },
    events: {
      // next-auth only clears the cookie; deleting the row also ends a copy of the token.
      // The entry names the session ended; a session already gone (ended elsewhere) ends nothing.
      async signOut({ token }) {
        const sid = token?.sid;
        if (typeof sid !== "string") return;
        await app.db.transaction(async (transaction) => {
          const [row] = await transaction.select().from(consoleSessions).where(eq(consoleSessions.id, sid)).limit(1);
          await endSession(transaction, sid);
          if (!row) return;
          const snapshot = { id: row.publicId, user_id: row.userId, expires_at: iso(row.expiresAt) };
          await recordSessionEntry(transaction, { kind: "sign-out", userId: row.userId, requestId, session: snapshot });
        });
        await actorChangesSettled(app.db);
      },
    },
  };
}

/** What the sign-in page offers: the single-sign-on button (its provider id and label) and whether everyone may use a password. */
export async function signInOptions(): Promise<{ oidc: { id: string; name: string } | null; passwordSignIn: boolean }> {
  const { sso, passwordSignIn } = (await getApp()).config;
  return { oidc: sso ? { id: OIDC_PROVIDER_ID, name: sso.name } : null, passwordSignIn };
}

/** What next-auth's logger is given with an error: an Error, or `{ error, ...context }`; its name and message, no stack. */
function describeAuthError(metadata: unknown): { name: string; message: string } | undefined {
  const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
  return error instanceof Error ? { name: error.name, message: error.message } : undefined;
}
