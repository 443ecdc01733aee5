// Where the console session lives. No Node or database imports: proxy.ts uses this too.

/** next-auth's session cookie; over https it carries the `__Secure-` prefix (set only on https). */
export const SESSION_COOKIE = "next-auth.session-token";
export const SECURE_SESSION_COOKIE = "__Secure-next-auth.session-token";

/** Looks a cookie up by name: a parsed Cookie header, or Next's cookie store. */
export type CookieLookup = (name: string) => string | undefined;

/**
 * Whether the browser reached us over https: the first `X-Forwarded-Proto` (Next's server
 * sets it, and TLS-terminating proxies do) or else the request URL's scheme.
 */
export function isHttpsRequest(headers: Headers, url?: string): boolean {
  const forwarded = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwarded) return forwarded === "https";
  return url ? new URL(url).protocol === "https:" : false;
}

/** A Cookie header as a lookup. */
export function parseCookieHeader(header: string | null): CookieLookup {
  const jar = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    if (jar.has(name)) continue; // the first one is the most specific path
    try {
      jar.set(name, decodeURIComponent(raw));
    } catch {
      jar.set(name, raw);
    }
  }
  return (name) => jar.get(name);
}

/** One cookie's value, joining next-auth's chunks (`name.0`, `name.1`, …) of a large session. */
function readChunked(lookup: CookieLookup, name: string): string | null {
  const whole = lookup(name);
  if (whole) return whole;
  let joined = "";
  for (let i = 0; ; i++) {
    const chunk = lookup(`${name}.${i}`);
    if (chunk === undefined) break;
    joined += chunk;
  }
  return joined || null;
}

/**
 * The session token a request carries, or null. Over https only the `__Secure-` cookie
 * counts (a plain one could have been planted over http); over http the plain one.
 */
export function readSessionToken(lookup: CookieLookup, https: boolean): string | null {
  return readChunked(lookup, https ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
}

/** Whether any session cookie is present, for the optimistic redirect in proxy.ts. */
export function hasSessionCookie(lookup: CookieLookup): boolean {
  return [SESSION_COOKIE, SECURE_SESSION_COOKIE].some((name) => readChunked(lookup, name) !== null);
}
