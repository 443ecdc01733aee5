// CONTRACT §16: a source can be changed (url, description, token) on /me and /admin; its name never
// changes, a new url or token drops its cached catalog, and templates installed from it stay linked.
// §19: a url on another host drops the stored token, unless the same PATCH gives one.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntries, marketplaceCache, templateSources } from "@/db/schema";
import { badGateway } from "@/lib/contracts/errors";
import { cacheKey, catalogLocation } from "@/lib/services/marketplace";
import { withCatalogStatus } from "@/lib/services/sources/catalog-status";
import { as, type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

const t = useTestApp();
const market = useMarketplace(t);
// Another marketplace host (another port of the loopback address: another origin).
const elsewhere = useMarketplace(t);
const ME = "/ext/svc/me/template-sources";
const ADMIN = "/ext/svc/admin/template-sources";

let erin: Client;
let fred: Client;
let erinBot: Client;

beforeAll(async () => {
  erin = await t.user("erin");
  fred = await t.user("fred");
  expect((await erin.post("/ext/svc/me/service-accounts", { id: "erin-bot" })).status).toBe(201);
  const key = await erin.post("/ext/svc/me/service-accounts/erin-bot/api-keys", {});
  expect(key.status).toBe(201);
  erinBot = as(key.body.token);
});

const lastEntry = () => t.lastAudit();

/** Whether the shared cache holds the catalog of the source URL `url` fetched with `token`. */
async function catalogCached(url: string, token: string | null) {
  const key = cacheKey(catalogLocation(url), token);
  return (await t.app.db.select().from(marketplaceCache).where(eq(marketplaceCache.cacheKey, key))).length === 1;
}

/** The Authorization header of each catalog request for `folder`, in order. */
const catalogAuthorizations = (folder: string) =>
  market.requests.filter((r) => r.path === `/${folder}/templates.json`).map((r) => r.headers.authorization ?? null);

async function addSource(client: Client, base: string, body: Record<string, unknown>) {
  const res = await client.post(base, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("changing a source's url", () => {
  it("answers the Source with the new url and its name, and the next browse reads the new location", async () => {
    market.setFile("/moving-old/templates.json", catalog(catalogEntry("alpha")));
    market.setFile("/moving-new/templates.json", catalog(catalogEntry("alpha"), catalogEntry("beta")));
    const oldUrl = `${market.url}/moving-old`;
    const created = await addSource(erin, ME, { url: oldUrl, alias: "moving" });
    const browsed = await erin.get(`${ME}/moving/catalog`);
    expect(browsed.status).toBe(200);
    expect(browsed.body.templates.map((e: { id: string }) => e.id)).toEqual(["alpha"]);
    expect(await catalogCached(oldUrl, null)).toBe(true);

    const res = await erin.patch(`${ME}/moving`, { url: `${market.url}/moving-new` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...created,
      url: `${market.url}/moving-new`,
      updated_at: expect.any(String),
      // What was fetched for the old location says nothing about the new one.
      catalog_fetched_at: null,
      catalog_error: null,
    });
    expect(res.body.updated_at > created.updated_at).toBe(true);
    expect(await catalogCached(oldUrl, null)).toBe(false);

    market.clearRequests();
    const moved = await erin.get(`${ME}/moving/catalog`);
    expect(moved.status).toBe(200);
    expect(moved.body.templates.map((e: { id: string }) => e.id)).toEqual(["alpha", "beta"]);
    expect(market.count("/moving-new/templates.json")).toBe(1);
    expect(moved.body.source).toMatchObject({ name: "moving", url: `${market.url}/moving-new`, catalog_error: null });
    expect(moved.body.source.catalog_fetched_at).not.toBeNull();
  });

  it("drops the cached catalog of its old location, also when it comes back within the cache's freshness", async () => {
    market.setFile("/back-a/templates.json", catalog(catalogEntry("first")));
    market.setFile("/back-b/templates.json", catalog(catalogEntry("other")));
    await addSource(erin, ME, { url: `${market.url}/back-a`, alias: "back" });
    expect((await erin.get(`${ME}/back/catalog`)).body.templates.map((e: { id: string }) => e.id)).toEqual(["first"]);
    // The marketplace changes the first catalog meanwhile; a fresh cached copy would hide that.
    market.setFile("/back-a/templates.json", catalog(catalogEntry("first"), catalogEntry("second")));
    expect((await erin.patch(`${ME}/back`, { url: `${market.url}/back-b` })).status).toBe(200);
    expect((await erin.patch(`${ME}/back`, { url: `${market.url}/back-a` })).status).toBe(200);
    const res = await erin.get(`${ME}/back/catalog`);
    expect(res.body.templates.map((e: { id: string }) => e.id)).toEqual(["first", "second"]);
  });

  it("drops the manifests fetched from the old catalog's folder with its credential, and nothing else", async () => {
    const fileEntry = (id: string) => ({ id, name: id, manifest_file: `manifests/${id}.json` });
    market.setFile("/files/templates.json", catalog(fileEntry("filed")));
    market.setFile("/files/manifests/filed.json", manifest());
    market.setFile("/files-elsewhere/templates.json", catalog(catalogEntry("kept")));
    await addSource(erin, ME, { url: `${market.url}/files`, alias: "files" });
    await addSource(fred, ME, { url: `${market.url}/files-elsewhere`, alias: "elsewhere" });
    expect((await erin.get(`${ME}/files/catalog`)).status).toBe(200);
    expect((await fred.get(`${ME}/elsewhere/catalog`)).status).toBe(200);
    const manifestKey = cacheKey(`${market.url}/files/manifests/filed.json`, null);
    const cachedManifest = () => t.app.db.select().from(marketplaceCache).where(eq(marketplaceCache.cacheKey, manifestKey));
    expect(await cachedManifest()).toHaveLength(1);

    expect((await erin.patch(`${ME}/files`, { url: `${market.url}/files-elsewhere` })).status).toBe(200);
    expect(await cachedManifest()).toHaveLength(0);
    expect(await catalogCached(`${market.url}/files`, null)).toBe(false);
    expect(await catalogCached(`${market.url}/files-elsewhere`, null)).toBe(true);
  });

  it("keeps templates installed from it linked: check-update works again once the url is fixed", async () => {
    market.setFile("/linked/templates.json", catalog(catalogEntry("support-bot")));
    await addSource(erin, ME, { url: `${market.url}/linked`, alias: "linked" });
    const installed = await erin.post("/ext/svc/me/templates/support-bot/install", { source_name: "linked" });
    expect(installed.status, installed.text).toBe(200);

    // The marketplace moves: the old location is gone.
    market.remove("/linked/templates.json");
    market.setFile(
      "/linked-moved/templates.json",
      catalog(catalogEntry("support-bot", { manifest: manifest({ description: "Moved and improved." }) })),
    );
    const broken = await erin.get("/ext/svc/me/templates/support-bot/check-update");
    expect(broken.status).toBe(502);

    expect((await erin.patch(`${ME}/linked`, { url: `${market.url}/linked-moved` })).status).toBe(200);
    const check = await erin.get("/ext/svc/me/templates/support-bot/check-update");
    expect(check.status, check.text).toBe(200);
    expect(check.body).toMatchObject({ has_update: true, source_name: "linked", current_revision: installed.body.source_revision });
    const updated = await erin.post("/ext/svc/me/templates/support-bot/update");
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.template).toMatchObject({ id: "support-bot", source_name: "linked" });
  });

  it("fixes a source whose stored URL no catalog could be fetched from (rows from before URL validation)", async () => {
    await addSource(erin, ME, { url: "https://example.com/legacy", alias: "legacy" });
    await t.app.db.update(templateSources).set({ url: "not a url" }).where(eq(templateSources.name, "legacy"));
    const res = await erin.patch(`${ME}/legacy`, { url: "https://example.com/legacy-fixed" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.url).toBe("https://example.com/legacy-fixed");
  });

  it("answers 422 at url for a URL creation refuses, and changes nothing", async () => {
    await addSource(erin, ME, { url: "https://example.com/valid", alias: "valid" });
    for (const url of ["ftp://x/y", "not a url", "/relative/path", `https://example.com/${"x".repeat(2048)}`, 5]) {
      const res = await erin.patch(`${ME}/valid`, { url });
      expect(res.status, String(url)).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["url"]);
    }
    expect((await erin.get(ME)).body.find((s: { name: string }) => s.name === "valid").url).toBe("https://example.com/valid");
  });
});

describe("the catalog status of a changed source", () => {
  it("takes no status from an operation that read the source before it moved", async () => {
    await addSource(erin, ME, { url: "https://example.com/stale-old", alias: "stale" });
    const [before] = await t.app.db.select().from(templateSources).where(eq(templateSources.name, "stale"));
    expect((await erin.patch(`${ME}/stale`, { url: "https://example.com/stale-new" })).status).toBe(200);
    // An operation that began with the old row fails after the move: its failure is about the old URL.
    const failing = withCatalogStatus(t.app.db, before!, {}, async () => {
      throw badGateway("The marketplace at https://example.com/stale-old answered 404.");
    });
    await expect(failing).rejects.toThrow("stale-old");
    // And one that succeeded: no fetch time for the new URL either.
    await withCatalogStatus(t.app.db, before!, {}, async (operation) => operation.onCatalogLoaded?.(new Date()));
    const listed = (await erin.get(ME)).body.find((s: { name: string }) => s.name === "stale");
    expect(listed).toMatchObject({ url: "https://example.com/stale-new", catalog_fetched_at: null, catalog_error: null });
  });
});

describe("changing a source's token", () => {
  it("replaces the token: the next fetch sends the new one, and the old credential's cached catalog is gone", async () => {
    market.setFile("/private/templates.json", catalog(catalogEntry("secret-bot")));
    const url = `${market.url}/private`;
    const created = await addSource(erin, ME, { url, alias: "private", auth_token: "first-token" });
    expect(created.has_auth).toBe(true);
    market.clearRequests();
    expect((await erin.get(`${ME}/private/catalog`)).status).toBe(200);
    expect(await catalogCached(url, "first-token")).toBe(true);

    const res = await erin.patch(`${ME}/private`, { auth_token: "second-token" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ has_auth: true, catalog_fetched_at: null });
    expect(res.text).not.toContain('token"');
    expect(await catalogCached(url, "first-token")).toBe(false);
    expect((await erin.get(`${ME}/private/catalog`)).status).toBe(200);
    expect(catalogAuthorizations("private")).toEqual(["Bearer first-token", "Bearer second-token"]);
  });

  it("removes the token with null: has_auth turns false and the next fetch sends no Authorization", async () => {
    market.clearRequests();
    const res = await erin.patch(`${ME}/private`, { auth_token: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.has_auth).toBe(false);
    expect(await catalogCached(`${market.url}/private`, "second-token")).toBe(false);
    expect((await erin.get(`${ME}/private/catalog`)).status).toBe(200);
    expect(catalogAuthorizations("private")).toEqual([null]);
    expect((await erin.get(ME)).body.find((s: { name: string }) => s.name === "private").has_auth).toBe(false);
  });

  it("keeps the stored token when auth_token is absent, and never stores or audits it in clear", async () => {
    expect((await erin.patch(`${ME}/private`, { auth_token: "third-token" })).status).toBe(200);
    const kept = await erin.patch(`${ME}/private`, { description: "Only the words." });
    expect(kept.body.has_auth).toBe(true);
    // The description alone is no new location: the cached catalog of the current token stays.
    expect((await erin.get(`${ME}/private/catalog`)).status).toBe(200);
    expect((await erin.patch(`${ME}/private`, { description: "Other words." })).status).toBe(200);
    expect(await catalogCached(`${market.url}/private`, "third-token")).toBe(true);
    const stored = await t.app.db.execute(sql`select * from template_sources`);
    const audited = await t.app.db.select().from(auditEntries).where(eq(auditEntries.action, "template_source.update"));
    for (const secret of ["first-token", "second-token", "third-token"]) {
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect(JSON.stringify(audited)).not.toContain(secret);
    }
  });
});

describe("moving a source to another host (CONTRACT §19)", () => {
  /** The Authorization header of each catalog request `server` got for `folder`, in order. */
  const authorizationsAt = (server: typeof market, folder: string) =>
    server.requests.filter((r) => r.path === `/${folder}/templates.json`).map((r) => r.headers.authorization ?? null);

  it("drops the token: the new host never gets it, and the answer says none is stored", async () => {
    market.setFile("/hosted/templates.json", catalog(catalogEntry("hosted-bot")));
    elsewhere.setFile("/hosted/templates.json", catalog(catalogEntry("hosted-bot")));
    await addSource(erin, ME, { url: `${market.url}/hosted`, alias: "hosted", auth_token: "token-for-first-host" });
    market.clearRequests();
    expect((await erin.get(`${ME}/hosted/catalog`)).status).toBe(200);
    expect(authorizationsAt(market, "hosted")).toEqual(["Bearer token-for-first-host"]);

    const moved = await erin.patch(`${ME}/hosted`, { url: `${elsewhere.url}/hosted` });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ url: `${elsewhere.url}/hosted`, has_auth: false });
    elsewhere.clearRequests();
    expect((await erin.get(`${ME}/hosted/catalog`)).status).toBe(200);
    expect(authorizationsAt(elsewhere, "hosted")).toEqual([null]);
    expect(JSON.stringify(elsewhere.requests)).not.toContain("token-for-first-host");
  });

  it("keeps the token given in the same PATCH, and sends it to the new host only", async () => {
    expect((await erin.patch(`${ME}/hosted`, { url: `${market.url}/hosted`, auth_token: "token-for-first-host" })).status).toBe(200);
    const moved = await erin.patch(`${ME}/hosted`, { url: `${elsewhere.url}/hosted`, auth_token: "token-for-new-host" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.has_auth).toBe(true);
    market.clearRequests();
    elsewhere.clearRequests();
    expect((await erin.get(`${ME}/hosted/catalog`)).status).toBe(200);
    expect(authorizationsAt(elsewhere, "hosted")).toEqual(["Bearer token-for-new-host"]);
    expect(market.requests).toEqual([]);
  });

  it("keeps the token when only the path changes", async () => {
    elsewhere.setFile("/hosted-v2/templates.json", catalog(catalogEntry("hosted-bot")));
    const moved = await erin.patch(`${ME}/hosted`, { url: `${elsewhere.url}/hosted-v2` });
    expect(moved.body.has_auth).toBe(true);
    elsewhere.clearRequests();
    expect((await erin.get(`${ME}/hosted/catalog`)).status).toBe(200);
    expect(authorizationsAt(elsewhere, "hosted-v2")).toEqual(["Bearer token-for-new-host"]);
  });

  it("counts the scheme and the host as well as the port", async () => {
    for (const url of [`https://${elsewhere.host}/hosted-v2`, `http://localhost:${elsewhere.port}/hosted-v2`]) {
      expect((await erin.patch(`${ME}/hosted`, { url: `${elsewhere.url}/hosted-v2`, auth_token: "again" })).status).toBe(200);
      const moved = await erin.patch(`${ME}/hosted`, { url });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.has_auth, url).toBe(false);
    }
  });

  it("never sends one admin's server-source token to a host another admin names", async () => {
    const other = await t.user("other-admin", "admin");
    market.setFile("/company-private/templates.json", catalog(catalogEntry("company-bot")));
    elsewhere.setFile("/collect/templates.json", catalog(catalogEntry("company-bot")));
    await addSource(t.admin, ADMIN, { url: `${market.url}/company-private`, alias: "company-private", auth_token: "first-admins-token" });
    const moved = await other.patch(`${ADMIN}/company-private`, { url: `${elsewhere.url}/collect` });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.has_auth).toBe(false);
    elsewhere.clearRequests();
    expect((await other.get(`${ADMIN}/company-private/catalog`)).status).toBe(200);
    expect(authorizationsAt(elsewhere, "collect")).toEqual([null]);
    expect(JSON.stringify(elsewhere.requests)).not.toContain("first-admins-token");
  });
});

