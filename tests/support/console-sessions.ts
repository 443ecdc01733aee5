import NextAuth from "next-auth";
import { encode } from "next-auth/jwt";
import { SESSION_COOKIE } from "@/lib/auth/cookies";
import { authOptions } from "@/lib/auth/options";
import { nextAuthSecret } from "@/lib/auth/secret";
import { SESSION_MAX_AGE_SECONDS } from "@/lib/auth/session";
import type { AppContext } from "@/lib/services/context";
import { createSession } from "@/lib/services/identity/session-store";

type SessionApp = Pick<AppContext, "db" | "secretKey" | "config">;

/**
 * A session cookie as a sign-in issues it, without going through a provider: a fresh
 * console_sessions row and a token naming it. `claims` overrides what the token says
 * (`{ sid: undefined }` gives the old format without a session id).
 */
export async function mintSessionCookie(
  app: SessionApp,
  userId: string,
  options: { maxAge?: number; secret?: string; cookieName?: string; claims?: Record<string, unknown> } = {},
): Promise<string> {
  const session = await createSession(app.db, userId);
  const token = await encode({
    token: { sub: userId, name: userId, sid: session.id, ...options.claims },
    secret: options.secret ?? nextAuthSecret(app.secretKey),
    maxAge: options.maxAge ?? SESSION_MAX_AGE_SECONDS,
  });
  return `${options.cookieName ?? SESSION_COOKIE}=${token}`;
}

interface NextAuthAnswer {
  status: number;
  body: unknown;
  /** Cookies the answer set (an empty value clears one). */
  setCookies: Map<string, string>;
}

/**
 * Calls next-auth's own request handling (the same core the route at /api/auth/[...nextauth]
 * runs, through its API-handler entry, which needs no Next request scope) with the app's
 * real options: providers, callbacks and events.
 */
async function callNextAuth(
  app: SessionApp,
  method: "GET" | "POST",
  action: string[],
  { body, cookies = {}, userAgent }: { body?: Record<string, string>; cookies?: Record<string, string>; userAgent?: string } = {},
): Promise<NextAuthAnswer> {
  const answer: NextAuthAnswer = { status: 200, body: undefined, setCookies: new Map() };
  const headers: Record<string, string | string[]> = {};
  const res = {
    status(code: number) {
      answer.status = code;
      return res;
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
    setHeader(name: string, value: string | string[]) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    json(value: unknown) {
      answer.body = value;
    },
    send(value: unknown) {
      answer.body = value;
    },
    end() {},
  };
  const req = {
    method,
    query: { nextauth: action },
    body: body ?? {},
    cookies,
    headers: { host: "localhost", "x-forwarded-proto": "http" },
  };
  await (NextAuth as unknown as (req: unknown, res: unknown, options: unknown) => Promise<void>)(
    req,
    res,
    authOptions(app, { https: false, userAgent: userAgent ?? null }),
  );
  const setCookie = headers["set-cookie"];
  for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
    const [pair] = line.split(";");
    const eq = pair!.indexOf("=");
    answer.setCookies.set(pair!.slice(0, eq), decodeURIComponent(pair!.slice(eq + 1)));
  }
  return answer;
}

/** next-auth's CSRF token and the cookie that goes with it, as the sign-in page fetches them. */
async function csrf(app: SessionApp): Promise<{ csrfToken: string; cookies: Record<string, string> }> {
  const answer = await callNextAuth(app, "GET", ["csrf"]);
  const csrfToken = (answer.body as { csrfToken: string }).csrfToken;
  return { csrfToken, cookies: Object.fromEntries(answer.setCookies) };
}

/**
 * Signs in with user name and password as the sign-in page does (POST
 * /api/auth/callback/credentials); the session cookie as a Cookie header, or null when
 * refused. `userAgent` is the browser's User-Agent header.
 */
export async function signInWithPassword(app: SessionApp, username: string, password: string, userAgent?: string): Promise<string | null> {
  const { csrfToken, cookies } = await csrf(app);
  const answer = await callNextAuth(app, "POST", ["callback", "credentials"], {
    body: { csrfToken, username, password, json: "true" },
    cookies,
    userAgent,
  });
  const token = answer.setCookies.get(SESSION_COOKIE);
  return token ? `${SESSION_COOKIE}=${token}` : null;
}

/** Signs out as the console's menu does (POST /api/auth/signout); returns whether the cookie was cleared. */
export async function signOut(app: SessionApp, sessionCookie: string): Promise<boolean> {
  const { csrfToken, cookies } = await csrf(app);
  const [name, value] = splitCookie(sessionCookie);
  const answer = await callNextAuth(app, "POST", ["signout"], {
    body: { csrfToken, json: "true" },
    cookies: { ...cookies, [name]: value },
  });
  return answer.setCookies.get(SESSION_COOKIE) === "";
}

function splitCookie(cookie: string): [string, string] {
  const eq = cookie.indexOf("=");
  return [cookie.slice(0, eq), cookie.slice(eq + 1)];
}
