import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { consolePageOf } from "@/components/admin/audit-links";
import { auditEntries } from "@/db/schema";
import { AUDIT_ACTIONS, SESSION_ACTIONS } from "@/lib/contracts/audit/actions";
import { listEndpoints } from "@/lib/contracts/endpoints";
import { pruneAuditEntries } from "@/lib/services/audit/retention";
import { type Client, request, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";

// CONTRACT §14: GET /ext/svc/admin/audit, newest first, filtered by actor, action and target, paged.
const t = useTestApp();
const AUDIT = "/ext/svc/admin/audit";
let nora: Client;

interface Entry {
  id: string;
  at: string;
  actor: { principal_type: string; principal_id: string; user_id: string };
  action: string;
  target: string;
  request_id: string;
}
const list = async (client: Client, query = "") =>
  (await client.get<{ entries: Entry[]; next_cursor: string | null }>(`${AUDIT}${query}`)).body;

beforeAll(async () => {
  nora = await t.user("nora");
  for (const id of ["one", "two", "three"]) {
    expect((await nora.post("/ext/svc/me/templates", { id, name: id, manifest: manifest() })).status).toBe(200);
  }
  expect((await nora.delete("/ext/svc/me/templates/two")).status).toBe(204);
  expect((await t.admin.post("/ext/svc/admin/templates", { id: "shared", name: "Shared", manifest: manifest() })).status).toBe(200);
  expect((await t.admin.delete("/ext/svc/admin/templates/shared")).status).toBe(204);
});

describe("GET /ext/svc/admin/audit", () => {
  it("answers admins with every entry, newest first, in the contract's shape", async () => {
    const { entries, next_cursor } = await list(t.admin);
    expect(next_cursor).toBeNull();
    expect(entries.slice(0, 2).map((e) => [e.action, e.target])).toEqual([
      ["template.delete", "/ext/svc/admin/templates/shared"],
      ["template.create", "/ext/svc/admin/templates/shared"],
    ]);
    expect(Object.keys(entries[0]!).sort()).toEqual(["action", "actor", "at", "id", "request_id", "target"]);
    expect(entries[0]!.actor).toEqual({ principal_type: "user", principal_id: "admin", user_id: "admin" });
    expect(entries[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("filters by actor, action and target (the path or any path below it)", async () => {
    const byNora = await list(t.admin, "?actor=nora");
    expect(byNora.entries.map((e) => `${e.action} ${e.target}`)).toEqual([
      "template.delete /ext/svc/me/templates/two",
      "template.create /ext/svc/me/templates/three",
      "template.create /ext/svc/me/templates/two",
      "template.create /ext/svc/me/templates/one",
    ]);
    const deletes = await list(t.admin, "?action=template.delete");
    expect(deletes.entries.map((e) => e.actor.principal_id)).toEqual(["admin", "nora"]);
    const two = await list(t.admin, `?target=${encodeURIComponent("/ext/svc/me/templates/two")}`);
    expect(two.entries.map((e) => e.action)).toEqual(["template.delete", "template.create"]);
    // A prefix finds what lies below it, and only whole path segments: `/templates/t` is not `/templates/two`.
    const noraKeys = await list(t.admin, `?target=${encodeURIComponent("/ext/svc/admin/users/nora")}`);
    expect(noraKeys.entries.map((e) => e.action)).toEqual(["api_key.create", "user.create"]);
    expect((await list(t.admin, `?target=${encodeURIComponent("/ext/svc/me/templates/t")}`)).entries).toEqual([]);
    const combined = await list(t.admin, `?actor=nora&action=template.create&target=${encodeURIComponent("/ext/svc/me/templates")}`);
    expect(combined.entries).toHaveLength(3);
  });

  it("pages with limit and an opaque cursor bound to the filters", async () => {
    const all = (await list(t.admin)).entries;
    const seen: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(t.admin, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));

    const first = await list(t.admin, "?limit=1&actor=nora");
    const wrongFilters = await t.admin.get(`${AUDIT}?limit=1&actor=admin&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(wrongFilters.status).toBe(422);
    expect(wrongFilters.body.errors[0].path).toBe("cursor");
    expect((await t.admin.get(`${AUDIT}?cursor=forged.cursor`)).status).toBe(422);
  });

  it("refuses limits outside 1-200 and unknown filters with 422", async () => {
    for (const query of ["?limit=0", "?limit=201", "?limit=x", "?who=nora"])
      expect((await t.admin.get(`${AUDIT}${query}`)).status, query).toBe(422);
  });

  it("is for admins only: members get 403, anonymous callers 401", async () => {
    expect((await nora.get(AUDIT)).status).toBe(403);
    expect((await t.admin.get(AUDIT)).status).toBe(200);
    expect((await request("GET", AUDIT)).status).toBe(401);
  });
});

describe("retention", () => {
  it("prunes entries older than the retention period and keeps the rest", async () => {
    const before = (await list(t.admin, "?limit=200")).entries.length;
    await t.app.db.insert(auditEntries).values({
      principalType: "user",
      principalId: "ghost",
      userId: "ghost",
      action: "template.delete",
      target: "/ext/svc/me/templates/old",
      requestId: "old",
      at: sql`now() - interval '400 days'`,
    });
    expect((await list(t.admin, "?actor=ghost")).entries).toHaveLength(1);
    expect(await pruneAuditEntries(t.app.db, 365)).toBe(1);
    expect((await list(t.admin, "?actor=ghost")).entries).toEqual([]);
    expect((await list(t.admin, "?limit=200")).entries.length).toBe(before);
  });
});

describe("the console's audit page", () => {
  it("offers exactly the actions the write endpoints declare, and the console sessions' recorded outside them", () => {
    const declared = new Set(listEndpoints().flatMap((e) => (e.audit ? [e.audit.action] : [])));
    const sessions: readonly string[] = SESSION_ACTIONS;
    expect(AUDIT_ACTIONS.filter((action) => !sessions.includes(action)).sort()).toEqual([...declared].sort());
    expect([...SESSION_ACTIONS].sort()).toEqual(["session.sign-in", "session.sign-out"]);
    for (const action of SESSION_ACTIONS) expect(AUDIT_ACTIONS).toContain(action);
    for (const action of SESSION_ACTIONS) expect(declared.has(action), action).toBe(false);
  });

  it("links targets to the resources' console pages; others' personal resources are not the viewer's to open", () => {
    expect(consolePageOf("/ext/svc/admin/templates/support", "nora", "admin")).toBe("/templates/server/support");
    expect(consolePageOf("/ext/svc/admin/templates", "nora", "admin")).toBe("/templates");
    expect(consolePageOf("/ext/svc/me/templates/notes", "admin", "admin")).toBe("/templates/personal/notes");
    expect(consolePageOf("/ext/svc/me/templates/notes", "nora", "admin")).toBeNull();
    expect(consolePageOf("/ext/svc/banks/b1/policy", "nora", "admin")).toBe("/banks/b1");
    expect(consolePageOf("/ext/svc/admin/template-sources/market", "nora", "admin")).toBe("/admin/sources");
    expect(consolePageOf("/ext/svc/me/template-sources/mine", "admin", "admin")).toBe("/sources");
    expect(consolePageOf("/ext/svc/admin/users/nora/api-keys/key_1", "admin", "admin")).toBe("/admin/users");
    expect(consolePageOf("/ext/svc/me/api-keys/key_1", "admin", "admin")).toBe("/account");
    expect(consolePageOf("/ext/svc/me/password", "nora", "admin")).toBeNull();
  });
});
