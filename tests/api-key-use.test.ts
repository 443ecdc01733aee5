import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { as, useTestApp } from "./support/app";

const t = useTestApp();

// CONTRACT §11: a key's last_used_at is set when it authenticates, at most once a minute.
describe("API key last_used_at", () => {
  it("is null until the key is used, then set by its first use", async () => {
    const created = await t.admin.post("/ext/svc/me/api-keys", { description: "use me" });
    expect(created.status).toBe(201);
    const listed = async () => (await t.admin.get("/ext/svc/me/api-keys")).body.find((k: { id: string }) => k.id === created.body.id);
    expect((await listed()).last_used_at).toBeNull();

    const before = Date.now();
    expect((await as(created.body.token).get("/ext/svc/me")).status).toBe(200);
    const first = (await listed()).last_used_at;
    expect(first).not.toBeNull();
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 5_000);

    // Within the minute, further uses write nothing.
    expect((await as(created.body.token).get("/ext/svc/me")).status).toBe(200);
    expect((await listed()).last_used_at).toBe(first);
  });

  it("is written again once the last write is more than a minute old", async () => {
    const created = await t.admin.post("/ext/svc/me/api-keys", { description: "old" });
    await as(created.body.token).get("/ext/svc/me");
    await t.app.db.update(apiKeys).set({ lastUsedAt: sql`now() - interval '2 minutes'` }).where(eq(apiKeys.id, created.body.id));
    const [stale] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id));
    await as(created.body.token).get("/ext/svc/me");
    const [fresh] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id));
    expect(fresh!.lastUsedAt!.getTime()).toBeGreaterThan(stale!.lastUsedAt!.getTime() + 60_000);
  });
});
