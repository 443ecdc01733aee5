import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleSessions } from "@/db/schema";
import { SESSION_MAX_AGE_SECONDS, sessionClaims } from "@/lib/auth/session";
import { type ApiResponse, request, useTestApp } from "./support/app";
import { mintSessionCookie, signInWithPassword, signOut } from "./support/console-sessions";

const t = useTestApp();

const CAROL_PASSWORD = "carol's first long password";
const DORA_PASSWORD = "dora's admin long password";

const SAME_ORIGIN_READ = { "sec-fetch-site": "same-origin" };
const SAME_ORIGIN_WRITE = { origin: "http://localhost", "sec-fetch-site": "same-origin" };

const me = (cookie: string) => request("GET", "/ext/svc/me", { headers: { cookie, ...SAME_ORIGIN_READ } });
const adminUsers = (cookie: string) => request("GET", "/ext/svc/admin/users", { headers: { cookie, ...SAME_ORIGIN_READ } });
const changePasswordWithCookie = (cookie: string, body: unknown) =>
  request("POST", "/ext/svc/me/password", { body, headers: { cookie, ...SAME_ORIGIN_WRITE } });

async function signIn(userId: string, password: string): Promise<string> {
  const cookie = await signInWithPassword(t.app, userId, password);
  if (!cookie) throw new Error(`signing in ${userId} was refused`);
  return cookie;
}

async function sessionIdOf(cookie: string): Promise<string> {
  const claims = await sessionClaims(t.app, cookie.slice(cookie.indexOf("=") + 1));
  if (!claims) throw new Error("not a session token with a session id");
  return claims.sessionId;
}

async function sessionRows(userId: string) {
  return t.app.db.select().from(consoleSessions).where(eq(consoleSessions.userId, userId));
}

function expectRefused(res: ApiResponse) {
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
}

async function createUser(body: Record<string, unknown>) {
  const res = await t.admin.post("/ext/svc/admin/users", body);
  expect(res.status, res.text).toBe(201);
}

async function keyFor(userId: string): Promise<string> {
  const res = await t.admin.post(`/ext/svc/admin/users/${userId}/api-keys`, { description: "sessions test" });
  expect(res.status, res.text).toBe(201);
  return res.body.token;
}

