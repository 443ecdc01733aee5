import { beforeAll, describe, expect, it } from "vitest";
import { type Client, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { startMarketplace } from "./support/marketplace-server";
import { useMarketplace } from "./support/use-marketplace";

const t = useTestApp();
const market = useMarketplace(t);
let alice: Client;
let bob: Client;

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
});

const hand = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `Hand ${id}`, manifest: manifest(), ...extra });
const ids = (res: { body: { templates: { id: string }[] } }) => res.body.templates.map((x) => x.id);

describe.each([
  ["/ext/svc/me/templates", "personal"],
  ["/ext/svc/admin/templates", "server"],
] as const)("templates under %s", (T, scope) => {
  const caller = () => (scope === "personal" ? alice : t.admin);

  it("creates with 200 and every field", async () => {
    const homepage_url = "https://example.com/templates/alpha";
    const res = await caller().post(
      T,
      hand("alpha", { description: "First", category: "ops", integrations: ["slack"], tags: ["a", "b"], homepage_url }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: "alpha",
      name: "Hand alpha",
      description: "First",
      category: "ops",
      integrations: ["slack"],
      tags: ["a", "b"],
      homepage_url,
      scope,
      owner: scope === "personal" ? "alice" : null,
      source_name: null,
      source_scope: null,
      source_owner: null,
      source_revision: null,
      locally_modified: false,
      latest_revision: null,
      update_checked_at: null,
      installed_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      manifest: manifest(),
    });
  });

  it("answers 409 on a duplicate id and 422 for a bad id", async () => {
    const taken = await caller().post(T, hand("alpha"));
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([expect.objectContaining({ path: "id" })]);
    const bad = await caller().post(T, hand("a/b"));
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: "id" })]);
    expect((await caller().get(`${T}/a%2Fb`)).status).toBe(422);
  });

  it("lists by id with category, tag, both, and pages with a signed cursor", async () => {
    await caller().post(T, hand("delta", { category: "ops", tags: ["b"] }));
    await caller().post(T, hand("charlie", { category: "sales", tags: ["a"] }));
    await caller().post(T, hand("bravo", { category: "ops", tags: ["c"] }));
    expect(ids(await caller().get(T))).toEqual(["alpha", "bravo", "charlie", "delta"]);
    expect(ids(await caller().get(`${T}?category=ops`))).toEqual(["alpha", "bravo", "delta"]);
    expect(ids(await caller().get(`${T}?tag=a`))).toEqual(["alpha", "charlie"]);
    expect(ids(await caller().get(`${T}?category=ops&tag=b`))).toEqual(["alpha", "delta"]);
    expect((await caller().get(T)).body.next_cursor).toBeUndefined();

    const first = await caller().get(`${T}?limit=3`);
    expect(ids(first)).toEqual(["alpha", "bravo", "charlie"]);
    const second = await caller().get(`${T}?limit=3&cursor=${first.body.next_cursor}`);
    expect(ids(second)).toEqual(["delta"]);
    expect(second.body.next_cursor).toBeNull();
    expect((await caller().get(`${T}?limit=3&cursor=`)).body.templates).toHaveLength(3);
    expect((await caller().get(`${T}?cursor=${first.body.next_cursor}`)).status).toBe(422);
    expect((await caller().get(`${T}?limit=3&cursor=forged.cursor`)).status).toBe(422);
    expect((await caller().get(`${T}?limit=3&tag=a&cursor=${first.body.next_cursor}`)).status).toBe(422);
    expect((await caller().get(`${T}?limit=0`)).status).toBe(422);
    expect((await caller().get(`${T}?limit=501`)).status).toBe(422);
  });

  it("patches: {} changes nothing, null clears description/category/homepage_url and leaves name, tags, integrations, manifest", async () => {
    const before = (await caller().get(`${T}/alpha`)).body;
    const same = await caller().patch(`${T}/alpha`, {});
    expect(same.status).toBe(200);
    expect(same.body).toEqual(before);
    // hindclaw's clients send every unset field as null (CONTRACT §15): those nulls change nothing, not even updated_at.
    const unset = await caller().patch(`${T}/alpha`, { name: null, tags: null, integrations: null, manifest: null });
    expect(unset.status, unset.text).toBe(200);
    expect(unset.body).toEqual(before);
    const cleared = await caller().patch(`${T}/alpha`, {
      description: null,
      category: null,
      homepage_url: null,
      name: "Renamed",
      tags: null,
    });
    expect(cleared.body).toMatchObject({ description: null, category: null, homepage_url: null, name: "Renamed", locally_modified: false });
    expect(cleared.body).toMatchObject({ tags: before.tags, integrations: before.integrations, manifest: before.manifest });
    expect(cleared.body.updated_at >= before.updated_at).toBe(true);
    for (const field of ["name", "tags", "integrations", "manifest", "homepage_url"]) {
      const res = await caller().patch(`${T}/alpha`, { [field]: 7 });
      expect(res.status, field).toBe(422);
      expect(res.body.errors[0].path).toBe(field);
    }
    // A home page is an http or https address: a link the console shows must not run script or leave the web.
    for (const homepage_url of ["javascript:alert(1)", "ftp://example.com/x", "not a url", `https://example.com/${"x".repeat(2048)}`]) {
      const res = await caller().patch(`${T}/alpha`, { homepage_url });
      expect(res.status, homepage_url).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: "homepage_url" })]);
    }
    const linked = await caller().patch(`${T}/alpha`, { homepage_url: "http://example.com/alpha" });
    expect(linked.body).toMatchObject({ homepage_url: "http://example.com/alpha", name: "Renamed" });
    expect((await caller().patch(`${T}/alpha`, { colour: "red" })).status).toBe(422);
  });

  it("deletes with 204, then 404", async () => {
    expect((await caller().delete(`${T}/bravo`)).status).toBe(204);
    expect((await caller().get(`${T}/bravo`)).status).toBe(404);
    expect((await caller().delete(`${T}/bravo`)).status).toBe(404);
  });
});

