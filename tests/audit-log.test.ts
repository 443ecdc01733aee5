import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { actionLabel, auditSummary, consolePageOf } from "@/components/admin/audit-links";
import { auditEntries, consoleSessions } from "@/db/schema";
import { AUDIT_ACTIONS, SESSION_ACTIONS, SSO_ACTIONS } from "@/lib/contracts/audit-actions";
import { listEndpoints } from "@/lib/contracts/registry/endpoints";
import { pruneAuditEntries } from "@/lib/services/audit/retention";
import { type Client, callRoute, request, useTestApp } from "./support/app";
import { signInWithPassword, signOut } from "./support/console-sessions";
import { manifest } from "./support/fixtures";
import { loggedLines } from "./support/log-scan";
import { ADMIN_TOKEN } from "./support/tokens";

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
  target_type: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
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
    expect(Object.keys(entries[0]!).sort()).toEqual([
      "action",
      "actor",
      "after",
      "at",
      "before",
      "id",
      "request_id",
      "target",
      "target_id",
      "target_type",
    ]);
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
      actorType: "user",
      actorId: "ghost",
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
  it("offers exactly the actions the write endpoints declare, and those sign-ins record outside them", () => {
    const declared = new Set<string>(listEndpoints().flatMap((e) => (e.audit ? [e.audit.action] : [])));
    const signIns: readonly string[] = [...SESSION_ACTIONS, ...SSO_ACTIONS];
    expect(AUDIT_ACTIONS.filter((action) => !signIns.includes(action)).sort()).toEqual([...declared].sort());
    expect([...SESSION_ACTIONS].sort()).toEqual(["session.sign-in", "session.sign-out"]);
    for (const action of signIns) expect(AUDIT_ACTIONS).toContain(action);
    for (const action of signIns) expect(declared.has(action), action).toBe(false);
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

  it("names every action in words, each its own, and sums an entry up in a line", () => {
    const labels = AUDIT_ACTIONS.map((action) => actionLabel(action));
    for (const [i, label] of labels.entries()) expect(label, AUDIT_ACTIONS[i]).not.toMatch(/[._]/);
    expect(new Set(labels).size).toBe(labels.length);
    // A newer server's action the console does not know yet is shown as it is.
    expect(actionLabel("template.teleport")).toBe("template.teleport");
    const entry = { target: "/ext/svc/me/templates/support", target_type: "template" as const, target_id: "support" };
    expect(auditSummary({ ...entry, action: "template.patch" })).toBe("Template edited: support");
    expect(auditSummary({ ...entry, action: "template.update_all", target_id: "*" })).toBe("Templates updated from their sources");
    expect(auditSummary({ ...entry, action: "bank.policy.put", target_type: "policy", target_id: "b1" })).toBe(
      "Bank policy saved: bank b1",
    );
    expect(auditSummary({ ...entry, action: "session.sign-in", target_type: "session", target_id: "0123456789" })).toBe(
      "Signed in to the console",
    );
    expect(auditSummary({ ...entry, action: "user.create", target_type: null, target_id: null })).toBe(
      "User created: /ext/svc/me/templates/support",
    );
  });
});

// CONTRACT §17: what an entry is about (target_type, target_id), the resource before and after,
// filters by target type and time, the export of a whole selection, console sign-ins and sign-outs.
const exportOf = (client: Client, query = "") => client.get(`${AUDIT}/export${query}`);
const lines = (text: string): Entry[] => text.split("\n").flatMap((line) => (line ? [JSON.parse(line) as Entry] : []));

