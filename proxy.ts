import { NextResponse, type NextRequest } from "next/server";
import { hasSessionCookie } from "@/lib/auth/cookies";

// Console pages: a visitor without a session cookie goes to /signin, remembering where
// they were going. This only looks for the cookie (proxy runs apart from the app and its
// database); the console layout then verifies the session and the user's status.
export function proxy(request: NextRequest) {
  if (hasSessionCookie((name) => request.cookies.get(name)?.value)) return NextResponse.next();
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = {
  matcher: ["/sources/:path*", "/marketplace/:path*", "/templates/:path*", "/banks/:path*", "/account/:path*", "/admin/:path*", "/api-reference/:path*"],
};
