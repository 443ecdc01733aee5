import { callNextAuth } from "./nextauth";

/**
 * A single sign-on as a browser makes it, without one: the console's next-auth route called
 * in-process (tests/support/nextauth.ts), the test provider (e2e/support/oidc-provider.ts)
 * over HTTP through its own login and consent pages, each side's cookies kept as a browser
 * keeps them. Split in steps, so a test can tamper with the callback between them.
 */

/** Where the provider sent the person back: the console's callback with code and state, and the console's cookies then. */
export interface PendingCallback {
  /** `/api/auth/callback/oidc?code=…&state=…&iss=…` */
  path: string;
  /** The console's cookies (CSRF, callback URL, state, PKCE verifier, nonce). */
  cookies: Map<string, string>;
}

export interface SsoResult {
  status: number;
  /** Where the console sent the browser. */
  location: string | null;
  /** The sign-in page's error code, when it went there with one. */
  error: string | null;
  /** The session cookie (name=value), when one was set. */
  sessionCookie: string | null;
}

const CONSOLE = "http://localhost";
/** next-auth takes a request without X-Forwarded-Proto for https, and builds its redirect URI so. */
const headers = { "x-forwarded-proto": "http" };

/** Starts a sign-in at the console: the provider's authorization URL and the console's cookies, or the console's refusal. */
export async function startSsoSignIn(): Promise<{ authorizationUrl: string; cookies: Map<string, string> } | SsoResult> {
  const csrf = await callNextAuth("GET", "/api/auth/csrf", { headers });
  const cookies = new Map(csrf.setCookies);
  const started = await callNextAuth("POST", "/api/auth/signin/oidc", {
    headers,
    cookies,
    form: { csrfToken: csrf.body.csrfToken, callbackUrl: `${CONSOLE}/`, json: "true" },
  });
  for (const [name, value] of started.setCookies) cookies.set(name, value);
  const url = new URL(String(started.body?.url), CONSOLE);
  if (url.origin === CONSOLE) return resultOf(started.status, url.toString(), started.setCookies);
  return { authorizationUrl: url.toString(), cookies };
}

/** Signs in at the provider as `login` (its pages: login, then consent): the console's callback it redirects to. */
async function signInAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  let next: { url: string; form?: Record<string, string> } = { url: authorizationUrl };
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(next.url, {
      method: next.form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(next.form && { "content-type": "application/x-www-form-urlencoded" }),
      },
      body: next.form && new URLSearchParams(next.form),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = response.headers.get("location");
    if (location) {
      const target = new URL(location, next.url);
      if (target.origin === CONSOLE) return `${target.pathname}${target.search}`;
      next = { url: target.toString() };
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${page.slice(0, 500)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1] ?? (page.includes("login-submit") ? "login" : "consent");
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`no form on the provider's page: ${page.slice(0, 500)}`);
    next = { url: new URL(action, next.url).toString(), form: prompt === "login" ? { prompt, login, password: "any" } : { prompt } };
  }
  throw new Error("the provider did not send the browser back");
}

/** Delivers the provider's answer to the console, as the browser's redirect does. */
export async function finishSsoSignIn(callback: PendingCallback): Promise<SsoResult> {
  const answer = await callNextAuth("GET", callback.path, { headers, cookies: callback.cookies });
  return resultOf(answer.status, answer.headers.get("location"), answer.setCookies);
}

/** A whole sign-in as `login`: the console's answer to the callback (or its refusal to start). */
export async function ssoSignIn(login: string): Promise<SsoResult> {
  const pending = await ssoCallback(login);
  return "path" in pending ? finishSsoSignIn(pending) : pending;
}

/** A sign-in as `login` up to the callback, not yet delivered (or the console's refusal to start). */
export async function ssoCallback(login: string): Promise<PendingCallback | SsoResult> {
  const started = await startSsoSignIn();
  if (!("authorizationUrl" in started)) return started;
  return { path: await signInAtProvider(started.authorizationUrl, login), cookies: started.cookies };
}

function resultOf(status: number, location: string | null, setCookies: Map<string, string>): SsoResult {
  const session = [...setCookies].find(([name, value]) => name.includes("session-token") && value !== "");
  const error = location ? new URL(location, CONSOLE).searchParams.get("error") : null;
  return { status, location, error, sessionCookie: session ? `${session[0]}=${session[1]}` : null };
}
