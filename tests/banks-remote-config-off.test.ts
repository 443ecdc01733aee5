import { beforeAll, describe, expect, it } from "vitest";
import { type Client, request, useTestApp } from "./support/app";
import { applySecondTemplateCase } from "./support/bank-cases";
import { useFakeHindsight } from "./support/use-fake-hindsight";

// CONTRACT §19, remote store: Hindsight run with HINDSIGHT_API_ENABLE_BANK_CONFIG_API=false answers 404
// on a bank's `/config` endpoints while the bank exists. Reads, export, changes and dry runs work from
// what Hindsight does answer and say that the config could not be read; a missing bank is still 404.
const t = useTestApp();
const hindsight = useFakeHindsight(t, { timeoutMs: 2000, bankConfigApi: false });
let alice: Client;
const { base, second, expectedRemoteChanges } = applySecondTemplateCase;
/** The second template's changes of entries, as Hindsight holds them; its config changes are unknown here. */
const { mental_models, directives } = expectedRemoteChanges;
const entryChanges = { mental_models, directives };

const apply = (c: Client, bankId: string, template: string, dryRun = false) =>
  request("POST", `/ext/svc/banks${dryRun ? "?dry_run=true" : ""}`, { token: c.token, body: { bank_id: bankId, template } });

const DISABLED = { detail: "Bank configuration API is disabled. Set HINDSIGHT_API_ENABLE_BANK_CONFIG_API=true to re-enable." };

beforeAll(async () => {
  alice = await t.user("alice");
  for (const [id, manifest] of Object.entries({ base, second })) {
    expect((await t.admin.post("/ext/svc/admin/templates", { id, name: id, manifest })).status).toBe(200);
  }
});

describe("the fake's bank-config API switch", () => {
  it("answers Hindsight's 404 on every /config operation, bank or no bank, and serves them again when on", async () => {
    hindsight.addBank("switch");
    const config = (bankId: string, method = "GET", body?: unknown) =>
      fetch(`${hindsight.url}/v1/default/banks/${bankId}/config`, {
        method,
        headers: { Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    try {
      for (const res of [await config("switch"), await config("nope"), await config("switch", "DELETE")]) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual(DISABLED);
      }
      expect((await config("switch", "PATCH", { updates: { reflect_mission: "x" } })).status).toBe(404);
      hindsight.setBankConfigApi(true);
      expect((await config("switch")).status).toBe(200);
      expect((await config("nope")).status).toBe(404);
    } finally {
      hindsight.setBankConfigApi(false);
      hindsight.banks.delete("switch");
    }
  });
});

describe("remote store with Hindsight's bank-config API off", () => {
  it("creates a bank (its config is new: the bank did not exist)", async () => {
    const res = await apply(alice, "no-config", "server/base");
    expect(res.status, res.text).toBe(200);
    expect(res.body.bank_created).toBe(true);
    expect(res.body.changes.config).toEqual(Object.entries(base.bank).map(([field, after]) => ({ field, before: null, after })));
    expect(res.body.changes.config_unreadable).toBeUndefined();
    // Hindsight applied the template's config even so: the import does not go through /config.
    expect(hindsight.banks.get("no-config")!.config).toEqual(base.bank);
  });

  it("reads the bank from what Hindsight answers, saying its config could not be read", async () => {
    const stored = hindsight.banks.get("no-config")!;
    const res = await t.admin.get("/ext/svc/banks/no-config");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      bank_id: "no-config",
      owner: null,
      last_applied: { template: "server/base" },
      config: {},
      config_unreadable: true,
      has_policy: false,
    });
    expect(res.body.mental_models).toEqual([...stored.mentalModels.values()]);
    expect(res.body.directives.map((d: { name: string }) => d.name)).toEqual(["Cite sources"]);
    // A bank that truly does not exist is still missing.
    expect((await t.admin.get("/ext/svc/banks/nope")).status).toBe(404);
  });

  it("exports the bank without a config section, which leaves config alone when imported", async () => {
    const res = await t.admin.get("/ext/svc/banks/no-config/export");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      version: "1",
      mental_models: [...hindsight.banks.get("no-config")!.mentalModels.values()],
      directives: [{ name: "Cite sources", content: "Name the document.", priority: 0, is_active: true, tags: [] }],
    });
    expect((await t.admin.get("/ext/svc/banks/nope/export")).status).toBe(404);
  });

  it("a dry run of another template: no false creation, entry changes from what Hindsight holds, config unknown", async () => {
    const preview = await apply(t.admin, "no-config", "server/second", true);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.bank_created).toBe(false);
    expect(preview.body.changes).toEqual({ config: [], config_unreadable: true, ...entryChanges });
    expect(preview.body.import_result).toMatchObject({ dry_run: true, mental_models_updated: ["facts", "people"] });
    expect(hindsight.banks.get("no-config")!.config).toEqual(base.bank);
  });

  it("re-applying: the bank is updated, not created, with the changes the dry run previewed", async () => {
    const applied = await apply(t.admin, "no-config", "server/second");
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.bank_created).toBe(false);
    expect(applied.body.changes).toEqual({ config: [], config_unreadable: true, ...entryChanges });
    expect(applied.body.import_result).toMatchObject({ dry_run: false, config_applied: true, directives_created: ["Be brief"] });
    expect(hindsight.banks.get("no-config")!.config).toEqual(second.bank);

    const again = await apply(t.admin, "no-config", "server/second");
    expect(again.body.bank_created).toBe(false);
    expect(again.body.changes).toEqual({ config: [], config_unreadable: true, mental_models: [], directives: [] });
    const history = (await t.admin.get("/ext/svc/banks/no-config/history")).body.entries;
    expect(history.map((e: { template: string }) => e.template)).toEqual(["server/second", "server/second", "server/base"]);
  });

  it("a rollout's results say the same", async () => {
    const res = await t.admin.post("/ext/svc/banks/rollout?dry_run=true", { template: "server/base", bank_ids: ["no-config"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results[0]).toMatchObject({ bank_id: "no-config", applied: true, changes: { config: [], config_unreadable: true } });
  });

  it("deletes the bank", async () => {
    expect((await t.admin.delete("/ext/svc/banks/no-config")).status).toBe(204);
    expect(hindsight.banks.has("no-config")).toBe(false);
    expect((await t.admin.get("/ext/svc/banks/no-config")).status).toBe(404);
  });

  it("sent only requests Hindsight's document allows", () => {
    expect(hindsight.violations).toEqual([]);
  });
});
