// GET, POST /api/auth/* – next-auth: providers, CSRF token, sign-in callbacks, session, sign-out

import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { CALLBACK_URL_COOKIES, encodedErrorCode, malformedAuthInput } from "@/lib/auth/callback-url";
import { isHttpsRequest } from "@/lib/auth/cookies";
import type { SsoFailure } from "@/lib/auth/oidc";
import { authOptions, CREDENTIALS_PROVIDER_ID } from "@/lib/auth/options";
import { withSignInError } from "@/lib/auth/sign-in-error";
import { badRequest, methodNotAllowed, tooManyRequests } from "@/lib/contracts/errors";
import { tooManySignInsMessage } from "@/lib/contracts/identity/sign-in-messages";
import { errorToResponse } from "@/lib/http/problem";
import { problemResponse } from "@/lib/http/problem-response";
import { requestIdFor } from "@/lib/http/request-id";
import { clientAddress } from "@/lib/platform/client-address";
import { logError } from "@/lib/platform/log";
import { getApp } from "@/lib/server/app";
import type { AppContext } from "@/lib/services/context";
import { admitSignInAttempt, settleSignInAttempt } from "@/lib/services/ratelimit/sign-in";

interface NextAuthContext {
  params: Promise<{ nextauth: string[] }>;
}

// The options are built per request: the secret comes from the started app, and whether
// cookies are `Secure` depends on how this request arrived. A single sign-on that failed at the
// provider's end is answered with why (next-auth's own code says only that it failed).
async function nextAuth(request: NextRequest, context: NextAuthContext, app: AppContext): Promise<Response> {
  const https = isHttpsRequest(request.headers, request.url);
  const clientAddress = addressOf(request, app);
  const userAgent = request.headers.get("user-agent");
  let failure: SsoFailure | null = null;
  const onSsoFailure = (reason: SsoFailure) => {
    failure ??= reason;
  };
  const options = authOptions(app, { https, requestId: requestIdFor(request.headers), clientAddress, userAgent, onSsoFailure });
  const response = await NextAuth(request, context, options);
  return failure ? withSignInError(response, failure) : response;
}

const addressOf = (request: NextRequest, app: AppContext): string => clientAddress(request.headers, app.config.trustedProxies);

/**
 * 400 problem+json for what next-auth would answer with a 500 (CONTRACT §18): a callbackUrl that
 * is neither a path nor an http(s) URL (in the query, the body or its cookie, which the answer
 * clears so the next sign-in works), or a JSON body that is no object of strings.
 */
async function refuseMalformed(request: NextRequest): Promise<Response | null> {
  const cookies = new Map(request.cookies.getAll().map((cookie) => [cookie.name, cookie.value]));
  const problem = await malformedAuthInput(request, cookies);
  if (!problem) return null;
  const response = problemResponse(badRequest(problem.reason), requestIdFor(request.headers));
  if (problem.fromCookie) {
    for (const name of CALLBACK_URL_COOKIES) {
      response.headers.append(
        "set-cookie",
        `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`,
      );
    }
  }
  return response;
}

async function GET(request: NextRequest, context: NextAuthContext): Promise<Response> {
  const [action, provider] = (await context.params).nextauth;
  // next-auth throws (a 500) on a GET of the credentials callback: only its form's POST signs in.
  if (action === "callback" && provider === CREDENTIALS_PROVIDER_ID) {
    return problemResponse(methodNotAllowed(["POST"]), requestIdFor(request.headers));
  }
  const refused = await refuseMalformed(request);
  if (refused) return refused;
  const app = await getApp();
  return action === "error" ? nextAuth(...withEncodedErrorCode(request, await context.params), app) : nextAuth(request, context, app);
}

