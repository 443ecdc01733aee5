import { beforeAll, describe, expect, it } from "vitest";
import { type Client, request, useTestApp } from "./support/app";
import { applySecondTemplateCase } from "./support/bank-cases";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §15: banks as Hindsight keeps them. Null `bank` fields set nothing (both stores); in the remote
// store a given name reaches Hindsight, `changes` compare after Hindsight's defaults, and a dry run
// answers the lists the real import does. The remote cases run against the strict fake Hindsight.
const t = useTestApp();
let alice: Client;

const apply = (c: Client, bankId: string, template: string, options: { dryRun?: boolean; name?: string } = {}) =>
  request("POST", `/ext/svc/banks${options.dryRun ? "?dry_run=true" : ""}`, {
    token: c.token,
    body: { bank_id: bankId, template, ...(options.name !== undefined ? { name: options.name } : {}) },
  });

const addTemplate = async (id: string, manifest: Record<string, unknown>) =>
  expect((await t.admin.post("/ext/svc/admin/templates", { id, name: id, manifest })).status).toBe(200);

const LISTS = ["config_applied", "mental_models_created", "mental_models_updated", "directives_created", "directives_updated"] as const;
const listsOf = (importResult: Record<string, unknown>) => Object.fromEntries(LISTS.map((key) => [key, importResult[key]]));

const setsMission = { version: "1", bank: { reflect_mission: "Answer support questions.", disposition_skepticism: 4 } };
// A null field sets nothing: the mission stays, only skepticism changes.
const nullMission = { version: "1", bank: { reflect_mission: null, disposition_skepticism: 2 } };
const allNull = { version: "1", bank: { reflect_mission: null, disposition_skepticism: null } };

/** The cases both stores answer alike: a null leaves the value, an all-null section applies no config. */
function nullFieldCases(read: (bankId: string) => Promise<Record<string, unknown>>) {
  it("a null bank field leaves the bank's value and is not a change", async () => {
    expect((await apply(t.admin, "nulls", "server/sets-mission")).body.import_result.config_applied).toBe(true);
    for (const dryRun of [true, false]) {
      const res = await apply(t.admin, "nulls", "server/null-mission", { dryRun });
      expect(res.status).toBe(200);
      expect(res.body.import_result.config_applied).toBe(true);
      expect(res.body.changes.config).toEqual([{ field: "disposition_skepticism", before: 4, after: 2 }]);
    }
    expect(await read("nulls")).toEqual({ reflect_mission: "Answer support questions.", disposition_skepticism: 2 });
  });

  it("a bank section of nulls alone applies no config, in a dry run and a real import", async () => {
    for (const dryRun of [true, false]) {
      const res = await apply(t.admin, "nulls", "server/all-null", { dryRun });
      expect(res.status).toBe(200);
      expect(res.body.import_result.config_applied).toBe(false);
      expect(res.body.changes).toEqual({ config: [], mental_models: [], directives: [] });
    }
    expect(await read("nulls")).toEqual({ reflect_mission: "Answer support questions.", disposition_skepticism: 2 });
  });
}

beforeAll(async () => {
  alice = await t.user("alice");
  await addTemplate("sets-mission", setsMission);
  await addTemplate("null-mission", nullMission);
  await addTemplate("all-null", allNull);
});

it("keeps a manifest's null bank fields in the stored template", async () => {
  const template = await t.admin.get("/ext/svc/admin/templates/all-null");
  expect(template.body.manifest.bank).toEqual({ reflect_mission: null, disposition_skepticism: null });
});

describe("embedded store", () => {
  nullFieldCases(async (bankId) => (await t.admin.get(`/ext/svc/banks/${bankId}`)).body.config);
});