describe("description, name and no-ops", () => {
  it("sets and clears the description; {} changes nothing", async () => {
    const created = await addSource(erin, ME, { url: "https://example.com/words", alias: "words" });
    const set = await erin.patch(`${ME}/words`, { description: "Team starters." });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ name: "words", description: "Team starters.", catalog_fetched_at: null });
    const longest = await erin.patch(`${ME}/words`, { description: "d".repeat(1000) });
    expect(longest.body.description).toHaveLength(1000);
    const cleared = await erin.patch(`${ME}/words`, { description: null });
    expect(cleared.body.description).toBeNull();
    const same = await erin.patch(`${ME}/words`, {});
    expect(same.status).toBe(200);
    expect(same.body).toEqual(cleared.body);
    expect(same.body.created_at).toBe(created.created_at);
  });

  it("answers 422 for a name (the name never changes), unknown fields and invalid values", async () => {
    for (const [body, path] of [
      [{ name: "renamed" }, "name"],
      [{ alias: "renamed" }, "alias"],
      [{ colour: "red" }, "colour"],
      [{ description: "d".repeat(1001) }, "description"],
      [{ description: 5 }, "description"],
      [{ auth_token: "" }, "auth_token"],
      [{ auth_token: 7 }, "auth_token"],
    ] as const) {
      const res = await erin.patch(`${ME}/words`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const names = (await erin.get(ME)).body.map((s: { name: string }) => s.name);
    expect(names).toContain("words");
    expect(names).not.toContain("renamed");
  });

  it("answers 404 for a source that does not exist", async () => {
    const res = await erin.patch(`${ME}/nowhere`, { description: "x" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("who may change which source (as for delete)", () => {
  it("lets a member change only their own personal sources; another member gets 404", async () => {
    expect((await fred.patch(`${ME}/words`, { description: "fred was here" })).status).toBe(404);
    expect((await erin.get(ME)).body.find((s: { name: string }) => s.name === "words").description).toBeNull();
  });

  it("lets the member's service account change its owner's sources", async () => {
    const res = await erinBot.patch(`${ME}/words`, { description: "by the bot" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ owner: "erin", description: "by the bot" });
  });

  it("keeps server sources to admins, and /me never reaches a server source", async () => {
    const server = await addSource(t.admin, ADMIN, { url: "https://example.com/company", alias: "company" });
    expect((await erin.patch(`${ADMIN}/company`, { description: "member" })).status).toBe(403);
    expect((await erinBot.patch(`${ADMIN}/company`, { description: "bot" })).status).toBe(403);
    expect((await t.admin.patch(`${ME}/company`, { description: "wrong scope" })).status).toBe(404);
    expect((await erin.patch(`${ME}/company`, { description: "wrong scope" })).status).toBe(404);
    const res = await t.admin.patch(`${ADMIN}/company`, { url: "https://example.com/company-v2", auth_token: "admin-token" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ...server, url: "https://example.com/company-v2", has_auth: true, updated_at: expect.any(String) });
    expect((await t.admin.patch(`${ADMIN}/nowhere`, {})).status).toBe(404);
  });
});

describe("the audit entry", () => {
  it("names the source and holds it before and after as the API answers it, without the token", async () => {
    const before = (await erin.get(ME)).body.find((s: { name: string }) => s.name === "words");
    const res = await erin.patch(`${ME}/words`, { url: "https://example.com/words-v2", auth_token: "audit-secret" });
    expect(res.status).toBe(200);
    const entry = await lastEntry();
    expect(entry).toMatchObject({
      action: "template_source.update",
      targetType: "source",
      targetId: "words",
      userId: "erin",
      before,
      after: res.body,
    });
    expect(JSON.stringify(entry)).not.toContain("audit-secret");
  });

  it("is recorded for a request that changes nothing, too", async () => {
    const current = (await erin.get(ME)).body.find((s: { name: string }) => s.name === "words");
    expect((await erin.patch(`${ME}/words`, {})).status).toBe(200);
    expect(await lastEntry()).toMatchObject({ action: "template_source.update", targetId: "words", before: current, after: current });
  });
});
