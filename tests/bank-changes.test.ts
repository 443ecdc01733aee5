import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Client, request, useTestApp } from "./support/app";
import { applySecondTemplateCase } from "./support/bank-cases";

// CONTRACT §14 on the embedded store: the changes an import makes, the history of imports, and export.
const t = useTestApp();
let alice: Client;
let bob: Client;
const { base, second, third, expectedChanges } = applySecondTemplateCase;

const apply = (c: Client, bankId: string, template: string, dryRun = false) =>
  request("POST", `/ext/svc/banks${dryRun ? "?dry_run=true" : ""}`, { token: c.token, body: { bank_id: bankId, template } });

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
  for (const [id, manifest] of Object.entries({ base, second, third })) {
    expect((await alice.post("/ext/svc/me/templates", { id, name: id, manifest })).status).toBe(200);
  }
  // As if installed from a marketplace: the history carries the revision applied.
  await t.app.db.execute(sql`update templates set source_revision = 'rev-second-0123456789' where id = 'second' and owner = 'alice'`);
});

describe("changes of an import", () => {
  it("lists every config field, mental model and directive of a new bank as created", async () => {
    const res = await apply(alice, "team", "base");
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual({
      config: Object.entries(base.bank).map(([field, after]) => ({ field, before: null, after })),
      mental_models: base.mental_models.map((entry) => ({ id: entry.id, change: "create", before: null, after: entry })),
      directives: base.directives.map((entry) => ({ name: entry.name, change: "create", before: null, after: entry })),
    });
  });

  it("previews exactly the fields and entries a second template changes, and the real import answers the same", async () => {
    const preview = await apply(alice, "team", "second", true);
    expect(preview.status).toBe(200);
    expect(preview.body.changes).toEqual(expectedChanges);
    // The dry run wrote nothing, not even history.
    expect((await alice.get("/ext/svc/banks/team/history")).body.entries).toHaveLength(1);

    const applied = await apply(alice, "team", "second");
    expect(applied.status).toBe(200);
    expect(applied.body.changes).toEqual(preview.body.changes);
    const bank = (await alice.get("/ext/svc/banks/team")).body;
    for (const { field, after } of expectedChanges.config) expect(bank.config[field]).toEqual(after);
  });

  it("lists nothing when the same template is applied again", async () => {
    const again = await apply(alice, "team", "second", true);
    expect(again.body.changes).toEqual({ config: [], mental_models: [], directives: [] });
    expect(again.body.import_result.mental_models_updated).toEqual(second.mental_models.map((m) => m.id));
  });
});

describe("history", () => {
  it("lists one entry per real import, newest first, with template, revision, version, actor and import result", async () => {
    await t.admin.post("/ext/svc/admin/templates", { id: "third", name: "third", manifest: third });
    const thirdApplied = await apply(t.admin, "team", "server/third");
    expect(thirdApplied.status).toBe(200);

    const res = await alice.get("/ext/svc/banks/team/history");
    expect(res.status).toBe(200);
    const entries = res.body.entries as Array<Record<string, any>>;
    // Each template is at its first version, made by hand (no local edits to speak of).
    expect(entries.map((e) => [e.kind, e.template, e.source_revision, e.template_version, e.locally_modified, e.actor])).toEqual([
      ["import", "server/third", null, 1, false, "admin"],
      ["import", "personal/second", "rev-second-0123456789", 1, false, "alice"],
      ["import", "personal/base", null, 1, false, "alice"],
    ]);
    expect(new Set(entries.map((e) => e.id)).size).toBe(3);
    expect(entries[0]!.import_result).toEqual(thirdApplied.body.import_result);
    expect(entries[2]!.import_result).toMatchObject({ bank_id: "team", mental_models_created: ["facts", "people"], dry_run: false });
    const times = entries.map((e) => Date.parse(e.applied_at));
    expect(times[0]).toBeGreaterThan(times[1]!);
    expect(times[1]).toBeGreaterThan(times[2]!);
    // The bank's provenance is the newest entry.
    const bank = (await alice.get("/ext/svc/banks/team")).body;
    expect(bank.last_applied).toEqual({
      template: "server/third",
      source_revision: null,
      template_version: 1,
      locally_modified: false,
      applied_at: entries[0]!.applied_at,
    });
    expect(bank.behind).toBe(false);
  });

  it("keeps imports in order even when they follow each other within a millisecond", async () => {
    await apply(alice, "rapid", "base");
    await Promise.all([apply(alice, "rapid", "second"), apply(alice, "rapid", "base")]);
    const entries = (await alice.get("/ext/svc/banks/rapid/history")).body.entries as Array<{ applied_at: string }>;
    expect(entries).toHaveLength(3);
    expect(new Set(entries.map((e) => e.applied_at)).size).toBe(3);
  });

  it("goes with its bank", async () => {
    expect((await alice.delete("/ext/svc/banks/rapid")).status).toBe(204);
    await apply(alice, "rapid", "base");
    expect((await alice.get("/ext/svc/banks/rapid/history")).body.entries.map((e: { template: string }) => e.template)).toEqual([
      "personal/base",
    ]);
  });
});

