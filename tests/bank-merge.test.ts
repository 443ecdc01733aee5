import { describe, expect, it } from "vitest";
import { type Client, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §21: an apply or rollout with merge keeps a bank's local edits and takes the template's other
// changes (three ways: base what the bank's last apply wrote, local the bank now, upstream the template
// now), in both stores; a bank whose edit conflicts is that bank's problem while the others roll out;
// resolutions resolve its conflicts in one request; the dry run answers what the real apply writes.
const t = useTestApp();

type Entry = Record<string, unknown>;

interface StoreCase {
  store: "embedded" | "remote";
  template: string;
  /** Two banks: `kept` edits a directive the template leaves alone, `conflicting` one the template changes. */
  kept: string;
  conflicting: string;
  caller: () => Client;
}

function mergesIn(c: StoreCase) {
  const bank = async (bankId: string) => {
    const res = await c.caller().get(`/ext/svc/banks/${bankId}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const directive = (b: { directives: Entry[] }, name: string) => b.directives.find((d) => d.name === name);
  const ref = `server/${c.template}`;
  const rollout = (dryRun: boolean, extra: Entry = {}) =>
    c.caller().post(`/ext/svc/banks/rollout${dryRun ? "?dry_run=true" : ""}`, {
      template: ref,
      bank_ids: [c.conflicting, c.kept],
      merge: true,
      ...extra,
    });

  it("two banks applied and edited in place; the template changes", async () => {
    expect((await t.admin.post("/ext/svc/admin/templates", { id: c.template, name: "Merged", manifest: manifest() })).status).toBe(200);
    for (const bankId of [c.kept, c.conflicting]) {
      expect((await c.caller().post("/ext/svc/banks", { bank_id: bankId, template: ref })).status).toBe(200);
    }
    const kept = c.caller();
    expect(
      (await kept.put(`/ext/svc/banks/${c.kept}/directives/${encodeURIComponent("Cite sources")}`, { content: "Link each source." }))
        .status,
    ).toBe(200);
    expect((await kept.patch(`/ext/svc/banks/${c.kept}`, { config: { disposition_empathy: 4 } })).status).toBe(200);
    expect(
      (await kept.put(`/ext/svc/banks/${c.conflicting}/directives/${encodeURIComponent("Be brief")}`, { content: "Ours." })).status,
    ).toBe(200);

    const newer = manifest({
      bank: { retain_mission: "Keep every decision.", disposition_skepticism: 3 },
      mental_models: [...manifest().mental_models, { id: "people", name: "People", source_query: "Who is involved?" }],
      directives: [manifest().directives[0], { name: "Be brief", content: "One sentence." }],
    });
    expect((await t.admin.patch(`/ext/svc/admin/templates/${c.template}`, { manifest: newer })).status).toBe(200);
  });

  let preview: Entry[] = [];
  it("a dry run with merge answers each bank: the conflicting one its merge-conflict, and writes nothing", async () => {
    const before = await bank(c.kept);
    const res = await rollout(true);
    expect(res.status, res.text).toBe(200);
    preview = res.body.results;
    const [conflicting, kept] = preview as Array<Entry & { problem: Entry & { conflicts: Entry[] } }>;
    expect(conflicting).toMatchObject({ bank_id: c.conflicting, applied: false });
    expect(conflicting!.problem).toMatchObject({ status: 409, type: "urn:bank-templates:problem:merge-conflict" });
    expect(conflicting!.problem.conflicts).toEqual([
      expect.objectContaining({ path: "manifest.directives[1].content", local: "Ours.", upstream: "One sentence." }),
    ]);
    expect(kept).toMatchObject({ bank_id: c.kept, applied: true, problem: null });
    expect(await bank(c.kept)).toEqual(before);
  });

  it("the rollout with merge keeps the bank's edits and takes the template's other changes; the dry run was its result", async () => {
    const conflictingBefore = await bank(c.conflicting);
    const res = await rollout(false);
    expect(res.status, res.text).toBe(200);
    const [conflicting, kept] = res.body.results;
    expect(conflicting.problem.type).toBe("urn:bank-templates:problem:merge-conflict");
    // What the dry run answered, but for its flag and the operations Hindsight started (a dry run starts none).
    const asPreviewed = { ...kept, import_result: { ...kept.import_result, dry_run: true, operation_ids: [] } };
    expect(asPreviewed).toEqual(preview[1]);
    const merged = await bank(c.kept);
    expect(directive(merged, "Cite sources")).toMatchObject({ content: "Link each source." });
    expect(directive(merged, "Be brief")).toMatchObject({ content: "One sentence." });
    expect(merged.config).toMatchObject({ retain_mission: "Keep every decision.", disposition_empathy: 4 });
    expect(merged.mental_models.map((m: Entry) => m.id)).toContain("people");
    expect(merged.locally_modified).toBe(true);
    expect(merged.last_applied.template_version).toBe(2);
    // The changes list what the merge wrote, not the template's whole content.
    expect(kept.changes.directives.map((d: Entry) => d.name)).toEqual(["Be brief"]);
    expect(kept.changes.config.map((f: Entry) => f.field)).toEqual(["retain_mission"]);
    expect(await bank(c.conflicting)).toEqual(conflictingBefore);
  });

  it("resolutions resolve the conflicts in one request", async () => {
    const res = await c.caller().post("/ext/svc/banks?merge=true", {
      bank_id: c.conflicting,
      template: ref,
      resolutions: [{ path: "manifest.directives[1].content", take: "local" }],
    });
    expect(res.status, res.text).toBe(200);
    const merged = await bank(c.conflicting);
    expect(directive(merged, "Be brief")).toMatchObject({ content: "Ours." });
    expect(merged.mental_models.map((m: Entry) => m.id)).toContain("people");
    expect(merged.config).toMatchObject({ retain_mission: "Keep every decision." });
  });

  it("the next merge starts from what the template wrote: a kept edit stays kept, not taken for the template's", async () => {
    const again = await c.caller().post("/ext/svc/banks?merge=true", { bank_id: c.kept, template: ref });
    expect(again.status, again.text).toBe(200);
    expect(again.body.changes).toEqual({ config: [], mental_models: [], directives: [] });
    expect(directive(await bank(c.kept), "Cite sources")).toMatchObject({ content: "Link each source." });
  });

  it("a restore to the merged apply puts back what the merge left", async () => {
    const history = (await c.caller().get(`/ext/svc/banks/${c.kept}/history`)).body.entries;
    const mergedImport = history.find((e: Entry) => e.kind === "import");
    const exported = (await c.caller().get(`/ext/svc/banks/${c.kept}/export`)).body;
    expect((await c.caller().put(`/ext/svc/banks/${c.kept}/directives/Later`, { content: "Later." })).status).toBe(200);
    expect((await c.caller().post(`/ext/svc/banks/${c.kept}/restore`, { entry: mergedImport.id })).status).toBe(200);
    const restored = (await c.caller().get(`/ext/svc/banks/${c.kept}/export`)).body;
    const byName = (list: Entry[]) => [...list].sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect(byName(restored.directives)).toEqual(byName(exported.directives));
    expect(restored.bank).toEqual(exported.bank);
  });

  it("resolutions without merge are 422", async () => {
    const res = await c.caller().post("/ext/svc/banks", { bank_id: c.kept, template: ref, resolutions: [] });
    expect(res.status).toBe(422);
  });
}

describe("the embedded store", () => {
  mergesIn({ store: "embedded", template: "merging", kept: "kept", conflicting: "conflicting", caller: () => t.admin });
});

describe("the remote store (Hindsight)", () => {
  const hindsight = useFakeHindsight(t);

  mergesIn({ store: "remote", template: "merging-remote", kept: "kept-remote", conflicting: "conflicting-remote", caller: () => t.admin });

  it("each call as Hindsight's documents allow", () => {
    expect(hindsight.violations).toEqual([]);
  });
});
