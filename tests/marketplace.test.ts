import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import canonicalize from "canonicalize";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { marketplaceCache } from "@/db/schema";
import { DomainError } from "@/lib/contracts/errors";
import {
  addressRefusal,
  catalogLocation,
  loadCatalog,
  loadCatalogTemplate,
  type MarketplaceDeps,
  pruneMarketplaceCache,
  templateRevision,
} from "@/lib/services/marketplace";
import { freshDatabase } from "./support/database";
import { failure } from "./support/domain-failure";
import { type Marketplace, startMarketplace } from "./support/marketplace-server";

const MiB = 1024 * 1024;
const TOKEN = "market-secret-token-0123456789";

const manifest = (retain = "concise") => ({
  version: "1",
  bank: { retain_extraction_mode: retain },
  mental_models: [{ id: "goals", name: "Goals", source_query: "What does the customer want?" }],
});

const entry = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Template ${id}`,
  description: `About ${id}`,
  category: "retail",
  integrations: ["slack"],
  tags: ["banking", id],
  manifest: manifest(),
  ...extra,
});

let database: DatabaseHandle;
let closeDatabase: () => Promise<void>;
let market: Marketplace;
let mirror: Marketplace;

beforeAll(async () => {
  const fresh = await freshDatabase();
  database = fresh.handle;
  closeDatabase = fresh.close;
  market = await startMarketplace();
  mirror = await startMarketplace();
});

afterAll(async () => {
  await market?.close();
  await mirror?.close();
  await closeDatabase?.();
});

beforeEach(async () => {
  await database.db.delete(marketplaceCache);
  market.clearRequests();
  mirror.clearRequests();
});

type Limits = MarketplaceDeps["config"];

/** Both test servers allow-listed, the default limits of CONTRACT §1, overrides per test. */
function deps(config: Partial<Limits> = {}, resolveHost?: MarketplaceDeps["resolveHost"]): MarketplaceDeps {
  const defaults: Limits = { allowedHosts: [market.host, mirror.host], cacheTtlSeconds: 300, timeoutMs: 5000, maxBytes: 5 * MiB };
  return { db: database.db, config: { ...defaults, ...config }, resolveHost };
}

const source = (url: string, authToken: string | null = null) => ({ url, authToken });

const cacheRows = () => database.db.select().from(marketplaceCache);

describe("catalogLocation", () => {
  it.each([
    ["https://github.com/acme/bank-templates", "https://raw.githubusercontent.com/acme/bank-templates/HEAD/templates.json"],
    ["https://github.com/acme/bank-templates.git", "https://raw.githubusercontent.com/acme/bank-templates/HEAD/templates.json"],
    ["https://github.com/acme/bank-templates/", "https://raw.githubusercontent.com/acme/bank-templates/HEAD/templates.json"],
    [
      "https://github.com/acme/bank-templates/tree/main/catalogs/retail",
      "https://raw.githubusercontent.com/acme/bank-templates/main/catalogs/retail/templates.json",
    ],
    ["https://github.com/acme/bank-templates/tree/v2", "https://raw.githubusercontent.com/acme/bank-templates/v2/templates.json"],
    [
      "https://github.com/acme/bank-templates/blob/main/market/catalog.json",
      "https://raw.githubusercontent.com/acme/bank-templates/main/market/catalog.json",
    ],
    ["https://gitlab.com/acme/bank-templates", "https://gitlab.com/acme/bank-templates/-/raw/HEAD/templates.json"],
    ["https://gitlab.example.org/group/sub/project.git", "https://gitlab.example.org/group/sub/project/-/raw/HEAD/templates.json"],
    ["https://gitlab.com/acme/repo/-/tree/dev/catalog", "https://gitlab.com/acme/repo/-/raw/dev/catalog/templates.json"],
    ["https://gitlab.com/acme/repo/-/raw/main/market.json", "https://gitlab.com/acme/repo/-/raw/main/market.json"],
    ["https://example.com/market/catalog.json", "https://example.com/market/catalog.json"],
    ["https://example.com/market", "https://example.com/market/templates.json"],
    ["https://example.com/market/", "https://example.com/market/templates.json"],
    ["http://127.0.0.1:4567", "http://127.0.0.1:4567/templates.json"],
  ])("%s → %s", (url, expected) => {
    expect(catalogLocation(url)).toBe(expected);
  });

  it("refuses a URL that is not http(s)", () => {
    expect(() => catalogLocation("ftp://example.com/market")).toThrow(DomainError);
  });
});

describe("templateRevision", () => {
  it("counts absent description and category as null and absent lists as []", () => {
    const bare = templateRevision({ name: "A", manifest: manifest() });
    expect(bare).toMatch(/^[0-9a-f]{16}$/);
    const explicit = { name: "A", description: null, category: null, integrations: [], tags: [], manifest: manifest() };
    expect(templateRevision(explicit)).toBe(bare);
    expect(templateRevision({ name: "A", tags: ["x"], manifest: manifest() })).not.toBe(bare);
  });

  it("counts a homepage_url only when it is set, so entries without one keep their revision (CONTRACT §6)", () => {
    // The revision as CONTRACT §6 defines it, computed here by hand: SHA-256 over RFC 8785 JSON of the six fields.
    const content = { category: null, description: "D", integrations: [], manifest: manifest(), name: "A", tags: ["x"] };
    const byHand = createHash("sha256").update(canonicalize(content)!).digest("hex").slice(0, 16);
    expect(templateRevision({ name: "A", description: "D", tags: ["x"], manifest: manifest() })).toBe(byHand);
    expect(templateRevision({ name: "A", description: "D", tags: ["x"], homepage_url: null, manifest: manifest() })).toBe(byHand);
    const linked = templateRevision({
      name: "A",
      description: "D",
      tags: ["x"],
      homepage_url: "https://example.com/a",
      manifest: manifest(),
    });
    expect(linked).not.toBe(byHand);
    const moved = templateRevision({
      name: "A",
      description: "D",
      tags: ["x"],
      homepage_url: "https://example.com/b",
      manifest: manifest(),
    });
    expect(moved).not.toBe(linked);
  });

  it("ignores key order", () => {
    const reordered = { mental_models: manifest().mental_models, bank: manifest().bank, version: "1" };
    expect(templateRevision({ name: "A", manifest: reordered })).toBe(templateRevision({ name: "A", manifest: manifest() }));
  });
});

describe("addressRefusal", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.2.1",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "64:ff9b::a00:1",
  ])("refuses %s", (address) => {
    expect(addressRefusal(address)).not.toBeNull();
  });

  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("accepts %s", (address) => {
    expect(addressRefusal(address)).toBeNull();
  });
});

describe("loading catalogs", () => {
  it("resolves an inline catalog", async () => {
    const templates = [entry("alpha"), { id: "beta", name: "Beta", manifest: manifest() }];
    market.setFile("/inline/templates.json", { catalog_version: "1", name: "Acme", templates });
    const catalog = await loadCatalog(deps(), source(`${market.url}/inline`), "revalidate");
    expect(catalog).toEqual({
      catalogUrl: `${market.url}/inline/templates.json`,
      name: "Acme",
      description: null,
      templates: [
        {
          id: "alpha",
          name: "Template alpha",
          description: "About alpha",
          category: "retail",
          integrations: ["slack"],
          tags: ["banking", "alpha"],
          homepage_url: null,
          manifest: manifest(),
          revision: templateRevision(entry("alpha")),
          problem: null,
        },
        {
          id: "beta",
          name: "Beta",
          description: null,
          category: null,
          integrations: [],
          tags: [],
          homepage_url: null,
          manifest: manifest(),
          revision: templateRevision({ name: "Beta", manifest: manifest() }),
          problem: null,
        },
      ],
    });
    expect(market.requests[0]?.headers.accept).toBe("application/json");
  });

  it("fetches manifest_file entries from the catalog's folder, with the same revision as inline", async () => {
    const { manifest: _, ...meta } = entry("alpha");
    market.setFile("/files/catalog.json", { templates: [{ ...meta, manifest_file: "manifests/alpha.json" }] });
    market.setFile("/files/manifests/alpha.json", manifest());
    const catalog = await loadCatalog(deps(), source(`${market.url}/files/catalog.json`), "revalidate");
    expect(catalog.templates[0]?.manifest).toEqual(manifest());
    expect(catalog.templates[0]?.revision).toBe(templateRevision(entry("alpha")));
  });

  it("resolves only the asked-for entry, and answers null for an absent id", async () => {
    market.setFile("/one/templates.json", {
      templates: [
        { id: "a", name: "A", manifest_file: "a.json" },
        { id: "b", name: "B", manifest_file: "b.json" },
      ],
    });
    market.setFile("/one/a.json", manifest("verbose"));
    market.setFile("/one/b.json", manifest("chunks"));
    const b = await loadCatalogTemplate(deps(), source(`${market.url}/one`), "b", "revalidate");
    expect(b?.manifest).toEqual(manifest("chunks"));
    expect(market.requests.map((r) => r.path)).toEqual(["/one/templates.json", "/one/b.json"]);
    expect(await loadCatalogTemplate(deps(), source(`${market.url}/one`), "zeta", "revalidate")).toBeNull();
  });

  it("keeps revisions across re-serialisation and changes only the edited template's", async () => {
    const url = `${market.url}/stable`;
    market.setFile("/stable/templates.json", { templates: [entry("alpha"), entry("beta")] });
    const before = await loadCatalog(deps(), source(url), "revalidate");

    // Same content: pretty-printed, keys reversed, hence a new ETag.
    const reversed = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).reverse());
    const reformatted = JSON.stringify({ templates: [entry("alpha"), entry("beta")].map(reversed) }, null, 4);
    market.setFile("/stable/templates.json", reformatted, { headers: { "X-Served-By": "another-node" } });
    const same = await loadCatalog(deps(), source(url), "revalidate");
    expect(same.templates.map((t) => t.revision)).toEqual(before.templates.map((t) => t.revision));

    market.setFile("/stable/templates.json", { templates: [entry("alpha"), entry("beta", { manifest: manifest("verbose") })] });
    const changed = await loadCatalog(deps(), source(url), "revalidate");
    expect(changed.templates[0]?.revision).toBe(before.templates[0]?.revision);
    expect(changed.templates[1]?.revision).not.toBe(before.templates[1]?.revision);
  });
});

describe("cache", () => {
  it("answers from a fresh entry without any request in cached mode", async () => {
    market.setFile("/cached/templates.json", { templates: [{ id: "f", name: "F", manifest_file: "f.json" }] });
    market.setFile("/cached/f.json", manifest());
    const first = await loadCatalog(deps(), source(`${market.url}/cached`), "cached");
    expect(market.requests).toHaveLength(2);
    expect(await cacheRows()).toHaveLength(2);
    market.clearRequests();
    const second = await loadCatalog(deps(), source(`${market.url}/cached`), "cached");
    expect(market.requests).toHaveLength(0);
    expect(second).toEqual(first);
  });

  it("asks again in cached mode once the entry is older than the TTL", async () => {
    market.setFile("/stale/templates.json", { templates: [entry("a")] });
    await loadCatalog(deps({ cacheTtlSeconds: 0 }), source(`${market.url}/stale`), "cached");
    await loadCatalog(deps({ cacheTtlSeconds: 0 }), source(`${market.url}/stale`), "cached");
    expect(market.requests).toHaveLength(2);
  });

  it("revalidates with If-None-Match and reuses the body on 304, refreshing fetched_at", async () => {
    market.setFile("/reval/templates.json", { templates: [entry("a")] });
    const first = await loadCatalog(deps(), source(`${market.url}/reval`), "cached");
    expect(market.requests[0]?.headers["if-none-match"]).toBeUndefined();
    const [before] = await cacheRows();
    market.clearRequests();
    await new Promise((resolve) => setTimeout(resolve, 5));

    const again = await loadCatalog(deps(), source(`${market.url}/reval`), "revalidate");
    expect(again).toEqual(first);
    expect(market.requests).toHaveLength(1);
    expect(market.requests[0]?.headers["if-none-match"]).toBe(before?.etag);
    expect(market.requests[0]?.headers["if-modified-since"]).toBe(before?.lastModified);
    const [after] = await cacheRows();
    expect(after?.fetchedAt.getTime()).toBeGreaterThan(before!.fetchedAt.getTime());
    expect(after?.body).toBe(before?.body);
  });

  it("keeps entries apart per credential", async () => {
    market.setFile("/creds/templates.json", { templates: [entry("a")] });
    await loadCatalog(deps(), source(`${market.url}/creds`, "token-one"), "cached");
    await loadCatalog(deps(), source(`${market.url}/creds`, "token-two"), "cached");
    expect(market.requests).toHaveLength(2);
    expect(await cacheRows()).toHaveLength(2);
  });

  it("caches what was fetched even when another entry's manifest is missing, and lists that entry's problem", async () => {
    market.setFile("/partial/templates.json", {
      templates: [fileEntry("m", "missing.json"), fileEntry("ok", "ok.json")],
    });
    market.setFile("/partial/ok.json", manifest());
    const catalog = await loadCatalog(deps(), source(`${market.url}/partial`), "cached");
    expect(catalog.templates.map((t) => [t.id, t.revision === null, t.problem?.status ?? null])).toEqual([
      ["m", true, 502],
      ["ok", false, null],
    ]);
    expect(catalog.templates[0]?.problem?.detail).toContain(`${market.url}/partial/missing.json`);
    expect(catalog.templates[0]?.manifest).toBeNull();
    expect((await cacheRows()).map((r) => r.url).sort()).toEqual([`${market.url}/partial/ok.json`, `${market.url}/partial/templates.json`]);
  });

  it("sets used_at when it writes an entry and prunes entries unused for 7 days", async () => {
    market.setFile("/prune/templates.json", { templates: [entry("a")] });
    market.setFile("/kept/templates.json", { templates: [entry("b")] });
    const before = Date.now();
    await loadCatalog(deps(), source(`${market.url}/prune`), "cached");
    await loadCatalog(deps(), source(`${market.url}/kept`), "cached");
    const [written] = (await cacheRows()).filter((r) => r.url.includes("/prune/"));
    expect(written!.usedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const backdate = (days: number, path: string) =>
      database.db.execute(sql`update marketplace_cache set used_at = now() - ${`${days} days`}::interval where url like ${`%${path}%`}`);
    await backdate(8, "/prune/");
    await backdate(6, "/kept/");
    expect(await pruneMarketplaceCache(database.db)).toBe(1);
    expect((await cacheRows()).map((r) => r.url)).toEqual([`${market.url}/kept/templates.json`]);
  });

  it("touches used_at of an entry it answers from, at most once a minute", async () => {
    market.setFile("/touch/templates.json", { templates: [entry("a")] });
    await loadCatalog(deps(), source(`${market.url}/touch`), "cached");
    const usedAt = async () => (await cacheRows())[0]!.usedAt.getTime();
    const written = await usedAt();
    await loadCatalog(deps(), source(`${market.url}/touch`), "cached");
    expect(await usedAt()).toBe(written);

    await database.db.execute(sql`update marketplace_cache set used_at = now() - interval '2 days'`);
    const backdated = await usedAt();
    await loadCatalog(deps(), source(`${market.url}/touch`), "cached");
    expect(market.requests).toHaveLength(1);
    expect(await usedAt()).toBeGreaterThan(backdated + 86_400_000);
  });
});

describe("credentials", () => {
  it("sends the token to the catalog and to manifest files on the same host", async () => {
    market.setFile("/auth/templates.json", { templates: [{ id: "a", name: "A", manifest_file: "a.json" }] });
    market.setFile("/auth/a.json", manifest());
    await loadCatalog(deps(), source(`${market.url}/auth`, TOKEN), "revalidate");
    expect(market.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  it("does not send the token after a redirect to another host, and connects to the checked address", async () => {
    const names: Record<string, string[]> = { "market.test": ["127.0.0.1"], "mirror.test": ["127.0.0.1"] };
    const resolveHost = async (hostname: string) => names[hostname] ?? [];
    const allowedHosts = [`market.test:${market.port}`, `mirror.test:${mirror.port}`];
    market.setRedirect("/moved/templates.json", `http://mirror.test:${mirror.port}/templates.json`);
    mirror.setFile("/templates.json", { templates: [entry("a")] });

    const catalog = await loadCatalog(
      deps({ allowedHosts }, resolveHost),
      source(`http://market.test:${market.port}/moved`, TOKEN),
      "revalidate",
    );
    expect(catalog.templates).toHaveLength(1);
    expect(market.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(mirror.requests[0]?.headers.authorization).toBeUndefined();
    expect(mirror.requests[0]?.headers.host).toBe(`mirror.test:${mirror.port}`);
  });

  it("never puts the token in an error", async () => {
    market.setHandler("/echo/templates.json", (req, res) => {
      res.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify({ got: req.headers.authorization }));
    });
    const error = await failure(loadCatalog(deps(), source(`${market.url}/echo`, TOKEN), "revalidate"));
    expect(JSON.stringify(error)).not.toContain(TOKEN); // the detail is the error's message
  });
});