describe("console sessions", () => {
  it("sets up member carol and admin dora, both with passwords", async () => {
    await createUser({ id: "carol", password: CAROL_PASSWORD });
    await createUser({ id: "dora", role: "admin", password: DORA_PASSWORD });
  });

  it("starts a session row at sign-in that lasts 12 hours, and the cookie works", async () => {
    const before = await sessionRows("carol");
    const cookie = await signIn("carol", CAROL_PASSWORD);
    const sid = await sessionIdOf(cookie);
    expect(Buffer.from(sid, "base64url").length).toBeGreaterThanOrEqual(16);
    const rows = await sessionRows("carol");
    expect(rows).toHaveLength(before.length + 1);
    const row = rows.find((r) => r.id === sid)!;
    const lifetime = (row.expiresAt.getTime() - row.createdAt.getTime()) / 1000;
    expect(lifetime).toBeCloseTo(SESSION_MAX_AGE_SECONDS, -1);

    const res = await me(cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: "carol", principal_type: "user", role: "member" });
  });

  it("starts no session for a wrong password", async () => {
    const before = await sessionRows("carol");
    expect(await signInWithPassword(t.app, "carol", "not carol's password")).toBeNull();
    expect(await sessionRows("carol")).toHaveLength(before.length);
  });

  it("ends the session at sign-out: the same cookie is refused afterwards, other sessions go on", async () => {
    const signedOut = await signIn("carol", CAROL_PASSWORD);
    const other = await signIn("carol", CAROL_PASSWORD);
    const sid = await sessionIdOf(signedOut);
    expect(await signOut(t.app, signedOut)).toBe(true);
    expect((await sessionRows("carol")).map((r) => r.id)).not.toContain(sid);
    expectRefused(await me(signedOut));
    expect((await me(other)).status).toBe(200);
  });

  it("changes the password: 204, the caller's session goes on, the user's other sessions end", async () => {
    const caller = await signIn("carol", CAROL_PASSWORD);
    const elsewhere = await signIn("carol", CAROL_PASSWORD);
    const doras = await signIn("dora", DORA_PASSWORD);
    const newPassword = "carol's second long password";

    const res = await changePasswordWithCookie(caller, { current_password: CAROL_PASSWORD, new_password: newPassword });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");

    expect((await me(caller)).status).toBe(200);
    expectRefused(await me(elsewhere));
    expect((await me(doras)).status).toBe(200);
    expect((await sessionRows("carol")).map((r) => r.id)).toEqual([await sessionIdOf(caller)]);

    expect(await signInWithPassword(t.app, "carol", CAROL_PASSWORD)).toBeNull();
    expect((await me(await signIn("carol", newPassword))).status).toBe(200);

    // Back to the first password, for the tests below.
    const back = await changePasswordWithCookie(caller, { current_password: newPassword, new_password: CAROL_PASSWORD });
    expect(back.status, back.text).toBe(204);
  });

  it("ends every session of the user when the change came with an API key", async () => {
    const first = await signIn("carol", CAROL_PASSWORD);
    const second = await signIn("carol", CAROL_PASSWORD);
    const key = await keyFor("carol");
    const res = await request("POST", "/ext/svc/me/password", {
      token: key,
      body: { current_password: CAROL_PASSWORD, new_password: "carol's password set by a program" },
    });
    expect(res.status, res.text).toBe(204);
    expectRefused(await me(first));
    expectRefused(await me(second));
    expect(await sessionRows("carol")).toEqual([]);
    const back = await request("POST", "/ext/svc/me/password", {
      token: key,
      body: { current_password: "carol's password set by a program", new_password: CAROL_PASSWORD },
    });
    expect(back.status, back.text).toBe(204);
  });

  it("answers 422 wrong-password at current_password for a wrong current password, and changes nothing", async () => {
    const caller = await signIn("carol", CAROL_PASSWORD);
    const elsewhere = await signIn("carol", CAROL_PASSWORD);
    const res = await changePasswordWithCookie(caller, { current_password: "a wrong password", new_password: "a new long password" });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.type).toBe("urn:bank-templates:problem:wrong-password");
    expect(res.body.errors).toEqual([{ path: "current_password", message: expect.any(String) }]);
    expect((await me(elsewhere)).status).toBe(200);
    expect(await signInWithPassword(t.app, "carol", CAROL_PASSWORD)).not.toBeNull();
  });

  it("answers 422 wrong-password for a user who has no password", async () => {
    const finn = await t.user("finn");
    const res = await finn.post("/ext/svc/me/password", { current_password: "", new_password: "finn's first long password" });
    expect(res.status).toBe(422);
    expect(res.body.type).toBe("urn:bank-templates:problem:wrong-password");
    expect(res.body.errors).toEqual([{ path: "current_password", message: expect.any(String) }]);
  });

  it("counts wrong current passwords as failed sign-ins: the 11th within the window answers 429", async () => {
    const gus = await t.user("gus");
    await t.admin.patch("/ext/svc/admin/users/gus", { password: "gus's long password" });
    const wrong = { current_password: "not gus's password", new_password: "a new long password" };
    for (let i = 0; i < 10; i++) expect((await gus.post("/ext/svc/me/password", wrong)).status).toBe(422);
    const throttled = await gus.post("/ext/svc/me/password", { ...wrong, current_password: "gus's long password" });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(throttled.body.type).toBe("urn:bank-templates:problem:rate-limited");
  });

  it.each([
    ["shorter than 12 characters", { current_password: CAROL_PASSWORD, new_password: "elevenchars" }, "new_password"],
    ["longer than 512 characters", { current_password: CAROL_PASSWORD, new_password: "x".repeat(513) }, "new_password"],
    ["missing", { current_password: CAROL_PASSWORD }, "new_password"],
    ["an unknown field", { current_password: CAROL_PASSWORD, new_password: "a new long password", extra: 1 }, "extra"],
  ])("answers 422 at the field for a new password %s", async (_, body, path) => {
    const caller = await signIn("carol", CAROL_PASSWORD);
    const res = await changePasswordWithCookie(caller, body);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("accepts a new password of exactly 12 and of exactly 512 characters", async () => {
    const caller = await signIn("carol", CAROL_PASSWORD);
    const twelve = "x".repeat(12);
    const long = "y".repeat(512);
    expect((await changePasswordWithCookie(caller, { current_password: CAROL_PASSWORD, new_password: twelve })).status).toBe(204);
    expect((await changePasswordWithCookie(caller, { current_password: twelve, new_password: long })).status).toBe(204);
    expect((await changePasswordWithCookie(caller, { current_password: long, new_password: CAROL_PASSWORD })).status).toBe(204);
  });

  it("refuses service accounts with 403", async () => {
    const carol = await keyFor("carol");
    expect((await request("POST", "/ext/svc/me/service-accounts", { token: carol, body: { id: "carols-bot" } })).status).toBe(201);
    const saKey = await request("POST", "/ext/svc/me/service-accounts/carols-bot/api-keys", { token: carol, body: {} });
    expect(saKey.status).toBe(201);
    const res = await request("POST", "/ext/svc/me/password", {
      token: saKey.body.token,
      body: { current_password: CAROL_PASSWORD, new_password: "a bot's long password" },
    });
    expect(res.status).toBe(403);
  });

  it("lets only one of two concurrent changes from the same current password win", async () => {
    const caller = await signIn("carol", CAROL_PASSWORD);
    const results = await Promise.all(
      ["carol's racing password one", "carol's racing password two"].map((newPassword) =>
        changePasswordWithCookie(caller, { current_password: CAROL_PASSWORD, new_password: newPassword }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect([409, 422]).toContain(statuses[1]);
    const winner = results.findIndex((r) => r.status === 204) === 0 ? "carol's racing password one" : "carol's racing password two";
    expect((await changePasswordWithCookie(caller, { current_password: winner, new_password: CAROL_PASSWORD })).status).toBe(204);
  });

  it("ends sessions at deactivation; reactivating does not bring them back", async () => {
    const cookie = await signIn("carol", CAROL_PASSWORD);
    expect((await t.admin.patch("/ext/svc/admin/users/carol", { is_active: false })).status).toBe(200);
    expectRefused(await me(cookie));
    expect((await t.admin.patch("/ext/svc/admin/users/carol", { is_active: true })).status).toBe(200);
    expectRefused(await me(cookie));
    expect((await me(await signIn("carol", CAROL_PASSWORD))).status).toBe(200);
  });

  it("ends sessions when an admin sets the user's password", async () => {
    const cookie = await signIn("carol", CAROL_PASSWORD);
    expect((await t.admin.patch("/ext/svc/admin/users/carol", { password: CAROL_PASSWORD })).status).toBe(200);
    expectRefused(await me(cookie));
  });

  it("never lets a deleted member's cookie serve a later admin with the same id", async () => {
    await createUser({ id: "erin", password: "erin's long password" });
    const cookie = await signIn("erin", "erin's long password");
    expect((await me(cookie)).status).toBe(200);
    expect((await t.admin.delete("/ext/svc/admin/users/erin")).status).toBe(204);
    expectRefused(await me(cookie));
    await createUser({ id: "erin", role: "admin", password: "erin's long password" });
    expectRefused(await me(cookie));
    expectRefused(await adminUsers(cookie));
    // The new erin's own sign-in is an admin session.
    expect((await adminUsers(await signIn("erin", "erin's long password"))).status).toBe(200);
  });

  it("refuses a session whose row has expired, although its token has not", async () => {
    const cookie = await mintSessionCookie(t.app, "carol");
    expect((await me(cookie)).status).toBe(200);
    await t.app.db
      .update(consoleSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(consoleSessions.id, await sessionIdOf(cookie)));
    expectRefused(await me(cookie));
  });

  it("removes the user's expired rows at the next sign-in", async () => {
    const cookie = await mintSessionCookie(t.app, "carol");
    const expiredId = await sessionIdOf(cookie);
    await t.app.db.update(consoleSessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(consoleSessions.id, expiredId));
    await signIn("carol", CAROL_PASSWORD);
    expect((await sessionRows("carol")).map((r) => r.id)).not.toContain(expiredId);
  });

  it("refuses a token of the old format, without a session id", async () => {
    expectRefused(await me(await mintSessionCookie(t.app, "carol", { claims: { sid: undefined } })));
  });

  it("refuses a token that names another user's session", async () => {
    const carols = await mintSessionCookie(t.app, "carol");
    const forged = await mintSessionCookie(t.app, "dora", { claims: { sid: await sessionIdOf(carols) } });
    expectRefused(await adminUsers(forged));
  });
});
