import { beforeAll, describe, expect, it } from "vitest";
import { type Client, request, useTestApp } from "./support/app";
import { applySecondTemplateCase } from "./support/bank-cases";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §14 on the remote store: changes computed from what Hindsight reports before the import,
// history kept in our database, export built from what Hindsight returns.
const t = useTestApp();
const hindsight = useFakeHindsight(t, { timeoutMs: 2000 });
let alice: Client;
const { base, second, expectedRemoteChanges: expectedChanges } = applySecondTemplateCase;

const apply = (c: Client, bankId: string, template: string, dryRun = false) =>
  request("POST", `/ext/svc/banks${dryRun ? "?dry_run=true" : ""}`, { token: c.token, body: { bank_id: bankId, template } });

beforeAll(async () => {
  alice = await t.user("alice");
  for (const [id, manifest] of Object.entries({ base, second })) {
    expect((await t.admin.post("/ext/svc/admin/templates", { id, name: id, manifest })).status).toBe(200);
  }
});

describe("remote store: changes, history, export", () => {
  it("reports a new bank's contents as created", async () => {
    const res = await apply(alice, "remote-team", "server/base");
    expect(res.status).toBe(200);
    expect(res.body.changes.config).toEqual(Object.entries(base.bank).map(([field, after]) => ({ field, before: null, after })));
    expect(res.body.changes.mental_models.map((c: { id: string; change: string }) => [c.id, c.change])).toEqual([
      ["facts", "create"],
      ["people", "create"],
    ]);
  });

  it("previews a second template's changes from what Hindsight holds, and the real import answers the same", async () => {
    const preview = await apply(t.admin, "remote-team", "server/second", true);
    expect(preview.status).toBe(200);
    expect(preview.body.changes).toEqual(expectedChanges);
    const applied = await apply(t.admin, "remote-team", "server/second");
    expect(applied.status).toBe(200);
    expect(applied.body.changes).toEqual(preview.body.changes);
    // What the changes call "after" is what Hindsight now reports.
    const bank = (await t.admin.get("/ext/svc/banks/remote-team")).body;
    expect(bank.mental_models.find((m: { id: string }) => m.id === "people")).toEqual(expectedChanges.mental_models[0]!.after);
  });

  it("records real imports only, newest first, and shows them to admins alone", async () => {
    const res = await t.admin.get("/ext/svc/banks/remote-team/history");
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e: { template: string; actor: string }) => [e.template, e.actor])).toEqual([
      ["server/second", "admin"],
      ["server/base", "alice"],
    ]);
    expect(res.body.entries[1].import_result).toMatchObject({
      bank_id: "remote-team",
      mental_models_created: ["facts", "people"],
      dry_run: false,
    });
    // Members see no remote bank (Hindsight records no owners), their own creation included.
    const before = hindsight.requests.length;
    expect((await alice.get("/ext/svc/banks/remote-team/history")).status).toBe(404);
    expect((await alice.get("/ext/svc/banks/remote-team/export")).status).toBe(404);
    expect(hindsight.requests.length).toBe(before);
    expect((await t.admin.get("/ext/svc/banks/nope/history")).status).toBe(404);
  });

  it("exports a manifest that reproduces the bank in a new Hindsight bank", async () => {
    const exported = await t.admin.get("/ext/svc/banks/remote-team/export");
    expect(exported.status).toBe(200);
    expect(exported.body.version).toBe("1");
    await t.admin.post("/ext/svc/admin/templates", { id: "remote-copy", name: "Copy", manifest: exported.body });
    expect((await apply(t.admin, "remote-copy", "server/remote-copy")).status).toBe(200);
    const original = (await t.admin.get("/ext/svc/banks/remote-team")).body;
    const copy = (await t.admin.get("/ext/svc/banks/remote-copy")).body;
    expect(copy.config).toEqual(original.config);
    expect(copy.mental_models).toEqual(original.mental_models);
    expect(copy.directives).toEqual(original.directives);
  });

  it("forgets a deleted bank's history", async () => {
    expect((await t.admin.delete("/ext/svc/banks/remote-team")).status).toBe(204);
    await apply(t.admin, "remote-team", "server/second");
    expect((await t.admin.get("/ext/svc/banks/remote-team/history")).body.entries).toHaveLength(1);
    expect(hindsight.violations).toEqual([]);
  });
});
