import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiKeys, auditEntries, rateLimits } from "@/db/schema";
import { MAX_API_KEYS_PER_ACTOR } from "@/lib/contracts/limits";
import { problemTypeUri } from "@/lib/contracts/problem-types";
import { actorCacheFor, startActorCache } from "@/lib/services/identity/actor-cache";
import { hashApiKey, insertApiKey } from "@/lib/services/identity/api-keys";
import { as, request, useTestApp } from "./support/app";

const t = useTestApp();
const DAY_MS = 86_400_000;

// CONTRACT §18: keys take `expires_in_days` (1-365) and `scope` (write | read) on every path
// that creates them; an expired key answers 401 key-expired, a read key anything but GET 403
// key-read-only; an actor (a user or a service account) holds at most 50 working keys.

/** Every path that creates keys, with the owner it creates them for (made before use). */
const creationPaths = [
  { name: "own keys", path: () => "/ext/svc/me/api-keys" },
  { name: "an admin's keys for a user", path: () => "/ext/svc/admin/users/kim/api-keys" },
  { name: "a service account's keys", path: () => "/ext/svc/me/service-accounts/ci-bot/api-keys" },
];

async function ensureOwners() {
  const users = await t.admin.get("/ext/svc/admin/users");
  if (!users.body.some((u: { id: string }) => u.id === "kim")) {
    expect((await t.admin.post("/ext/svc/admin/users", { id: "kim" })).status).toBe(201);
    expect((await t.admin.post("/ext/svc/me/service-accounts", { id: "ci-bot" })).status).toBe(201);
  }
}

const listedKey = async (path: string, id: string) => (await t.admin.get(path)).body.find((k: { id: string }) => k.id === id);

describe.each(creationPaths)("creating $name", ({ path }) => {
  it("takes expires_in_days and scope, and answers and lists expires_at and scope", async () => {
    await ensureOwners();
    const before = Date.now();
    const created = await t.admin.post(path(), { description: "reader", expires_in_days: 30, scope: "read" });
    expect(created.status).toBe(201);
    expect(created.body.scope).toBe("read");
    const expiresAt = Date.parse(created.body.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 5_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY_MS + 5_000);
    const listed = await listedKey(path(), created.body.id);
    expect(listed).toMatchObject({ scope: "read", expires_at: created.body.expires_at });
    expect(listed.token).toBeUndefined();
  });

  it("defaults to a write key that never expires", async () => {
    await ensureOwners();
    const created = await t.admin.post(path(), { description: "plain" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ scope: "write", expires_at: null });
    expect(await listedKey(path(), created.body.id)).toMatchObject({ scope: "write", expires_at: null });
  });

  it.each([0, 366, -1, 1.5, "x", "30", true])("refuses expires_in_days %j with 422 at the field", async (value) => {
    await ensureOwners();
    const res = await t.admin.post(path(), { expires_in_days: value });
    expect(res.status).toBe(422);
    expect(res.body.type).toBe(problemTypeUri("validation-failed"));
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["expires_in_days"]);
  });

  it("refuses a scope other than write or read with 422 at the field", async () => {
    await ensureOwners();
    const res = await t.admin.post(path(), { scope: "admin" });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["scope"]);
  });

  it("accepts the bounds 1 and 365 and an explicit null", async () => {
    await ensureOwners();
    for (const days of [1, 365]) {
      const created = await t.admin.post(path(), { expires_in_days: days });
      expect(created.status).toBe(201);
      expect(Math.round((Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / DAY_MS)).toBe(days);
    }
    expect((await t.admin.post(path(), { expires_in_days: null })).body.expires_at).toBeNull();
  });
});

