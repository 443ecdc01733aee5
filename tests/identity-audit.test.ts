import { describe, expect, it } from "vitest";
import { as, type Client, useTestApp } from "./support/app";

// CONTRACT §17 for identity and template sources: each write's entry names its target by type
// and id, and holds the resource as the API answers it before and after the write, without secrets.
const t = useTestApp();

const PASSWORD = "erin's first long password";
const NEW_PASSWORD = "erin's second long password";
const SOURCE_TOKEN = "identity-audit-source-token-0123456789";

/** The latest entry, which must be of `action`. */
async function lastEntry(action: string) {
  const entry = await t.lastAudit();
  expect(entry.action).toBe(action);
  return entry;
}

/** Checks the latest entry: `action` on the target `type`/`id`, holding `before` and `after`; answers it. */
async function expectEntry(action: string, [type, id]: [string, string], before: unknown, after: unknown) {
  const entry = await lastEntry(action);
  expect(entry, action).toMatchObject({ targetType: type, targetId: id, before, after });
  return entry;
}

describe("identity and source audit entries", () => {
  let erin: Client;

  it("user.create, user.update and user.password.change hold the user as answered", async () => {
    const created = await t.admin.post("/ext/svc/admin/users", { id: "erin", password: PASSWORD });
    expect(created.status).toBe(201);
    await expectEntry("user.create", ["user", "erin"], null, created.body);

    const updated = await t.admin.patch("/ext/svc/admin/users/erin", { display_name: "Erin" });
    expect(updated.status).toBe(200);
    await expectEntry("user.update", ["user", "erin"], created.body, updated.body);

    erin = as((await t.admin.post("/ext/svc/admin/users/erin/api-keys", {})).body.token);
    const changed = await erin.post("/ext/svc/me/password", { current_password: PASSWORD, new_password: NEW_PASSWORD });
    expect(changed.status).toBe(204);
    const now = (await t.admin.get("/ext/svc/admin/users/erin")).body;
    const entry = await expectEntry("user.password.change", ["user", "erin"], updated.body, now);
    expect(JSON.stringify(entry)).not.toContain(NEW_PASSWORD);
    expect(JSON.stringify(entry)).not.toContain(PASSWORD);
  });

  it("api_key.create holds the key without its token; api_key.revoke the key as listed", async () => {
    const key = await erin.post("/ext/svc/me/api-keys", { description: "laptop" });
    expect(key.status).toBe(201);
    const { token, ...listed } = key.body;
    const created = await expectEntry("api_key.create", ["api_key", key.body.id], null, listed);
    expect(created.after).not.toHaveProperty("token");
    expect(JSON.stringify(created)).not.toContain(token);

    const [asListed] = (await erin.get("/ext/svc/me/api-keys")).body.filter((k: { id: string }) => k.id === key.body.id);
    expect((await erin.delete(`/ext/svc/me/api-keys/${key.body.id}`)).status).toBe(204);
    await expectEntry("api_key.revoke", ["api_key", key.body.id], asListed, null);
  });

  it("service_account.create and .delete hold the service account", async () => {
    const sa = await erin.post("/ext/svc/me/service-accounts", { id: "erin-bot" });
    expect(sa.status).toBe(201);
    await expectEntry("service_account.create", ["service_account", "erin-bot"], null, sa.body);
    expect((await erin.delete("/ext/svc/me/service-accounts/erin-bot")).status).toBe(204);
    await expectEntry("service_account.delete", ["service_account", "erin-bot"], sa.body, null);
  });

  it("template_source.create and .delete hold the source by name, without its token", async () => {
    const source = await erin.post("/ext/svc/me/template-sources", { url: "https://example.com/audit-market", auth_token: SOURCE_TOKEN });
    expect(source.status, source.text).toBe(201);
    const created = await expectEntry("template_source.create", ["source", "audit-market"], null, source.body);
    expect(JSON.stringify(created)).not.toContain(SOURCE_TOKEN);
    expect((await erin.delete("/ext/svc/me/template-sources/audit-market")).status).toBe(204);
    await expectEntry("template_source.delete", ["source", "audit-market"], source.body, null);
  });

  it("user.delete holds the user before, nothing after", async () => {
    const before = (await t.admin.get("/ext/svc/admin/users/erin")).body;
    expect((await t.admin.delete("/ext/svc/admin/users/erin")).status).toBe(204);
    await expectEntry("user.delete", ["user", "erin"], before, null);
  });
});