describe("remote store (strict fake Hindsight)", () => {
  const hindsight = useFakeHindsight(t, { timeoutMs: 2000 });
  const { base, second } = applySecondTemplateCase;
  // Entries that leave every field Hindsight defaults unset, and one trigger naming a default and a null.
  const sparse = {
    version: "1",
    bank: { reflect_mission: "Know the product." },
    mental_models: [
      { id: "product", name: "Product", source_query: "What does it do?" },
      { id: "faq", name: "FAQ", source_query: "What is asked?", trigger: { mode: "full", refresh_cron: null }, max_tokens: 2048 },
    ],
    directives: [{ name: "Be kind", content: "Always." }],
  };

  beforeAll(async () => {
    await addTemplate("base", base);
    await addTemplate("second", second);
    await addTemplate("sparse", sparse);
  });

  nullFieldCases(async (bankId) => hindsight.banks.get(bankId)!.config);

  it("re-applying the template a bank holds lists no changes", async () => {
    const first = await apply(t.admin, "sparse-bank", "server/sparse");
    expect(first.status).toBe(200);
    expect(first.body.bank_created).toBe(true);
    expect(first.body.changes.mental_models.map((c: { change: string }) => c.change)).toEqual(["create", "create"]);
    // Hindsight filled in its defaults: what it holds is not what the template says, and is still no change.
    expect(hindsight.banks.get("sparse-bank")!.mentalModels.get("product")).toMatchObject({ tags: [], max_tokens: 2048 });
    for (const dryRun of [true, false]) {
      const again = await apply(t.admin, "sparse-bank", "server/sparse", { dryRun });
      expect(again.status).toBe(200);
      expect(again.body.changes).toEqual({ config: [], mental_models: [], directives: [] });
      expect(listsOf(again.body.import_result)).toEqual({
        config_applied: true,
        mental_models_created: [],
        mental_models_updated: ["product", "faq"],
        directives_created: [],
        directives_updated: ["Be kind"],
      });
    }
  });

  it("a dry run answers the lists the real import does, for a new bank and an existing one", async () => {
    const newPreview = await apply(t.admin, "lists", "server/base", { dryRun: true });
    const newImport = await apply(t.admin, "lists", "server/base");
    expect(newImport.status).toBe(200);
    expect(listsOf(newPreview.body.import_result)).toEqual(listsOf(newImport.body.import_result));
    expect(newPreview.body.import_result).toMatchObject({ dry_run: true, operation_ids: [] });

    // Hindsight's own dry run would call every entry of `second` created; the bank holds some of them.
    const preview = await apply(t.admin, "lists", "server/second", { dryRun: true });
    const applied = await apply(t.admin, "lists", "server/second");
    expect(applied.status).toBe(200);
    expect(listsOf(preview.body.import_result)).toEqual(listsOf(applied.body.import_result));
    expect(listsOf(applied.body.import_result)).toEqual({
      config_applied: true,
      mental_models_created: [],
      mental_models_updated: ["facts", "people"],
      directives_created: ["Be brief"],
      directives_updated: ["Cite sources"],
    });
    expect(preview.body.changes).toEqual(applied.body.changes);
    // The dry runs were sent, so Hindsight validated them.
    const dryRuns = hindsight.requests.filter((r) => r.path === "/v1/default/banks/lists/import" && r.query.dry_run === "true");
    expect(dryRuns).toHaveLength(2);
  });

  it("sets a given name through PATCH after the import, and not on a dry run", async () => {
    const preview = await apply(alice, "named", "server/base", { dryRun: true, name: "Support team" });
    expect(preview.status).toBe(200);
    expect(hindsight.requests.some((r) => r.method === "PATCH")).toBe(false);
    expect(hindsight.banks.has("named")).toBe(false);

    const from = hindsight.requests.length;
    const created = await apply(alice, "named", "server/base", { name: "Support team" });
    expect(created.status).toBe(200);
    expect(hindsight.banks.get("named")!.name).toBe("Support team");
    const writes = hindsight.requests.slice(from).filter((r) => r.method !== "GET");
    expect(writes.map((r) => [r.method, r.path, r.body === undefined ? null : "body"])).toEqual([
      ["POST", "/v1/default/banks/named/import", "body"],
      ["PATCH", "/v1/default/banks/named", "body"],
    ]);
    expect(writes[1]!.body).toEqual({ name: "Support team" });
    expect((await t.admin.get("/ext/svc/banks/named")).body.name).toBe("Support team");

    // Renaming an existing bank (admin); a dry run leaves the name alone.
    await apply(t.admin, "named", "server/base", { dryRun: true, name: "Never" });
    expect(hindsight.banks.get("named")!.name).toBe("Support team");
    expect((await apply(t.admin, "named", "server/base", { name: "Sales team" })).status).toBe(200);
    expect(hindsight.banks.get("named")!.name).toBe("Sales team");
  });

  it("a rename Hindsight fails is a 502 with nothing recorded; the same request again finishes it", async () => {
    hindsight.failOperation("update_bank");
    try {
      const failed = await apply(t.admin, "rename-fails", "server/base", { name: "Team" });
      expect(failed.status).toBe(502);
      expect(failed.body.detail).toContain("PATCH");
    } finally {
      hindsight.failOperation(null);
    }
    // Hindsight holds the template (its import succeeded), but nothing says it was applied.
    expect(hindsight.banks.get("rename-fails")!.name).toBe("rename-fails");
    expect((await t.admin.get("/ext/svc/banks/rename-fails/history")).body.entries).toEqual([]);
    const again = await apply(t.admin, "rename-fails", "server/base", { name: "Team" });
    expect(again.status).toBe(200);
    expect(again.body.changes).toEqual({ config: [], mental_models: [], directives: [] });
    expect(hindsight.banks.get("rename-fails")!.name).toBe("Team");
    expect((await t.admin.get("/ext/svc/banks/rename-fails/history")).body.entries).toHaveLength(1);
  });

  it("sent Hindsight only what its document allows", () => {
    expect(hindsight.violations).toEqual([]);
  });
});