describe("an expired key", () => {
  const expire = (id: string) => t.app.db.update(apiKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(apiKeys.id, id));

  it("answers 401 key-expired, unlike an unknown key", async () => {
    const created = await t.admin.post("/ext/svc/me/api-keys", { expires_in_days: 1 });
    expect((await as(created.body.token).get("/ext/svc/me")).status).toBe(200);
    await expire(created.body.id);
    const res = await as(created.body.token).get("/ext/svc/me");
    expect(res.status).toBe(401);
    expect(res.body.type).toBe(problemTypeUri("key-expired"));
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const unknown = await as(`${created.body.token}x`).get("/ext/svc/me");
    expect(unknown.status).toBe(401);
    expect(unknown.body.type).toBe(problemTypeUri("unauthorized"));
  });

  it("of a service account answers key-expired too", async () => {
    await ensureOwners();
    const created = await t.admin.post("/ext/svc/me/service-accounts/ci-bot/api-keys", { expires_in_days: 5 });
    await expire(created.body.id);
    expect((await as(created.body.token).get("/ext/svc/me")).body.type).toBe(problemTypeUri("key-expired"));
  });

  it("is not counted as a failed guess from its address; an unknown key is", async () => {
    const created = await t.admin.post("/ext/svc/me/api-keys", { expires_in_days: 1 });
    await expire(created.body.id);
    const from = (address: string, token: string) => request("GET", "/ext/svc/me", { token, headers: { "x-forwarded-for": address } });
    expect((await from("198.51.100.7", created.body.token)).status).toBe(401);
    expect((await from("198.51.100.8", `${created.body.token}x`)).status).toBe(401);
    const counted = async (address: string) =>
      (
        await t.app.db
          .select()
          .from(rateLimits)
          .where(and(eq(rateLimits.bucket, "api-key:address"), eq(rateLimits.key, address)))
      ).length;
    expect(await counted("198.51.100.7")).toBe(0);
    expect(await counted("198.51.100.8")).toBe(1);
  });

  describe("with the actor cache", () => {
    afterEach(() => vi.useRealTimers());

    it("is refused even while its actor is cached", async () => {
      await startActorCache(t.app.database);
      const cache = actorCacheFor(t.app.db)!;
      await vi.waitFor(() => expect(cache.serving()).toBe(true), { timeout: 15_000, interval: 50 });
      const created = await t.admin.post("/ext/svc/me/api-keys", { expires_in_days: 1 });
      expect((await as(created.body.token).get("/ext/svc/me")).status).toBe(200);
      expect(cache.get(`key:${hashApiKey(created.body.token)}`)).toBeDefined();
      // Two days on by the wall clock; the cache's own lifetime runs on performance.now(), so the entry stays.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * DAY_MS });
      expect(cache.get(`key:${hashApiKey(created.body.token)}`)).toBeDefined();
      const res = await as(created.body.token).get("/ext/svc/me");
      expect(res.status).toBe(401);
      expect(res.body.type).toBe(problemTypeUri("key-expired"));
    });
  });
});

describe("a read-only key", () => {
  it("may GET", async () => {
    const created = await t.admin.post("/ext/svc/me/api-keys", { scope: "read" });
    const reader = as(created.body.token);
    expect((await reader.get("/ext/svc/me")).status).toBe(200);
    expect((await reader.get("/ext/svc/me/api-keys")).status).toBe(200);
  });

  it("answers 403 key-read-only to POST, PUT, PATCH and DELETE, and writes nothing", async () => {
    await ensureOwners();
    const created = await t.admin.post("/ext/svc/me/api-keys", { scope: "read" });
    const victim = await t.admin.post("/ext/svc/me/api-keys", { description: "stays" });
    const reader = as(created.body.token);
    const attempts = [
      () => reader.post("/ext/svc/me/api-keys", {}),
      () => reader.put("/ext/svc/banks/b1/policy", {}),
      () => reader.patch("/ext/svc/admin/users/kim", { display_name: "Changed" }),
      () => reader.delete(`/ext/svc/me/api-keys/${victim.body.id}`),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(403);
      expect(res.body.type).toBe(problemTypeUri("key-read-only"));
    }
    expect(await listedKey("/ext/svc/me/api-keys", victim.body.id)).toBeDefined();
    expect((await t.admin.get("/ext/svc/admin/users/kim")).body.display_name).not.toBe("Changed");
  });

  it("of a service account is read-only too", async () => {
    await ensureOwners();
    const created = await t.admin.post("/ext/svc/me/service-accounts/ci-bot/api-keys", { scope: "read" });
    expect((await as(created.body.token).get("/ext/svc/me")).status).toBe(200);
    expect((await as(created.body.token).post("/ext/svc/me/service-accounts", { id: "x" })).body.type).toBe(
      problemTypeUri("key-read-only"),
    );
  });

  it("the bootstrap admin token stays a write key that never expires", async () => {
    const [boot] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.description, "BOOTSTRAP_ADMIN_TOKEN"));
    expect(boot).toMatchObject({ scope: "write", expiresAt: null });
  });
});