describe("visibility", () => {
  it("hides a personal template from other users on every verb (404)", async () => {
    const T = "/ext/svc/me/templates/alpha";
    expect((await bob.get(T)).status).toBe(404);
    expect((await bob.patch(T, { name: "x" })).status).toBe(404);
    expect((await bob.delete(T)).status).toBe(404);
    expect((await bob.post(`${T}/update`)).status).toBe(404);
    expect((await bob.get(`${T}/check-update`)).status).toBe(404);
    expect(ids(await bob.get("/ext/svc/me/templates"))).toEqual([]);
    expect((await alice.get(T)).status).toBe(200);
  });

  it("lets bob use the same id for his own template", async () => {
    expect((await bob.post("/ext/svc/me/templates", hand("alpha"))).status).toBe(200);
  });

  it("keeps server templates under /admin only", async () => {
    expect((await t.admin.post("/ext/svc/admin/templates", hand("server-only"))).status).toBe(200);
    expect(ids(await t.admin.get("/ext/svc/me/templates"))).not.toContain("server-only");
    expect((await t.admin.get("/ext/svc/me/templates/server-only")).status).toBe(404);
    expect((await alice.get("/ext/svc/admin/templates")).status).toBe(403);
    expect((await alice.get("/ext/svc/admin/templates/server-only")).status).toBe(403);
    expect((await alice.get("/ext/svc/me/templates/server-only")).status).toBe(404);
  });
});

