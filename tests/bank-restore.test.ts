import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bankImports } from "@/db/schema";
import { type Client, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §21: POST /banks/{bank_id}/restore puts back the bank's content (config, mental models,
// directives) as it was right after an import, a rollout or an edit of its history, in both stores:
// the bank then exports exactly what it exported at that point; a dry run answers the real restore's
// changes and writes nothing; the restore is one more history entry and an audit entry; entries whose
// content the history does not keep answer 409 restore-unavailable.
const t = useTestApp();
let alice: Client;
let bob: Client;

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
});

type Entry = Record<string, unknown>;

/** An export with its entries in key order: Hindsight does not keep the order entries were made in. */
function sorted(exported: Entry): Entry {
  const by = (key: string) => (a: Entry, b: Entry) => String(a[key]).localeCompare(String(b[key]));
  return {
    ...exported,
    mental_models: [...(exported.mental_models as Entry[])].sort(by("id")),
    directives: [...(exported.directives as Entry[])].sort(by("name")),
  };
}

interface StoreCase {
  store: "embedded" | "remote";
  bankId: string;
  template: string;
  /** Who writes the bank: its owner (embedded), an admin (remote: no owners). */
  owner: () => Client;
  /** Who may not restore it. */
  outsider: () => Client;
}

function restoresIn(c: StoreCase) {
  const path = (rest = "") => `/ext/svc/banks/${c.bankId}${rest}`;
  const exported = async () => {
    const res = await c.owner().get(path("/export"));
    expect(res.status, res.text).toBe(200);
    return sorted(res.body);
  };
  const history = async () => (await c.owner().get(path("/history"))).body.entries as Array<Entry & { id: string; kind: string }>;
  const newestId = async () => (await history())[0]!.id;
  const restore = (entry: string, dryRun = false, headers: Record<string, string> = {}) =>
    c.owner().send("POST", path(`/restore${dryRun ? "?dry_run=true" : ""}`), { entry }, headers);

  /** The bank's exports right after each entry, by entry id. */
  const at = new Map<string, Entry>();
  const ids: Record<string, string> = {};
  const remember = async (name: string) => {
    ids[name] = await newestId();
    at.set(ids[name]!, await exported());
  };

  it("keeps the bank's content along its history: an apply, edits, a rollout of a newer version, an edit", async () => {
    const created = await t.admin.post("/ext/svc/admin/templates", { id: c.template, name: "Restorable", manifest: manifest() });
    expect(created.status, created.text).toBe(200);
    const applied = await c.owner().post("/ext/svc/banks", { bank_id: c.bankId, template: `server/${c.template}` });
    expect(applied.status, applied.text).toBe(200);
    await remember("applied");
    expect((await c.owner().put(path("/directives/Kindness"), { content: "Be kind.", priority: 2 })).status).toBe(200);
    await remember("kindness");
    expect((await c.owner().patch(path(), { config: { disposition_empathy: 4, retain_mission: null } })).status).toBe(200);
    await remember("configured");

    const newer = manifest({
      bank: { retain_mission: "Keep every decision.", disposition_skepticism: 5 },
      mental_models: [...manifest().mental_models, { id: "people", name: "People", source_query: "Who is involved?" }],
      directives: [{ name: "Be brief", content: "One sentence." }],
    });
    const patched = await t.admin.patch(`/ext/svc/admin/templates/${c.template}`, { manifest: newer });
    expect(patched.status, patched.text).toBe(200);
    const rollout = await c.owner().post("/ext/svc/banks/rollout", { template: `server/${c.template}`, bank_ids: [c.bankId] });
    expect(rollout.status, rollout.text).toBe(200);
    expect(rollout.body.results[0].problem).toBeNull();
    await remember("rolled-out");
    expect((await c.owner().delete(path("/mental-models/decisions"))).status).toBe(200);
    await remember("removed");
    expect(new Set([...at.values()].map((e) => JSON.stringify(e))).size).toBe(5);
  });

  it("a dry run answers the changes the restore makes and writes nothing", async () => {
    const before = { exported: await exported(), entries: (await history()).length };
    const preview = await restore(ids.configured!, true);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ bank_id: c.bankId, restored_from: ids.configured, dry_run: true });
    expect(await exported()).toEqual(before.exported);
    expect(await history()).toHaveLength(before.entries);

    const real = await restore(ids.configured!);
    expect(real.status, real.text).toBe(200);
    expect(real.body.dry_run).toBe(false);
    expect(real.body.changes).toEqual(preview.body.changes);
    const { changes } = real.body;
    expect(changes.config).toEqual(
      expect.arrayContaining([
        { field: "retain_mission", before: "Keep every decision.", after: null },
        { field: "disposition_skepticism", before: 5, after: 3 },
      ]),
    );
    const byKey = (list: Entry[], key: string) => Object.fromEntries(list.map((e) => [e[key], e.change]));
    expect(byKey(changes.mental_models, "id")).toEqual({ people: "delete", decisions: "create" });
    expect(byKey(changes.directives, "name")).toMatchObject({ "Be brief": "update" });
  });

  it("the bank restored to an entry before the rollout has exactly the content it had then, as one more history entry", async () => {
    expect(await exported()).toEqual(at.get(ids.configured!));
    const [entry] = await history();
    expect(entry).toMatchObject({ kind: "restore", restored_from: ids.configured, actor: c.store === "embedded" ? "alice" : "admin" });
    const audit = await t.lastAudit();
    expect(audit).toMatchObject({ action: "bank.restore", target: path(), targetType: "bank", targetId: c.bankId });
    expect(audit.after).toEqual((await c.owner().get(path())).body);
  });

  it("restores to each entry: an import, an edit, after a rollout, and a restore itself", async () => {
    for (const name of ["applied", "kindness", "removed", "rolled-out"]) {
      const res = await restore(ids[name]!);
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      expect(await exported(), name).toEqual(at.get(ids[name]!));
    }
    // Right after the rollout's import the bank is as that apply left it: no local edits.
    expect((await c.owner().get(path())).body.locally_modified).toBe(false);
    const restoreEntry = await newestId();
    expect((await c.owner().put(path("/directives/Later"), { content: "Later." })).status).toBe(200);
    expect((await restore(restoreEntry)).status).toBe(200);
    expect(await exported()).toEqual(at.get(ids["rolled-out"]!));
    // Nothing left to change: a restore to where the bank is changes nothing.
    const again = await restore(restoreEntry, true);
    expect(again.body.changes).toEqual({ config: [], mental_models: [], directives: [] });
  });

  it("If-Match: a stale tag is 412 and writes nothing; the current one restores", async () => {
    const current = await c.owner().get(path());
    const stale = await restore(ids.applied!, false, { "if-match": '"not-the-current-tag"' });
    expect(stale.status).toBe(412);
    expect(stale.headers.get("etag")).toBe(current.headers.get("etag"));
    expect((await c.owner().get(path())).body).toEqual(current.body);
    const fresh = await restore(ids.applied!, false, { "if-match": current.headers.get("etag")! });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.headers.get("etag")).toBe((await c.owner().get(path())).headers.get("etag"));
  });

  it("an entry whose content the history does not keep is 409 restore-unavailable; no such entry is 404; nobody else may", async () => {
    const entries = (await history()).length;
    // As an import recorded before contents were kept.
    await t.app.db
      .update(bankImports)
      .set({ content: null })
      .where(and(eq(bankImports.bankId, c.bankId), eq(bankImports.id, ids.applied!)));
    for (const name of ["applied", "kindness"]) {
      const res = await restore(ids[name]!);
      expect(res.status, name).toBe(409);
      expect(res.body.type).toBe("urn:bank-templates:problem:restore-unavailable");
    }
    // Later entries start from later content.
    expect((await restore(ids.removed!, true)).status).toBe(200);
    expect((await restore("no-such-entry")).status).toBe(404);
    const policy = await t.admin.put(path("/policy"), { document: { version: "2026-03-24", default_strategy: "x" } });
    expect(policy.status, policy.text).toBe(200);
    expect((await restore((await history())[0]!.id)).status).toBe(404);
    expect((await c.outsider().post(path("/restore"), { entry: ids.removed })).status).toBe(403);
    expect(await history()).toHaveLength(entries + 1);
  });
}

describe("the embedded store", () => {
  restoresIn({ store: "embedded", bankId: "alices", template: "restorable", owner: () => alice, outsider: () => bob });

  it("a body without an entry is 422", async () => {
    expect((await alice.post("/ext/svc/banks/alices/restore", {})).status).toBe(422);
  });
});

describe("the remote store (Hindsight)", () => {
  const hindsight = useFakeHindsight(t);

  restoresIn({ store: "remote", bankId: "remote-restored", template: "restorable-remote", owner: () => t.admin, outsider: () => alice });

  it("went through Hindsight's item endpoints, each call as its documents allow", () => {
    expect(hindsight.violations).toEqual([]);
  });
});
