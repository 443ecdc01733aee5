// CONTRACT §10 (bounded marketplace work) and §12 (single flight, browse resilience, pruning).
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as browseRoute } from "@/app/ext/svc/me/template-sources/[name]/catalog/route";
import { type DatabaseHandle, openPostgres } from "@/db/client";
import { marketplaceCache, marketplaceFetchLeases } from "@/db/schema";
import { DomainError } from "@/lib/contracts/errors";
import { metrics } from "@/lib/platform/metrics";
import type { AppContext, AuthenticatedActor } from "@/lib/services/context";
import {
  cacheKey,
  catalogLocation,
  loadCatalog,
  loadCatalogTemplate,
  MANIFEST_CONCURRENCY,
  MAX_CATALOG_ENTRIES,
} from "@/lib/services/marketplace";
import { checkForUpdate, installTemplate, marketplaceDeps } from "@/lib/services/templates/upstream";
import { type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { serviceContext } from "./support/service-context";
import { useMarketplace } from "./support/use-marketplace";

const t = useTestApp();
const onPostgres = process.env.TEST_DB === "postgres";
const market = useMarketplace(t);
let alice: Client;
const aliceActor: AuthenticatedActor = { type: "user", id: "alice", userId: "alice", role: "member", displayName: "alice" };
const aliceScope = { kind: "personal", owner: "alice" } as const;
/** The marketplace dependencies of a call by alice. */
const deps = () => marketplaceDeps(serviceContext(t.app, aliceActor));

beforeAll(async () => {
  alice = await t.user("alice");
});

/** Polls `check` every 20 ms until it holds; fails after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls for `ms` that `value()` stays the same; answers the last value seen. */
async function steady<T>(value: () => T, ms: number): Promise<T> {
  const first = value();
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    expect(value()).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return first;
}

async function addSource(client: Client, path: string, alias: string) {
  const res = await client.post("/ext/svc/me/template-sources", { url: `${market.url}${path}`, alias });
  expect(res.status).toBe(201);
}

const CHECK_ROUTE = "/ext/svc/me/templates/{template_id}/check-update";

/** API requests to `route` (a path template) received and not yet answered, as GET /metrics counts them. */
async function inFlight(route: string): Promise<number> {
  const { values } = await metrics.httpRequestsInFlight.get();
  return values.filter((sample) => sample.labels.route === route).reduce((sum, sample) => sum + sample.value, 0);
}

const ids = (n: number, prefix = "t") => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, "0")}`);

/** An entry whose manifest is a file next to the catalog. */
const filed = (id: string) => ({ id, name: `Template ${id}`, manifest_file: `m/${id}.json` });

/** Serves a manifest after `delayMs`, unless the client left first. */
function slowManifest(delayMs: number) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    const timer = setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(manifest()));
    }, delayMs);
    res.once("close", () => clearTimeout(timer));
  };
}

describe("single flight in one process", () => {
  it("100 concurrent installs of different templates with a cold cache send 1 catalog request", async () => {
    const names = ids(100);
    market.setFile("/many/templates.json", catalog(...names.map((id) => catalogEntry(id))));
    await addSource(alice, "/many", "many");
    market.clearRequests();
    const results = await Promise.all(names.map((id) => alice.post(`/ext/svc/me/templates/${id}/install`, { source_name: "many" })));
    expect(results.map((r) => r.status)).toEqual(names.map(() => 200));
    expect(market.count("/many/templates.json")).toBe(1);
  });

  it("100 concurrent check-updates send 1 conditional catalog request and at most one per manifest file", async () => {
    const names = ids(100, "c");
    // Half inline, half in files: the files are revalidated too, each once.
    const entries = names.map((id, i) => (i % 2 ? filed(id) : catalogEntry(id)));
    market.setFile("/checks/templates.json", catalog(...entries));
    for (const id of names.filter((_, i) => i % 2)) market.setFile(`/checks/m/${id}.json`, manifest());
    await addSource(alice, "/checks", "checks");
    const installed = await Promise.all(names.map((id) => alice.post(`/ext/svc/me/templates/${id}/install`, { source_name: "checks" })));
    expect(installed.map((r) => r.status)).toEqual(names.map(() => 200));

    // The revalidation is answered once every check has arrived (the server counts them in
    // flight): however the requests spread in time, each must then take that one answer.
    const arrived = eventually(async () => (await inFlight(CHECK_ROUTE)) === names.length, 30_000, "every check in flight");
    market.setFile("/checks/templates.json", catalog(...entries), { heldUntil: arrived });
    market.clearRequests();
    const checks = await Promise.all(names.map((id) => alice.get(`/ext/svc/me/templates/${id}/check-update`)));
    await arrived;
    expect(checks.map((r) => [r.status, r.body.has_update])).toEqual(names.map(() => [200, false]));
    expect(market.count("/checks/templates.json")).toBe(1);
    expect(market.requests.find((r) => r.path === "/checks/templates.json")?.headers["if-none-match"]).toBeTruthy();
    for (const id of names.filter((_, i) => i % 2)) expect(market.count(`/checks/m/${id}.json`)).toBeLessThanOrEqual(1);
  });

  it("a check takes a revalidation answered after its call began, however late it reaches the marketplace code", async () => {
    market.setFile("/late/templates.json", catalog(catalogEntry("late")));
    await addSource(alice, "/late", "late");
    expect((await alice.post("/ext/svc/me/templates/late/install", { source_name: "late" })).status).toBe(200);
    // A call that began now and was held up before its fetch (a busy connection pool, say).
    const heldUp = serviceContext(t.app, aliceActor);
    market.clearRequests();
    expect((await alice.get("/ext/svc/me/templates/late/check-update")).status).toBe(200);
    expect(market.count("/late/templates.json")).toBe(1);
    expect((await checkForUpdate(heldUp, { scope: aliceScope, templateId: "late" })).has_update).toBe(false);
    expect(market.count("/late/templates.json")).toBe(1);
    // A call that began after that answer asks again.
    await checkForUpdate(serviceContext(t.app, aliceActor), { scope: aliceScope, templateId: "late" });
    expect(market.count("/late/templates.json")).toBe(2);
  });

  it("a caller that goes away does not cancel the fetch for the others", async () => {
    let release = () => {};
    market.setHandler("/held/templates.json", (_req, res) => {
      release = () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(catalog(catalogEntry("held"))));
    });
    const source = { url: `${market.url}/held`, authToken: null };
    const leaving = new AbortController();
    const first = loadCatalogTemplate(deps(), source, "held", "cached", { signal: leaving.signal });
    const second = loadCatalogTemplate(deps(), source, "held", "cached");
    await eventually(() => market.count("/held/templates.json") === 1, 5000, "the catalog request");
    leaving.abort();
    await expect(first).rejects.toMatchObject({ code: "client-gone" });
    release();
    expect((await second)?.id).toBe("held");
    expect(market.count("/held/templates.json")).toBe(1);
  });
});

describe("single flight across processes (the lease)", () => {
  it("waits for the lease holder's answer instead of fetching", async () => {
    market.setFile("/leased/templates.json", catalog(catalogEntry("other")));
    const url = catalogLocation(`${market.url}/leased`);
    const key = cacheKey(url, null);
    // Another process holds the lease and is fetching.
    await t.app.db.insert(marketplaceFetchLeases).values({ cacheKey: key, holder: "elsewhere", expiresAt: new Date(Date.now() + 60_000) });
    market.clearRequests();
    const waiting = loadCatalog(deps(), { url: `${market.url}/leased`, authToken: null }, "cached");
    const body = JSON.stringify(catalog(catalogEntry("from-the-holder")));
    await t.app.db.insert(marketplaceCache).values({ cacheKey: key, url, body, fetchedAt: new Date() });
    await t.app.db.delete(marketplaceFetchLeases);
    expect((await waiting).templates.map((e) => e.id)).toEqual(["from-the-holder"]);
    expect(market.requests).toEqual([]);
  });

  it("fetches itself once the holder gives up without an answer", async () => {
    market.setFile("/failed/templates.json", catalog(catalogEntry("mine")));
    const key = cacheKey(catalogLocation(`${market.url}/failed`), null);
    await t.app.db.insert(marketplaceFetchLeases).values({ cacheKey: key, holder: "elsewhere", expiresAt: new Date(Date.now() + 60_000) });
    market.clearRequests();
    const waiting = loadCatalog(deps(), { url: `${market.url}/failed`, authToken: null }, "cached");
    // It polls the cache meanwhile and asks nobody.
    expect(await steady(() => market.requests.length, 200)).toBe(0);
    await t.app.db.delete(marketplaceFetchLeases);
    expect((await waiting).templates.map((e) => e.id)).toEqual(["mine"]);
    expect(market.count("/failed/templates.json")).toBe(1);
  });

  it("takes over a lease whose holder died", async () => {
    market.setFile("/dead/templates.json", catalog(catalogEntry("revived")));
    const key = cacheKey(catalogLocation(`${market.url}/dead`), null);
    await t.app.db.insert(marketplaceFetchLeases).values({ cacheKey: key, holder: "dead", expiresAt: new Date(Date.now() - 1000) });
    market.clearRequests();
    const loaded = await loadCatalog(deps(), { url: `${market.url}/dead`, authToken: null }, "cached");
    expect(loaded.templates.map((e) => e.id)).toEqual(["revived"]);
    expect(market.count("/dead/templates.json")).toBe(1);
    expect(await t.app.db.select().from(marketplaceFetchLeases)).toEqual([]);
  });

  describe.runIf(onPostgres)("two app instances on one PostgreSQL database", () => {
    let second: AppContext;
    let secondHandle: DatabaseHandle;
    beforeAll(async () => {
      secondHandle = await openPostgres(t.databaseUrl!);
      second = { ...t.app, db: secondHandle.db, database: secondHandle };
    });
    afterAll(() => secondHandle?.close());

    it("100 concurrent installs with a cold cache send 1 catalog request", async () => {
      const names = ids(100, "p");
      market.setFile("/shared/templates.json", catalog(...names.map((id) => catalogEntry(id))));
      await addSource(alice, "/shared", "shared");
      market.clearRequests();
      const results = await Promise.all(
        names.map((id, i) =>
          installTemplate(serviceContext(i % 2 ? second : t.app, aliceActor), {
            kind: "personal",
            templateId: id,
            body: { source_name: "shared" },
          }),
        ),
      );
      expect(results.map((r) => r.id)).toEqual(names);
      expect(market.count("/shared/templates.json")).toBe(1);

      market.clearRequests();
      const checks = await Promise.all(
        names.map((id, i) => checkForUpdate(serviceContext(i % 2 ? second : t.app, aliceActor), { scope: aliceScope, templateId: id })),
      );
      expect(checks.every((c) => c.has_update === false)).toBe(true);
      expect(market.count("/shared/templates.json")).toBe(1);
      expect(market.requests[0]?.headers["if-none-match"]).toBeTruthy();
    });
  });
});

describe("bounded catalog work", () => {
  it(`refuses a catalog of more than ${MAX_CATALOG_ENTRIES} entries with 502 after its one request`, async () => {
    market.setFile("/huge/templates.json", catalog(...ids(MAX_CATALOG_ENTRIES + 1).map(filed)));
    await addSource(alice, "/huge", "huge");
    market.clearRequests();
    const browse = await alice.get("/ext/svc/me/template-sources/huge/catalog");
    expect(browse.status).toBe(502);
    expect(browse.body.errors).toEqual([{ path: "templates", message: expect.stringContaining(`at most ${MAX_CATALOG_ENTRIES}`) }]);
    const install = await alice.post("/ext/svc/me/templates/t0001/install", { source_name: "huge", alias_id: "huge-one" });
    expect(install.status).toBe(502);
    expect(market.requests.map((r) => r.path)).toEqual(["/huge/templates.json", "/huge/templates.json"]);
  });

  it("refuses a 100,001-entry catalog after one request", async () => {
    const entries = Array.from({ length: 100_001 }, (_, i) => ({ id: `e${i}`, name: "E", manifest_file: "m.json" }));
    market.setFile("/giant/templates.json", { templates: entries });
    await addSource(alice, "/giant", "giant");
    market.clearRequests();
    const browse = await alice.get("/ext/svc/me/template-sources/giant/catalog");
    expect(browse.status).toBe(502);
    expect(browse.body.detail).toContain("100001 templates");
    expect(market.requests).toHaveLength(1);
  });

  it(`browses ${MAX_CATALOG_ENTRIES} manifest files with never more than ${MANIFEST_CONCURRENCY} fetches in flight`, async () => {
    const names = ids(MAX_CATALOG_ENTRIES, "b");
    market.setFile("/wide/templates.json", catalog(...names.map(filed)));
    for (const id of names) market.setHandler(`/wide/m/${id}.json`, slowManifest(2));
    await addSource(alice, "/wide", "wide");
    market.clearRequests();
    const browse = await alice.get("/ext/svc/me/template-sources/wide/catalog");
    expect(browse.status).toBe(200);
    expect(browse.body.templates).toHaveLength(MAX_CATALOG_ENTRIES);
    expect(
      browse.body.templates.every((e: { problem: unknown; revision: unknown }) => e.problem === null && typeof e.revision === "string"),
    ).toBe(true);
    expect(market.requests).toHaveLength(MAX_CATALOG_ENTRIES + 1);
    expect(market.maxInFlight).toBeLessThanOrEqual(MANIFEST_CONCURRENCY);
    expect(market.maxInFlight).toBeGreaterThan(1);
  });

  it("stops fetching once the client of a browse goes away", async () => {
    const names = ids(MAX_CATALOG_ENTRIES, "s");
    market.setFile("/slow/templates.json", catalog(...names.map(filed)));
    for (const id of names) market.setHandler(`/slow/m/${id}.json`, slowManifest(200));
    await addSource(alice, "/slow", "slow");
    market.clearRequests();

    const client = new AbortController();
    const request = new Request("http://localhost/ext/svc/me/template-sources/slow/catalog", {
      headers: { authorization: `Bearer ${alice.token}` },
      signal: client.signal,
    });
    const answer = browseRoute(request, { params: Promise.resolve({ name: "slow" }) });
    await eventually(() => market.requests.length >= 20, 20_000, "20 requests");
    client.abort();
    const atAbort = market.requests.length;
    await answer;
    await eventually(() => market.inFlight === 0, 5000, "in-flight fetches to be dropped");
    const total = await steady(() => market.requests.length, 500);
    expect(total).toBeLessThanOrEqual(atAbort + MANIFEST_CONCURRENCY);
    expect(total).toBeLessThan(100);
  });
});

describe("browse resilience", () => {
  beforeAll(async () => {
    market.setFile(
      "/mixed/templates.json",
      catalog(
        catalogEntry("good"),
        filed("missing"),
        catalogEntry("invalid", { manifest: manifest({ version: "7" }) }),
        filed("filed-good"),
      ),
    );
    market.setFile("/mixed/m/filed-good.json", manifest());
    await addSource(alice, "/mixed", "mixed");
  });

  it("lists every entry, with a problem and no revision for those install would refuse", async () => {
    const browse = await alice.get("/ext/svc/me/template-sources/mixed/catalog");
    expect(browse.status).toBe(200);
    const byId = Object.fromEntries(browse.body.templates.map((e: { id: string }) => [e.id, e]));
    expect(browse.body.templates.map((e: { id: string }) => e.id)).toEqual(["good", "missing", "invalid", "filed-good"]);
    expect(byId.good).toMatchObject({ problem: null, revision: expect.stringMatching(/^[0-9a-f]{16}$/), manifest: manifest() });
    expect(byId["filed-good"]).toMatchObject({ problem: null, revision: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(byId.missing).toMatchObject({
      revision: null,
      manifest: null,
      name: "Template missing",
      problem: { status: 502, detail: `The marketplace at ${market.url}/mixed/m/missing.json answered 404 Not Found.` },
    });
    expect(byId.invalid).toMatchObject({
      revision: null,
      problem: {
        status: 502,
        detail: expect.stringContaining("not a valid bank template"),
        errors: [expect.objectContaining({ path: "manifest.version" })],
      },
    });
  });

  it("installs the good entries and refuses the others as before", async () => {
    expect((await alice.post("/ext/svc/me/templates/good/install", { source_name: "mixed" })).status).toBe(200);
    expect((await alice.post("/ext/svc/me/templates/filed-good/install", { source_name: "mixed" })).status).toBe(200);
    expect((await alice.post("/ext/svc/me/templates/missing/install", { source_name: "mixed" })).status).toBe(502);
    const invalid = await alice.post("/ext/svc/me/templates/invalid/install", { source_name: "mixed" });
    expect(invalid.status).toBe(502);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ path: "manifest.version" })]);
    const installed = await alice.get("/ext/svc/me/template-sources/mixed/catalog");
    expect(installed.body.templates.find((e: { id: string }) => e.id === "good").installed_as).toEqual(["good"]);
  });

  it("answers from a fresh cached copy, and revalidates with ?refresh=true", async () => {
    market.clearRequests();
    expect((await alice.get("/ext/svc/me/template-sources/mixed/catalog")).status).toBe(200);
    expect(market.count("/mixed/templates.json")).toBe(0);
    const refreshed = await alice.get("/ext/svc/me/template-sources/mixed/catalog?refresh=true");
    expect(refreshed.status).toBe(200);
    const catalogRequests = market.requests.filter((r) => r.path === "/mixed/templates.json");
    expect(catalogRequests).toHaveLength(1);
    expect(catalogRequests[0]?.headers["if-none-match"]).toBeTruthy();
    expect((await alice.get("/ext/svc/me/template-sources/mixed/catalog?refresh=maybe")).status).toBe(422);
  });

  it("fails the whole browse only when the catalog cannot be fetched or parsed", async () => {
    market.setFile("/broken/templates.json", "{ not json");
    await addSource(alice, "/broken", "broken");
    const browse = await alice.get("/ext/svc/me/template-sources/broken/catalog");
    expect(browse.status).toBe(502);
    expect(browse.body.detail).toContain(`${market.url}/broken/templates.json`);
  });
});

it("rejects with a DomainError when the caller is already gone", async () => {
  const gone = AbortSignal.abort();
  const error = await loadCatalog(deps(), { url: `${market.url}/many`, authToken: null }, "cached", { signal: gone }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
});
