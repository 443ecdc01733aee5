import { type NextRequest, NextResponse } from "next/server";
import { hasSessionCookie, isHttpsRequest } from "@/lib/auth/cookies";
import { REQUEST_ID_HEADER, requestIdFor } from "@/lib/http/request-id";
import { newNonce, pageSecurityHeaders } from "@/lib/http/security-headers";

// Runs before console pages and next-auth's routes (not static assets, the API or the health
// endpoints, which answer with their own headers and request id: middleware costs about 40% of
// a request's time, issue 21): gives the request an id (kept from a well-formed X-Request-Id),
// sends the console's security headers with a per-request script nonce, and sends visitors
// without a session cookie to /signin. It only looks for the cookie (it runs apart from the
// database); the console layout then verifies the session.

const CONSOLE_PREFIXES = ["/sources", "/marketplace", "/templates", "/banks", "/account", "/admin", "/api-reference"];
const NOT_PAGES = ["/ext", "/api", "/healthz", "/readyz", "/metrics"];

const underAny = (path: string, prefixes: string[]) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));

export function proxy(request: NextRequest) {
  const requestId = requestIdFor(request.headers);
  const path = request.nextUrl.pathname;

  const forwarded = new Headers(request.headers);
  forwarded.set(REQUEST_ID_HEADER, requestId);
  const isPage = !underAny(path, NOT_PAGES);
  let headers: Record<string, string> = { [REQUEST_ID_HEADER]: requestId, "x-content-type-options": "nosniff" };
  if (isPage) {
    const nonce = newNonce();
    const security = pageSecurityHeaders(nonce, {
      https: isHttpsRequest(request.headers, request.url),
      development: process.env.NODE_ENV === "development",
    });
    // Next reads the nonce for its own scripts from the request's CSP header; the layout reads x-nonce.
    forwarded.set("content-security-policy", security["content-security-policy"]!);
    forwarded.set("x-nonce", nonce);
    headers = { ...headers, ...security };
  }

  let response: NextResponse;
  if (isPage && underAny(path, CONSOLE_PREFIXES) && !hasSessionCookie((name) => request.cookies.get(name)?.value)) {
    const signIn = new URL("/signin", request.url);
    signIn.searchParams.set("callbackUrl", path + request.nextUrl.search);
    response = NextResponse.redirect(signIn);
  } else {
    response = NextResponse.next({ request: { headers: forwarded } });
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but build assets (hashed, immutable files), the API and the health endpoints.
  matcher: ["/((?!_next/static|_next/image|ext/svc/|healthz$|readyz$|metrics$).*)"],
};