describe("export", () => {
  it("answers a manifest that reproduces the bank in a new bank", async () => {
    const exported = await alice.get("/ext/svc/banks/team/export");
    expect(exported.status).toBe(200);
    expect(Object.keys(exported.body)).toEqual(["version", "bank", "mental_models", "directives"]);
    expect(exported.body.version).toBe("1");
    expect((await alice.post("/ext/svc/manifests/validate", { manifest: exported.body })).body).toMatchObject({
      valid: true,
      warnings: [],
    });

    expect((await alice.post("/ext/svc/me/templates", { id: "team-copy", name: "Team copy", manifest: exported.body })).status).toBe(200);
    expect((await apply(alice, "team-copy", "team-copy")).status).toBe(200);
    const original = (await alice.get("/ext/svc/banks/team")).body;
    const copy = (await alice.get("/ext/svc/banks/team-copy")).body;
    expect(copy.config).toEqual(original.config);
    expect(copy.mental_models).toEqual(original.mental_models);
    expect(copy.directives).toEqual(original.directives);
  });

  it("leaves out custom instructions a later template's extraction mode made ineffective, so the export stays importable", async () => {
    const custom = { version: "1", bank: { retain_extraction_mode: "custom", retain_custom_instructions: "Keep only decisions." } };
    const concise = { version: "1", bank: { retain_extraction_mode: "concise" } };
    await alice.post("/ext/svc/me/templates", { id: "custom-mode", name: "Custom mode", manifest: custom });
    await alice.post("/ext/svc/me/templates", { id: "concise-mode", name: "Concise mode", manifest: concise });
    await apply(alice, "modes", "custom-mode");
    await apply(alice, "modes", "concise-mode");
    expect((await alice.get("/ext/svc/banks/modes")).body.config).toMatchObject({
      retain_extraction_mode: "concise",
      retain_custom_instructions: "Keep only decisions.",
    });
    const exported = await alice.get("/ext/svc/banks/modes/export");
    expect(exported.status).toBe(200);
    expect(exported.body.bank).toEqual({ retain_extraction_mode: "concise" });
    expect((await alice.post("/ext/svc/manifests/validate", { manifest: exported.body })).body).toMatchObject({ valid: true });
  });

  it("exports an empty bank as a manifest with empty sections", async () => {
    await alice.post("/ext/svc/me/templates", { id: "nothing", name: "Nothing", manifest: { version: "1" } });
    await apply(alice, "empty", "nothing");
    expect((await alice.get("/ext/svc/banks/empty/export")).body).toEqual({ version: "1", bank: {}, mental_models: [], directives: [] });
  });
});

describe("visibility of history and export", () => {
  it.each(["history", "export"])("answers %s as GET bank does: 404 for another member and for no bank, 200 for admins", async (what) => {
    expect((await bob.get("/ext/svc/banks/team")).status).toBe(404);
    expect((await bob.get(`/ext/svc/banks/team/${what}`)).status).toBe(404);
    expect((await alice.get(`/ext/svc/banks/nope/${what}`)).status).toBe(404);
    expect((await t.admin.get(`/ext/svc/banks/team/${what}`)).status).toBe(200);
    expect((await alice.get(`/ext/svc/banks/has%20space/${what}`)).status).toBe(422);
  });
});