describe("manifest validation", () => {
  const rules: [string, Record<string, unknown>, string][] = [
    ["version other than 1", { version: "2" }, "manifest.version"],
    ["missing version", { version: undefined }, "manifest.version"],
    ["unknown extraction mode", { bank: { retain_extraction_mode: "fancy" } }, "manifest.bank.retain_extraction_mode"],
    [
      "custom instructions without custom mode",
      { bank: { retain_extraction_mode: "concise", retain_custom_instructions: "x" } },
      "manifest.bank.retain_custom_instructions",
    ],
    ["blank mental-model name", { mental_models: [{ id: "m", name: "  ", source_query: "q" }] }, "manifest.mental_models[0].name"],
    ["blank source query", { mental_models: [{ id: "m", name: "n", source_query: "" }] }, "manifest.mental_models[0].source_query"],
    ["blank directive name", { directives: [{ name: " ", content: "c" }] }, "manifest.directives[0].name"],
    ["blank directive content", { directives: [{ name: "n", content: "" }] }, "manifest.directives[0].content"],
    [
      "duplicate mental-model id",
      {
        mental_models: [
          { id: "m", name: "a", source_query: "q" },
          { id: "m", name: "b", source_query: "q" },
        ],
      },
      "manifest.mental_models[1].id",
    ],
    [
      "duplicate directive name",
      {
        directives: [
          { name: "d", content: "a" },
          { name: "x", content: "b" },
          { name: "d", content: "c" },
        ],
      },
      "manifest.directives[2].name",
    ],
    [
      "max_tokens below 256",
      { mental_models: [{ id: "m", name: "a", source_query: "q", max_tokens: 100 }] },
      "manifest.mental_models[0].max_tokens",
    ],
    [
      "max_tokens above 8192",
      { mental_models: [{ id: "m", name: "a", source_query: "q", max_tokens: 9000 }] },
      "manifest.mental_models[0].max_tokens",
    ],
    ["disposition above 5", { bank: { disposition_empathy: 6 } }, "manifest.bank.disposition_empathy"],
  ];
  it.each(rules)("answers 422 for %s at its path", async (_, overrides, path) => {
    const res = await alice.post("/ext/svc/me/templates", hand("rules", { manifest: manifest(overrides) }));
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("keeps keys the schema does not name, and the validate endpoint warns about them", async () => {
    const custom = manifest({ x_vendor: { a: 1 }, bank: { retain_mission: "m", future_flag: true } });
    const created = await alice.post("/ext/svc/me/templates", hand("extras", { manifest: custom }));
    expect(created.status).toBe(200);
    expect(created.body.manifest).toEqual(custom);
    const checked = await alice.post("/ext/svc/manifests/validate", { manifest: custom });
    expect(checked.status).toBe(200);
    expect(checked.body.valid).toBe(true);
    expect(checked.body.warnings.map((w: { path: string }) => w.path).sort()).toEqual(["manifest.bank.future_flag", "manifest.x_vendor"]);
    const bad = await alice.post("/ext/svc/manifests/validate", { manifest: manifest({ version: "9" }) });
    expect(bad.body).toMatchObject({ valid: false, errors: [{ path: "manifest.version" }] });
    expect((await alice.post("/ext/svc/manifests/validate", {})).status).toBe(422);
  });
});

describe("installing from a marketplace", () => {
  beforeAll(async () => {
    market.setFile("/inline/templates.json", catalog(catalogEntry("support-bot"), catalogEntry("sales-bot", { category: "sales" })));
    market.setFile("/files/templates.json", catalog({ id: "filed", name: "Filed", manifest_file: "manifests/filed.json" }));
    market.setFile("/files/manifests/filed.json", manifest({ directives: [{ name: "From file", content: "yes" }] }));
    await alice.post("/ext/svc/me/template-sources", { url: `${market.url}/inline`, alias: "inline", auth_token: "alice-market-token" });
    await alice.post("/ext/svc/me/template-sources", { url: `${market.url}/files`, alias: "files" });
  });

  it("installs from an inline catalog with the entry's metadata, manifest and revision", async () => {
    const res = await alice.post("/ext/svc/me/templates/support-bot/install", { source_name: "inline" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: "support-bot",
      name: "Template support-bot",
      description: "The support-bot template",
      category: "engineering",
      integrations: ["slack"],
      tags: ["starter"],
      scope: "personal",
      owner: "alice",
      source_name: "inline",
      source_scope: "personal",
      source_owner: "alice",
      source_revision: expect.stringMatching(/^[0-9a-f]{16}$/),
      locally_modified: false,
      manifest: manifest(),
    });
  });

  it("sends the source token as a bearer token", () => {
    const catalogRequest = market.requests.find((r) => r.path === "/inline/templates.json");
    expect(catalogRequest?.headers.authorization).toBe("Bearer alice-market-token");
    expect(market.requests.find((r) => r.path.startsWith("/files"))?.headers.authorization).toBeUndefined();
  });

  it("installs from a catalog with manifest_file entries", async () => {
    const res = await alice.post("/ext/svc/me/templates/filed/install", { source_name: "files" });
    expect(res.status).toBe(200);
    expect(res.body.manifest.directives).toEqual([{ name: "From file", content: "yes" }]);
  });

  it("installs one template twice under alias ids", async () => {
    const res = await alice.post("/ext/svc/me/templates/support-bot/install", { source_name: "inline", alias_id: "support-2" });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe("support-2");
    const browse = await alice.get("/ext/svc/me/template-sources/inline/catalog");
    expect(browse.status).toBe(200);
    expect(browse.body.source.name).toBe("inline");
    expect(browse.body.templates.find((e: { id: string }) => e.id === "support-bot").installed_as).toEqual(["support-2", "support-bot"]);
    expect(browse.body.templates.find((e: { id: string }) => e.id === "sales-bot").installed_as).toEqual([]);
  });

  it("answers 409 for a taken id before any request reaches the marketplace", async () => {
    market.clearRequests();
    const res = await alice.post("/ext/svc/me/templates/support-bot/install", { source_name: "inline" });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "alias_id" })]);
    const hand = await alice.post("/ext/svc/me/templates/sales-bot/install", { source_name: "inline", alias_id: "alpha" });
    expect(hand.status).toBe(409);
    expect(market.requests).toEqual([]);
  });

  it("answers 404 for an unknown source or template id", async () => {
    expect((await alice.post("/ext/svc/me/templates/x/install", { source_name: "nope" })).status).toBe(404);
    expect((await alice.post("/ext/svc/me/templates/nope/install", { source_name: "inline" })).status).toBe(404);
    expect((await bob.post("/ext/svc/me/templates/sales-bot/install", { source_name: "inline" })).status).toBe(404);
  });

  it("makes no catalog request for a second install within the TTL", async () => {
    market.clearRequests();
    expect((await alice.post("/ext/svc/me/templates/sales-bot/install", { source_name: "inline" })).status).toBe(200);
    expect(market.requests).toEqual([]);
  });

  it("installs from a server source under /me when no personal source has the name", async () => {
    await t.admin.post("/ext/svc/admin/template-sources", { url: `${market.url}/inline`, alias: "company" });
    const res = await bob.post("/ext/svc/me/templates/support-bot/install", { source_name: "company" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source_name: "company", source_scope: "server", source_owner: null });
    const server = await t.admin.post("/ext/svc/admin/templates/support-bot/install", { source_name: "company" });
    expect(server.status).toBe(200);
    expect(server.body).toMatchObject({ scope: "server", owner: null, source_scope: "server" });
    expect((await t.admin.get("/ext/svc/admin/template-sources/company/catalog")).status).toBe(200);
  });

  it("marks each entry with the server templates installed from that same source, under /me and /admin", async () => {
    const entries = async (caller: Client, path: string) => {
      const res = await caller.get(path);
      expect(res.status).toBe(200);
      return Object.fromEntries(
        res.body.templates.map((e: { id: string; installed_as: string[]; installed_as_server: string[] }) => [
          e.id,
          { mine: e.installed_as, server: e.installed_as_server },
        ]),
      );
    };
    // Bob installed support-bot from the server source, and so did the server: both lists name it.
    expect(await entries(bob, "/ext/svc/me/template-sources/company/catalog")).toEqual({
      "support-bot": { mine: ["support-bot"], server: ["support-bot"] },
      "sales-bot": { mine: [], server: [] },
    });
    // Alice's support-bot came from her personal source (the same marketplace, another source): not this one's.
    expect(await entries(alice, "/ext/svc/me/template-sources/company/catalog")).toMatchObject({
      "support-bot": { mine: [], server: ["support-bot"] },
    });
    expect(await entries(alice, "/ext/svc/me/template-sources/inline/catalog")).toMatchObject({
      "support-bot": { mine: ["support-2", "support-bot"], server: [] },
      "sales-bot": { mine: ["sales-bot"], server: [] },
    });
    // Under /admin the caller's scope is the server's: the two lists are the same.
    expect(await entries(t.admin, "/ext/svc/admin/template-sources/company/catalog")).toEqual({
      "support-bot": { mine: ["support-bot"], server: ["support-bot"] },
      "sales-bot": { mine: [], server: [] },
    });

    // A server template from the admin's personal source "inline" counts for that source only, not for
    // Alice's personal source of the same name: a source is its name, scope and owner.
    await t.admin.post("/ext/svc/me/template-sources", { url: `${market.url}/inline`, alias: "inline" });
    const fromPersonal = await t.admin.post("/ext/svc/admin/templates/sales-bot/install", {
      source_name: "inline",
      source_scope: "personal",
      alias_id: "admin-sales",
    });
    expect(fromPersonal.status).toBe(200);
    expect(fromPersonal.body).toMatchObject({ scope: "server", source_scope: "personal", source_owner: "admin" });
    expect(await entries(t.admin, "/ext/svc/me/template-sources/inline/catalog")).toMatchObject({
      "sales-bot": { mine: [], server: ["admin-sales"] },
    });
    expect(await entries(alice, "/ext/svc/me/template-sources/inline/catalog")).toMatchObject({
      "sales-bot": { mine: ["sales-bot"], server: [] },
    });
    expect(await entries(t.admin, "/ext/svc/admin/template-sources/company/catalog")).toMatchObject({
      "sales-bot": { mine: [], server: [] },
    });
  });
});