/** Answers with headers and part of a body, then never finishes. */
const endless = (_req: unknown, res: ServerResponse) => {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.write('{"templates": [');
};

/** An entry whose manifest lives in a file. */
const fileEntry = (id: string, manifestFile: string) => entry(id, { manifest: undefined, manifest_file: manifestFile });

describe("failures", () => {
  it("502 when the connection is refused", async () => {
    const closed = await startMarketplace();
    await closed.close();
    const error = await failure(loadCatalog(deps({ allowedHosts: [closed.host] }), source(closed.url), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(`The marketplace at ${closed.url}/templates.json could not be reached: connection refused.`);
  });

  it.each([
    [500, "500 Internal Server Error"],
    [404, "404 Not Found"],
  ])("502 when the marketplace answers %i", async (status, words) => {
    market.setFile(`/status${status}/templates.json`, { error: "nope" }, { status });
    const error = await failure(loadCatalog(deps(), source(`${market.url}/status${status}`), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(`The marketplace at ${market.url}/status${status}/templates.json answered ${words}.`);
  });

  it("502 for a 10 MB body announced by Content-Length", async () => {
    market.setFile("/huge/templates.json", Buffer.alloc(10 * MiB, " "));
    const error = await failure(loadCatalog(deps(), source(`${market.url}/huge`), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toContain(`${market.url}/huge/templates.json`);
    expect(error.detail).toContain(`larger than ${5 * MiB} bytes`);
  });

  it("502 as soon as a streamed body without Content-Length passes the limit", async () => {
    let timer: NodeJS.Timeout | undefined;
    market.setHandler("/stream/templates.json", (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      timer = setInterval(() => res.write(" ".repeat(512)), 5);
      res.on("close", () => clearInterval(timer));
    });
    const started = Date.now();
    const error = await failure(loadCatalog(deps({ maxBytes: 4096 }), source(`${market.url}/stream`), "revalidate"));
    clearInterval(timer);
    expect(error.status).toBe(502);
    expect(error.detail).toContain("larger than 4096 bytes");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("504 when the body never ends", async () => {
    market.setHandler("/slow/templates.json", endless);
    const error = await failure(loadCatalog(deps({ timeoutMs: 500 }), source(`${market.url}/slow`), "revalidate"));
    expect(error.status).toBe(504);
    expect(error.detail).toBe(`The marketplace at ${market.url}/slow/templates.json did not answer within 500 ms.`);
  });

  it("504 when no headers ever come", async () => {
    market.setHandler("/silent/templates.json", () => {});
    const error = await failure(loadCatalog(deps({ timeoutMs: 300 }), source(`${market.url}/silent`), "revalidate"));
    expect(error.status).toBe(504);
    expect(error.detail).toContain(`${market.url}/silent/templates.json`);
  });

  it("502 when the body is not JSON", async () => {
    market.setFile("/html/templates.json", "<!DOCTYPE html><p>hello</p>");
    const error = await failure(loadCatalog(deps(), source(`${market.url}/html`), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(`The marketplace at ${market.url}/html/templates.json did not answer with JSON.`);
  });

  it.each([
    ["both manifest and manifest_file", [entry("a", { manifest_file: "a.json" })], "templates[0].manifest_file"],
    ["neither manifest nor manifest_file", [entry("a", { manifest: undefined })], "templates[0].manifest"],
    ["manifest_file with ..", [entry("a"), fileEntry("b", "../x.json")], "templates[1].manifest_file"],
    ["manifest_file with encoded ..", [fileEntry("a", "m/%2e%2e/%2E%2E/x.json")], "templates[0].manifest_file"],
    ["manifest_file with a backslash", [fileEntry("a", "m\\..\\..\\x.json")], "templates[0].manifest_file"],
    ["manifest_file with a leading /", [fileEntry("a", "/x.json")], "templates[0].manifest_file"],
    ["manifest_file as a URL", [fileEntry("a", "https://evil.example/x.json")], "templates[0].manifest_file"],
    ["an unknown entry key", [entry("a", { colour: "red" })], "templates[0].colour"],
    ["a duplicate id", [entry("a"), entry("b"), entry("a")], "templates[2].id"],
    ["a manifest that is not an object", [entry("a", { manifest: [1, 2] })], "templates[0].manifest"],
    ["a bad id", [entry("-a")], "templates[0].id"],
  ])("502 for a catalog with %s", async (_, templates, path) => {
    market.setFile("/bad/templates.json", { templates });
    const error = await failure(loadCatalog(deps(), source(`${market.url}/bad`), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toContain(`The catalog at ${market.url}/bad/templates.json is invalid`);
    expect(error.errors?.map((e) => e.path)).toContain(path);
    expect(await cacheRows()).toHaveLength(0);
  });

  it("502 for a catalog without templates", async () => {
    market.setFile("/empty/templates.json", { name: "x" });
    const error = await failure(loadCatalog(deps(), source(`${market.url}/empty`), "revalidate"));
    expect(error.errors).toEqual([{ path: "templates", message: "is required" }]);
  });

  it("502 for a redirect to the cloud metadata address", async () => {
    market.setRedirect("/meta/templates.json", "http://169.254.169.254/latest/meta-data/");
    const error = await failure(loadCatalog(deps(), source(`${market.url}/meta`), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(
      "The marketplace URL http://169.254.169.254/latest/meta-data/ points at 169.254.169.254, a link-local address, " +
        `which is not allowed unless its host is listed in MARKETPLACE_ALLOWED_HOSTS (redirected from ${market.url}/meta/templates.json).`,
    );
  });

  it("502 without connecting for a host that resolves to a private address", async () => {
    const asked: string[] = [];
    const resolveHost = async (hostname: string) => {
      asked.push(hostname);
      return ["93.184.215.14", "10.0.0.1"];
    };
    const started = Date.now();
    const error = await failure(loadCatalog(deps({}, resolveHost), source("http://internal.test/market"), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(
      "The marketplace URL http://internal.test/market/templates.json resolves to 10.0.0.1, a private address, " +
        "which is not allowed unless its host is listed in MARKETPLACE_ALLOWED_HOSTS.",
    );
    expect(asked).toEqual(["internal.test"]);
    // A connection attempt to 10.0.0.1 would hang until the timeout; the refusal is immediate.
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("502 for a host name that does not resolve", async () => {
    const error = await failure(
      loadCatalog(
        deps({}, async () => []),
        source("http://nowhere.test/"),
        "revalidate",
      ),
    );
    expect(error.status).toBe(502);
    expect(error.detail).toContain("http://nowhere.test/templates.json");
  });

  it("502 for a literal loopback URL that is not allow-listed, without a request", async () => {
    market.setFile("/templates.json", { templates: [] });
    const error = await failure(loadCatalog(deps({ allowedHosts: [] }), source(market.url), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toContain(`${market.url}/templates.json`);
    expect(error.detail).toContain("loopback");
    expect(error.detail).toContain("MARKETPLACE_ALLOWED_HOSTS");
    expect(market.requests).toHaveLength(0);
  });

  it.each(["http://[::1]:9/", "http://[::ffff:127.0.0.1]:9/", "http://0x7f000001:9/", "http://[fd00::1]/"])(
    "502 for the literal address in %s",
    async (url) => {
      const error = await failure(loadCatalog(deps({ allowedHosts: [] }), source(url), "revalidate"));
      expect(error.status).toBe(502);
      const refusal =
        /^The marketplace URL http:\/\/\S+\/templates\.json points at \S+, an? .+ address, which is not allowed unless its host is listed in MARKETPLACE_ALLOWED_HOSTS\.$/;
      expect(error.detail).toMatch(refusal);
    },
  );

  it("accepts an allow-list entry without the port", async () => {
    market.setFile("/templates.json", { templates: [] });
    const catalog = await loadCatalog(deps({ allowedHosts: ["127.0.0.1"] }), source(market.url), "revalidate");
    expect(catalog.templates).toEqual([]);
  });

  it("follows 3 redirects and refuses a 4th", async () => {
    market.setFile("/final.json", { templates: [entry("a")] });
    for (let i = 1; i <= 4; i++) market.setRedirect(`/hop${i}.json`, i === 4 ? "/final.json" : `/hop${i + 1}.json`, 307);
    const three = await loadCatalog(deps(), source(`${market.url}/hop2.json`), "revalidate");
    expect(three.templates).toHaveLength(1);

    const error = await failure(loadCatalog(deps(), source(`${market.url}/hop1.json`), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(`The marketplace at ${market.url}/hop1.json redirected more than 3 times.`);
  });

  it("502 for a redirect to a scheme other than http(s)", async () => {
    market.setRedirect("/ftp/templates.json", "ftp://example.com/templates.json");
    const error = await failure(loadCatalog(deps(), source(`${market.url}/ftp`), "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toContain(`${market.url}/ftp/templates.json`);
  });

  it("lists a manifest file that is not a JSON object as that entry's problem", async () => {
    market.setFile("/arr/templates.json", { templates: [{ id: "a", name: "A", manifest_file: "a.json" }] });
    market.setFile("/arr/a.json", [1, 2, 3]);
    const catalog = await loadCatalog(deps(), source(`${market.url}/arr`), "revalidate");
    expect(catalog.templates[0]?.problem).toEqual({
      type: "urn:bank-templates:problem:bad-gateway",
      title: "Bad Gateway",
      status: 502,
      detail: `The manifest at ${market.url}/arr/a.json is not a JSON object.`,
    });
    const error = await failure(loadCatalogTemplate(deps(), source(`${market.url}/arr`), "a", "revalidate"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(`The manifest at ${market.url}/arr/a.json is not a JSON object.`);
    expect((await cacheRows()).map((r) => r.url)).toEqual([`${market.url}/arr/templates.json`]);
  });
});
