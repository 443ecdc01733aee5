import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntries, templates, templateVersions } from "@/db/schema";
import { type Client, request, useTestApp } from "./support/app";
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
  /** What a write that is refused or a read must leave as it was: the template, its versions, the audit log. */
  const stateOf = async (id: string) => ({
    template: (await caller().get(`${T}/${id}`)).body,
    versions: await versionsOf(id),
    audits: await auditCount(),
  });

  beforeAll(async () => {
    // Every test's template, as installed (an install reads the cached catalog); each test then changes its own entry.
    for (const id of ["clean", "same", "clash", "back", "old", "solve", "raced", "racing", "keyed"]) publish(id, catalogEntry(id));
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
    const before = await stateOf("clash");

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
    expect(await stateOf("clash")).toEqual(before);
  });

  it("update-preview?merge=true answers the merge and its conflicts, and writes nothing", async () => {
    const before = await stateOf("clash");

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
    expect(await stateOf("clash")).toEqual(before);
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
  // CONTRACT §21: conflicts resolved in one step.
  describe("with resolutions", () => {
    /** `solve`: mira-like edits to name, tags and the first directive; the source changed the same three and the description. */
    const localSolve = () => manifest({ directives: [{ name: "Cite sources", content: "Mine: cite." }, manifest().directives[1]] });
    const upstreamSolve = () => manifest({ directives: [{ name: "Cite sources", content: "Theirs: cite." }, manifest().directives[1]] });
    const SOLVE_CONFLICTS = ["name", "tags", "manifest.directives[0].content"];
    const resolveAll = [
      { path: "name", take: "local" },
      { path: "tags", take: "upstream" },
      { path: "manifest.directives[0].content", take: "value", value: "Ours: cite each fact's document." },
    ];
    const update = (id: string, body: unknown, query = "merge=true") => caller().post(`${T}/${id}/update?${query}`, body);

    beforeAll(async () => {
      await installEdited("solve", { name: "Mine", tags: ["starter", "mine"], manifest: localSolve() });
      publish(
        "solve",
        catalogEntry("solve", { name: "Theirs", description: "Upstream words", tags: ["theirs"], manifest: upstreamSolve() }),
      );
    });

    it("partial resolutions answer 409 listing the conflicts left, and write nothing", async () => {
      const before = await stateOf("solve");
      const refused = await update("solve", { resolutions: resolveAll.slice(0, 2) });
      expect(refused.status).toBe(409);
      expect(refused.body.type).toBe("urn:bank-templates:problem:merge-conflict");
      expect(refused.body.detail).toContain("left unresolved");
      expect(refused.body.conflicts).toEqual([
        {
          path: "manifest.directives[0].content",
          base: manifest().directives[0]!.content,
          local: "Mine: cite.",
          upstream: "Theirs: cite.",
          missing: [],
        },
      ]);
      expect(await stateOf("solve")).toEqual(before);
    });

    it("a resolution of a path that is not a conflict answers 422 at that resolution's path", async () => {
      const refused = await update("solve", { resolutions: [...resolveAll, { path: "description", take: "local" }] });
      expect(refused.status).toBe(422);
      expect(refused.body.type).toBe("urn:bank-templates:problem:merge-resolution-unknown");
      expect(refused.body.errors).toEqual([{ path: "resolutions[3].path", message: "is not a conflict of this merge: description" }]);
    });

    it("resolutions are refused without merge=true, at resolutions", async () => {
      for (const query of ["", "force=true"]) {
        const refused = await update("solve", { resolutions: resolveAll }, query);
        expect(refused.status).toBe(422);
        expect(refused.body.errors).toEqual([{ path: "resolutions", message: "is only allowed with merge=true" }]);
      }
    });

    it("a resolution must be well-formed: a value exactly with take value, a known take, no unknown field", async () => {
      const refused = await update("solve", {
        resolutions: [
          { path: "name", take: "value" },
          { path: "tags", take: "local", value: ["x"] },
          { path: "manifest.directives[0].content", take: "mine", note: "?" },
        ],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([
        { path: "resolutions[0].value", message: "is required with take: value" },
        { path: "resolutions[1].value", message: "is only allowed with take: value" },
        { path: "resolutions[2].take", message: "must be one of local, upstream, value" },
        { path: "resolutions[2].note", message: "is not a known field" },
      ]);
    });

    it("each path is resolved once: a second resolution of it answers 422 at its path", async () => {
      const refused = await update("solve", { resolutions: [...resolveAll, { path: "tags", take: "local" }] });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ path: "resolutions[3].path", message: "resolves a path already resolved" }]);
    });

    it("a value its field cannot hold answers 422 at the value; one that breaks the manifest 409 merge-invalid", async () => {
      const badName = await update("solve", { resolutions: [{ path: "name", take: "value", value: 42 }, ...resolveAll.slice(1)] });
      expect(badName.status).toBe(422);
      expect(badName.body.errors).toEqual([expect.objectContaining({ path: "resolutions[0].value" })]);
      const blank = await update("solve", {
        resolutions: [...resolveAll.slice(0, 2), { path: "manifest.directives[0].content", take: "value", value: " " }],
      });
      expect(blank.status).toBe(409);
      expect(blank.body.type).toBe("urn:bank-templates:problem:merge-invalid");
      expect(blank.body.errors).toEqual([expect.objectContaining({ path: "manifest.directives[0].content" })]);
    });

    it("resolving every conflict writes the merge at once: one version `merge`, one audit entry", async () => {
      const before = await stateOf("solve");
      const preview = (await caller().get(`${T}/solve/update-preview?merge=true`)).body;
      expect(preview.merge.conflicts.map((c: { path: string }) => c.path)).toEqual(SOLVE_CONFLICTS);

      const updated = await update("solve", { resolutions: resolveAll });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        updated: true,
        previous_revision: before.template.source_revision,
        new_revision: preview.latest_revision,
      });
      const template = updated.body.template;
      expect(template).toMatchObject({
        name: "Mine",
        description: "Upstream words",
        tags: ["theirs"],
        locally_modified: true,
        source_revision: preview.latest_revision,
      });
      expect(template.manifest.directives[0]).toEqual({ name: "Cite sources", content: "Ours: cite each fact's document." });
      expect((await caller().get(`${T}/solve`)).body).toEqual(template);
      const now = await versionsOf("solve");
      expect(now).toHaveLength(before.versions.length + 1);
      expect(now[0]).toMatchObject({
        version: before.versions[0].version + 1,
        action: "merge",
        source_revision: preview.latest_revision,
        locally_modified: true,
      });
      expect(await auditCount()).toBe(before.audits + 1);
      const last = (await t.app.db.select().from(auditEntries).orderBy(auditEntries.seq)).at(-1)!;
      expect(last).toMatchObject({ action: "template.update", targetType: "template", targetId: "solve" });
      expect(last.before).toEqual(before.template);
      expect(last.after).toEqual(template);
    });

    it("the next merge starts from the source's content the merge took: resolved conflicts do not come back", async () => {
      const merged = (await versionsOf("solve"))[0];
      publish(
        "solve",
        catalogEntry("solve", {
          name: "Theirs",
          description: "Upstream words",
          tags: ["theirs"],
          category: "support",
          manifest: upstreamSolve(),
        }),
      );
      const preview = (await caller().get(`${T}/solve/update-preview?merge=true`)).body;
      expect(preview.merge).toMatchObject({ base_version: merged.version, base: { name: "Theirs" }, conflicts: [] });
      expect(preview.merge.merged).toMatchObject({ name: "Mine", category: "support", tags: ["theirs"] });
    });

    it("a rollback to the merge version restores it, and it stays the next merge's base", async () => {
      const merged = (await versionsOf("solve"))[0];
      // Back to the edits made before the merge, at the revision installed: the install is their base, not the newer merge.
      expect((await caller().post(`${T}/solve/rollback`, { version: merged.version - 1 })).status).toBe(200);
      expect((await caller().get(`${T}/solve/update-preview?merge=true`)).body.merge.base_version).toBe(1);
      const restored = await caller().post(`${T}/solve/rollback`, { version: merged.version });
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ name: "Mine", locally_modified: true, source_revision: merged.source_revision });
      const preview = (await caller().get(`${T}/solve/update-preview?merge=true`)).body;
      expect(preview.merge).toMatchObject({
        base_version: merged.version + 2,
        conflicts: [],
        merged: { name: "Mine", category: "support" },
      });
      expect((await update("solve", {})).body.template).toMatchObject({ name: "Mine", category: "support", locally_modified: true });
    });

    /**
     * Runs `during` while the update waits for the source's catalog: after it read the template,
     * before its transaction re-reads it under the lock. Then the catalog is served as published.
     */
    const duringNextCatalogFetch = (during: () => Promise<unknown>) => {
      const body = JSON.stringify(catalog(...upstream.values()));
      market.setHandler(`${folder}/templates.json`, (_req, res) => {
        void during().then(() => {
          res.writeHead(200, { "content-type": "application/json" }).end(body);
          market.setFile(`${folder}/templates.json`, catalog(...upstream.values()));
        });
      });
    };

    /**
     * `id` renamed here and by the source, which also rewords its description; `patch` lands while
     * the update, resolving the name with local's, waits for the catalog.
     */
    const updateRacing = async (id: string, patch: Record<string, unknown>) => {
      await installEdited(id, { name: "Mine" });
      publish(id, catalogEntry(id, { name: "Theirs", description: "Upstream words" }));
      duringNextCatalogFetch(() => caller().patch(`${T}/${id}`, patch));
      return update(id, { resolutions: [{ path: "name", take: "local" }] });
    };

    it("a PATCH racing the update is merged under the lock: its value of a path resolved with local is the one written", async () => {
      const updated = await updateRacing("raced", { name: "Mine, renamed meanwhile" });
      expect(updated.status).toBe(200);
      expect(updated.body.template).toMatchObject({
        name: "Mine, renamed meanwhile",
        description: "Upstream words",
        locally_modified: true,
      });
      expect((await versionsOf("raced")).slice(0, 2)).toMatchObject([{ action: "merge" }, { action: "patch" }]);
    });

    it("a PATCH racing the update that makes a new conflict answers 409 with it, and the update writes nothing", async () => {
      const refused = await updateRacing("racing", { description: "Mine too" });
      expect(refused.status).toBe(409);
      expect(refused.body.conflicts).toEqual([
        { path: "description", base: "The racing template", local: "Mine too", upstream: "Upstream words", missing: [] },
      ]);
      expect(await versionsOf("racing")).toMatchObject([{ action: "patch" }, { action: "patch" }, { action: "install" }]);
    });

    it("an Idempotency-Key covers the body: the same resolutions replay the answer, other ones are refused", async () => {
      await installEdited("keyed", { name: "Mine" });
      publish("keyed", catalogEntry("keyed", { name: "Theirs" }));
      const send = (take: string) =>
        request("POST", `${T}/keyed/update?merge=true`, {
          token: caller().token,
          headers: { "idempotency-key": `merge-${scope}` },
          body: { resolutions: [{ path: "name", take }] },
        });
      const first = await send("local");
      expect(first.status).toBe(200);
      const again = await send("local");
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const other = await send("upstream");
      expect(other.status).toBe(422);
      expect(other.body.type).toMatch(/idempotency-key-reused$/);
      expect((await versionsOf("keyed")).map((v: { action: string }) => v.action)).toEqual(["merge", "patch", "install"]);
    });
  });
});
