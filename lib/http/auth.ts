import { isHttpsRequest, parseCookieHeader, readSessionToken } from "@/lib/auth/cookies";
import { actorForSession } from "@/lib/auth/session";
import type { Access } from "@/lib/contracts/endpoint";
import { forbidden, tooManyRequests, unauthorized } from "@/lib/contracts/errors";
import type { ApiKeyScope } from "@/lib/contracts/identity/schemas";
import { clientAddress } from "@/lib/platform/client-address";
import type { AppContext, AuthenticatedActor } from "@/lib/services/context";
import { actorForApiKey } from "@/lib/services/identity/authenticate";
import { apiKeyAddressBlockedFor, countFailedApiKey } from "@/lib/services/ratelimit/api-keys";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
/** Sent by the console's client on every request (see lib/client/api.ts). */
const CONSOLE_HEADER = "x-requested-with";
const CONSOLE_HEADER_VALUE = "bank-templates-console";

/**
 * The caller behind `Authorization: Bearer <key>`, or, without that header, behind the
 * console's session cookie (same-origin requests only); 401 (with WWW-Authenticate) otherwise.
 * A failed key from an address with more than 1,000 failed keys in the current minute gets
 * 429 instead; a valid key from there is still served (lib/services/ratelimit/api-keys.ts: a
 * usable key costs no extra query, only failures are counted and refused).
 * An expired key answers 401 `key-expired` and is not counted as a failure: it was issued, so it
 * is no guess, and the limit only sheds guessing. A `read` key may only GET (CONTRACT §18).
 */
export async function authenticate(request: Request, app: AppContext): Promise<AuthenticatedActor> {
  const header = request.headers.get("authorization");
  if (!header) {
    const session = await sessionActor(request, app);
    if (session) return session;
    throw unauthorized("This endpoint needs an API key: send Authorization: Bearer <key>.");
  }
  const token = BEARER.exec(header)?.[1];
  if (!token) throw unauthorized("The Authorization header must have the form Bearer <key>.");
  // The key is verified first: a valid key is never refused for others' failures (CONTRACT §18).
  const check = await actorForApiKey(app.db, token);
  if (check.status === "valid") {
    assertScopeAllows(check.scope, request.method);
    return check.actor;
  }
  if (check.status === "expired") throw unauthorized("The API key has expired; create a new one.", "key-expired");
  const address = clientAddress(request.headers, app.config.trustedProxies);
  const blockedFor = apiKeyAddressBlockedFor(app.db, address);
  if (blockedFor !== null) throw tooManyFailedKeys(blockedFor);
  const retryAfter = await countFailedApiKey(app.db, address);
  if (retryAfter !== null) throw tooManyFailedKeys(retryAfter);
  throw unauthorized("The API key is unknown or revoked, or its account is inactive.");
}

/** HEAD is a GET without its body, so a read key may send it too. */
const READ_METHODS = new Set(["GET", "HEAD"]);

function assertScopeAllows(scope: ApiKeyScope, method: string): void {
  if (scope === "read" && !READ_METHODS.has(method.toUpperCase())) {
    throw forbidden(`The API key is read-only: it may only GET, not ${method}.`, "key-read-only");
  }
}

const tooManyFailedKeys = (retryAfterSeconds: number) =>
  tooManyRequests(
    `Too many failed API-key authentications from this address; try again in ${retryAfterSeconds} seconds.`,
    retryAfterSeconds,
  );

/** The console user of a session cookie, or null when the request carries none. */
async function sessionActor(request: Request, app: AppContext): Promise<AuthenticatedActor | null> {
  const token = readSessionToken(parseCookieHeader(request.headers.get("cookie")), isHttpsRequest(request.headers, request.url));
  if (!token) return null;
  assertSameOrigin(request);
  const actor = await actorForSession(app, token);
  if (!actor) throw unauthorized("The console session has expired or its account is inactive; sign in again.");
  return actor;
}

/** The host the browser addressed: a reverse proxy's X-Forwarded-Host, else Host. */
function requestHost(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return (forwarded || request.headers.get("host") || new URL(request.url).host).toLowerCase();
}

/**
 * Browsers attach cookies to requests other sites make (forms, images, fetch), so a
 * cookie-authenticated request must prove it comes from our own pages: its Origin names
 * our host, or, where browsers send no Origin (same-origin GET), Sec-Fetch-Site says
 * `same-origin` (or `none`, the user's own address-bar navigation, for reads). Neither
 * header can be set by another site's script. Anything else: 403.
 */
function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const fetchSite = request.headers.get("sec-fetch-site")?.toLowerCase();
  const refuse = () =>
    forbidden(
      "Requests authenticated by the console session must come from the console itself; programs use an API key.",
      "cross-site-session",
    );
  if (origin !== null) {
    let host: string | null = null;
    try {
      host = origin === "null" ? null : new URL(origin).host.toLowerCase();
    } catch {
      host = null;
    }
    if (host !== requestHost(request)) throw refuse();
    if (fetchSite !== undefined && fetchSite !== "same-origin") throw refuse();
    return;
  }
  const isRead = request.method === "GET" || request.method === "HEAD";
  if (fetchSite === "same-origin" || (fetchSite === "none" && isRead)) return;
  // Over plain http on a non-local host browsers send neither header on same-origin reads;
  // the console's own header stands in, as no other site may set it without a CORS preflight.
  if (fetchSite === undefined && request.headers.get(CONSOLE_HEADER) === CONSOLE_HEADER_VALUE) return;
  throw refuse();
}

/** 403 when an authenticated caller may not use an endpoint. */
export function authorize(actor: AuthenticatedActor, access: Access): void {
  if (access === "user" && actor.type !== "user") {
    throw forbidden("Service accounts cannot use this endpoint; sign in as a user.");
  }
  if (access === "admin" && actor.role !== "admin") {
    throw forbidden("This endpoint is for administrators.");
  }
}
