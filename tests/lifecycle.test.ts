import { beforeAll, describe, expect, it } from "vitest";
import { refreshAllUpdateStatuses, schedulerContext } from "@/lib/services/templates/scheduled-check";
import { type Client, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

// CONTRACT §13: versions and rollback, update status, bulk checks and updates.
const t = useTestApp();
const market = useMarketplace(t);
let carl: Client;

beforeAll(async () => {
  carl = await t.user("carl");
});

describe.each([
  ["/ext/svc/me", "personal"],
  ["/ext/svc/admin", "server"],
] as const)("versions and rollback under %s", (prefix, scope) => {
  const caller = () => (scope === "personal" ? carl : t.admin);
  const actor = () => (scope === "personal" ? "carl" : "admin");
  const T = `${prefix}/templates`;
  const folder = `/v-${scope}`;

  beforeAll(async () => {
    market.setFile(`${folder}/templates.json`, catalog(catalogEntry("notes-bot", { homepage_url: "https://example.com/notes" })));
    const source = await caller().post(`${prefix}/template-sources`, { url: `${market.url}${folder}`, alias: `v-${scope}` });
    expect(source.status).toBe(201);
  });

  it("records install, patch, update and rollback, and rollback restores version 2", async () => {
    const installed = await caller().post(`${T}/notes-bot/install`, { source_name: `v-${scope}`, source_scope: scope });
    expect(installed.status).toBe(200);
    expect(installed.body.homepage_url).toBe("https://example.com/notes");
    const patched = await caller().patch(`${T}/notes-bot`, { description: "Edited here", homepage_url: "https://example.com/ours" });
    expect(patched.body.locally_modified).toBe(true);
    const v2entry = catalogEntry("notes-bot", { description: "Upstream v2", homepage_url: "https://example.com/v2" });
    market.setFile(`${folder}/templates.json`, catalog(v2entry));
    const updated = await request("POST", `${T}/notes-bot/update?force=true`, { token: caller().token });
    expect(updated.body.updated).toBe(true);
    expect(updated.body.template.homepage_url).toBe("https://example.com/v2");

    const rolledBack = await caller().post(`${T}/notes-bot/rollback`, { version: 2 });
    expect(rolledBack.status).toBe(200);
    const v2 = (await caller().get(`${T}/notes-bot/versions/2`)).body;
    expect(v2).toMatchObject({
      version: 2,
      action: "patch",
      description: "Edited here",
      homepage_url: "https://example.com/ours",
      locally_modified: true,
      actor: actor(),
    });
    expect(rolledBack.body).toMatchObject({
      description: v2.description,
      homepage_url: "https://example.com/ours",
      name: v2.name,
      manifest: v2.manifest,
      source_revision: v2.source_revision,
      locally_modified: true,
    });

    const versions = (await caller().get(`${T}/notes-bot/versions`)).body.versions;
    expect(
      versions.map((v: { version: number; action: string; restored_version: number | null }) => [v.version, v.action, v.restored_version]),
    ).toEqual([
      [4, "rollback", 2],
      [3, "update", null],
      [2, "patch", null],
      [1, "install", null],
    ]);
    expect(new Set(versions.map((v: { actor: string }) => v.actor))).toEqual(new Set([actor()]));
  });

  it("a rollback is undone by another rollback", async () => {
    const undone = await caller().post(`${T}/notes-bot/rollback`, { version: 3 });
    expect(undone.body).toMatchObject({ description: "Upstream v2", locally_modified: false });
    const versions = (await caller().get(`${T}/notes-bot/versions`)).body.versions;
    expect(versions[0]).toMatchObject({ version: 5, action: "rollback", restored_version: 3 });
  });

  it("answers 404 for an unknown version, and for versions of a missing template", async () => {
    expect((await caller().post(`${T}/notes-bot/rollback`, { version: 99 })).status).toBe(404);
    expect((await caller().get(`${T}/notes-bot/versions/99`)).status).toBe(404);
    expect((await caller().get(`${T}/nothing/versions`)).status).toBe(404);
  });

  it("keeps the newest 50 versions: version 51 evicts version 1", async () => {
    const created = await caller().post(T, { id: "busy", name: "Busy", manifest: manifest() });
    expect(created.status).toBe(200);
    for (let i = 2; i <= 51; i++) expect((await caller().patch(`${T}/busy`, { description: `edit ${i}` })).status).toBe(200);
    const versions = (await caller().get(`${T}/busy/versions`)).body.versions;
    expect(versions).toHaveLength(50);
    expect(versions[0].version).toBe(51);
    expect(versions.at(-1).version).toBe(2);
    expect((await caller().get(`${T}/busy/versions/1`)).status).toBe(404);
    expect(versions.at(-1).action).toBe("patch");
  });

  it("deleting a template deletes its versions: a new template of that id starts at 1", async () => {
    expect((await caller().delete(`${T}/busy`)).status).toBe(204);
    await caller().post(T, { id: "busy", name: "Busy again", manifest: manifest() });
    const versions = (await caller().get(`${T}/busy/versions`)).body.versions;
    expect(versions).toEqual([expect.objectContaining({ version: 1, action: "create" })]);
  });
});

describe("update status and bulk operations", () => {
  let dora: Client;
  const T = "/ext/svc/me/templates";

  beforeAll(async () => {
    dora = await t.user("dora");
    // 3 sources of 10 templates each; the third's marketplace will be down.
    for (const s of ["a", "b", "c"]) {
      market.setFile(`/bulk-${s}/templates.json`, catalog(...Array.from({ length: 10 }, (_, i) => catalogEntry(`${s}${i}`))));
      await dora.post("/ext/svc/me/template-sources", { url: `${market.url}/bulk-${s}`, alias: `bulk-${s}` });
      for (let i = 0; i < 10; i++) {
        expect((await dora.post(`${T}/${s}${i}/install`, { source_name: `bulk-${s}` })).status).toBe(200);
      }
    }
  });

  it("installs carry their update status", async () => {
    const one = (await dora.get(`${T}/a0`)).body;
    expect(one.latest_revision).toBe(one.source_revision);
    expect(one.update_checked_at).toMatch(/Z$/);
  });

  it("check-updates over 30 templates from 3 sources, one down: problems only for the down source", async () => {
    market.setFile(
      "/bulk-a/templates.json",
      catalog(catalogEntry("a0", { description: "changed" }), ...Array.from({ length: 9 }, (_, i) => catalogEntry(`a${i + 1}`))),
    );
    market.setFile("/bulk-c/templates.json", "not json at all");
    const before = market.count("/bulk-a/templates.json");
    const res = await dora.post(`${T}/check-updates`);
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(30);
    const byId = Object.fromEntries(res.body.results.map((r: { id: string }) => [r.id, r]));
    for (let i = 0; i < 10; i++) {
      expect(byId[`a${i}`].problem).toBeNull();
      expect(byId[`b${i}`].problem).toBeNull();
      expect(byId[`c${i}`].problem).toMatchObject({
        type: "urn:bank-templates:problem:bad-gateway",
        title: "Bad Gateway",
        status: 502,
        detail: expect.any(String),
      });
    }
    expect(byId.a0.has_update).toBe(true);
    expect(byId.a1.has_update).toBe(false);
    // One conditional catalog request for the ten templates of one source.
    expect(market.count("/bulk-a/templates.json") - before).toBe(1);
    const stored = (await dora.get(`${T}/a0`)).body;
    expect(stored.latest_revision).toBe(byId.a0.latest_revision);
    expect(stored.latest_revision).not.toBe(stored.source_revision);
  });

  it("update-all updates the changed ones, skips local edits with a 409 problem, and force=true updates them", async () => {
    market.setFile("/bulk-c/templates.json", catalog(...Array.from({ length: 10 }, (_, i) => catalogEntry(`c${i}`))));
    market.setFile(
      "/bulk-b/templates.json",
      catalog(catalogEntry("b0", { description: "b changed" }), ...Array.from({ length: 9 }, (_, i) => catalogEntry(`b${i + 1}`))),
    );
    expect((await dora.patch(`${T}/b0`, { name: "Mine now" })).status).toBe(200);
    const res = await dora.post(`${T}/update-all`);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.results.map((r: { id: string }) => [r.id, r]));
    expect(byId.a0).toMatchObject({ updated: true, problem: null });
    expect(byId.a1).toMatchObject({ updated: false, problem: null });
    expect(byId.b0).toMatchObject({
      updated: false,
      problem: { type: "urn:bank-templates:problem:local-edits", title: "Conflict", status: 409 },
    });
    const forced = await request("POST", `${T}/update-all?force=true`, { token: dora.token });
    const forcedById = Object.fromEntries(forced.body.results.map((r: { id: string }) => [r.id, r]));
    expect(forcedById.b0).toMatchObject({ updated: true, problem: null });
    expect((await dora.get(`${T}/b0`)).body).toMatchObject({ description: "b changed", locally_modified: false });
  });

  it("the scheduled check refreshes latest_revision of every installed template", async () => {
    market.setFile(
      "/bulk-b/templates.json",
      catalog(catalogEntry("b0", { description: "b changed again" }), ...Array.from({ length: 9 }, (_, i) => catalogEntry(`b${i + 1}`))),
    );
    const result = await refreshAllUpdateStatuses(schedulerContext(t.app));
    expect(result.failed).toBe(0);
    const b0 = (await dora.get(`${T}/b0`)).body;
    expect(b0.latest_revision).not.toBe(b0.source_revision);
    const b1 = (await dora.get(`${T}/b1`)).body;
    expect(b1.latest_revision).toBe(b1.source_revision);
  });

  it("hand-made templates have null update status and are not in bulk results", async () => {
    await dora.post(T, { id: "by-hand", name: "By hand", manifest: manifest() });
    expect((await dora.get(`${T}/by-hand`)).body).toMatchObject({ latest_revision: null, update_checked_at: null });
    const res = await dora.post(`${T}/check-updates`);
    expect(res.body.results.map((r: { id: string }) => r.id)).not.toContain("by-hand");
  });
});

