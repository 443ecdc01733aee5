/**
 * The fuzz campaign outside the API (CONTRACT §18): console pages and /api/auth/* answer 4xx,
 * never 5xx, for any malformed input. Pages cannot run in-process, so the requests go over
 * HTTP to the production server (`npm start`'s build and server), signed in and not.
 */
import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import fc from "fast-check";

const ROOT = path.join(import.meta.dirname, "..", "..");

/** Every console page as a path template (`/banks/[bank_id]/policy`), read from app/(console) and app/signin. */
export function pageTemplates(): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      else if (entry.name === "page.tsx") found.push(prefix === "" ? "/" : prefix);
    }
  };
  walk(path.join(ROOT, "app", "(console)"), "");
  walk(path.join(ROOT, "app", "signin"), "/signin");
  return found;
}

/** next-auth's routes, by the action and provider segments it reads. */
const AUTH_PATHS = [
  "/api/auth/csrf",
  "/api/auth/providers",
  "/api/auth/session",
  "/api/auth/signin",
  "/api/auth/signin/credentials",
  "/api/auth/signout",
  "/api/auth/callback/credentials",
  "/api/auth/signin/oidc",
  "/api/auth/callback/oidc",
  "/api/auth/error",
  "/api/auth/_log",
  "/api/auth/unknown-action",
];

const METHODS = ["GET", "GET", "GET", "HEAD", "POST", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND", "MKCOL", "FOO"];

/** Malformed percent-encoding and other awkward bits of a URL. */
const AWKWARD = ["%zz", "%", "%E0%A4%A", "%C0%AF", "%00", "..", ".", "%2e%2e", "%2F", "\u00e9", "%ff%fe", "%0A", "%0D%0A", "%09", "%7F"];

/**
 * What no header may hold: characters above U+00FF and line breaks. A value next-auth or a page
 * put into one unencoded (a Location) was a 500 (`/api/auth/error?error=€`, a signed-in
 * `/signin?callbackUrl=/a%0Ab`). Sent raw, they are percent-encoded (sendable).
 */
const HEADER_UNSAFE = [
  "€",
  "\u0100",
  "Ω≈ç",
  "\u2028",
  "\u{1F4A5}",
  "\u4e2d\u6587",
  "ｆｕｌｌ",
  "e\u0301",
  "\ufeff",
  "\u202e",
  "a\nb",
  "a\r\nb",
];

/** What a callbackUrl may be: paths, own and foreign URLs, and what is neither. */
const CALLBACK_URLS = [
  "aaa",
  "/templates",
  "//evil.example",
  "/\\evil.example",
  "http://evil.example/x",
  "https://127.0.0.1/sources",
  "javascript:alert(1)",
  "ftp://x",
  "http://",
  "//",
  "%zz",
  "",
  "/signin?callbackUrl=aaa",
  "/templates/€",
  "/sources?q=\u{1F4A5}#\u2028",
  "https://127.0.0.1/€",
  "/a\nb",
];

/** next-auth's cookies of a single sign-on under way (state, PKCE verifier, nonce), damaged. */
const SSO_COOKIES = [
  "next-auth.state=garbage",
  "next-auth.pkce.code_verifier=%zz",
  "next-auth.nonce=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC",
  "next-auth.state=",
];

const awkwardText = fc.oneof(
  fc.constantFrom(...AWKWARD),
  fc.constantFrom(...HEADER_UNSAFE),
  fc.constantFrom(...HEADER_UNSAFE).map(encodeURIComponent),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: "grapheme", maxLength: 8 }).map(encodeURIComponent),
);
const segment = fc.oneof(fc.constantFrom("x", "sales-bot", "admin", "new"), awkwardText);

/** A page or auth path, its dynamic segments filled and sometimes more segments or bad escapes added. */
const pathArbitrary = (templates: string[]) =>
  fc
    .tuple(
      fc.constantFrom(...templates, ...AUTH_PATHS),
      fc.array(segment, { maxLength: 4 }),
      fc.array(segment, { maxLength: 2 }),
      fc.boolean(),
    )
    .map(([template, fills, extra, trailingSlash]) => {
      let i = 0;
      const filled = template.replace(/\[[^\]]+\]/g, () => fills[i++] ?? "x");
      const more = extra.length ? `/${extra.join("/")}` : "";
      return `${filled === "/" && more ? "" : filled}${more}${trailingSlash ? "/" : ""}`;
    });

const queryValue = fc.oneof(fc.constantFrom(...CALLBACK_URLS).map(encodeURIComponent), fc.constantFrom(...CALLBACK_URLS), awkwardText);
const queryArbitrary = fc
  .array(
    fc.tuple(
      fc.constantFrom("callbackUrl", "error", "q", "cursor", "page", "tab", "csrf", "x", "code", "state", "iss", "error_description"),
      queryValue,
    ),
    { maxLength: 3 },
  )
  .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join("&"));

/** Node's client refuses a path with spaces, control or non-ASCII characters (no server sees those raw): escaped. */
const sendable = (target: string) => [...target].map((c) => (c > " " && c < "\u007f" ? c : encodeURIComponent(c))).join("");

