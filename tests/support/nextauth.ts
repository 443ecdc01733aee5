// Next's server globals are set up before every test file (tests/support/next-environment.ts).
import { NextRequest } from "next/server";
import { GET, POST } from "@/app/api/auth/[...nextauth]/route";

/**
 * Calls the next-auth route (app/api/auth/[...nextauth]/route.ts) in-process. next-auth's
 * App Router handler reads `cookies()` and `headers()` from next/headers, which only work
 * inside the request scope Next's server opens around a route handler; this opens the same
 * kind of scope (Next's own request store for route handlers) around the call.
 */
export interface NextAuthResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, when there is one. */
  body: any;
  /** name=value of every cookie the response sets. */
  setCookies: Map<string, string>;
}

export interface NextAuthRequestOptions {
  /** Sent as an application/x-www-form-urlencoded body, as next-auth's client does. */
  form?: Record<string, string>;
  cookies?: Map<string, string>;
  headers?: Record<string, string>;
  /** Sent as it is (with the content-type of `headers`), for malformed bodies. */
  body?: string;
}

/** Next's request-scope storages, and its factory of the request store of route handlers. */
async function nextRequestScope() {
  const [{ workAsyncStorage }, { workUnitAsyncStorage }, { createRequestStoreForAPI }] = await Promise.all([
    import("next/dist/server/app-render/work-async-storage.external"),
    import("next/dist/server/app-render/work-unit-async-storage.external"),
    import("next/dist/server/async-storage/request-store"),
  ]);
  return { workAsyncStorage, workUnitAsyncStorage, createRequestStoreForAPI };
}

export async function callNextAuth(method: "GET" | "POST", path: string, options: NextAuthRequestOptions = {}): Promise<NextAuthResponse> {
  const url = new URL(path, "http://localhost");
  const segments = url.pathname
    .replace(/^\/api\/auth\//, "")
    .split("/")
    .filter(Boolean)
    // Decoded, as Next passes the catch-all segments to the route.
    .map(decodeURIComponent);
  const headers = new Headers({ host: url.host, ...options.headers });
  if (options.cookies?.size) headers.set("cookie", [...options.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
  let body: string | undefined = options.body;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  const request = new NextRequest(url, { method, headers, body });
  const { workAsyncStorage, workUnitAsyncStorage, createRequestStoreForAPI } = await nextRequestScope();
  const requestStore = createRequestStoreForAPI(request, request.nextUrl, undefined as never, undefined, undefined, undefined);
  const workStore = {
    route: "/api/auth/[...nextauth]",
    page: "/api/auth/[...nextauth]/route",
    forceStatic: false,
    dynamicShouldError: false,
  };
  const handler = { GET, POST }[method];
  const response = await workAsyncStorage.run(workStore as never, () =>
    workUnitAsyncStorage.run(requestStore as never, () => handler(request, { params: Promise.resolve({ nextauth: segments }) })),
  );
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const setCookies = new Map<string, string>();
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const eq = pair!.indexOf("=");
    if (eq > 0) setCookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return { status: response.status, headers: response.headers, text, body: parsed, setCookies };
}

export interface PasswordSignIn extends NextAuthResponse {
  /** The session cookie next-auth set, when the sign-in succeeded. */
  sessionCookie: string | null;
  /** next-auth's error code (`CredentialsSignin`), when it named one. */
  error: string | null;
}

/**
 * Signs in with a user name and password the way next-auth's `signIn("credentials")`
 * does: GET /api/auth/csrf for a token and its cookie, then POST the credentials form with
 * both to /api/auth/callback/credentials, asking for a JSON answer. `address` is the client
 * address as the server passes it to route handlers (X-Forwarded-For, see
 * lib/platform/client-address.ts).
 */
export async function signInWithPassword(username: string, password: string, address: string): Promise<PasswordSignIn> {
  const headers = { "x-forwarded-for": address };
  const csrf = await callNextAuth("GET", "/api/auth/csrf", { headers });
  if (csrf.status !== 200 || typeof csrf.body?.csrfToken !== "string") throw new Error(`csrf: ${csrf.status} ${csrf.text}`);
  const answer = await callNextAuth("POST", "/api/auth/callback/credentials", {
    headers,
    cookies: csrf.setCookies,
    form: { username, password, csrfToken: csrf.body.csrfToken, callbackUrl: "http://localhost/", json: "true" },
  });
  const sessionCookie = [...answer.setCookies].find(([name, value]) => name.includes("session-token") && value !== "") ?? null;
  let error: string | null = null;
  if (typeof answer.body?.url === "string") error = new URL(answer.body.url, "http://localhost").searchParams.get("error");
  return { ...answer, sessionCookie: sessionCookie ? `${sessionCookie[0]}=${sessionCookie[1]}` : null, error };
}
