import { randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "@/lib/auth/cookies";
import { verifyCredentials } from "@/lib/auth/credentials";
import { authOptions } from "@/lib/auth/options";
import { nextAuthSecret } from "@/lib/auth/secret";
import { request, useTestApp } from "./support/app";
import { mintSessionCookie } from "./support/console-sessions";

const t = useTestApp();

/** A session cookie as next-auth issues it after sign-in: a session row and a token naming it. */
async function sessionCookie(userId: string, options: { maxAge?: number; secret?: string; name?: string } = {}) {
  return mintSessionCookie(t.app, userId, { maxAge: options.maxAge ?? 3600, secret: options.secret, cookieName: options.name });
}

/** A well-signed token for a user that has no row (so no session row can exist either). */
async function unknownUserCookie(userId: string) {
  const token = await encode({
    token: { sub: userId, name: userId, sid: randomBytes(32).toString("base64url") },
    secret: nextAuthSecret(t.app.secretKey),
    maxAge: 3600,
  });
  return `${SESSION_COOKIE}=${token}`;
}

const SAME_ORIGIN_READ = { "sec-fetch-site": "same-origin" };
const SAME_ORIGIN_WRITE = { origin: "http://localhost", "sec-fetch-site": "same-origin" };

function withCookie(cookie: string, headers: Record<string, string> = SAME_ORIGIN_READ) {
  return { headers: { cookie, ...headers } };
}

describe("console session authentication", () => {
  it("sets up member carol and admin dora", async () => {
    await t.user("carol");
    await t.user("dora", "admin");
  });

  it("authenticates a same-origin read by its session cookie as the user", async () => {
    const res = await request("GET", "/ext/svc/me", withCookie(await sessionCookie("carol")));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: "carol", principal_type: "user", principal_id: "carol", role: "member" });
  });

  it("accepts writes whose Origin names the request's host", async () => {
    const cookie = await sessionCookie("carol");
    const created = await request("POST", "/ext/svc/me/template-sources", {
      body: { url: "https://github.com/carol/templates" },
      ...withCookie(cookie, SAME_ORIGIN_WRITE),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "carol", owner: "carol", scope: "personal" });
    const list = await request("GET", "/ext/svc/me/template-sources", withCookie(cookie));
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(["carol"]);
    const removed = await request("DELETE", "/ext/svc/me/template-sources/carol", withCookie(cookie, { origin: "http://localhost" }));
    expect(removed.status).toBe(204);
  });

  it("compares the Origin with X-Forwarded-Host when a reverse proxy sets it", async () => {
    const cookie = await sessionCookie("carol");
    const proxied = { "x-forwarded-host": "console.example.org", host: "127.0.0.1:3000" };
    const ok = await request("GET", "/ext/svc/me", withCookie(cookie, { ...proxied, origin: "https://console.example.org" }));
    expect(ok.status).toBe(200);
    const wrong = await request("GET", "/ext/svc/me", withCookie(cookie, { ...proxied, origin: "http://127.0.0.1:3000" }));
    expect(wrong.status).toBe(403);
  });

  it.each([
    ["no Origin and no Sec-Fetch-Site", "GET", {}],
    ["no Origin and no Sec-Fetch-Site on a write", "POST", {}],
    ["a foreign Origin", "POST", { origin: "https://evil.example" }],
    ["a foreign Origin on a read", "GET", { origin: "https://evil.example" }],
    ["a look-alike Origin", "POST", { origin: "http://localhost.evil.example" }],
    ["Origin null (sandboxed frame, data: URL)", "POST", { origin: "null" }],
    ["a malformed Origin", "POST", { origin: "not a url" }],
    ["Sec-Fetch-Site cross-site", "GET", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site same-site (a sibling subdomain)", "GET", { "sec-fetch-site": "same-site" }],
    ["our Origin but Sec-Fetch-Site cross-site", "POST", { origin: "http://localhost", "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site none (address bar) on a write", "POST", { "sec-fetch-site": "none" }],
  ])("refuses a cookie-authenticated request with %s: 403 problem+json", async (_, method, headers) => {
    const res = await request(method, "/ext/svc/me/template-sources", {
      body: method === "POST" ? { url: "https://github.com/csrf/templates" } : undefined,
      ...withCookie(await sessionCookie("carol"), headers),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body).toMatchObject({ status: 403, title: "Forbidden", type: "urn:bank-templates:problem:cross-site-session" });
    const list = await request("GET", "/ext/svc/me/template-sources", withCookie(await sessionCookie("carol")));
    expect(list.body).toEqual([]);
  });

  it("accepts the console's own header where browsers send neither Origin nor Sec-Fetch-Site (plain http)", async () => {
    const consoleHeader = { "x-requested-with": "bank-templates-console" };
    expect((await request("GET", "/ext/svc/me", withCookie(await sessionCookie("carol"), consoleHeader))).status).toBe(200);
    const crossSite = { ...consoleHeader, "sec-fetch-site": "cross-site" };
    expect((await request("GET", "/ext/svc/me", withCookie(await sessionCookie("carol"), crossSite))).status).toBe(403);
    const foreign = { ...consoleHeader, origin: "https://evil.example" };
    expect((await request("GET", "/ext/svc/me", withCookie(await sessionCookie("carol"), foreign))).status).toBe(403);
    const otherValue = { "x-requested-with": "XMLHttpRequest" };
    expect((await request("GET", "/ext/svc/me", withCookie(await sessionCookie("carol"), otherValue))).status).toBe(403);
  });

  it("allows the user's own address-bar navigation (Sec-Fetch-Site none) for reads", async () => {
    const res = await request("GET", "/ext/svc/me", withCookie(await sessionCookie("carol"), { "sec-fetch-site": "none" }));
    expect(res.status).toBe(200);
  });

  it.each([
    ["a token signed with another secret", () => sessionCookie("carol", { secret: "another-secret-entirely" })],
    ["an expired token", () => sessionCookie("carol", { maxAge: -3600 })],
    ["garbage", async () => `${SESSION_COOKIE}=not-a-jwt`],
    ["a token for a user that does not exist", () => unknownUserCookie("nobody")],
  ])("answers 401 with WWW-Authenticate for %s", async (_, makeCookie) => {
    const res = await request("GET", "/ext/svc/me", withCookie(await makeCookie()));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("signs a deactivated user out at once; reactivation needs a new sign-in (CONTRACT §11)", async () => {
    const cookie = await sessionCookie("carol");
    expect((await t.admin.patch("/ext/svc/admin/users/carol", { is_active: false })).status).toBe(200);
    expect((await request("GET", "/ext/svc/me", withCookie(cookie))).status).toBe(401);
    expect((await t.admin.patch("/ext/svc/admin/users/carol", { is_active: true })).status).toBe(200);
    expect((await request("GET", "/ext/svc/me", withCookie(cookie))).status).toBe(401);
    expect((await request("GET", "/ext/svc/me", withCookie(await sessionCookie("carol")))).status).toBe(200);
  });

  it("applies the user's current role: member 403 on admin paths, a promoted user at once admin", async () => {
    const carol = await sessionCookie("carol");
    expect((await request("GET", "/ext/svc/admin/users", withCookie(carol))).status).toBe(403);
    const dora = await request("GET", "/ext/svc/admin/users", withCookie(await sessionCookie("dora")));
    expect(dora.status).toBe(200);
    expect(dora.body.map((u: { id: string }) => u.id)).toContain("carol");
  });

  it("lets a session use user-only endpoints (API keys), since it is a user", async () => {
    const cookie = await sessionCookie("carol");
    const key = await request("POST", "/ext/svc/me/api-keys", {
      body: { description: "from the console" },
      ...withCookie(cookie, SAME_ORIGIN_WRITE),
    });
    expect(key.status).toBe(201);
    expect(key.body.token).toMatch(/^hbk_/);
  });

  it("leaves bearer authentication unchanged: an Authorization header is used even beside a valid cookie", async () => {
    const cookie = await sessionCookie("dora");
    const wrongKey = await request("GET", "/ext/svc/admin/users", {
      headers: { cookie, ...SAME_ORIGIN_READ, authorization: "Bearer hbk_wrongwrongwrongwrongwrongwrongwrongwrong" },
    });
    expect(wrongKey.status).toBe(401);
    const basic = await request("GET", "/ext/svc/me", {
      headers: { cookie, ...SAME_ORIGIN_READ, authorization: "Basic YWRtaW46YWRtaW4=" },
    });
    expect(basic.status).toBe(401);
  });

  it("reads the __Secure- cookie over https only, and the plain one over http only", async () => {
    const secure = await sessionCookie("carol", { name: SECURE_SESSION_COOKIE });
    const plain = await sessionCookie("carol");
    const https = { "x-forwarded-proto": "https", "sec-fetch-site": "same-origin" };
    expect((await request("GET", "/ext/svc/me", withCookie(secure, https))).status).toBe(200);
    expect((await request("GET", "/ext/svc/me", withCookie(plain, https))).status).toBe(401);
    expect((await request("GET", "/ext/svc/me", withCookie(secure))).status).toBe(401);
  });

  it("joins a session split into chunked cookies (next-auth does so past 4 KB)", async () => {
    const [name, token] = (await sessionCookie("carol")).split("=") as [string, string];
    const half = Math.floor(token.length / 2);
    const chunked = `${name}.0=${token.slice(0, half)}; ${name}.1=${token.slice(half)}`;
    expect((await request("GET", "/ext/svc/me", withCookie(chunked))).status).toBe(200);
  });

  it("answers 404 for unknown paths to a signed-in user, like to a key holder", async () => {
    const res = await request("GET", "/ext/svc/nothing/here", withCookie(await sessionCookie("carol")));
    expect(res.status).toBe(404);
  });
});

describe("console sign-in", () => {
  it("sets up users with and without passwords", async () => {
    expect(
      (await t.admin.post("/ext/svc/admin/users", { id: "erin", password: "erin's long password", email: "Erin@Example.org" })).status,
    ).toBe(201);
    expect((await t.admin.post("/ext/svc/admin/users", { id: "finn" })).status).toBe(201);
    expect(
      (await t.admin.post("/ext/svc/admin/users", { id: "gail", password: "gail's long password", email: "shared@example.org" })).status,
    ).toBe(201);
    expect(
      (await t.admin.post("/ext/svc/admin/users", { id: "hugo", password: "hugo's long password", email: "shared@example.org" })).status,
    ).toBe(201);
  });

  it("verifies the user name (the user id) and password", async () => {
    expect(await verifyCredentials(t.app.db, t.app.config, "erin", "erin's long password")).toEqual({
      id: "erin",
      name: "erin",
      email: "Erin@Example.org",
    });
    expect(await verifyCredentials(t.app.db, t.app.config, " Erin ", "erin's long password")).toMatchObject({ id: "erin" });
    expect(await verifyCredentials(t.app.db, t.app.config, "erin", "wrong password")).toBeNull();
    expect(await verifyCredentials(t.app.db, t.app.config, "nobody", "erin's long password")).toBeNull();
    expect(await verifyCredentials(t.app.db, t.app.config, "finn", "")).toBeNull();
    expect(await verifyCredentials(t.app.db, t.app.config, "finn", "any password")).toBeNull();
    expect(await verifyCredentials(t.app.db, t.app.config, undefined, undefined)).toBeNull();
  });

  it("refuses an inactive user even with the right password", async () => {
    await t.admin.patch("/ext/svc/admin/users/erin", { is_active: false });
    expect(await verifyCredentials(t.app.db, t.app.config, "erin", "erin's long password")).toBeNull();
    await t.admin.patch("/ext/svc/admin/users/erin", { is_active: true });
  });

  it("configures JWT sessions, Secure cookies over https only, and the sign-in page", () => {
    const plain = authOptions(t.app, { https: false });
    expect(plain.session?.strategy).toBe("jwt");
    expect(plain.useSecureCookies).toBe(false);
    expect(plain.pages?.signIn).toBe("/signin");
    expect(plain.providers.map((p) => p.id)).toEqual(["credentials"]);
    expect(plain.secret).toBe(nextAuthSecret(t.app.secretKey));
    expect(authOptions(t.app, { https: true }).useSecureCookies).toBe(true);
  });

  it("derives the session secret from SECRET_KEY: stable per key, different per key, not the key itself", () => {
    const a = nextAuthSecret(Buffer.alloc(32, 1));
    expect(nextAuthSecret(Buffer.alloc(32, 1))).toBe(a);
    expect(nextAuthSecret(Buffer.alloc(32, 2))).not.toBe(a);
    expect(a).not.toContain(Buffer.alloc(32, 1).toString("base64url"));
    expect(Buffer.from(a, "base64url")).toHaveLength(32);
  });
});