/** Every entry of a selection through the list, page by page (limit 200). */
async function everyPage(query: string): Promise<Entry[]> {
  const seen: Entry[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(t.admin, `?limit=200${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    seen.push(...page.entries);
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

const row = (values: Partial<typeof auditEntries.$inferInsert>): typeof auditEntries.$inferInsert => ({
  actorType: "user",
  actorId: "clock",
  userId: "clock",
  action: "bank.delete",
  target: "/ext/svc/banks/b1",
  requestId: "req",
  ...values,
});

describe("§17: target type, target id, before and after", () => {
  // A day ago, on whole seconds: t0, t1, t2 one second apart.
  const t0 = new Date(Math.floor(Date.now() / 1000) * 1000 - 86_400_000);
  const t1 = new Date(t0.getTime() + 1000);
  const t2 = new Date(t0.getTime() + 2000);
  /** The same instant written with a +02:00 offset. */
  const plusTwo = (date: Date) => new Date(date.getTime() + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
  const ids = async (query: string) => (await list(t.admin, `?actor=clock${query}`)).entries.map((e) => e.request_id);

  beforeAll(async () => {
    await t.app.db.insert(auditEntries).values([
      row({ requestId: "a", at: t0, targetType: "bank", targetId: "b1", before: { bank_id: "b1", name: "Old" }, after: null }),
      row({
        requestId: "b",
        action: "bank.policy.put",
        target: "/ext/svc/banks/b1/policy",
        at: t1,
        targetType: "policy",
        targetId: "b1",
        before: null,
        after: { document: { version: "2026-03-24" }, tags: ["x", "y"] },
      }),
      // Written before §17: no target type, id, before or after.
      row({ requestId: "c", at: t2 }),
    ]);
  });

  it("answers them on every entry, as recorded; null on entries written before them", async () => {
    const { entries } = await list(t.admin, "?actor=clock");
    expect(entries.map((e) => [e.request_id, e.target_type, e.target_id, e.before, e.after])).toEqual([
      ["c", null, null, null, null],
      ["b", "policy", "b1", null, { document: { version: "2026-03-24" }, tags: ["x", "y"] }],
      ["a", "bank", "b1", { bank_id: "b1", name: "Old" }, null],
    ]);
    expect(entries[2]!.at).toBe(t0.toISOString());
  });

  it("filters by target type, and by time: from inclusive, to exclusive, any ISO 8601 offset", async () => {
    expect(await ids("&target_type=bank")).toEqual(["a"]);
    expect(await ids("&target_type=policy")).toEqual(["b"]);
    expect(await ids("&target_type=session")).toEqual([]);
    expect(await ids(`&from=${t1.toISOString()}`)).toEqual(["c", "b"]);
    expect(await ids(`&to=${t1.toISOString()}`)).toEqual(["a"]);
    expect(await ids(`&from=${t0.toISOString()}&to=${t2.toISOString()}`)).toEqual(["b", "a"]);
    expect(await ids(`&from=${encodeURIComponent(plusTwo(t1))}`)).toEqual(["c", "b"]);
    const minus1559 = new Date(t1.getTime() - (15 * 60 + 59) * 60_000).toISOString().replace("Z", "-15:59");
    expect(await ids(`&from=${encodeURIComponent(minus1559)}`)).toEqual(["c", "b"]);
    expect(await ids(`&from=${t2.toISOString()}&to=${t0.toISOString()}`)).toEqual([]);
    expect(await ids(`&target_type=policy&from=${t0.toISOString()}&action=bank.policy.put`)).toEqual(["b"]);
  });

  it("refuses an unknown target type and a time that is not ISO 8601 with 422, naming the field", async () => {
    for (const [query, field] of [
      ["?target_type=nope", "target_type"],
      ["?from=yesterday", "from"],
      ["?to=2026-13-01T00:00:00Z", "to"],
      ["?from=2026-11-01", "from"],
      ["?to=0000-01-01T00:00:00Z", "to"],
      [`?from=${encodeURIComponent("2026-11-01T00:00:00+16:00")}`, "from"],
      [`?to=${encodeURIComponent("2026-11-01T00:00:00-21:30")}`, "to"],
    ] as const) {
      const res = await t.admin.get(`${AUDIT}${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors[0].path, query).toBe(field);
    }
  });

  it("binds the cursor to the new filters as well", async () => {
    const first = await list(t.admin, `?actor=clock&limit=1&from=${t0.toISOString()}`);
    expect(first.entries.map((e) => e.request_id)).toEqual(["c"]);
    const next = await list(t.admin, `?actor=clock&limit=1&from=${t0.toISOString()}&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(next.entries.map((e) => e.request_id)).toEqual(["b"]);
    const moved = await t.admin.get(
      `${AUDIT}?actor=clock&limit=1&from=${t1.toISOString()}&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0].path).toBe("cursor");
  });
});