const headerArbitrary = fc.dictionary(
  fc.constantFrom(
    "content-type",
    "accept",
    "rsc",
    "next-router-state-tree",
    "next-action",
    "x-forwarded-proto",
    "x-forwarded-host",
    "range",
    "if-none-match",
  ),
  fc.oneof(
    fc.constantFrom(
      "application/json",
      "application/x-www-form-urlencoded",
      "text/plain",
      "1",
      "%zz",
      "[]",
      '"',
      "bytes=5-1",
      "evil.example",
      // The UTF-8 bytes of "€" as a client sends them: a header value reads them as Latin-1.
      "\u00e2\u0082\u00ac",
    ),
    fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  ),
  { maxKeys: 3 },
);

const bodyArbitrary = fc.option(
  fc.oneof(
    fc.constantFrom(
      "{",
      "[]",
      "null",
      '{"callbackUrl":7}',
      '{"callbackUrl":"aaa","csrfToken":"x"}',
      "callbackUrl=aaa&csrfToken=x",
      "callbackUrl=%zz",
      "callbackUrl=%2F%E2%82%AC&csrfToken=x",
      "error=%E2%82%AC",
      '{"callbackUrl":"/\u20ac","error":"\u20ac"}',
    ),
    fc.string({ maxLength: 40 }),
  ),
  { nil: undefined },
);

export interface PageRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  signedIn: boolean;
}

/** One generated request outside the API; `sessionCookie` is added when `signedIn`. */
export const pageRequestArbitrary = (templates: string[]): fc.Arbitrary<PageRequest> =>
  fc
    .record({
      method: fc.constantFrom(...METHODS),
      path: pathArbitrary(templates),
      query: fc.option(queryArbitrary, { nil: undefined }),
      headers: headerArbitrary,
      callbackCookie: fc.option(fc.constantFrom(...CALLBACK_URLS), { nil: undefined }),
      ssoCookie: fc.option(fc.constantFrom(...SSO_COOKIES), { nil: undefined }),
      body: bodyArbitrary,
      signedIn: fc.boolean(),
    })
    .map(({ method, path: pathname, query, headers, callbackCookie, ssoCookie, body, signedIn }) => {
      const cookies = [
        callbackCookie === undefined ? undefined : `next-auth.callback-url=${encodeURIComponent(callbackCookie)}`,
        ssoCookie,
      ];
      const cookie = cookies.filter(Boolean).join("; ");
      return {
        method,
        path: sendable(query === undefined ? pathname : `${pathname}?${query}`),
        headers: cookie ? { ...headers, cookie } : headers,
        body: method === "GET" || method === "HEAD" ? undefined : body,
        signedIn,
      };
    });

/**
 * For every page and auth path, GETs and POSTs with characters no header may hold (HEADER_UNSAFE)
 * in the callbackUrl (query, cookie and form body) of the path itself, and in a path segment and
 * the `error` parameter, signed in and not: sent before the generated requests, so every run
 * covers them whatever the seed.
 */
export function headerUnsafeRequests(templates: string[]): PageRequest[] {
  return [...templates, ...AUTH_PATHS].flatMap((template, i) => {
    const text = HEADER_UNSAFE[i % HEADER_UNSAFE.length]!;
    const filled = template.replace(/\[[^\]]+\]/g, text);
    const callbackUrl = encodeURIComponent(`/${text}`);
    const headers = { cookie: `next-auth.callback-url=${callbackUrl}` };
    const form = { ...headers, "content-type": "application/x-www-form-urlencoded" };
    return [sendable(`${filled}?callbackUrl=${callbackUrl}`), sendable(`${filled}/${text}?error=${text}`)].flatMap((target) =>
      [true, false].flatMap((signedIn) => [
        { method: "GET", path: target, headers, signedIn },
        { method: "POST", path: target, headers: form, body: `callbackUrl=${callbackUrl}`, signedIn },
      ]),
    );
  });
}

export interface PageAnswer {
  status: number;
  text: string;
}

/** Sends one request with node:http, which (unlike fetch) sends any method and the path as given. */
export function sendRaw(base: URL, request: PageRequest, sessionCookie: string): Promise<PageAnswer> {
  const cookies = [request.headers.cookie, request.signedIn ? sessionCookie : undefined].filter(Boolean).join("; ");
  const headers: Record<string, string> = { ...request.headers, ...(cookies ? { cookie: cookies } : {}) };
  if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method: request.method, path: request.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8").slice(0, 2000) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(request.body);
  });
}

/** Signs in with the credentials form as the console does; the session cookie (`name=value`). */
export async function signIn(base: URL, username: string, password: string): Promise<string> {
  const csrf = await fetch(new URL("/api/auth/csrf", base));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const answer = await fetch(new URL("/api/auth/callback/credentials", base), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, username, password, json: "true", callbackUrl: "/sources" }),
    redirect: "manual",
  });
  const session = answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`signing in as ${username} failed: ${answer.status} ${await answer.text()}`);
  return session;
}
