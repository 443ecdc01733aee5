import { beforeAll, describe, expect, it } from "vitest";
import type { BankTemplateManifest } from "@/lib/contracts/templates/manifest";
import { bankStore } from "@/lib/services/banks/banks";
import type { AuthenticatedActor } from "@/lib/services/context";
import { type Client, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, largeManifest, manifest } from "./support/fixtures";
import { serviceContext } from "./support/service-context";
import { useMarketplace } from "./support/use-marketplace";

// Issue 18, item 5 (CONTRACT §15): a manifest holds at most 1,000 mental models and 1,000
// directives, and one at those limits imports on both databases, as one transaction.
const t = useTestApp();
const market = useMarketplace(t);
let erin: Client;

const LIMIT = 1_000;
const BODY_LIMIT = 1024 * 1024;
const full = largeManifest(LIMIT, LIMIT);
const modelIds = full.mental_models.map((m) => m.id);
const directiveNames = full.directives.map((d) => d.name);

const createBank = (c: Client, body: Record<string, unknown>) => request("POST", "/ext/svc/banks", { token: c.token, body });

beforeAll(async () => {
  erin = await t.user("erin");
});

describe("a manifest at the limits (1,000 mental models and 1,000 directives)", () => {
  it("fits the body limit with realistic entries", () => {
    const body = JSON.stringify({ id: "large", name: "Large", manifest: full });
    expect(Buffer.byteLength(body)).toBeLessThan(BODY_LIMIT);
  });

  it("is stored as a template and validates", async () => {
    const created = await erin.post("/ext/svc/me/templates", { id: "large", name: "Large", manifest: full });
    expect(created.status, created.text).toBe(200);
    expect(created.body.manifest).toEqual(full);
    const validated = await erin.post("/ext/svc/manifests/validate", { manifest: full });
    expect(validated.body).toEqual({ valid: true, errors: [], warnings: [] });
    const patched = await erin.patch("/ext/svc/me/templates/large", { manifest: full });
    expect(patched.status, patched.text).toBe(200);
    const versions = await erin.get("/ext/svc/me/templates/large/versions");
    expect(versions.body.versions).toHaveLength(2);
    expect((await erin.get("/ext/svc/me/templates/large/versions/1")).body.manifest).toEqual(full);
  });

  it("imports into a new bank, which then holds every entry in order", async () => {
    const res = await createBank(erin, { bank_id: "large-bank", template: "personal/large" });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.body.bank_created).toBe(true);
    expect(res.body.import_result).toMatchObject({
      config_applied: true,
      mental_models_created: modelIds,
      mental_models_updated: [],
      directives_created: directiveNames,
      directives_updated: [],
    });
    expect(res.body.changes.mental_models).toHaveLength(LIMIT);
    expect(res.body.changes.directives).toHaveLength(LIMIT);

    const bank = await erin.get("/ext/svc/banks/large-bank");
    expect(bank.status).toBe(200);
    expect(bank.body.mental_models).toEqual(full.mental_models);
    expect(bank.body.directives).toEqual(full.directives);
    const history = await erin.get("/ext/svc/banks/large-bank/history");
    expect(history.body.entries[0].import_result.mental_models_created).toEqual(modelIds);
  });

  it("re-imports into that bank: every entry updated, nothing changed", async () => {
    const res = await createBank(erin, { bank_id: "large-bank", template: "personal/large" });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.body.import_result).toMatchObject({
      mental_models_created: [],
      mental_models_updated: modelIds,
      directives_created: [],
      directives_updated: directiveNames,
    });
    expect(res.body.changes).toEqual({ config: [], mental_models: [], directives: [] });
  });

  it("re-imports changed entries, which replace the stored ones in place", async () => {
    const changed = largeManifest(LIMIT, LIMIT, " Changed.");
    expect((await erin.post("/ext/svc/me/templates", { id: "large-changed", name: "Changed", manifest: changed })).status).toBe(200);
    const res = await createBank(erin, { bank_id: "large-bank", template: "personal/large-changed" });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.body.changes.mental_models).toHaveLength(LIMIT);
    expect(res.body.changes.directives).toHaveLength(LIMIT);
    const bank = await erin.get("/ext/svc/banks/large-bank");
    expect(bank.body.mental_models).toEqual(changed.mental_models);
    expect(bank.body.directives).toEqual(changed.directives);
  });

  it("exports a bank holding more than one manifest may carry, which must be split to be saved as a template", async () => {
    const more = largeManifest(600, 600);
    const renamed = {
      ...more,
      mental_models: more.mental_models.map((m) => ({ ...m, id: `more-${m.id}` })),
      directives: more.directives.map((d) => ({ ...d, name: `More ${d.name}` })),
    };
    expect((await erin.post("/ext/svc/me/templates", { id: "large-more", name: "More", manifest: renamed })).status).toBe(200);
    expect((await createBank(erin, { bank_id: "large-bank", template: "personal/large-more" })).status).toBe(200);
    const exported = await erin.get("/ext/svc/banks/large-bank/export");
    expect(exported.status, exported.text.slice(0, 500)).toBe(200);
    expect(exported.body.mental_models).toHaveLength(LIMIT + 600);
    expect(exported.body.directives).toHaveLength(LIMIT + 600);
    const saved = await erin.post("/ext/svc/me/templates", { id: "large-export", name: "Export", manifest: exported.body });
    expect(saved.status).toBe(422);
    expect(saved.body.errors.map((e: { path: string }) => e.path)).toEqual(["manifest.mental_models", "manifest.directives"]);
  });

  it("installs from a catalog", async () => {
    market.setFile("/large/templates.json", catalog(catalogEntry("large-market", { manifest: full })));
    expect((await erin.post("/ext/svc/me/template-sources", { url: `${market.url}/large`, alias: "large" })).status).toBe(201);
    const installed = await erin.post("/ext/svc/me/templates/large-market/install", { source_name: "large" });
    expect(installed.status, installed.text.slice(0, 500)).toBe(200);
    expect(installed.body.manifest).toEqual(full);
  });
});