describe("check-update and update", () => {
  const M = "/ext/svc/me/templates";

  it("reports no update while the served template is unchanged, revalidating with a conditional request", async () => {
    market.clearRequests();
    const res = await alice.get(`${M}/support-bot/check-update`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      has_update: false,
      current_revision: expect.any(String),
      latest_revision: expect.any(String),
      source_name: "inline",
      source_scope: "personal",
    });
    expect(res.body.latest_revision).toBe(res.body.current_revision);
    const conditional = market.requests.find((r) => r.path === "/inline/templates.json");
    expect(conditional?.headers["if-none-match"]).toBeTruthy();
  });

  it("flips nothing when the catalog is only re-serialised", async () => {
    const entries = [catalogEntry("support-bot"), catalogEntry("sales-bot", { category: "sales" })];
    const reordered = entries.map((e) => Object.fromEntries(Object.entries(e).reverse()));
    market.setFile("/inline/templates.json", `${JSON.stringify(catalog(...reordered), null, 4)}\n\n`);
    for (const id of ["support-bot", "sales-bot"]) {
      expect((await alice.get(`${M}/${id}/check-update`)).body.has_update).toBe(false);
    }
  });

  it("flips has_update for the changed template only", async () => {
    market.setFile(
      "/inline/templates.json",
      catalog(catalogEntry("support-bot", { description: "Now better" }), catalogEntry("sales-bot", { category: "sales" })),
    );
    expect((await alice.get(`${M}/support-bot/check-update`)).body.has_update).toBe(true);
    expect((await alice.get(`${M}/support-2/check-update`)).body.has_update).toBe(true);
    expect((await alice.get(`${M}/sales-bot/check-update`)).body.has_update).toBe(false);
  });

  it("answers check-update for a hand-made template with nulls", async () => {
    expect((await alice.get(`${M}/alpha/check-update`)).body).toEqual({
      has_update: false,
      current_revision: null,
      latest_revision: null,
      source_name: null,
      source_scope: null,
    });
  });

  it("previews an update with the installed and the latest content", async () => {
    const res = await alice.get(`${M}/support-bot/update-preview`);
    expect(res.status).toBe(200);
    expect(res.body.has_update).toBe(true);
    expect(res.body.current.description).toBe("The support-bot template");
    expect(res.body.latest.description).toBe("Now better");
    expect((await alice.get(`${M}/alpha/update-preview`)).status).toBe(400);
  });

  it("updates: unchanged gives updated false with equal revisions", async () => {
    const res = await alice.post(`${M}/sales-bot/update`);
    expect(res.status).toBe(200);
    expect(res.body.updated).toBe(false);
    expect(res.body.new_revision).toBe(res.body.previous_revision);
  });

  it("updates: changed gives updated true with both revisions and the new content", async () => {
    const before = (await alice.get(`${M}/support-bot`)).body;
    const res = await alice.post(`${M}/support-bot/update`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ updated: true, previous_revision: before.source_revision });
    expect(res.body.new_revision).not.toBe(before.source_revision);
    expect(res.body.template).toMatchObject({ description: "Now better", source_revision: res.body.new_revision });
    expect((await alice.get(`${M}/support-bot/check-update`)).body.has_update).toBe(false);
  });

  it("refuses to overwrite local edits (409) until force=true", async () => {
    const edited = await alice.patch(`${M}/support-2`, { description: "Mine" });
    expect(edited.body.locally_modified).toBe(true);
    expect((await alice.post(`${M}/support-2/update`)).status).toBe(409);
    expect((await alice.get(`${M}/support-2`)).body.description).toBe("Mine");
    const forced = await request("POST", `${M}/support-2/update?force=true`, { token: alice.token });
    expect(forced.status).toBe(200);
    expect(forced.body.updated).toBe(true);
    expect(forced.body.template).toMatchObject({ description: "Now better", locally_modified: false });
  });

  it("answers 400 for a hand-made template and 409 when the template left the catalog", async () => {
    const handMade = await alice.post(`${M}/alpha/update`);
    expect(handMade.status).toBe(400);
    expect(handMade.body.type).toBe("urn:bank-templates:problem:not-from-source");
    market.setFile("/inline/templates.json", catalog(catalogEntry("sales-bot", { category: "sales" })));
    expect((await alice.post(`${M}/support-bot/update`)).status).toBe(409);
    expect((await alice.get(`${M}/support-bot/check-update`)).status).toBe(409);
  });

  it("answers 409 when the source was removed", async () => {
    await alice.delete("/ext/svc/me/template-sources/files");
    expect((await alice.post(`${M}/filed/update`)).status).toBe(409);
    expect((await alice.get(`${M}/filed/check-update`)).status).toBe(409);
  });
});

