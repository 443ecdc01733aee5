import { desc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bankPolicyChanges } from "@/db/schema";
import { type ApiResponse, type Client, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";

// CONTRACT §16: every PUT and DELETE of a bank's policy is a `policy` entry of the bank's history,
// and POST .../policy/restore puts back what one of them left.
const t = useTestApp();
let alice: Client;
let bob: Client;

const V1 = { version: "2026-03-24", default_strategy: "balanced" };
const V2 = { version: "2026-03-24", default_strategy: "reckless", public_access: { default: { actions: ["bank:recall"] } } };

const policyPath = (bankId: string) => `/ext/svc/banks/${bankId}/policy`;
const restorePath = (bankId: string) => `${policyPath(bankId)}/restore`;

interface Entry {
  kind: "import" | "policy";
  id: string;
  actor: string;
  template?: string;
  at?: string;
  applied_at?: string;
  before?: unknown;
  after?: unknown;
  restored_from?: string | null;
}

async function historyOf(caller: Client, bankId: string): Promise<Entry[]> {
  const res = await caller.get(`/ext/svc/banks/${bankId}/history`);
  expect(res.status, res.text).toBe(200);
  return res.body.entries;
}

const lastAudit = () => t.lastAudit();

function expectOk(res: ApiResponse, status = 200) {
  expect(res.status, res.text).toBe(status);
}

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
  expectOk(await alice.post("/ext/svc/me/templates", { id: "first", name: "First", manifest: manifest() }));
  expectOk(
    await alice.post("/ext/svc/me/templates", {
      id: "second",
      name: "Second",
      manifest: manifest({ bank: { disposition_skepticism: 2 } }),
    }),
  );
  expectOk(await alice.post("/ext/svc/banks", { bank_id: "hist", template: "first" }));
  expectOk(await bob.post("/ext/svc/me/templates", { id: "bobs", name: "Bob's", manifest: manifest() }));
  expectOk(await bob.post("/ext/svc/banks", { bank_id: "bobs-bank", template: "bobs" }));
});

describe("policy entries of a bank's history", () => {
  it("lists PUT, PUT and DELETE newest first with their documents, interleaved with imports", async () => {
    expectOk(await alice.put(policyPath("hist"), { document: V1 }));
    expectOk(await alice.put(policyPath("hist"), { document: V2 }));
    expectOk(await alice.post("/ext/svc/banks", { bank_id: "hist", template: "second" }));
    expectOk(await alice.delete(policyPath("hist")), 204);

    const entries = await historyOf(alice, "hist");
    expect(entries.map((e) => [e.kind, e.template ?? null])).toEqual([
      ["policy", null],
      ["import", "personal/second"],
      ["policy", null],
      ["policy", null],
      ["import", "personal/first"],
    ]);
    const [deleted, , second, first] = entries as [Entry, Entry, Entry, Entry];
    expect(first).toMatchObject({ kind: "policy", actor: "alice", before: null, after: V1, restored_from: null });
    expect(second).toMatchObject({ before: V1, after: V2, restored_from: null });
    expect(deleted).toMatchObject({ before: V2, after: null, restored_from: null });
    for (const entry of entries) expect(typeof entry.id).toBe("string");
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    const times = entries.map((e) => Date.parse((e.kind === "import" ? e.applied_at : e.at)!));
    for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThan(times[i]!);
  });

  it("stays visible after the policy was deleted, to the owner and to admins only", async () => {
    expect((await alice.get(policyPath("hist"))).status).toBe(404);
    expect((await historyOf(t.admin, "hist")).filter((e) => e.kind === "policy")).toHaveLength(3);
    expect((await bob.get("/ext/svc/banks/hist/history")).status).toBe(404);
  });

  it("records an admin's policy for a bank that does not exist yet, and keeps it for the bank created later", async () => {
    expectOk(await t.admin.put(policyPath("later"), { document: V1 }));
    expectOk(await alice.post("/ext/svc/banks", { bank_id: "later", template: "first" }));
    const entries = await historyOf(alice, "later");
    expect(entries.map((e) => [e.kind, e.actor])).toEqual([
      ["import", "alice"],
      ["policy", "admin"],
    ]);
  });
});