/** GET /api/auth/error as next-auth is to read it: the error code, in the query or the path, percent-encoded (encodedErrorCode). */
function withEncodedErrorCode(request: NextRequest, params: { nextauth: string[] }): [NextRequest, NextAuthContext] {
  const url = request.nextUrl.clone();
  const queried = url.searchParams.get("error");
  if (queried !== null) url.searchParams.set("error", encodedErrorCode(queried));
  const [action, code, ...rest] = params.nextauth;
  const nextauth = code === undefined ? params.nextauth : [action!, encodedErrorCode(code), ...rest];
  return [new NextRequest(url, { headers: request.headers }), { params: Promise.resolve({ nextauth }) }];
}

/** Password sign-ins (POST /api/auth/callback/credentials) pass the rate limits of CONTRACT §18 first. */
async function POST(request: NextRequest, context: NextAuthContext): Promise<Response> {
  const refused = await refuseMalformed(request);
  if (refused) return refused;
  const [action, provider] = (await context.params).nextauth;
  const app = await getApp();
  if (action !== "callback" || provider !== CREDENTIALS_PROVIDER_ID) return nextAuth(request, context, app);
  const requestId = requestIdFor(request.headers);
  try {
    return await signInWithinLimits(request, context, app, requestId);
  } catch (error) {
    // The counters live in the database: when it is unreachable, 503 problem+json as everywhere else.
    return errorToResponse(error, { method: request.method, path: new URL(request.url).pathname, requestId });
  }
}

async function signInWithinLimits(request: NextRequest, context: NextAuthContext, app: AppContext, requestId: string): Promise<Response> {
  const admission = await admitSignInAttempt(app.db, await submittedUserName(request), addressOf(request, app));
  if (!admission.admitted) {
    const detail = tooManySignInsMessage(admission.retryAfterSeconds);
    return problemResponse(tooManyRequests(detail, admission.retryAfterSeconds), requestId);
  }
  let response: Response | undefined;
  try {
    response = await nextAuth(request, context, app);
    return response;
  } finally {
    const failed = response ? await isFailedSignIn(response) : false;
    // The answer stands even if the counter cannot be corrected: the attempt then merely
    // stays counted, which errs on the side of the limit.
    await settleSignInAttempt(app.db, admission.attempt, failed).catch((error: unknown) =>
      logError("settling a sign-in attempt's rate-limit counters failed", error, { request_id: requestId }),
    );
  }
}

/**
 * The user name of a credentials sign-in, read from a copy of the body so next-auth still
 * reads the original. next-auth accepts form bodies (its client sends those) and JSON.
 */
async function submittedUserName(request: Request): Promise<string | null> {
  const contentType = request.headers.get("content-type") ?? "";
  const text = await request.clone().text();
  let userName: unknown = null;
  if (contentType.includes("application/x-www-form-urlencoded")) {
    userName = new URLSearchParams(text).get("username");
  } else if (contentType.includes("application/json")) {
    try {
      userName = (JSON.parse(text) as { username?: unknown } | null)?.username;
    } catch {
      userName = null; // next-auth refuses it as well
    }
  }
  return typeof userName === "string" && userName !== "" ? userName : null;
}

/**
 * Whether next-auth checked the credentials and found them wrong. It then answers with
 * `error=CredentialsSignin`: in the Location of its redirect, or in the `url` of its JSON
 * answer when the client asked for JSON (`json=true`, as its `signIn()` does). A success
 * sets the session cookie and names no error; a request it refused before checking a
 * password (missing CSRF token: `?csrf=true`) names none either, so neither counts.
 */
async function isFailedSignIn(response: Response): Promise<boolean> {
  let target = response.headers.get("location");
  if (!target && response.headers.get("content-type")?.includes("application/json")) {
    try {
      const body = (await response.clone().json()) as { url?: unknown } | null;
      target = typeof body?.url === "string" ? body.url : null;
    } catch {
      target = null;
    }
  }
  if (!target) return false;
  try {
    return new URL(target, "http://localhost").searchParams.get("error") === "CredentialsSignin";
  } catch {
    return false;
  }
}

export { GET, POST };