describe("marketplace faults", () => {
  let carol: Client;
  let listBefore: unknown;
  beforeAll(async () => {
    carol = await t.user("carol");
    await carol.post("/ext/svc/me/templates", hand("kept"));
    listBefore = (await carol.get("/ext/svc/me/templates")).body;
  });

  async function installFrom(path: string, id = "x", extraConfig: Partial<typeof t.app.config.marketplace> = {}) {
    const saved = { ...t.app.config.marketplace };
    Object.assign(t.app.config.marketplace, extraConfig);
    try {
      const name = `s${Math.random().toString(36).slice(2, 8)}`;
      const url = path.startsWith("http") ? path : `${market.url}${path}`;
      expect((await carol.post("/ext/svc/me/template-sources", { url, alias: name })).status).toBe(201);
      return await carol.post(`/ext/svc/me/templates/${id}/install`, { source_name: name });
    } finally {
      Object.assign(t.app.config.marketplace, saved);
    }
  }

  async function expectFault(res: { status: number; body: any }, status: number, urlPart: string) {
    expect(res.status).toBe(status);
    expect(res.body.detail).toContain(urlPart);
    expect((await carol.get("/ext/svc/me/templates")).body).toEqual(listBefore);
  }

  it("connection refused: 502", async () => {
    const closed = await startMarketplace();
    const url = `${closed.url}/gone`;
    t.app.config.marketplace.allowedHosts.push(closed.host);
    await closed.close();
    await expectFault(await installFrom(url), 502, closed.url);
  });

  it("500 and 404: 502", async () => {
    market.setFile("/e500/templates.json", "boom", { status: 500 });
    await expectFault(await installFrom("/e500"), 502, "/e500/templates.json");
    await expectFault(await installFrom("/missing"), 502, "/missing/templates.json");
  });

  it("a 10 MB body: 502", async () => {
    market.setFile("/huge/templates.json", `[${"1,".repeat(5 * 1024 * 1024)}1]`);
    await expectFault(await installFrom("/huge"), 502, "/huge/templates.json");
  });

  it("a body that never ends: 504", async () => {
    market.setHandler("/slow/templates.json", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"templates": [');
      const timer = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(timer));
    });
    await expectFault(await installFrom("/slow", "x", { timeoutMs: 500 }), 504, "/slow/templates.json");
  });

  it("invalid JSON: 502", async () => {
    market.setFile("/badjson/templates.json", "{ not json");
    await expectFault(await installFrom("/badjson"), 502, "/badjson/templates.json");
  });

  it("an entry with both manifest and manifest_file: 502", async () => {
    market.setFile("/both/templates.json", catalog(catalogEntry("x", { manifest_file: "x.json" })));
    await expectFault(await installFrom("/both"), 502, "/both/templates.json");
  });

  it("an entry whose homepage_url is not an http(s) URL: 502 naming the field", async () => {
    market.setFile("/badhome/templates.json", catalog(catalogEntry("x", { homepage_url: "javascript:alert(1)" })));
    const res = await installFrom("/badhome");
    await expectFault(res, 502, "/badhome/templates.json");
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "templates[0].homepage_url" })]);
  });

  it("manifest_file ../x.json: 502", async () => {
    market.setFile("/escape/templates.json", catalog({ id: "x", name: "X", manifest_file: "../x.json" }));
    await expectFault(await installFrom("/escape"), 502, "/escape/templates.json");
  });

  it("a redirect to 169.254.169.254: 502", async () => {
    market.setRedirect("/meta/templates.json", "http://169.254.169.254/latest/meta-data/");
    await expectFault(await installFrom("/meta"), 502, "169.254.169.254");
  });

  it("a host resolving to 10.0.0.1 that is not on the allow-list: 502", async () => {
    t.app.resolveHost = async (host) => (host === "internal.test" ? ["10.0.0.1"] : []);
    try {
      await expectFault(await installFrom("http://internal.test/market"), 502, "internal.test");
    } finally {
      t.app.resolveHost = undefined;
    }
  });

  it("an invalid upstream manifest: 502 with the manifest errors", async () => {
    market.setFile("/invalid/templates.json", catalog(catalogEntry("x", { manifest: manifest({ version: "7" }) })));
    const res = await installFrom("/invalid");
    await expectFault(res, 502, "x");
    expect(res.body.errors).toEqual([expect.objectContaining({ path: "manifest.version" })]);
  });

  it("does not send the token after a redirect to another host", async () => {
    const other = await startMarketplace();
    t.app.config.marketplace.allowedHosts.push(other.host);
    other.setFile("/moved/templates.json", catalog(catalogEntry("moved")));
    market.setRedirect("/hop/templates.json", `http://localhost:${other.port}/moved/templates.json`);
    t.app.config.marketplace.allowedHosts.push(`localhost:${other.port}`);
    await carol.post("/ext/svc/me/template-sources", { url: `${market.url}/hop`, alias: "hop", auth_token: "carol-secret" });
    const res = await carol.post("/ext/svc/me/templates/moved/install", { source_name: "hop" });
    expect(res.status).toBe(200);
    expect(market.requests.find((r) => r.path === "/hop/templates.json")?.headers.authorization).toBe("Bearer carol-secret");
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
    await other.close();
  });
});

describe("concurrent installs", () => {
  it("50 parallel installs of one id: one 200, 49 409, no 5xx", async () => {
    market.setFile("/race/templates.json", catalog(catalogEntry("racer")));
    const dave = await t.user("dave");
    await dave.post("/ext/svc/me/template-sources", { url: `${market.url}/race`, alias: "race" });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => dave.post("/ext/svc/me/templates/racer/install", { source_name: "race" })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(ids(await dave.get("/ext/svc/me/templates"))).toEqual(["racer"]);
  });
});
