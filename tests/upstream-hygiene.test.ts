// CONTRACT §15 (last rule): what a marketplace sends obeys §10's character and depth rules like a request does.
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { marketplaceCache, marketplaceFetchLeases } from "@/db/schema";
import { cacheKey } from "@/lib/services/marketplace";
import { type Client, useTestApp } from "./support/app";
import { catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

const t = useTestApp();
const market = useMarketplace(t);
let alice: Client;

beforeAll(async () => {
  alice = await t.user("alice");
});

beforeEach(() => market.clearRequests());

/** JSON text of an object nesting exactly `levels` levels, built as text (JSON.stringify would recurse). */
const nestedText = (levels: number) => `${'{"d":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;

/** A valid manifest whose extra key makes it nest exactly `levels` levels. */
const deepManifestText = (levels: number) => JSON.stringify(manifest({ x_extra: "@DEEP@" })).replace('"@DEEP@"', nestedText(levels - 1));

const json = (value: unknown) => JSON.stringify(value);
const catalogText = (entries: string[], extra = "") =>
  `{"catalog_version":"1","name":"Hostile"${extra},"templates":[${entries.join(",")}]}`;

const DEPTH = /nests more than 64 levels/;
const CHARACTERS = /U\+0000 or an unpaired UTF-16 surrogate/;

interface Case {
  what: string;
  /** The target entry as catalog JSON text, given the manifest file's path. */
  entry: (file: string) => string;
  /** The manifest file's text, for entries that name one. */
  file?: string;
  /** Extra root members of the catalog text (a bad catalog as a whole). */
  catalogExtra?: string;
  reason: RegExp;
}

const inline = (extra: Record<string, unknown>) => () => json(catalogEntry("target", extra));
const filed = () => (file: string) => json(catalogEntry("target", { manifest: undefined, manifest_file: file }));
const inlineDeep = (levels: number) => () => json(catalogEntry("target", { manifest: "@M@" })).replace('"@M@"', deepManifestText(levels));

/** Entries a marketplace gets wrong: each is that entry's problem only. */
const entryCases: Case[] = [
  {
    what: "U+0000 in an inline manifest",
    entry: inline({ manifest: manifest({ bank: { retain_mission: "a\u0000b" } }) }),
    reason: CHARACTERS,
  },
  { what: "U+0000 in a manifest file's key", entry: filed(), file: json(manifest({ "x\u0000": 1 })), reason: CHARACTERS },
  { what: "a lone surrogate in an entry's description", entry: inline({ description: "a\ud800b" }), reason: CHARACTERS },
  {
    what: "a lone surrogate in a manifest file",
    entry: filed(),
    file: json(manifest({ directives: [{ name: "\udc00", content: "x" }] })),
    reason: CHARACTERS,
  },
  { what: "a 100-deep inline manifest", entry: inlineDeep(100), reason: DEPTH },
  { what: "a 100-deep manifest file", entry: filed(), file: deepManifestText(100), reason: DEPTH },
  { what: "a 10,000-deep inline manifest", entry: inlineDeep(10_000), reason: DEPTH },
  { what: "a 10,000-deep manifest file", entry: filed(), file: deepManifestText(10_000), reason: DEPTH },
  // A raw U+0000 (not the escape) is not JSON at all: refused before anything could store it.
  {
    what: "a raw U+0000 in a manifest file",
    entry: filed(),
    file: '{"version":"1","bank":{"retain_mission":"a\u0000b"}}',
    reason: /is not JSON/,
  },
];

/** Catalogs that are bad as a whole: every operation on the source fails. */
const catalogCases: Case[] = [
  { what: "a 10,000-deep catalog", entry: inline({}), catalogExtra: `,"x_meta":${nestedText(10_000)}`, reason: DEPTH },
  { what: "a catalog whose description holds U+0000", entry: inline({}), catalogExtra: ',"description":"a\\u0000b"', reason: CHARACTERS },
  {
    what: "a raw U+0000 in the catalog text",
    entry: inline({}),
    catalogExtra: ',"description":"a\u0000b"',
    reason: /did not answer with JSON/,
  },
];

const scopes = [
  { scope: "personal", P: "/ext/svc/me", caller: () => alice },
  { scope: "server", P: "/ext/svc/admin", caller: () => t.admin },
] as const;

const isSuccess = (status: number) => status >= 200 && status <= 299;

async function cachedBodies(): Promise<string[]> {
  return (await t.app.db.select({ body: marketplaceCache.body }).from(marketplaceCache)).map((row) => row.body);
}

/** Check-update, update and update preview of one installed template all answer 502 for `reason`. */
async function expectEachUpstreamOperationFails(client: Client, template: string, reason: RegExp) {
  for (const [method, suffix] of [
    ["get", "check-update"],
    ["post", "update"],
    ["get", "update-preview"],
  ] as const) {
    const res = await client[method](`${template}/${suffix}`);
    expect(res.status, `${suffix}: ${res.text}`).toBe(502);
    expect(res.body.detail).toMatch(reason);
  }
}

let sequence = 0;

/**
 * A source at a fresh path serving a good catalog (entries `good` and `target`), both installed.
 * `serve(bad)` switches the target (or the whole catalog) to the case's bad content or back.
 */
async function installedSource(client: Client, P: string, c: Case) {
  const n = ++sequence;
  const path = `/m${n}`;
  const name = `src${n}`;
  const file = "files/target.json";
  const good = json(catalogEntry("good"));
  const serve = (bad: boolean, revision = "") => {
    market.setFile(
      `${path}/${file}`,
      bad && c.file ? c.file : json(manifest({ directives: [{ name: `Fixed${revision}`, content: "ok" }] })),
    );
    const target = c.file
      ? c.entry(file)
      : bad && !c.catalogExtra
        ? c.entry(file)
        : json(catalogEntry("target", { name: `Target${revision}` }));
    market.setFile(`${path}/templates.json`, catalogText([good, target], bad ? (c.catalogExtra ?? "") : ""));
  };
  serve(false);
  expect((await client.post(`${P}/template-sources`, { url: `${market.url}${path}`, alias: name })).status).toBe(201);
  const ids = { good: `good${n}`, target: `target${n}` };
  for (const [id, alias] of Object.entries(ids)) {
    const installed = await client.post(`${P}/templates/${id}/install`, { source_name: name, alias_id: alias });
    expect(isSuccess(installed.status), installed.text).toBe(true);
  }
  const T = `${P}/templates`;
  return { name, path, file, serve, T, ids };
}

describe.each(scopes)("$scope scope", ({ P, caller }) => {
  describe.each(entryCases)("$what", (c) => {
    it("is that entry's problem on every endpoint, never cached as good, and heard at once when fixed", async () => {
      const client = caller();
      const { name, path, file, serve, T, ids } = await installedSource(client, P, c);
      await t.app.db.delete(marketplaceCache);
      serve(true);
      const badTexts = [c.file ?? null, c.file ? null : await (await fetch(`${market.url}${path}/templates.json`)).text()].filter(
        (text): text is string => text !== null,
      );

      for (const refresh of ["", "?refresh=true"]) {
        const browse = await client.get(`${P}/template-sources/${name}/catalog${refresh}`);
        expect(browse.status, browse.text).toBe(200);
        const byId = Object.fromEntries(browse.body.templates.map((x: { id: string }) => [x.id, x]));
        expect(byId.good.problem).toBeNull();
        expect(byId.good.revision).toEqual(expect.any(String));
        expect(byId.target).toMatchObject({ revision: null, problem: { status: 502, detail: expect.stringMatching(c.reason) } });
        // What the listing repeats of the bad entry is shown with U+FFFD, and no manifest is echoed.
        expect(byId.target.manifest).toBeNull();
        expect(browse.text).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i);
      }

      // Twice each: a second request after a bad answer is not served a cached copy as good.
      for (let attempt = 0; attempt < 2; attempt++) {
        const install = await client.post(`${T}/target/install`, { source_name: name, alias_id: `${ids.target}-again` });
        expect(install.status, install.text).toBe(502);
        expect(install.body.detail).toMatch(c.reason);
        await expectEachUpstreamOperationFails(client, `${T}/${ids.target}`, c.reason);
        const checks = await client.post(`${T}/check-updates`);
        expect(checks.status, checks.text).toBe(200);
        const checked = Object.fromEntries(checks.body.results.map((x: { id: string }) => [x.id, x]));
        expect(checked[ids.good].problem).toBeNull();
        expect(checked[ids.target].problem).toMatchObject({ status: 502, detail: expect.stringMatching(c.reason) });
        const all = await client.post(`${T}/update-all?force=true`);
        expect(all.status, all.text).toBe(200);
        const updated = Object.fromEntries(all.body.results.map((x: { id: string }) => [x.id, x]));
        expect(updated[ids.good].problem).toBeNull();
        expect(updated[ids.target].problem).toMatchObject({ status: 502, detail: expect.stringMatching(c.reason) });
      }
      const bodies = await cachedBodies();
      for (const bad of badTexts) expect(bodies).not.toContain(bad);
      expect(await t.app.db.select().from(marketplaceFetchLeases)).toEqual([]);
      const fetchedBad = market.count(`${path}/${c.file ? file : "templates.json"}`);
      expect(fetchedBad).toBeGreaterThan(2);

      // Fixed upstream: the next install, check and update fetch it and succeed.
      serve(false, "2");
      const install = await client.post(`${T}/target/install`, { source_name: name, alias_id: `${ids.target}-again` });
      expect(isSuccess(install.status), install.text).toBe(true);
      const check = await client.get(`${T}/${ids.target}/check-update`);
      expect(check.status, check.text).toBe(200);
      expect(check.body.has_update).toBe(true);
      const update = await client.post(`${T}/${ids.target}/update`);
      expect(update.status, update.text).toBe(200);
      expect(update.body.updated).toBe(true);
    });
  });

  describe.each(catalogCases)("$what", (c) => {
    it("fails every operation of the source with 502, bulk answers list it per template, nothing is cached", async () => {
      const client = caller();
      const { name, path, serve, T, ids } = await installedSource(client, P, c);
      await t.app.db.delete(marketplaceCache);
      serve(true);
      const badText = await (await fetch(`${market.url}${path}/templates.json`)).text();

      for (let attempt = 0; attempt < 2; attempt++) {
        const browse = await client.get(`${P}/template-sources/${name}/catalog`);
        expect(browse.status, browse.text).toBe(502);
        expect(browse.body.detail).toMatch(c.reason);
        const install = await client.post(`${T}/good/install`, { source_name: name, alias_id: `${ids.good}-again` });
        expect(install.status, install.text).toBe(502);
        await expectEachUpstreamOperationFails(client, `${T}/${ids.good}`, c.reason);
        for (const bulk of ["check-updates", "update-all?force=true"]) {
          const res = await client.post(`${T}/${bulk}`);
          expect(res.status, res.text).toBe(200);
          const mine = res.body.results.filter((x: { id: string }) => x.id === ids.good || x.id === ids.target);
          expect(mine).toHaveLength(2);
          for (const result of mine) expect(result.problem).toMatchObject({ status: 502, detail: expect.stringMatching(c.reason) });
        }
      }
      expect(await cachedBodies()).not.toContain(badText);
      expect(await t.app.db.select().from(marketplaceFetchLeases)).toEqual([]);

      serve(false, "2");
      const browse = await client.get(`${P}/template-sources/${name}/catalog`);
      expect(browse.status, browse.text).toBe(200);
      const install = await client.post(`${T}/good/install`, { source_name: name, alias_id: `${ids.good}-again` });
      expect(isSuccess(install.status), install.text).toBe(true);
    });
  });
});

describe("revalidation of a cached copy", () => {
  const c = entryCases[0]!;
  const catalogRow = async (url: string) => {
    const [row] = await t.app.db
      .select()
      .from(marketplaceCache)
      .where(eq(marketplaceCache.cacheKey, cacheKey(url, null)));
    return row;
  };

  it("keeps the good copy when the marketplace answers badly, and does not take the bad answer for it", async () => {
    const { name, path, serve, T, ids } = await installedSource(alice, "/ext/svc/me", c);
    const url = `${market.url}${path}/templates.json`;
    const good = await catalogRow(url);
    expect(good?.etag).toEqual(expect.any(String));
    serve(true);
    for (let attempt = 0; attempt < 2; attempt++) {
      market.clearRequests();
      const check = await alice.get(`${T}/${ids.target}/check-update`);
      expect(check.status, check.text).toBe(502);
      expect(check.body.detail).toMatch(c.reason);
      // Asked conditionally with the good copy's validators, answered with the bad body.
      expect(market.requests.find((r) => r.path === `${path}/templates.json`)?.headers["if-none-match"]).toBe(good!.etag);
      expect(await catalogRow(url)).toEqual(good);
    }
    serve(false, "2");
    const check = await alice.get(`${T}/${ids.target}/check-update`);
    expect(check.status, check.text).toBe(200);
    expect((await catalogRow(url))?.body).not.toBe(good!.body);
    expect((await alice.post(`${T}/target/install`, { source_name: name, alias_id: `${ids.target}-again` })).status).toBeLessThan(300);
  });

  it("does not make a bad copy cached earlier good again when the marketplace answers 304 for it", async () => {
    const { name, path, serve, T, ids } = await installedSource(alice, "/ext/svc/me", c);
    const url = `${market.url}${path}/templates.json`;
    serve(true);
    // As a release before this rule could have stored it: the bad body with the marketplace's validators, no longer fresh.
    const served = await fetch(url);
    const staleAt = new Date(Date.now() - 3_600_000);
    await t.app.db
      .update(marketplaceCache)
      .set({ body: await served.text(), etag: served.headers.get("etag"), fetchedAt: staleAt })
      .where(eq(marketplaceCache.cacheKey, cacheKey(url, null)));
    const stored = await catalogRow(url);
    for (let attempt = 0; attempt < 2; attempt++) {
      market.clearRequests();
      const install = await alice.post(`${T}/target/install`, { source_name: name, alias_id: `${ids.target}-again` });
      expect(install.status, install.text).toBe(502);
      expect(install.body.detail).toMatch(c.reason);
      // One conditional request with the stored validators, which the marketplace answers 304.
      expect(market.requests.filter((r) => r.path === `${path}/templates.json`).map((r) => r.headers["if-none-match"])).toEqual([
        stored!.etag,
      ]);
      expect(await catalogRow(url)).toEqual(stored);
    }
    const check = await alice.get(`${T}/${ids.target}/check-update`);
    expect(check.status, check.text).toBe(502);
    expect(await catalogRow(url)).toEqual(stored);
  });
});