describe("the audit entry of a key's creation", () => {
  it("records its scope and expiry, never its token", async () => {
    const created = await t.admin.post("/ext/svc/me/api-keys", { description: "audited", scope: "read", expires_in_days: 7 });
    const [entry] = await t.app.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, "api_key.create"), eq(auditEntries.targetId, created.body.id)));
    expect(entry!.after).toMatchObject({ scope: "read", expires_at: created.body.expires_at });
    expect(JSON.stringify(entry!.after)).not.toContain(created.body.token);
  });
});

describe(`at most ${MAX_API_KEYS_PER_ACTOR} working keys per actor`, () => {
  const fill = async (userId: string, serviceAccountId: string | null, n: number) => {
    for (let i = 0; i < n; i++) await insertApiKey(t.app.db, { userId, serviceAccountId }, { description: `fill ${i}` });
  };

  it("answers 409 limit-reached for one more; an expired or revoked key frees a place", async () => {
    expect((await t.admin.post("/ext/svc/admin/users", { id: "full" })).status).toBe(201);
    const path = "/ext/svc/admin/users/full/api-keys";
    await fill("full", null, MAX_API_KEYS_PER_ACTOR - 1);
    const last = await t.admin.post(path, { description: "the fiftieth" });
    expect(last.status).toBe(201);
    const refused = await t.admin.post(path, { description: "one too many" });
    expect(refused.status).toBe(409);
    expect(refused.body.type).toBe(problemTypeUri("limit-reached"));
    expect((await t.admin.get(path)).body).toHaveLength(MAX_API_KEYS_PER_ACTOR);

    await t.app.db.update(apiKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(apiKeys.id, last.body.id));
    const afterExpiry = await t.admin.post(path, { description: "replaces the expired one" });
    expect(afterExpiry.status).toBe(201);
    expect((await t.admin.post(path, {})).status).toBe(409);

    expect((await t.admin.delete(`${path}/${afterExpiry.body.id}`)).status).toBe(204);
    expect((await t.admin.post(path, { description: "replaces the revoked one" })).status).toBe(201);
  });

  it("counts a service account's keys apart from its owner's", async () => {
    expect((await t.admin.post("/ext/svc/admin/users", { id: "owner", role: "member" })).status).toBe(201);
    const ownerKey = await t.admin.post("/ext/svc/admin/users/owner/api-keys", {});
    const owner = as(ownerKey.body.token);
    expect((await owner.post("/ext/svc/me/service-accounts", { id: "bot" })).status).toBe(201);
    await fill("owner", null, MAX_API_KEYS_PER_ACTOR - 1);
    expect((await owner.post("/ext/svc/me/api-keys", {})).body.type).toBe(problemTypeUri("limit-reached"));
    await fill("owner", "bot", MAX_API_KEYS_PER_ACTOR - 1);
    expect((await owner.post("/ext/svc/me/service-accounts/bot/api-keys", {})).status).toBe(201);
    expect((await owner.post("/ext/svc/me/service-accounts/bot/api-keys", {})).body.type).toBe(problemTypeUri("limit-reached"));
  });

  it(`holds when ${MAX_API_KEYS_PER_ACTOR + 10} creations race`, async () => {
    expect((await t.admin.post("/ext/svc/admin/users", { id: "racer" })).status).toBe(201);
    const path = "/ext/svc/admin/users/racer/api-keys";
    const answers = await Promise.all(
      Array.from({ length: MAX_API_KEYS_PER_ACTOR + 10 }, (_, i) => t.admin.post(path, { description: `race ${i}` })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_API_KEYS_PER_ACTOR);
    expect(statuses.filter((s) => s === 409)).toHaveLength(10);
    const [held] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys).where(eq(apiKeys.userId, "racer"));
    expect(held!.n).toBe(MAX_API_KEYS_PER_ACTOR);
  });
});
