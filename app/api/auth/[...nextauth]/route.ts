// GET, POST /api/auth/* – next-auth: providers, CSRF token, sign-in callbacks, session, sign-out
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { isHttpsRequest } from "@/lib/auth/cookies";
import { authOptions } from "@/lib/auth/options";
import { getApp } from "@/lib/server/app";

interface NextAuthContext {
  params: Promise<{ nextauth: string[] }>;
}

// The options are built per request: the secret comes from the started app, and whether
// cookies are `Secure` depends on how this request arrived.
async function handler(request: NextRequest, context: NextAuthContext): Promise<Response> {
  const app = await getApp();
  return NextAuth(request, context, authOptions(app, { https: isHttpsRequest(request.headers, request.url) }));
}

export { handler as GET, handler as POST };