describe("one entry beyond the limits", () => {
  const tooManyModels = largeManifest(LIMIT + 1, 1);
  const tooManyDirectives = largeManifest(1, LIMIT + 1);
  const cases = [
    { list: "mental_models", manifest: tooManyModels },
    { list: "directives", manifest: tooManyDirectives },
  ];
  const errorAt = (list: string) => ({ path: `manifest.${list}`, message: `must be at most ${LIMIT} items` });

  it.each(cases)("template create refuses 1,001 $list: 422 at the list", async ({ list, manifest }) => {
    const res = await erin.post("/ext/svc/me/templates", { id: `over-${list}`, name: "Over", manifest });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([errorAt(list)]);
    expect((await erin.get(`/ext/svc/me/templates/over-${list}`)).status).toBe(404);
  });

  it.each(cases)("template patch refuses 1,001 $list: 422 at the list", async ({ list, manifest }) => {
    const res = await erin.patch("/ext/svc/me/templates/large", { manifest });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([errorAt(list)]);
  });

  it.each(cases)("an admin's server template too: 422 at $list", async ({ list, manifest }) => {
    const res = await t.admin.post("/ext/svc/admin/templates", { id: `over-${list}`, name: "Over", manifest });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([errorAt(list)]);
  });

  it.each(cases)("manifest validate reports 1,001 $list at the list", async ({ list, manifest }) => {
    const res = await erin.post("/ext/svc/manifests/validate", { manifest });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, errors: [errorAt(list)] });
  });

  it("refuses a list beyond the limit at the list, without judging its entries", async () => {
    const mixed = largeManifest(LIMIT + 1, 0);
    mixed.mental_models[3]!.name = " ";
    const res = await erin.post("/ext/svc/manifests/validate", { manifest: mixed });
    expect(res.body.errors).toEqual([errorAt("mental_models")]);
    mixed.mental_models.pop();
    const within = await erin.post("/ext/svc/manifests/validate", { manifest: mixed });
    expect(within.body.errors).toEqual([{ path: "manifest.mental_models[3].name", message: "must not be blank" }]);
  });

  it("a catalog manifest beyond the limit is a bad upstream answer: 502 on install", async () => {
    market.setFile("/over/templates.json", catalog(catalogEntry("over-market", { manifest: tooManyModels })));
    expect((await erin.post("/ext/svc/me/template-sources", { url: `${market.url}/over`, alias: "over" })).status).toBe(201);
    const res = await erin.post("/ext/svc/me/templates/over-market/install", { source_name: "over" });
    expect(res.status).toBe(502);
    expect(res.body.errors).toEqual([errorAt("mental_models")]);
    const browsed = await erin.get("/ext/svc/me/template-sources/over/catalog");
    expect(browsed.status, browsed.text.slice(0, 300)).toBe(200);
  });

  it("the OpenAPI document states the limits", async () => {
    const doc = (await request("GET", "/ext/svc/openapi.json")).body;
    const schema = doc.components.schemas.BankTemplateManifest;
    const list = (field: string) =>
      schema.properties[field].anyOf?.find((s: { type?: string }) => s.type === "array") ?? schema.properties[field];
    expect(list("mental_models").maxItems).toBe(LIMIT);
    expect(list("directives").maxItems).toBe(LIMIT);
  });

  it("the manifest's other lists are untouched", async () => {
    const res = await erin.post("/ext/svc/manifests/validate", { manifest: manifest() });
    expect(res.body.valid).toBe(true);
  });
});

describe("the embedded store, whatever the list sizes", () => {
  // Beyond what a manifest may hold, and beyond the 65,535 bound parameters one statement can
  // carry at four per row (16,384 rows): the store batches its statements.
  const ROWS = 16_500;
  const erin: AuthenticatedActor = { type: "user", id: "erin", userId: "erin", role: "member", displayName: "Erin" };
  const ctx = () => serviceContext(t.app, erin);
  // The store of this configuration (no Hindsight): the embedded one, with the bank service's records.
  const store = () => bankStore(ctx());
  const importInto = (bankId: string, manifest: BankTemplateManifest) =>
    store().importTemplate(ctx(), {
      bankId,
      template: { ref: "personal/huge", rowId: "huge-row", revision: null, version: 1, locallyModified: false, manifest },
      dryRun: false,
    });

  it(`imports ${ROWS} mental models in one go, and again`, async () => {
    const huge = {
      version: "1" as const,
      mental_models: Array.from({ length: ROWS }, (_, i) => ({ id: `m${i}`, name: "n", source_query: "q" })),
    };
    expect((await importInto("huge-models", huge)).result.mental_models_created).toHaveLength(ROWS);
    expect((await importInto("huge-models", huge)).result.mental_models_updated).toHaveLength(ROWS);
    expect((await store().read(ctx(), "huge-models"))?.mental_models).toEqual(huge.mental_models);
  });

  it(`imports ${ROWS} directives in one go, and again`, async () => {
    const huge = { version: "1" as const, directives: Array.from({ length: ROWS }, (_, i) => ({ name: `d${i}`, content: "c" })) };
    expect((await importInto("huge-directives", huge)).result.directives_created).toHaveLength(ROWS);
    expect((await importInto("huge-directives", huge)).result.directives_updated).toHaveLength(ROWS);
    expect((await store().read(ctx(), "huge-directives"))?.directives).toEqual(huge.directives);
  });
});
