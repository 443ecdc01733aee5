import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntries, templates, templateVersions } from "@/db/schema";
import { type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

// CONTRACT §16: update?merge=true keeps local edits and takes upstream's changes, answers 409
// merge-conflict (writing nothing) when both sides changed a path differently, and
// update-preview?merge=true shows the same merge without writing.
const t = useTestApp();
const market = useMarketplace(t);
let carl: Client;

beforeAll(async () => {
  carl = await t.user("carl");
});

const auditCount = async () => (await t.app.db.select({ n: count() }).from(auditEntries))[0]!.n;

describe.each([
  ["/ext/svc/me", "personal"],
  ["/ext/svc/admin", "server"],
] as const)("update with merge=true under %s", (prefix, scope) => {
  const caller = () => (scope === "personal" ? carl : t.admin);
  const T = `${prefix}/templates`;
  const folder = `/merge-${scope}`;
  const source = `merge-${scope}`;
  /** The source's entries: each test's template, as upstream holds it now. */
  const upstream = new Map<string, Record<string, unknown>>();
  const publish = (id: string, entry: Record<string, unknown>) => {
    upstream.set(id, entry);
    market.setFile(`${folder}/templates.json`, catalog(...upstream.values()));
  };
  /** Installs `id` as the source first published it, then PATCHes it with `edit`. */
  const installEdited = async (id: string, edit: Record<string, unknown>) => {
    expect((await caller().post(`${T}/${id}/install`, { source_name: source, source_scope: scope })).status).toBe(200);
    const patched = await caller().patch(`${T}/${id}`, edit);
    expect(patched.body.locally_modified).toBe(true);
    return patched.body;
  };
  const versionsOf = async (id: string) => (await caller().get(`${T}/${id}/versions`)).body.versions;

  beforeAll(async () => {
    // Every test's template, as installed (an install reads the cached catalog); each test then changes its own entry.
    for (const id of ["clean", "same", "clash", "back", "old"]) publish(id, catalogEntry(id));
    publish("modes", catalogEntry("modes", { manifest: manifest({ bank: { retain_extraction_mode: "custom" } }) }));
    expect((await caller().post(`${prefix}/template-sources`, { url: `${market.url}${folder}`, alias: source })).status).toBe(201);
  });

  it("keeps a local edit and takes upstream's change: a version `update`, still locally modified, audited", async () => {
    await installEdited("clean", { description: "Mine", manifest: manifest({ bank: { retain_mission: "My mission." } }) });
    const entry = catalogEntry("clean", {
      tags: ["starter", "new"],
      manifest: manifest({ directives: [{ name: "Cite sources", content: "Cite every fact." }] }),
    });
    publish("clean", entry);
    const before = (await caller().get(`${T}/clean`)).body;
    const audits = await auditCount();

    const updated = await caller().post(`${T}/clean/update?merge=true`);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ updated: true, previous_revision: before.source_revision });
    expect(updated.body.new_revision).not.toBe(before.source_revision);
    const template = updated.body.template;
    expect(template).toMatchObject({
      description: "Mine",
      tags: ["starter", "new"],
      locally_modified: true,
      source_revision: updated.body.new_revision,
      latest_revision: updated.body.new_revision,
    });
    expect(template.manifest).toEqual(
      manifest({ bank: { retain_mission: "My mission." }, directives: [{ name: "Cite sources", content: "Cite every fact." }] }),
    );
    expect((await caller().get(`${T}/clean`)).body).toEqual(template);
    expect((await versionsOf("clean"))[0]).toMatchObject({
      version: 3,
      action: "update",
      source_revision: updated.body.new_revision,
      locally_modified: true,
    });
    expect(await auditCount()).toBe(audits + 1);
    const last = (await t.app.db.select().from(auditEntries).orderBy(auditEntries.seq)).at(-1)!;
    expect(last).toMatchObject({ action: "template.update", targetType: "template", targetId: "clean" });
    expect(last.before).toEqual(before);
    expect(last.after).toEqual(template);
  });

  it("a merge equal to upstream leaves no local edits", async () => {
    await installEdited("same", { tags: ["starter", "agreed"] });
    publish("same", catalogEntry("same", { tags: ["starter", "agreed"], description: "Upstream words" }));
    const updated = await caller().post(`${T}/same/update?merge=true`);
    expect(updated.status).toBe(200);
    expect(updated.body.updated).toBe(true);
    expect(updated.body.template).toMatchObject({ tags: ["starter", "agreed"], description: "Upstream words", locally_modified: false });
    expect((await versionsOf("same"))[0]).toMatchObject({ action: "update", locally_modified: false });
  });

  it("a conflict answers 409 merge-conflict listing each path, and writes nothing", async () => {
    const local = manifest();
    local.mental_models[1]!.source_query = "What did we decide?";
    await installEdited("clash", { name: "Mine", manifest: local });
    const theirs = manifest({ mental_models: [manifest().mental_models[1]] });
    theirs.mental_models[0]!.source_query = "What was decided, and why?";
    publish("clash", catalogEntry("clash", { name: "Theirs", description: "Taken", manifest: theirs }));
    const before = (await caller().get(`${T}/clash`)).body;
    const versions = await versionsOf("clash");
    const audits = await auditCount();

    const refused = await caller().post(`${T}/clash/update?merge=true`);
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body.type).toBe("urn:bank-templates:problem:merge-conflict");
    expect(refused.body.conflicts).toEqual([
      { path: "name", base: "Template clash", local: "Mine", upstream: "Theirs", missing: [] },
      // Local's index (1), not upstream's (0): local kept both models.
      {
        path: "manifest.mental_models[1].source_query",
        base: "What was decided?",
        local: "What did we decide?",
        upstream: "What was decided, and why?",
        missing: [],
      },
    ]);
    expect((await caller().get(`${T}/clash`)).body).toEqual(before);
    expect(await versionsOf("clash")).toEqual(versions);
    expect(await auditCount()).toBe(audits);
  });

  it("update-preview?merge=true answers the merge and its conflicts, and writes nothing", async () => {
    const before = (await caller().get(`${T}/clash`)).body;
    const versions = await versionsOf("clash");
    const audits = await auditCount();

    const preview = await caller().get(`${T}/clash/update-preview?merge=true`);
    expect(preview.status).toBe(200);
    expect(preview.body.merge).toMatchObject({
      base_version: 1,
      base: { name: "Template clash" },
      conflicts: [{ path: "name" }, { path: "manifest.mental_models[1].source_query" }],
      locally_modified: true,
    });
    // Local's value at each conflict; upstream's where only upstream changed (the model it dropped).
    expect(preview.body.merge.merged).toMatchObject({ name: "Mine", description: "Taken" });
    expect(preview.body.merge.merged.manifest.mental_models).toEqual([
      { id: "decisions", name: "Decisions", source_query: "What did we decide?" },
    ]);
    expect((await caller().get(`${T}/clash/update-preview`)).body.merge).toBeUndefined();
    expect((await caller().get(`${T}/clash`)).body).toEqual(before);
    expect(await versionsOf("clash")).toEqual(versions);
    expect(await auditCount()).toBe(audits);
  });

  it("merge and force together answer 422 at merge", async () => {
    const refused = await caller().post(`${T}/clash/update?merge=true&force=true`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ path: "merge", message: "cannot be combined with force" }]);
  });

  it("a merge whose manifest would be invalid answers 409 merge-invalid and writes nothing", async () => {
    expect((await caller().post(`${T}/modes/install`, { source_name: source, source_scope: scope })).status).toBe(200);
    const local = manifest({ bank: { retain_extraction_mode: "custom", retain_custom_instructions: "One fact per issue." } });
    expect((await caller().patch(`${T}/modes`, { manifest: local })).status).toBe(200);
    publish("modes", catalogEntry("modes", { manifest: manifest({ bank: { retain_extraction_mode: "concise" } }) }));
    const versions = await versionsOf("modes");

    const refused = await caller().post(`${T}/modes/update?merge=true`);
    expect(refused.status).toBe(409);
    expect(refused.body.type).toBe("urn:bank-templates:problem:merge-invalid");
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: "manifest.bank.retain_custom_instructions" })]);
    expect(await versionsOf("modes")).toEqual(versions);
  });

  it("a rollback to an installed version is the next merge's base", async () => {
    expect((await caller().post(`${T}/back/install`, { source_name: source, source_scope: scope })).status).toBe(200);
    publish("back", catalogEntry("back", { description: "Second" }));
    expect((await caller().post(`${T}/back/update`)).body.updated).toBe(true);
    expect((await caller().post(`${T}/back/rollback`, { version: 1 })).body.locally_modified).toBe(false);
    expect((await caller().patch(`${T}/back`, { name: "Mine" })).status).toBe(200);

    const preview = await caller().get(`${T}/back/update-preview?merge=true`);
    expect(preview.body.merge).toMatchObject({ base_version: 3, conflicts: [], merged: { name: "Mine", description: "Second" } });
  });

  it("without its base version (no longer kept) answers 409 merge-base-missing, for the preview too", async () => {
    await installEdited("old", { description: "Mine" });
    publish("old", catalogEntry("old", { name: "Newer" }));
    const [row] = await t.app.db
      .select({ rowId: templates.rowId })
      .from(templates)
      .where(and(eq(templates.id, "old"), eq(templates.scope, scope)));
    // What keeping only the newest 50 versions does to a template edited often since its install.
    await t.app.db.delete(templateVersions).where(and(eq(templateVersions.templateRowId, row!.rowId), eq(templateVersions.version, 1)));
    for (const call of [caller().post(`${T}/old/update?merge=true`), caller().get(`${T}/old/update-preview?merge=true`)]) {
      const refused = await call;
      expect(refused.status).toBe(409);
      expect(refused.body.type).toBe("urn:bank-templates:problem:merge-base-missing");
    }
    expect((await caller().get(`${T}/old`)).body).toMatchObject({ name: "Template old", description: "Mine", locally_modified: true });
    // force=true still replaces the edits.
    expect((await caller().post(`${T}/old/update?force=true`)).body.template).toMatchObject({ name: "Newer", locally_modified: false });
  });
});
