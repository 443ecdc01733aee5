import "./support/nextauth"; // first: sets up what Next's server provides before anything loads Next
/**
 * CONTRACT §18: /api/auth/* answers 4xx, never 5xx, to what next-auth would fail on: a callbackUrl
 * that is neither a path nor an http(s) URL (query, body, cookie), a JSON body that is no object
 * of strings, a host header that is no host name, a GET of the credentials callback; and what
 * next-auth would put in a Location header unencoded (a character above U+00FF or a line break).
 */
import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { useTestApp } from "./support/app";
import { callNextAuth } from "./support/nextauth";

const t = useTestApp();

const expectBadRequest = (answer: { status: number; headers: Headers; body: any }, detail: RegExp) => {
  expect(answer.status).toBe(400);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(answer.body.type).toBe("urn:bank-templates:problem:bad-request");
  expect(answer.body.detail).toMatch(detail);
};

describe("callbackUrl that is neither a path nor an http(s) URL", () => {
  it("in the query: 400 on every next-auth route; a path or an own URL passes", async () => {
    for (const route of ["providers", "signin", "csrf", "session"]) {
      expectBadRequest(await callNextAuth("GET", `/api/auth/${route}?callbackUrl=aaa`), /callbackUrl parameter/);
    }
    expect((await callNextAuth("GET", "/api/auth/providers?callbackUrl=%2Ftemplates")).status).toBe(200);
    expect((await callNextAuth("GET", "/api/auth/providers?callbackUrl=http%3A%2F%2Flocalhost%2Fsources")).status).toBe(200);
  });

  it("in the body of the credentials callback: 400", async () => {
    const answer = await callNextAuth("POST", "/api/auth/callback/credentials", {
      form: { username: "admin", password: "x", callbackUrl: "aaa", csrfToken: "x", json: "true" },
    });
    expectBadRequest(answer, /callbackUrl field/);
  });

  it("in the cookie: 400, and the answer clears the cookie", async () => {
    const answer = await callNextAuth("GET", "/api/auth/session", { cookies: new Map([["next-auth.callback-url", "aaa"]]) });
    expectBadRequest(answer, /cookie/);
    expect(answer.setCookies.get("next-auth.callback-url")).toBe("");
    expect((await callNextAuth("GET", "/api/auth/session", { cookies: new Map([["next-auth.callback-url", "%2Fsources"]]) })).status).toBe(
      200,
    );
  });
});

describe("other requests next-auth fails on", () => {
  it("a JSON body that is not an object of strings: 400", async () => {
    for (const [text, detail] of [
      ["{", /not valid JSON/],
      ["[]", /not a JSON object/],
      ['{"callbackUrl":7}', /must be strings/],
    ] as const) {
      const answer = await callNextAuth("POST", "/api/auth/signin/credentials", {
        headers: { "content-type": "application/json" },
        body: text,
      });
      expectBadRequest(answer, detail);
    }
  });

  it("an X-Forwarded-Host that is no host name: 400", async () => {
    expectBadRequest(await callNextAuth("GET", "/api/auth/error", { headers: { "x-forwarded-host": "r[4y" } }), /X-Forwarded-Host/);
  });

  it("a GET of the credentials callback: 405 with Allow: POST", async () => {
    const answer = await callNextAuth("GET", "/api/auth/callback/credentials");
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
  });
});

describe("what next-auth puts in a Location header, percent-encoded", () => {
  const signInPage = (answer: { status: number; headers: Headers }) => {
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get("location")!, "http://localhost");
  };

  it("the error code of GET /api/auth/error, in the query or the path: the sign-in page reads it as sent", async () => {
    for (const code of ["€", "a\nb", "a\u0000b", "\u{1F4A5}", "é", "a&b=c"]) {
      const queried = signInPage(await callNextAuth("GET", `/api/auth/error?error=${encodeURIComponent(code)}`));
      expect(queried.pathname).toBe("/signin");
      expect(queried.searchParams.get("error")).toBe(code);
      const inPath = signInPage(await callNextAuth("GET", `/api/auth/error/${encodeURIComponent(code)}`));
      expect(inPath.searchParams.get("error")).toBe(code);
    }
    // next-auth's own codes keep their way through its sign-in route.
    expect(signInPage(await callNextAuth("GET", "/api/auth/error?error=CredentialsSignin")).href).toBe(
      "https://localhost/api/auth/signin?error=CredentialsSignin",
    );
  });

  // next-auth takes the site to be https unless X-Forwarded-Proto says otherwise.
  it("a callbackUrl above U+00FF after a sign-in and a sign-out: the URL's serialization", async () => {
    const password = "a password for the callback test";
    expect((await t.admin.post("/ext/svc/admin/users", { id: "callback-user", password })).status).toBe(201);
    const csrf = await callNextAuth("GET", "/api/auth/csrf");
    const form = { csrfToken: csrf.body.csrfToken, json: "true" };
    const signedIn = await callNextAuth("POST", "/api/auth/callback/credentials", {
      cookies: csrf.setCookies,
      form: { ...form, username: "callback-user", password, callbackUrl: "/templates/€?q=\u{1F4A5}" },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.url).toBe("https://localhost/templates/%E2%82%AC?q=%F0%9F%92%A5");
    const session = [...signedIn.setCookies].find(([name]) => name.includes("session-token"))!;
    const signedOut = await callNextAuth("POST", "/api/auth/signout", {
      cookies: new Map([...csrf.setCookies, session]),
      form: { ...form, callbackUrl: "https://localhost/€" },
    });
    expect(signedOut.status, signedOut.text).toBe(200);
    expect(signedOut.body.url).toBe("https://localhost/%E2%82%AC");
    // A foreign origin still goes to the site's own, as next-auth's default does.
    const foreign = await callNextAuth("POST", "/api/auth/signout", {
      cookies: csrf.setCookies,
      form: { ...form, callbackUrl: "https://evil.example/€" },
    });
    expect(foreign.body.url).toBe("https://localhost");
  });
});

describe("the sign-in page's callbackUrl (safeCallbackUrl), which it redirects a signed-in user to", () => {
  it("is a path of this site as a browser reads it: percent-encoded, line breaks and tabs dropped", () => {
    expect(safeCallbackUrl("/templates?q=a%20b#x")).toBe("/templates?q=a%20b#x");
    expect(safeCallbackUrl("/templates/€?q=é")).toBe("/templates/%E2%82%AC?q=%C3%A9");
    expect(safeCallbackUrl("/a\nb")).toBe("/ab");
    expect(safeCallbackUrl(["/sources", "/other"])).toBe("/sources");
  });

  it("is the console's root for another host (however written), the sign-in page, next-auth or no path", () => {
    for (const value of ["//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "/.//evil.example"]) {
      expect(safeCallbackUrl(value), JSON.stringify(value)).toBe("/");
    }
    for (const value of ["/signin", "/signin?callbackUrl=/x", "/./signin", "/api/auth/signout", "aaa", "", null, undefined]) {
      expect(safeCallbackUrl(value), JSON.stringify(value)).toBe("/");
    }
  });
});
