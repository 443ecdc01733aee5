import "server-only";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { SsoConfig } from "@/lib/platform/config";
import type { SsoIdentity } from "@/lib/services/identity/sso";

export const OIDC_PROVIDER_ID = "oidc";

/** The claims of the ID token and userinfo together, as the provider names them. */
type OidcClaims = Record<string, unknown> & { sub: string; iss?: string };

/** How long discovery, the token exchange and userinfo may take each before the provider counts as unreachable. */
const PROVIDER_TIMEOUT_MS = 5000;

/**
 * next-auth's OAuth provider in OIDC mode: discovery, the authorization code flow with PKCE,
 * `state` and `nonce`, and the ID token checked by openid-client (signature with the provider's
 * keys, issuer, audience, expiry, nonce). Many providers put only `sub` in the ID token and
 * serve email, name and groups from userinfo, so the claims are both, the ID token's winning
 * (openid-client refuses userinfo for another `sub`). The session's user is found later, in
 * the signIn callback (lib/auth/options.ts); here the profile is just the account.
 */
export function oidcProvider(config: SsoConfig): OAuthConfig<OidcClaims> {
  return {
    id: OIDC_PROVIDER_ID,
    name: config.name,
    type: "oauth",
    wellKnown: `${config.issuer}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: config.scopes } },
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    httpOptions: { timeout: PROVIDER_TIMEOUT_MS },
    userinfo: {
      // `tokens` is openid-client's TokenSet (next-auth's type says less): its claims are the checked ID token's,
      // and given it, userinfo checks its `sub` against the ID token's.
      async request({ tokens, client }) {
        const tokenSet = tokens as Parameters<typeof client.userinfo>[0] & { claims(): Record<string, unknown> };
        const fromIdToken = tokenSet.claims();
        if (!tokens.access_token || !client.issuer.metadata.userinfo_endpoint) return fromIdToken;
        const fromUserinfo = await client.userinfo(tokenSet);
        return { ...fromUserinfo, ...fromIdToken };
      },
    },
    profile: (claims) => ({ id: claims.sub, name: text(claims.name), email: text(claims.email) }),
  };
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/** The account in the claims, its groups read from the configured claim (a list of names, or one name). */
export function ssoIdentityFromClaims(claims: Record<string, unknown>, config: Pick<SsoConfig, "issuer" | "groupsClaim">): SsoIdentity {
  const groups = claims[config.groupsClaim];
  return {
    issuer: text(claims.iss) ?? config.issuer,
    subject: String(claims.sub),
    email: text(claims.email),
    emailVerified: claims.email_verified !== false && claims.email_verified !== "false",
    name: text(claims.name),
    preferredUsername: text(claims.preferred_username),
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === "string") : typeof groups === "string" ? [groups] : null,
  };
}

/** Why a sign-in with the provider failed before any user was looked for; each is a message on the sign-in page. */
export type SsoFailure = "SsoUnreachable" | "SsoState" | "SsoCodeRefused" | "SsoIdToken" | "SsoDenied";

const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * What next-auth's logger reports of a failed OIDC sign-in, in the sign-in page's terms, or null
 * when it is no such failure. next-auth answers all of them with one code (OAuthSignin or
 * OAuthCallback); its logger still has openid-client's error, whose message says which check
 * failed (openid-client v5's wording, pinned by tests/sso.test.ts).
 */
export function ssoFailureOf(logCode: string, error: { message: string; code?: unknown } | undefined): SsoFailure | null {
  // The provider sent the person back with ?error= (they cancelled, or it refused them).
  if (logCode === "OAUTH_CALLBACK_HANDLER_ERROR") return "SsoDenied";
  if (logCode !== "OAUTH_CALLBACK_ERROR" && logCode !== "SIGNIN_OAUTH_ERROR") return null;
  if (!error) return null;
  const message = error.message;
  if (
    (typeof error.code === "string" && UNREACHABLE_CODES.has(error.code)) ||
    /timed out|ECONNREFUSED|ECONNRESET|ENOTFOUND|socket hang up|expected 200 OK|fetch failed/i.test(message)
  ) {
    return "SsoUnreachable";
  }
  if (/^invalid_grant\b/.test(message)) return "SsoCodeRefused";
  if (/\b(state|code_verifier|PKCE|nonce cookie|Nonce value)\b/i.test(message) && !/nonce mismatch/.test(message)) return "SsoState";
  if (/\b(aud|azp|iss|exp|iat|nbf|nonce|JWT|signature|id_token|userinfo sub)\b/i.test(message)) return "SsoIdToken";
  return logCode === "SIGNIN_OAUTH_ERROR" ? "SsoUnreachable" : null;
}