describe("templates any actor may use", () => {
  let erin: Client;
  beforeAll(async () => {
    erin = await t.user("erin");
    await t.admin.post("/ext/svc/admin/templates", { id: "published", name: "Published", manifest: manifest(), tags: ["shared"] });
    await t.admin.post("/ext/svc/admin/templates", { id: "another", name: "Another", manifest: manifest() });
    await erin.post("/ext/svc/me/templates", { id: "mine", name: "Mine", manifest: manifest(), tags: ["shared"] });
    await erin.post("/ext/svc/me/templates", { id: "zeta", name: "Zeta", manifest: manifest() });
  });

  it("lists the member's personal templates first, then every server template, by id", async () => {
    const res = await erin.get("/ext/svc/templates");
    expect(res.status).toBe(200);
    const listed = res.body.templates.map((x: { scope: string; id: string }) => `${x.scope}/${x.id}`);
    expect(listed.slice(0, 2)).toEqual(["personal/mine", "personal/zeta"]);
    expect(listed).toContain("server/published");
    expect(listed).toContain("server/another");
    expect(listed.filter((x: string) => x.startsWith("personal/")).length).toBe(2); // nobody else's
    const serverPart = listed.filter((x: string) => x.startsWith("server/"));
    expect(serverPart).toEqual([...serverPart].sort());
  });

  it("filters by tag and pages across both scopes with a cursor", async () => {
    const tagged = await erin.get("/ext/svc/templates?tag=shared");
    expect(tagged.body.templates.map((x: { id: string }) => x.id)).toEqual(["mine", "published"]);
    const all = (await erin.get("/ext/svc/templates")).body.templates.map((x: { scope: string; id: string }) => `${x.scope}/${x.id}`);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { templates: Array<{ scope: string; id: string }>; next_cursor: string | null } } = await erin.get(
        `/ext/svc/templates?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      paged.push(...page.body.templates.map((x) => `${x.scope}/${x.id}`));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it("reads one by scope and id, and answers 404 for another user's personal template", async () => {
    expect((await erin.get("/ext/svc/templates/server/published")).body).toMatchObject({ id: "published", scope: "server" });
    expect((await erin.get("/ext/svc/templates/personal/mine")).body).toMatchObject({ id: "mine", owner: "erin" });
    expect((await carl.get("/ext/svc/templates/personal/mine")).status).toBe(404);
    expect((await erin.get("/ext/svc/templates/server/missing")).status).toBe(404);
    expect((await erin.get("/ext/svc/templates/global/published")).status).toBe(422);
  });

  it("still refuses the member every admin path", async () => {
    expect((await erin.get("/ext/svc/admin/templates")).status).toBe(403);
    expect((await erin.get("/ext/svc/admin/templates/published")).status).toBe(403);
    expect((await erin.post("/ext/svc/admin/templates/check-updates")).status).toBe(403);
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("the scheduled update check with two processes on PostgreSQL", () => {
  it("runs one check at a time: a catalog change reaches latest_revision with one request per source", async () => {
    const { openPostgres } = await import("@/db/client");
    const { runUpdateCheckIfDue } = await import("@/lib/services/templates/scheduled-check");
    const second = await openPostgres(t.databaseUrl!);
    try {
      const other = { ...t.app, db: second.db, database: second };
      const fern = await t.user("fern");
      market.setFile("/sched/templates.json", catalog(catalogEntry("s1"), catalogEntry("s2")));
      await fern.post("/ext/svc/me/template-sources", { url: `${market.url}/sched`, alias: "sched" });
      for (const id of ["s1", "s2"]) await fern.post(`/ext/svc/me/templates/${id}/install`, { source_name: "sched" });
      market.setFile("/sched/templates.json", catalog(catalogEntry("s1", { description: "changed" }), catalogEntry("s2")));

      const before = market.count("/sched/templates.json");
      // Both processes' timers fire at once, several times: one run, one catalog request.
      const ran = await Promise.all([t.app, other, t.app, other].map((app) => runUpdateCheckIfDue(app, 60_000)));
      expect(ran.filter(Boolean)).toHaveLength(1);
      expect(market.count("/sched/templates.json") - before).toBe(1);
      const s1 = (await fern.get("/ext/svc/me/templates/s1")).body;
      expect(s1.latest_revision).not.toBe(s1.source_revision);
      // Not due again within the interval, in either process.
      expect(await runUpdateCheckIfDue(other, 60_000)).toBe(false);
    } finally {
      await second.close();
    }
  });
});
