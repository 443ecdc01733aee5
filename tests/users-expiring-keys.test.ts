import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { problemTypeUri } from "@/lib/contracts/problem-types";
import { useTestApp } from "./support/app";

const t = useTestApp();
const PATH = "/ext/svc/admin/users?keys_expiring_within_days=7";

// GET /admin/users?keys_expiring_within_days=N (beyond the contract; the console's Home): the
// users with one of their own keys that still works and expires within N days, each with the
// first such expiry; without the parameter the list is as before.

const keyFor = async (userId: string, expiresInDays: number | null) => {
  const created = await t.admin.post(`/ext/svc/admin/users/${userId}/api-keys`, { expires_in_days: expiresInDays });
  expect(created.status).toBe(201);
  return created.body as { id: string; expires_at: string | null };
};

describe("the users list with keys_expiring_within_days", () => {
  it("lists only users whose own working keys expire within the window, with the first expiry", async () => {
    // Ana: one key in 2 days and one in 5 (the first counts), one that never expires.
    await t.user("ana");
    const soon = await keyFor("ana", 2);
    await keyFor("ana", 5);
    // Ben: a key in 30 days only. Cy: a key that never expires and an expired one.
    await t.user("ben");
    await keyFor("ben", 30);
    await t.user("cy");
    const expired = await keyFor("cy", 1);
    await t.app.db.update(apiKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(apiKeys.id, expired.id));
    // Dee: only her service account's key expires soon, which does not count.
    const dee = await t.user("dee");
    expect((await dee.post("/ext/svc/me/service-accounts", { id: "dee-bot" })).status).toBe(201);
    expect((await dee.post("/ext/svc/me/service-accounts/dee-bot/api-keys", { expires_in_days: 1 })).status).toBe(201);

    const listed = await t.admin.get(PATH);
    expect(listed.status).toBe(200);
    expect(listed.body.map((u: { id: string }) => u.id)).toEqual(["ana"]);
    expect(listed.body[0]).toMatchObject({ id: "ana", role: "member", is_active: true, next_key_expires_at: soon.expires_at });

    // A wider window takes Ben in, by id, with his key's expiry.
    const wider = await t.admin.get("/ext/svc/admin/users?keys_expiring_within_days=30");
    expect(wider.body.map((u: { id: string; next_key_expires_at: string }) => [u.id, u.next_key_expires_at !== undefined])).toEqual([
      ["ana", true],
      ["ben", true],
    ]);
  });

  it("drops a user once the expiring key is revoked", async () => {
    await t.user("eve");
    const key = await keyFor("eve", 3);
    expect((await t.admin.get(PATH)).body.map((u: { id: string }) => u.id)).toContain("eve");
    expect((await t.admin.delete(`/ext/svc/admin/users/eve/api-keys/${key.id}`)).status).toBe(204);
    expect((await t.admin.get(PATH)).body.map((u: { id: string }) => u.id)).not.toContain("eve");
  });

  it("leaves the plain list as it was: every user, no next_key_expires_at", async () => {
    const all = await t.admin.get("/ext/svc/admin/users");
    expect(all.status).toBe(200);
    expect(all.body.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining(["admin", "ana", "ben", "cy", "dee", "eve"]));
    for (const user of all.body) expect(user).not.toHaveProperty("next_key_expires_at");
  });

  it.each(["0", "366", "1.5", "soon"])("refuses keys_expiring_within_days=%s with 422 at the parameter", async (value) => {
    const res = await t.admin.get(`/ext/svc/admin/users?keys_expiring_within_days=${value}`);
    expect(res.status).toBe(422);
    expect(res.body.type).toBe(problemTypeUri("validation-failed"));
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["keys_expiring_within_days"]);
  });

  it("is for admins only, as the list is", async () => {
    const member = await t.user("fay");
    expect((await member.get(PATH)).status).toBe(403);
  });
});

it("a window's edge: a key expiring in exactly N days is listed, one a day later is not", async () => {
  await t.user("gus");
  await keyFor("gus", 7);
  await t.user("hal");
  await keyFor("hal", 8);
  const ids = (await t.admin.get(PATH)).body.map((u: { id: string }) => u.id);
  expect(ids).toContain("gus");
  expect(ids).not.toContain("hal");
});