describe("GET /ext/svc/admin/audit/export", () => {
  // More than two of the export's pages (500 entries each).
  const BULK = 1234;
  beforeAll(async () => {
    await t.app.db.insert(auditEntries).values(
      Array.from({ length: BULK }, (_, i) =>
        row({
          actorId: "bulk",
          userId: "bulk",
          requestId: `bulk-${i}`,
          action: i % 2 ? "template.patch" : "template.delete",
          target: `/ext/svc/admin/templates/t${i}`,
          targetType: "template",
          targetId: `t${i}`,
          before: { id: `t${i}`, n: i },
          after: i % 2 ? { id: `t${i}`, n: i + 1 } : null,
        }),
      ),
    );
  });

  it("answers the list's whole selection, every page, newest first, one entry of the same JSON per line", async () => {
    const res = await exportOf(t.admin, "?actor=bulk");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.text.endsWith("\n")).toBe(true);
    const exported = lines(res.text);
    expect(exported).toHaveLength(BULK);
    expect(exported).toEqual(await everyPage("&actor=bulk"));
    expect(exported[0]!.request_id).toBe(`bulk-${BULK - 1}`);
  });

  it("keeps every filter of the list: actor, action, target, target type, from and to", async () => {
    for (const query of [
      "?actor=bulk&action=template.patch",
      `?target=${encodeURIComponent("/ext/svc/admin/templates/t12")}`,
      "?target_type=template&actor=bulk&action=template.delete",
      `?actor=nora&from=${encodeURIComponent("2000-01-01T00:00:00+01:00")}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      "?target_type=policy",
      "",
    ]) {
      const res = await exportOf(t.admin, query);
      expect(res.status, query).toBe(200);
      expect(lines(res.text), query).toEqual(await everyPage(query.replace(/^\?/, "&")));
    }
    expect(lines((await exportOf(t.admin, "?actor=bulk&action=template.patch")).text)).toHaveLength(BULK / 2);
  });

  it("a client leaving mid-export is logged as its doing (info), not as the server's failure", async () => {
    const requestId = "export-left-early";
    const response = await callRoute(
      new Request(`http://localhost${AUDIT}/export?actor=bulk`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "x-request-id": requestId },
      }),
    );
    const reader = response.body!.getReader();
    // The whole first page (500 lines, one a chunk): the next read waits on the second page's query, then the client leaves.
    for (let i = 0; i < 500; i++) expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    const linesOf = () =>
      loggedLines()
        .filter((line) => line.includes(requestId))
        .map((line) => JSON.parse(line));
    await expect.poll(() => linesOf().some((line) => line.msg === "the client left before the end of a streamed answer")).toBe(true);
    expect(linesOf().filter((line) => line.level !== "info")).toEqual([]);
  });

  it("answers an empty selection with an empty body", async () => {
    const res = await exportOf(t.admin, "?actor=nobody");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    expect(res.text).toBe("");
  });

  it("is for admins only, and refuses what the list refuses (and paging) with 422 problem+json", async () => {
    expect((await exportOf(nora)).status).toBe(403);
    expect((await request("GET", `${AUDIT}/export`)).status).toBe(401);
    for (const query of ["?limit=5", "?cursor=x", "?from=x", "?target_type=nope", "?who=nora"]) {
      const res = await exportOf(t.admin, query);
      expect(res.status, query).toBe(422);
      expect(res.headers.get("content-type"), query).toMatch(/^application\/problem\+json/);
    }
  });
});

describe("console sign-in and sign-out", () => {
  const PASSWORD = "sana's long console password";
  let cookie: string;

  beforeAll(async () => {
    expect((await t.admin.post("/ext/svc/admin/users", { id: "sana", password: PASSWORD })).status).toBe(201);
  });

  it("records a sign-in: actor the user, target the console session, after the session without its token", async () => {
    cookie = (await signInWithPassword(t.app, "sana", PASSWORD))!;
    expect(cookie).toBeTruthy();
    const [session] = await t.app.db.select().from(consoleSessions).where(eq(consoleSessions.userId, "sana"));
    const { entries } = await list(t.admin, "?actor=sana");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { principal_type: "user", principal_id: "sana", user_id: "sana" },
      action: "session.sign-in",
      target_type: "session",
      target_id: session!.publicId,
      before: null,
      after: { id: session!.publicId, user_id: "sana", expires_at: session!.expiresAt.toISOString() },
    });
    expect(Object.keys(entries[0]!.after as object).sort()).toEqual(["expires_at", "id", "user_id"]);
  });

  it("records no failed sign-in", async () => {
    expect(await signInWithPassword(t.app, "sana", "not sana's password at all")).toBeNull();
    expect(await signInWithPassword(t.app, "nobody-here", PASSWORD)).toBeNull();
    expect((await list(t.admin, "?actor=sana")).entries).toHaveLength(1);
    expect((await list(t.admin, "?action=session.sign-in")).entries).toHaveLength(1);
  });

  it("records a sign-out: before the session ended, after null; found by the session target type", async () => {
    expect(await signOut(t.app, cookie)).toBe(true);
    expect(await t.app.db.select().from(consoleSessions).where(eq(consoleSessions.userId, "sana"))).toEqual([]);
    const { entries } = await list(t.admin, "?target_type=session");
    expect(entries.map((e) => e.action)).toEqual(["session.sign-out", "session.sign-in"]);
    const [out, into] = entries;
    expect(out).toMatchObject({ actor: { principal_id: "sana" }, target_id: into!.target_id, before: into!.after, after: null });
    expect((await list(t.admin, "?action=session.sign-out&actor=sana")).entries).toHaveLength(1);
  });

  it("holds neither the session token nor the password, in the list or the export", async () => {
    const token = cookie.slice(cookie.indexOf("=") + 1);
    for (const text of [(await t.admin.get(`${AUDIT}?limit=200&actor=sana`)).text, (await exportOf(t.admin)).text]) {
      expect(text.includes(token)).toBe(false);
      expect(text.includes(PASSWORD)).toBe(false);
    }
  });
});