describe("POST .../policy/restore", () => {
  const policyEntries = async (bankId: string) => (await historyOf(alice, bankId)).filter((e) => e.kind === "policy");

  it("puts back the document of a PUT entry: 200 with the policy, a history entry naming it, an audit entry", async () => {
    const v1Entry = (await policyEntries("hist")).find((e) => e.before === null && e.after !== null)!;
    const res = await alice.post(restorePath("hist"), { entry: v1Entry.id });
    expectOk(res);
    expect(res.body).toEqual({ bank_id: "hist", document: V1 });
    expect((await alice.get(policyPath("hist"))).body).toEqual({ bank_id: "hist", document: V1 });

    const [newest] = await historyOf(alice, "hist");
    expect(newest).toMatchObject({ kind: "policy", actor: "alice", before: null, after: V1, restored_from: v1Entry.id });
    expect(await lastAudit()).toMatchObject({
      action: "bank.policy.restore",
      target: "/ext/svc/banks/hist/policy",
      targetType: "policy",
      targetId: "hist",
      before: null,
      after: { bank_id: "hist", document: V1 },
    });
  });

  it("restores a PUT entry over another document: before is the document replaced", async () => {
    const v2Entry = (await policyEntries("hist")).find((e) => JSON.stringify(e.after) === JSON.stringify(V2))!;
    expectOk(await alice.post(restorePath("hist"), { entry: v2Entry.id }));
    const [newest] = await historyOf(alice, "hist");
    expect(newest).toMatchObject({ before: V1, after: V2, restored_from: v2Entry.id });
    expect(await lastAudit()).toMatchObject({ before: { bank_id: "hist", document: V1 }, after: { bank_id: "hist", document: V2 } });
  });

  it("deletes the policy for a DELETE entry: 200 with a null document", async () => {
    const deleteEntry = (await policyEntries("hist")).find((e) => e.after === null)!;
    const res = await alice.post(restorePath("hist"), { entry: deleteEntry.id });
    expectOk(res);
    expect(res.body).toEqual({ bank_id: "hist", document: null });
    expect((await alice.get(policyPath("hist"))).status).toBe(404);
    const [newest] = await historyOf(alice, "hist");
    expect(newest).toMatchObject({ kind: "policy", before: V2, after: null, restored_from: deleteEntry.id });
    expect(await lastAudit()).toMatchObject({
      action: "bank.policy.restore",
      targetType: "policy",
      targetId: "hist",
      before: { bank_id: "hist", document: V2 },
      after: null,
    });
  });

  it("restoring a deletion when there is no policy changes nothing: 200, no history entry, an audit entry of no change", async () => {
    const entries = await policyEntries("hist");
    const deleteEntry = entries.find((e) => e.after === null)!;
    const res = await alice.post(restorePath("hist"), { entry: deleteEntry.id });
    expectOk(res);
    expect(res.body).toEqual({ bank_id: "hist", document: null });
    expect(await policyEntries("hist")).toHaveLength(entries.length);
    expect(await lastAudit()).toMatchObject({ action: "bank.policy.restore", targetId: "hist", before: null, after: null });
  });

  it("answers 404 for an id that is not a policy entry of this bank", async () => {
    const importEntry = (await historyOf(alice, "hist")).find((e) => e.kind === "import")!;
    expectOk(await bob.put(policyPath("bobs-bank"), { document: V2 }));
    const bobsEntry = (await historyOf(bob, "bobs-bank")).find((e) => e.kind === "policy")!;
    for (const entry of ["no-such-entry", "00000000-0000-4000-8000-000000000000", importEntry.id, bobsEntry.id]) {
      const res = await alice.post(restorePath("hist"), { entry });
      expect(res.status, entry).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    // Not even an admin restores another bank's entry here.
    expect((await t.admin.post(restorePath("hist"), { entry: bobsEntry.id })).status).toBe(404);
  });

  it("answers as PUT does to a member who does not own the bank: 403, whether the bank exists or not", async () => {
    const entry = (await policyEntries("hist"))[0]!;
    for (const bankId of ["hist", "no-such-bank"]) {
      expect((await bob.put(policyPath(bankId), { document: V1 })).status).toBe(403);
      const res = await bob.post(restorePath(bankId), { entry: entry.id });
      expect(res.status, bankId).toBe(403);
    }
    expect((await alice.get(policyPath("hist"))).status).toBe(404);
  });

  it("lets an admin restore any bank's entry", async () => {
    const v1Entry = (await policyEntries("hist")).find((e) => e.before === null && e.restored_from === null)!;
    const res = await t.admin.post(restorePath("hist"), { entry: v1Entry.id });
    expectOk(res);
    expect(res.body.document).toEqual(V1);
    expect((await historyOf(alice, "hist"))[0]).toMatchObject({ actor: "admin", restored_from: v1Entry.id });
  });

  it.each([
    ["no entry", {}, "entry"],
    ["an entry that is not a string", { entry: 7 }, "entry"],
    ["an empty entry", { entry: "" }, "entry"],
    ["an unknown key", { entry: "x", also: true }, "also"],
  ])("rejects a body with %s (422)", async (_, body, path) => {
    const res = await alice.post(restorePath("hist"), body);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("refuses a document that no longer validates: 409 stale-policy-document naming each problem, nothing written", async () => {
    const [stale] = await t.app.db
      .insert(bankPolicyChanges)
      .values({ bankId: "hist", actor: "alice", before: null, after: { version: "2025-01-01", colour: "red" } })
      .returning({ id: bankPolicyChanges.id });
    const entries = await policyEntries("hist");
    const current = await alice.get(policyPath("hist"));

    const res = await alice.post(restorePath("hist"), { entry: stale!.id });
    expect(res.status, res.text).toBe(409);
    expect(res.body.type).toMatch(/stale-policy-document$/);
    expect(res.body.detail).toContain(stale!.id);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["document.colour", "document.version"]);
    expect(await policyEntries("hist")).toEqual(entries);
    expect((await alice.get(policyPath("hist"))).body).toEqual(current.body);
    await t.app.db.delete(bankPolicyChanges).where(eq(bankPolicyChanges.id, stale!.id));
  });
});

describe("concurrent policy writes", () => {
  // Two first PUTs at once: neither finds a row to lock, so only the bank's policy lock makes the
  // second read the first's document as its `before`. Truly concurrent on PostgreSQL; on PGlite
  // (one connection) the same invariant must hold.
  it("chain their history entries: each before is the after of the one before it", async () => {
    for (let round = 0; round < 25; round++) {
      const bankId = `race-${round}`;
      const [a, b] = await Promise.all([
        t.admin.put(policyPath(bankId), { document: V1 }),
        t.admin.put(policyPath(bankId), { document: V2 }),
      ]);
      expectOk(a);
      expectOk(b);
      const [newer, older] = (await t.app.db
        .select()
        .from(bankPolicyChanges)
        .where(eq(bankPolicyChanges.bankId, bankId))
        .orderBy(desc(bankPolicyChanges.at))) as [typeof bankPolicyChanges.$inferSelect, typeof bankPolicyChanges.$inferSelect];
      expect(older.before, `round ${round}`).toBeNull();
      expect(newer.before, `round ${round}`).toEqual(older.after);
      expect(newer.at.getTime()).toBeGreaterThan(older.at.getTime());
      // The policy left is the newer entry's document.
      expect((await t.admin.get(policyPath(bankId))).body.document).toEqual(newer.after);
    }
  });

  it("a restore racing a PUT chains too", async () => {
    expectOk(await t.admin.put(policyPath("race-restore"), { document: V1 }));
    const [v1Entry] = await t.app.db.select().from(bankPolicyChanges).where(eq(bankPolicyChanges.bankId, "race-restore"));
    for (let round = 0; round < 10; round++) {
      const [put, restore] = await Promise.all([
        t.admin.put(policyPath("race-restore"), { document: V2 }),
        t.admin.post(restorePath("race-restore"), { entry: v1Entry!.id }),
      ]);
      expectOk(put);
      expectOk(restore);
    }
    const rows = await t.app.db
      .select()
      .from(bankPolicyChanges)
      .where(eq(bankPolicyChanges.bankId, "race-restore"))
      .orderBy(bankPolicyChanges.at);
    expect(rows).toHaveLength(21);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.before, `entry ${i}`).toEqual(rows[i - 1]!.after);
  });
});

describe("the order of a bank's entries of both kinds", () => {
  it("lists an import after a policy change even when the change's clock ran ahead (no tie, no reordering)", async () => {
    expectOk(await alice.post("/ext/svc/banks", { bank_id: "clock-bank", template: "first" }));
    expectOk(await alice.put(policyPath("clock-bank"), { document: V1 }));
    // A policy change recorded by a process whose clock runs an hour ahead.
    const ahead = new Date(Date.now() + 3_600_000);
    await t.app.db.update(bankPolicyChanges).set({ at: ahead }).where(eq(bankPolicyChanges.bankId, "clock-bank"));
    expectOk(await alice.post("/ext/svc/banks", { bank_id: "clock-bank", template: "first" }));
    const entries = await historyOf(alice, "clock-bank");
    expect(entries.map((entry) => entry.kind)).toEqual(["import", "policy", "import"]);
    expect(Date.parse(entries[0]!.applied_at!)).toBeGreaterThan(ahead.getTime());
  });
});
