/** Where the console goes after sign-in when nothing else was asked for. */
const DEFAULT_AFTER_SIGN_IN = "/";

const SITE = "http://localhost";

/**
 * A callbackUrl we may navigate to: a path on this site only (`/x`, not `//host`, `/\host` or
 * `/<tab>/host`, which browsers read as other hosts), never back to the sign-in page; as a
 * browser reads it (tabs and line breaks dropped, the rest percent-encoded), since the sign-in
 * page redirects to it and a Location header refuses a line break or a character above U+00FF.
 */
export function safeCallbackUrl(value: string | string[] | undefined | null): string {
  const url = Array.isArray(value) ? value[0] : value;
  if (!url?.startsWith("/")) return DEFAULT_AFTER_SIGN_IN;
  let parsed: URL;
  try {
    parsed = new URL(url, SITE);
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  const path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
  if (parsed.origin !== SITE || path.startsWith("//")) return DEFAULT_AFTER_SIGN_IN;
  if (parsed.pathname === "/signin" || path.startsWith("/api/auth")) return DEFAULT_AFTER_SIGN_IN;
  return path;
}

/**
 * next-auth's redirect callback: its default rule (a path on this site or a URL of its origin;
 * anything else goes to the site's root), answered as the URL's serialization. next-auth puts
 * the answer in a Location header as it is, which refuses a character above U+00FF or a line
 * break (a 500 for `callbackUrl=/€`); the serialization percent-encodes them as a browser would.
 */
export function redirectWithinSite({ url, baseUrl }: { url: string; baseUrl: string }): string {
  try {
    const target = new URL(url.startsWith("/") ? `${baseUrl}${url}` : url);
    if (target.origin === new URL(baseUrl).origin) return target.href;
  } catch {
    // Not a URL: the site's root, as for a foreign one.
  }
  return baseUrl;
}

/**
 * The error code next-auth reads for GET /api/auth/error (its `error` parameter, else the path's
 * second segment), percent-encoded. next-auth redirects to the sign-in page with the code put
 * into the Location header as it is, which refuses a character above U+00FF or a line break (a
 * 500 for `?error=€`); encoded, the sign-in page reads the code as it was sent.
 */
export function encodedErrorCode(code: string): string {
  // An unpaired surrogate (which encodeURIComponent throws on) reads as U+FFFD, as in any URL.
  return encodeURIComponent(code.replace(/\p{Cs}/gu, "\uFFFD"));
}

/** The cookie in which next-auth keeps the callbackUrl, under both its names (`__Secure-` over https). */
export const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"] as const;

/**
 * Whether next-auth would fail on this callbackUrl with a 500: its check (and its default
 * redirect callback) takes a path against the site's origin and anything else as an absolute
 * URL, and throws on what does not parse ("aaa"). A path, or an absolute http(s) URL, passes;
 * next-auth itself sends a foreign origin back to the site's own.
 */
function isMalformedCallbackUrl(value: string): boolean {
  if (value === "") return false;
  try {
    return !/^https?:$/.test(new URL(value, value.startsWith("/") ? "http://localhost" : undefined).protocol);
  } catch {
    return true;
  }
}

/** What next-auth cannot take from a request and would answer with a 500, in words; null when all is well. */
export interface MalformedAuthInput {
  reason: string;
  /** The bad value came from the callbackUrl cookie: the answer should clear it. */
  fromCookie: boolean;
}

const malformed = (reason: string, fromCookie = false): MalformedAuthInput => ({ reason, fromCookie });
const NOT_A_CALLBACK = "is neither a path on this site nor an http(s) URL";

/**
 * Checks a request to /api/auth/* before next-auth sees it: the host it names, the callbackUrl in
 * the query, the body and the cookie, and a JSON body, which next-auth parses without catching and reads as a
 * form (an object of strings). Reads a copy of the body, so next-auth still reads the original.
 */
export async function malformedAuthInput(request: Request, cookies: ReadonlyMap<string, string>): Promise<MalformedAuthInput | null> {
  // Without NEXTAUTH_URL, next-auth makes the site's URL of this header and fails on one that does not parse.
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (!process.env.NEXTAUTH_URL && host !== null && !URL.canParse(`https://${host}`)) {
    return malformed("The X-Forwarded-Host (or Host) header is not a host name.");
  }
  const queried = new URL(request.url).searchParams.get("callbackUrl");
  if (queried !== null && isMalformedCallbackUrl(queried)) return malformed(`The callbackUrl parameter ${NOT_A_CALLBACK}.`);
  for (const name of CALLBACK_URL_COOKIES) {
    const value = cookies.get(name);
    if (value !== undefined && isMalformedCallbackUrl(value))
      return malformed(`The ${name} cookie ${NOT_A_CALLBACK}; it is cleared.`, true);
  }
  if (request.method !== "POST" || !request.body) return null;
  const contentType = request.headers.get("content-type") ?? "";
  const text = await request.clone().text();
  let fields: Record<string, unknown>;
  if (contentType.includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return malformed("The body is not valid JSON.");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return malformed("The body is not a JSON object.");
    fields = parsed as Record<string, unknown>;
    if (Object.values(fields).some((value) => typeof value !== "string"))
      return malformed("The body's members must be strings, as a form's are.");
  } else if (contentType.includes("application/x-www-form-urlencoded")) {
    fields = Object.fromEntries(new URLSearchParams(text));
  } else {
    return null;
  }
  const posted = fields.callbackUrl;
  if (typeof posted === "string" && isMalformedCallbackUrl(posted)) return malformed(`The callbackUrl field ${NOT_A_CALLBACK}.`);
  return null;
}
