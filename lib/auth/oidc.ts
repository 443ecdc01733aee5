import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import type { SignedInUser } from "./credentials";

/** The optional single-sign-on provider, configured entirely by environment variables. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button label: "Sign in with {name}". */
  name: string;
}

/** OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET all set enable it; OIDC_NAME labels it. */
export function oidcConfigFromEnv(env: Record<string, string | undefined> = process.env): OidcConfig | null {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret, name: env.OIDC_NAME?.trim() || "single sign-on" };
}

export const OIDC_PROVIDER_ID = "oidc";

interface OidcProfile {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

/**
 * The one active user whose email equals the identity provider's (case-insensitively), or
 * null: no such user, several (ambiguous), or an address the provider says is unverified.
 * The console never creates users from single sign-on; an admin creates them with an email.
 */
export async function userForOidcProfile(db: Database, profile: OidcProfile): Promise<SignedInUser | null> {
  const email = profile.email?.trim().toLowerCase();
  if (!email || profile.email_verified === false) return null;
  const matches = await db
    .select({ id: users.id, name: users.displayName, email: users.email })
    .from(users)
    .where(and(eq(users.isActive, true), eq(sql`lower(${users.email})`, email)))
    .limit(2);
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * next-auth's OAuth provider in OIDC mode (discovery, PKCE, state, ID token). `profile`
 * maps the IdP's subject to our user, so the session's `sub` is our user id; an empty id
 * means "no matching user", which the signIn callback refuses.
 */
export function oidcProvider(config: OidcConfig, db: Database): OAuthConfig<OidcProfile> {
  return {
    id: OIDC_PROVIDER_ID,
    name: config.name,
    type: "oauth",
    wellKnown: `${config.issuer}/.well-known/openid-configuration`,
    issuer: config.issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    async profile(profile) {
      const user = await userForOidcProfile(db, profile);
      return user ?? { id: "", name: profile.name ?? profile.preferred_username ?? null, email: profile.email ?? null };
    },
  };
}
