// A source's catalog status (`catalog_fetched_at`, `catalog_error`): recorded by every load of
// its catalog the server does for it (browse, install, check-update, update preview, update,
// scheduled checks); only a catalog that cannot be fetched or parsed is a catalog failure.
import type { ServerResponse } from "node:http";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { marketplaceCache, templateSources } from "@/db/schema";
import { badGateway, type DomainError } from "@/lib/contracts/errors";
import { PROBLEM_STATUS } from "@/lib/contracts/problem-types";
import { cacheKey, catalogLocation } from "@/lib/services/marketplace";
import { withCatalogStatus } from "@/lib/services/sources/catalog-status";
import { refreshAllUpdateStatuses, schedulerContext } from "@/lib/services/templates/scheduled-check";
import { type Client, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

const t = useTestApp();
const market = useMarketplace(t);
let erin: Client;

beforeAll(async () => {
  erin = await t.user("erin");
});

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ME = "/ext/svc/me/template-sources";

/** Serves the catalog of `folder` with `templates`. */
const serve = (folder: string, ...templates: Record<string, unknown>[]) =>
  market.setFile(`/${folder}/templates.json`, catalog(...templates));

/** The marketplace answers the catalog of `folder` with a 500 (it is "down"). */
const breakCatalog = (folder: string) =>
  market.setHandler(`/${folder}/templates.json`, (_req, res: ServerResponse) =>
    res.writeHead(500, { "content-type": "text/plain" }).end("down"),
  );

async function addSource(folder: string) {
  const res = await erin.post(ME, { url: `${market.url}/${folder}`, alias: folder });
  expect(res.status).toBe(201);
  return res.body;
}

/** The source as erin's list shows it. */
async function listed(name: string) {
  const res = await erin.get(ME);
  expect(res.status).toBe(200);
  const source = res.body.find((s: { name: string }) => s.name === name);
  expect(source).toBeDefined();
  return source as { catalog_fetched_at: string | null; catalog_error: string | null; updated_at: string };
}

/** When the shared cache says the marketplace last answered for the catalog of `folder`. */
async function cachedFetchTime(folder: string) {
  const key = cacheKey(catalogLocation(`${market.url}/${folder}`), null);
  const [row] = await t.app.db.select().from(marketplaceCache).where(eq(marketplaceCache.cacheKey, key));
  return row!.fetchedAt.toISOString();
}

const browse = (name: string, refresh = false) => erin.get(`${ME}/${name}/catalog${refresh ? "?refresh=true" : ""}`);

describe("browsing records the catalog status", () => {
  it("a new source has never been fetched, in every Source answer", async () => {
    const created = await addSource("fresh");
    expect(created).toMatchObject({ catalog_fetched_at: null, catalog_error: null });
    expect(await listed("fresh")).toMatchObject({ catalog_fetched_at: null, catalog_error: null });
    const available = await erin.get("/ext/svc/template-sources");
    expect(available.body.find((s: { name: string }) => s.name === "fresh")).toMatchObject({
      catalog_fetched_at: null,
      catalog_error: null,
    });
  });

  it("success sets catalog_fetched_at to when the marketplace answered; the catalog's source says so too", async () => {
    serve("browse", catalogEntry("alpha"));
    const before = await addSource("browse");
    const res = await browse("browse");
    expect(res.status).toBe(200);
    const fetchedAt = await cachedFetchTime("browse");
    expect(res.body.source).toMatchObject({ name: "browse", catalog_fetched_at: fetchedAt, catalog_error: null });
    const source = await listed("browse");
    expect(source).toMatchObject({ catalog_fetched_at: fetchedAt, catalog_error: null });
    expect(source.catalog_fetched_at).toMatch(ISO_Z);
    // Status is not an edit of the source.
    expect(source.updated_at).toBe(before.updated_at);
    const available = await erin.get("/ext/svc/template-sources");
    expect(available.body.find((s: { name: string }) => s.name === "browse")).toMatchObject({ catalog_fetched_at: fetchedAt });
  });

  it("a fresh cached copy keeps the time it was fetched; ?refresh=true moves it on", async () => {
    const first = (await listed("browse")).catalog_fetched_at!;
    const requests = market.count("/browse/templates.json");
    expect((await browse("browse")).body.source.catalog_fetched_at).toBe(first);
    expect(market.count("/browse/templates.json")).toBe(requests);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const refreshed = await browse("browse", true);
    expect(refreshed.status).toBe(200);
    expect(Date.parse(refreshed.body.source.catalog_fetched_at)).toBeGreaterThan(Date.parse(first));
    expect((await listed("browse")).catalog_fetched_at).toBe(refreshed.body.source.catalog_fetched_at);
  });

  it("a marketplace that is down: browse 502, catalog_error names the reason, catalog_fetched_at keeps the last success", async () => {
    const lastSuccess = (await listed("browse")).catalog_fetched_at;
    breakCatalog("browse");
    const res = await browse("browse", true);
    expect(res.status).toBe(502);
    const source = await listed("browse");
    expect(source.catalog_error).toBe(res.body.detail);
    expect(source.catalog_error).toMatch(/500/);
    expect(source.catalog_fetched_at).toBe(lastSuccess);
  });

  it("a fresh cached copy is no news: the failure stays", async () => {
    const before = await listed("browse");
    const cached = await browse("browse");
    expect(cached.status).toBe(200);
    expect(cached.body.source).toMatchObject({ catalog_error: before.catalog_error, catalog_fetched_at: before.catalog_fetched_at });
    expect(await listed("browse")).toMatchObject({ catalog_error: before.catalog_error, catalog_fetched_at: before.catalog_fetched_at });
  });

  it("recovery clears catalog_error and records the new fetch", async () => {
    const lastSuccess = (await listed("browse")).catalog_fetched_at!;
    serve("browse", catalogEntry("alpha"), catalogEntry("beta"));
    const res = await browse("browse", true);
    expect(res.status).toBe(200);
    expect(res.body.source.catalog_error).toBeNull();
    const source = await listed("browse");
    expect(source).toMatchObject({ catalog_error: null, catalog_fetched_at: res.body.source.catalog_fetched_at });
    expect(Date.parse(source.catalog_fetched_at!)).toBeGreaterThan(Date.parse(lastSuccess));
  });

  it("an invalid catalog is a catalog failure too, with the validation's reason", async () => {
    market.setFile("/browse/templates.json", { templates: [{ id: "no manifest", name: "x" }] });
    const res = await browse("browse", true);
    expect(res.status).toBe(502);
    expect((await listed("browse")).catalog_error).toBe(res.body.detail);
    expect(res.body.detail).toMatch(/is invalid/);
    serve("browse", catalogEntry("alpha"));
    expect((await browse("browse", true)).status).toBe(200);
    expect((await listed("browse")).catalog_error).toBeNull();
  });

  it("an entry whose manifest file is unreachable or invalid is no catalog failure", async () => {
    serve(
      "entries",
      catalogEntry("good"),
      { id: "filed", name: "Filed", manifest_file: "m/missing.json" },
      catalogEntry("invalid", { manifest: manifest({ version: "2" }) }),
    );
    await addSource("entries");
    const res = await browse("entries");
    expect(res.status).toBe(200);
    expect(res.body.templates.map((e: { problem: unknown }) => e.problem === null)).toEqual([true, false, false]);
    expect(await listed("entries")).toMatchObject({ catalog_error: null, catalog_fetched_at: expect.stringMatching(ISO_Z) });
  });
});

describe("install, check-update, update preview, update and scheduled checks record it", () => {
  const T = "/ext/svc/me/templates";

  it("install records a success, and a catalog failure on a cold cache", async () => {
    serve("inst", catalogEntry("alpha"));
    await addSource("inst");
    expect((await erin.post(`${T}/alpha/install`, { source_name: "inst" })).status).toBe(200);
    expect(await listed("inst")).toMatchObject({ catalog_fetched_at: await cachedFetchTime("inst"), catalog_error: null });

    breakCatalog("down");
    await addSource("down");
    const failed = await erin.post(`${T}/alpha/install`, { source_name: "down", alias_id: "alpha-down" });
    expect(failed.status).toBe(502);
    expect(await listed("down")).toMatchObject({ catalog_fetched_at: null, catalog_error: failed.body.detail });
  });

  it("entry-level install failures leave catalog_error null", async () => {
    serve(
      "inst",
      catalogEntry("alpha"),
      { id: "filed", name: "Filed", manifest_file: "m/missing.json" },
      catalogEntry("invalid", { manifest: manifest({ version: "2" }) }),
    );
    expect((await browse("inst", true)).status).toBe(200); // install uses the fresh cached catalog
    expect((await erin.post(`${T}/nowhere/install`, { source_name: "inst" })).status).toBe(404);
    expect((await erin.post(`${T}/filed/install`, { source_name: "inst" })).status).toBe(502);
    const invalid = await erin.post(`${T}/invalid/install`, { source_name: "inst" });
    expect(invalid.status).toBe(502);
    expect(invalid.body.type).toMatch(/invalid-upstream-manifest/);
    expect((await listed("inst")).catalog_error).toBeNull();
  });

  it("check-update records a failure and the recovery; update preview and update record success", async () => {
    const lastSuccess = (await listed("inst")).catalog_fetched_at!;
    breakCatalog("inst");
    const failed = await erin.get(`${T}/alpha/check-update`);
    expect(failed.status).toBe(502);
    expect(await listed("inst")).toMatchObject({ catalog_fetched_at: lastSuccess, catalog_error: failed.body.detail });

    serve("inst", catalogEntry("alpha", { description: "v2" }));
    const checked = await erin.get(`${T}/alpha/check-update`);
    expect(checked.status).toBe(200);
    expect(checked.body.has_update).toBe(true);
    const afterCheck = await listed("inst");
    expect(afterCheck.catalog_error).toBeNull();
    expect(afterCheck.catalog_fetched_at).toBe(await cachedFetchTime("inst"));
    expect(Date.parse(afterCheck.catalog_fetched_at!)).toBeGreaterThan(Date.parse(lastSuccess));

    breakCatalog("inst");
    expect((await erin.get(`${T}/alpha/update-preview`)).status).toBe(502);
    expect((await listed("inst")).catalog_error).toMatch(/500/);
    serve("inst", catalogEntry("alpha", { description: "v2" }));
    expect((await erin.get(`${T}/alpha/update-preview`)).status).toBe(200);
    expect((await listed("inst")).catalog_error).toBeNull();

    breakCatalog("inst");
    expect((await erin.post(`${T}/alpha/update`)).status).toBe(502);
    expect((await listed("inst")).catalog_error).toMatch(/500/);
    serve("inst", catalogEntry("alpha", { description: "v2" }));
    const updated = await erin.post(`${T}/alpha/update`);
    expect(updated.status).toBe(200);
    expect(updated.body.updated).toBe(true);
    expect(await listed("inst")).toMatchObject({ catalog_error: null, catalog_fetched_at: await cachedFetchTime("inst") });
  });

  it("a template gone from the catalog is no catalog failure", async () => {
    serve("inst", catalogEntry("beta"));
    const gone = await erin.get(`${T}/alpha/check-update`);
    expect(gone.status).toBe(409);
    expect((await listed("inst")).catalog_error).toBeNull();
    serve("inst", catalogEntry("alpha", { description: "v2" }));
  });

  it("bulk and scheduled checks record it", async () => {
    breakCatalog("inst");
    const bulk = await erin.post(`${T}/check-updates`);
    expect(bulk.status).toBe(200);
    const problem = bulk.body.results.find((r: { id: string }) => r.id === "alpha").problem;
    expect(problem.status).toBe(502);
    expect((await listed("inst")).catalog_error).toBe(problem.detail);

    serve("inst", catalogEntry("alpha", { description: "v2" }));
    await refreshAllUpdateStatuses(schedulerContext(t.app));
    expect(await listed("inst")).toMatchObject({ catalog_error: null, catalog_fetched_at: await cachedFetchTime("inst") });
    breakCatalog("inst");
    await refreshAllUpdateStatuses(schedulerContext(t.app));
    expect((await listed("inst")).catalog_error).toMatch(/500/);
    serve("inst", catalogEntry("alpha", { description: "v2" }));
  });

  it("50 concurrent installs from a cold cache record one success", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `c${i}`);
    serve("many", ...ids.map((id) => catalogEntry(id)));
    await addSource("many");
    const results = await Promise.all(ids.map((id) => erin.post(`${T}/${id}/install`, { source_name: "many" })));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    expect(await listed("many")).toMatchObject({ catalog_fetched_at: await cachedFetchTime("many"), catalog_error: null });
  });
});

