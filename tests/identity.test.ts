import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/platform/config";
import { bootstrapIdentity } from "@/lib/services/identity/bootstrap";
import { ADMIN_TOKEN, as, type Client, useTestApp } from "./support/app";
import { freshDatabase } from "./support/database";

const t = useTestApp();

describe("identity", () => {
  let alice: Client;
  let bob: Client;
  let bot: Client;
  let botKeyId: string;

  it("bootstraps admin from BOOTSTRAP_ADMIN_TOKEN", async () => {
    const me = await t.admin.get("/ext/svc/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      user_id: "admin",
      principal_type: "user",
      principal_id: "admin",
      role: "admin",
      display_name: "Administrator",
    });
  });

  it("lets the admin create members with keys that are shown once and stored hashed", async () => {
    const created = await t.admin.post("/ext/svc/admin/users", { id: "alice", display_name: "Alice", email: "alice@example.com" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: "alice", display_name: "Alice", role: "member", is_active: true, has_password: false });
    const key = await t.admin.post("/ext/svc/admin/users/alice/api-keys", { description: "laptop" });
    expect(key.status).toBe(201);
    expect(key.body.token).toMatch(/^hbk_[A-Za-z0-9_-]{43}$/);
    expect(key.body.token.startsWith("eyJ")).toBe(false);
    alice = as(key.body.token);
    const listed = await t.admin.get("/ext/svc/admin/users/alice/api-keys");
    expect(listed.body).toHaveLength(1);
    expect(listed.text).not.toContain(key.body.token);
    const stored = await t.app.db.execute(sql`select * from api_keys`);
    expect(JSON.stringify(stored)).not.toContain(key.body.token);
    bob = await t.user("bob");
  });

  it("answers 409 for an existing user id and 422 for a bad one", async () => {
    const taken = await t.admin.post("/ext/svc/admin/users", { id: "alice" });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([{ path: "id", message: expect.any(String) }]);
    const bad = await t.admin.post("/ext/svc/admin/users", { id: "Alice Smith" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe("id");
  });

  it("lets alice create a service account whose user_id is hers", async () => {
    const sa = await alice.post("/ext/svc/me/service-accounts", { id: "ci-bot", display_name: "CI" });
    expect(sa.status).toBe(201);
    expect(sa.body).toMatchObject({ id: "ci-bot", owner_user_id: "alice", role: "member", is_active: true });
    const key = await alice.post("/ext/svc/me/service-accounts/ci-bot/api-keys", {});
    expect(key.status).toBe(201);
    botKeyId = key.body.id;
    bot = as(key.body.token);
    const me = await bot.get("/ext/svc/me");
    expect(me.body).toEqual({
      user_id: "alice",
      principal_type: "service_account",
      principal_id: "ci-bot",
      role: "member",
      display_name: "CI",
    });
  });

  it("keeps service accounts away from user-only endpoints (403)", async () => {
    expect((await bot.get("/ext/svc/me/api-keys")).status).toBe(403);
    expect((await bot.post("/ext/svc/me/api-keys", {})).status).toBe(403);
    expect((await bot.get("/ext/svc/me/service-accounts")).status).toBe(403);
  });

  it("hides other users' service accounts and keys as missing (404)", async () => {
    expect((await bob.get("/ext/svc/me/service-accounts/ci-bot/api-keys")).status).toBe(404);
    expect((await bob.delete(`/ext/svc/me/service-accounts/ci-bot/api-keys/${botKeyId}`)).status).toBe(404);
    expect((await bob.delete("/ext/svc/me/service-accounts/ci-bot")).status).toBe(404);
    // Bob may use the same service-account id: ids are per owner, and taking one reveals nothing.
    expect((await bob.post("/ext/svc/me/service-accounts", { id: "ci-bot" })).status).toBe(201);
  });

  it("allows only admins to create admin service accounts, and caps them at the owner's role", async () => {
    expect((await alice.post("/ext/svc/me/service-accounts", { id: "root", role: "admin" })).status).toBe(403);
    await t.admin.post("/ext/svc/admin/users", { id: "carol", role: "admin" });
    const carolKey = await t.admin.post("/ext/svc/admin/users/carol/api-keys", {});
    const carol = as(carolKey.body.token);
    expect((await carol.post("/ext/svc/me/service-accounts", { id: "ops", role: "admin" })).status).toBe(201);
    const opsKey = await carol.post("/ext/svc/me/service-accounts/ops/api-keys", {});
    const ops = as(opsKey.body.token);
    expect((await ops.get("/ext/svc/me")).body.role).toBe("admin");
    expect((await ops.get("/ext/svc/admin/users")).status).toBe(200);
    await t.admin.patch("/ext/svc/admin/users/carol", { role: "member" });
    expect((await ops.get("/ext/svc/me")).body.role).toBe("member");
    expect((await ops.get("/ext/svc/admin/users")).status).toBe(403);
  });

  it("revokes keys at once", async () => {
    const key = await alice.post("/ext/svc/me/api-keys", { description: "temp" });
    const temp = as(key.body.token);
    expect((await temp.get("/ext/svc/me")).status).toBe(200);
    expect((await alice.delete(`/ext/svc/me/api-keys/${key.body.id}`)).status).toBe(204);
    const after = await temp.get("/ext/svc/me");
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("disables an inactive user and that user's service accounts", async () => {
    await t.admin.patch("/ext/svc/admin/users/alice", { is_active: false });
    expect((await alice.get("/ext/svc/me")).status).toBe(401);
    expect((await bot.get("/ext/svc/me")).status).toBe(401);
    await t.admin.patch("/ext/svc/admin/users/alice", { is_active: true });
    expect((await alice.get("/ext/svc/me")).status).toBe(200);
    expect((await bot.get("/ext/svc/me")).status).toBe(200);
  });

  it("refuses to remove the last active admin", async () => {
    const res = await t.admin.patch("/ext/svc/admin/users/admin", { role: "member" });
    expect(res.status).toBe(409);
    expect((await t.admin.delete("/ext/svc/admin/users/admin")).status).toBe(409);
  });

  it("sets and clears passwords without ever returning them", async () => {
    const res = await t.admin.patch("/ext/svc/admin/users/bob", { password: "correct horse battery" });
    expect(res.status).toBe(200);
    expect(res.body.has_password).toBe(true);
    expect(res.text).not.toContain("correct horse");
    expect((await t.admin.patch("/ext/svc/admin/users/bob", { password: "short" })).status).toBe(422);
  });

  it("deletes a user with its keys, service accounts and personal sources", async () => {
    await alice.post("/ext/svc/me/template-sources", { url: "https://example.com/alice-market" });
    expect((await t.admin.delete("/ext/svc/admin/users/alice")).status).toBe(204);
    expect((await t.admin.get("/ext/svc/admin/users/alice")).status).toBe(404);
    expect((await alice.get("/ext/svc/me")).status).toBe(401);
    expect((await bot.get("/ext/svc/me")).status).toBe(401);
    const leftovers = await t.app.db.execute(
      sql`select (select count(*) from api_keys where user_id = 'alice') + (select count(*) from service_accounts where owner_user_id = 'alice') + (select count(*) from template_sources where owner = 'alice') as n`,
    );
    const rows = (leftovers as unknown as { rows?: { n: number }[] }).rows ?? (leftovers as unknown as { n: number }[]);
    expect(Number(rows[0]!.n)).toBe(0);
    // The id may be reused.
    expect((await t.admin.post("/ext/svc/admin/users", { id: "alice" })).status).toBe(201);
  });
});

// What the log tells an operator at start about signing in as admin (the settings' examples must never lock anyone out).
describe("bootstrap says how the admin signs in", () => {
  it("with a token alone: no console password yet, and which setting gives one; then, given one, that it does", async () => {
    const database = await freshDatabase();
    try {
      const start = async (env: Record<string, string>) => {
        const lines: string[] = [];
        const config = loadConfig({ DATA_DIR: "/nonexistent", ...env });
        await bootstrapIdentity({ config, db: database.handle.db }, (line) => lines.push(line));
        return lines.join("\n");
      };
      const tokenOnly = await start({ BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN });
      expect(tokenOnly).toContain('User "admin" has no console password yet');
      expect(tokenOnly).toContain("Set BOOTSTRAP_ADMIN_PASSWORD");
      const withPassword = await start({ BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN, BOOTSTRAP_ADMIN_PASSWORD: "a long console password" });
      expect(withPassword).toContain('User "admin" signs in to the console with the password BOOTSTRAP_ADMIN_PASSWORD gives.');
      // Started again with the token alone: the password set before still signs in.
      expect(await start({ BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN })).toContain(
        'User "admin" signs in to the console with the password it has',
      );
      // Nothing printed holds a secret.
      expect(`${tokenOnly}${withPassword}`).not.toContain(ADMIN_TOKEN);
      expect(withPassword).not.toContain("a long console password");
    } finally {
      await database.close();
    }
  });
});