describe("the status write", () => {
  it("of a source deleted meanwhile writes nothing and keeps the operation's answer", async () => {
    serve("gone", catalogEntry("alpha"));
    await addSource("gone");
    const [row] = await t.app.db.select().from(templateSources).where(eq(templateSources.name, "gone"));
    expect((await erin.delete(`${ME}/gone`)).status).toBe(204);
    const outcome = await withCatalogStatus(t.app.db, row!, {}, async (operation) => {
      operation.onCatalogLoaded!(new Date());
      return "answer";
    });
    expect(outcome.result).toBe("answer");
    expect(await t.app.db.select().from(templateSources).where(eq(templateSources.id, row!.id))).toEqual([]);
  });

  it("never moves catalog_fetched_at back for an older copy", async () => {
    serve("order", catalogEntry("alpha"));
    await addSource("order");
    expect((await browse("order")).status).toBe(200);
    const recorded = (await listed("order")).catalog_fetched_at!;
    const [row] = await t.app.db.select().from(templateSources).where(eq(templateSources.name, "order"));
    await withCatalogStatus(t.app.db, { ...row!, catalogFetchedAt: null }, {}, async (operation) => {
      operation.onCatalogLoaded!(new Date(Date.parse(recorded) - 60_000));
    });
    expect((await listed("order")).catalog_fetched_at).toBe(recorded);
  });

  it("operations recording the same failure at once send one write, and none answers before it is stored", async () => {
    await addSource("same");
    const [row] = await t.app.db.select().from(templateSources).where(eq(templateSources.name, "same"));
    const failing = () => withCatalogStatus(t.app.db, row!, {}, async () => Promise.reject(badGateway("The marketplace is down.")));
    // A transaction holding the row makes the status write wait until it ends.
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.app.db.transaction(async (transaction) => {
      await transaction.select().from(templateSources).where(eq(templateSources.id, row!.id)).for("update");
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    const settled: string[] = [];
    const operations = [failing(), failing()].map((operation, i) =>
      operation.catch((error: DomainError) => {
        settled.push(`${i}: ${PROBLEM_STATUS[error.code]}`);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toEqual([]);
    release();
    await holder;
    await Promise.all(operations);
    expect(settled.sort()).toEqual(["0: 502", "1: 502"]);
    expect(await listed("same")).toMatchObject({ catalog_fetched_at: null, catalog_error: "The marketplace is down." });
  });

  it("a client that went away is no catalog failure", async () => {
    serve("left", catalogEntry("alpha"));
    await addSource("left");
    const [row] = await t.app.db.select().from(templateSources).where(eq(templateSources.name, "left"));
    const { clientGone } = await import("@/lib/services/marketplace");
    const gone = await withCatalogStatus(t.app.db, row!, {}, async () => Promise.reject(clientGone())).catch((error: DomainError) => error);
    expect(PROBLEM_STATUS[(gone as DomainError).code]).toBe(499);
    expect(await listed("left")).toMatchObject({ catalog_fetched_at: null, catalog_error: null });
  });
});

it("the OpenAPI document describes both fields", async () => {
  const doc = (await request("GET", "/ext/svc/openapi.json")).body;
  const properties = doc.components.schemas.Source.properties;
  expect(properties.catalog_fetched_at.description).toMatch(/marketplace last answered/);
  expect(properties.catalog_error.description).toMatch(/failed/);
  expect(doc.components.schemas.Source.required).toEqual(expect.arrayContaining(["catalog_fetched_at", "catalog_error"]));
});
