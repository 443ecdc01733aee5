import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hindsightClient } from "@/lib/services/banks/remote";
import { failure } from "./support/domain-failure";
import { type FakeHindsight, startFakeHindsight } from "./support/fake-hindsight";

const API_KEY = `hs-test-key-${"k".repeat(24)}`;

const manifest = {
  version: "1",
  bank: { retain_mission: "Keep decisions and their reasons.", disposition_skepticism: 4 },
  mental_models: [
    { id: "open-questions", name: "Open questions", source_query: "What is still open?" },
    { id: "team", name: "Team", source_query: "Who is on the team?" },
  ],
  directives: [{ name: "Cite sources", content: "Name the document each fact comes from.", priority: 5 }],
};

const followUp = {
  version: "1",
  mental_models: [
    { id: "team", name: "Team members", source_query: "Who works here?" },
    { id: "risks", name: "Risks", source_query: "What could go wrong?" },
  ],
  directives: [
    { name: "Cite sources", content: "Always cite.", priority: 1 },
    { name: "Be brief", content: "Answer in one paragraph." },
  ],
};

/** A tiny server for answers the fake never gives. */
async function adHocServer(listener: RequestListener) {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
}

/** What Hindsight fills into a mental model it imports (its document's defaults), spelled out as the issue lists them. */
const MODEL_DEFAULTS = {
  tags: [],
  max_tokens: 2048,
  trigger: { mode: "full", refresh_after_consolidation: false, exclude_mental_models: false, keep_trace: false },
};
const DIRECTIVE_DEFAULTS = { priority: 0, is_active: true, tags: [] };

const snapshot = (fake: FakeHindsight) =>
  JSON.stringify([...fake.banks].map(([id, b]) => [id, b.name, b.config, [...b.mentalModels], [...b.directives]]));

describe("Hindsight client against the fake", () => {
  let fake: FakeHindsight;
  const client = () => hindsightClient({ url: fake.url, apiKey: null, timeoutMs: 5000 });

  beforeAll(async () => {
    fake = await startFakeHindsight();
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(() => {
    fake.setMode("ok");
    // Every call in this block is well formed: the fake must have had nothing to object to.
    expect(fake.violations).toEqual([]);
  });

  it("imports into a new bank: everything created, config applied", async () => {
    const result = await client().importManifest("support-bot", manifest, false);
    expect(result).toMatchObject({
      bank_id: "support-bot",
      config_applied: true,
      mental_models_created: ["open-questions", "team"],
      mental_models_updated: [],
      directives_created: ["Cite sources"],
      directives_updated: [],
      dry_run: false,
    });
    expect(result.operation_ids).toHaveLength(2);

    const bank = fake.banks.get("support-bot")!;
    expect(bank.name).toBe("support-bot");
    expect(bank.config).toEqual(manifest.bank);
    expect([...bank.mentalModels.keys()]).toEqual(["open-questions", "team"]);

    const sent = fake.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/default/banks/support-bot/import");
    expect(sent.query).toEqual({ dry_run: "false" });
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.headers.accept).toBe("application/json");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual(manifest);
  });

  it("a second import updates shared ids and names and leaves the rest alone", async () => {
    const result = await client().importManifest("support-bot", followUp, false);
    expect(result).toEqual({
      bank_id: "support-bot",
      config_applied: false,
      mental_models_created: ["risks"],
      mental_models_updated: ["team"],
      directives_created: ["Be brief"],
      directives_updated: ["Cite sources"],
      operation_ids: expect.any(Array),
      dry_run: false,
    });
    expect(result.operation_ids).toHaveLength(2);
    const bank = fake.banks.get("support-bot")!;
    expect([...bank.mentalModels.keys()]).toEqual(["open-questions", "team", "risks"]);
    // Stored as Hindsight stores an import: its defaults filled in.
    expect(bank.mentalModels.get("team")).toEqual({ ...MODEL_DEFAULTS, ...followUp.mental_models[0] });
    expect(bank.directives.get("Cite sources")).toEqual({ ...DIRECTIVE_DEFAULTS, ...followUp.directives[0] });
    expect(bank.config).toEqual(manifest.bank);
  });

  it("a dry run validates only, as Hindsight's: every entry created, config applied when a bank section is there, nothing changed", async () => {
    const before = snapshot(fake);
    const result = await client().importManifest("support-bot", { ...followUp, bank: { enable_observations: null } }, true);
    expect(result).toEqual({
      bank_id: "support-bot",
      config_applied: true,
      mental_models_created: ["team", "risks"],
      mental_models_updated: [],
      directives_created: ["Cite sources", "Be brief"],
      directives_updated: [],
      operation_ids: [],
      dry_run: true,
    });
    expect(fake.requests.at(-1)!.query).toEqual({ dry_run: "true" });

    const fresh = await client().importManifest("not-yet", manifest, true);
    expect(fresh.mental_models_created).toEqual(["open-questions", "team"]);
    expect(fresh.dry_run).toBe(true);
    expect(snapshot(fake)).toBe(before);
    expect(fake.banks.has("not-yet")).toBe(false);
  });

  it("encodes the bank id in the path", async () => {
    const result = await client().importManifest("team:alpha.1", { version: "1" }, false);
    expect(result.bank_id).toBe("team:alpha.1");
    expect(fake.requests.at(-1)!.path).toBe("/v1/default/banks/team%3Aalpha.1/import");
    expect(fake.banks.has("team:alpha.1")).toBe(true);
  });

  it("tells whether a bank exists by its exact id", async () => {
    fake.addBank("alpha-team");
    fake.addBank("team");
    fake.addBank("team-alpha");
    const c = client();
    expect(await c.bankExists("support-bot")).toBe(true);
    expect(await c.bankExists("team")).toBe(true);
    expect(await c.bankExists("missing")).toBe(false);
    // q matches substrings (and names); only an exact id counts.
    expect(await c.bankExists("alpha")).toBe(false);
    expect(await c.bankExists("ALPHA-TEAM")).toBe(false);
    const sent = fake.requests.at(-1)!;
    expect(sent).toMatchObject({ method: "GET", path: "/v1/default/banks", query: { q: "ALPHA-TEAM", limit: "100", offset: "0" } });
  });

  it("pages through search results until it finds the bank or runs out", async () => {
    for (let i = 0; i < 150; i++) fake.addBank(`a-zz-${String(i).padStart(3, "0")}`);
    fake.addBank("zz");
    const c = client();
    let from = fake.requests.length;
    expect(await c.bankExists("zz")).toBe(true);
    expect(fake.requests.slice(from).map((r) => r.query.offset)).toEqual(["0", "100"]);

    from = fake.requests.length;
    expect(await c.bankExists("z")).toBe(false);
    expect(fake.requests.slice(from).map((r) => r.query.offset)).toEqual(["0", "100"]);
  });

  it("lists every bank across pages, each once, with its name and timestamps", async () => {
    const from = fake.requests.length;
    const banks = await client().listBanks();
    expect(banks.map((b) => b.bank_id).sort()).toEqual([...fake.banks.keys()].sort());
    expect(banks.length).toBeGreaterThan(100);
    const sent = fake.requests.slice(from);
    expect(sent.map((r) => r.query)).toEqual([
      { limit: "100", offset: "0" },
      { limit: "100", offset: "100" },
    ]);
    const bot = banks.find((b) => b.bank_id === "support-bot")!;
    const stored = fake.banks.get("support-bot")!;
    expect(bot).toMatchObject({ name: "support-bot", created_at: stored.createdAt, updated_at: stored.updatedAt });
  });

  it("reads one bank: its overrides, mental models and directives as manifest entries", async () => {
    const from = fake.requests.length;
    const bank = await client().getBank("support-bot");
    const stored = fake.banks.get("support-bot")!;
    expect(bank).toEqual({
      name: "support-bot",
      created_at: stored.createdAt,
      updated_at: stored.updatedAt,
      // The overrides, not the resolved config (which also holds the server's defaults).
      config: manifest.bank,
      mentalModels: [
        { ...MODEL_DEFAULTS, ...manifest.mental_models[0] },
        { ...MODEL_DEFAULTS, ...followUp.mental_models[0] },
        { ...MODEL_DEFAULTS, ...followUp.mental_models[1] },
      ],
      directives: [
        { ...DIRECTIVE_DEFAULTS, ...followUp.directives[0] },
        { ...DIRECTIVE_DEFAULTS, ...followUp.directives[1] },
      ],
    });
    const sent = fake.requests.slice(from).map((r) => ({ path: r.path, query: r.query }));
    expect(sent).toEqual([
      { path: "/v1/default/banks", query: { q: "support-bot", limit: "100", offset: "0" } },
      { path: "/v1/default/banks/support-bot/config", query: {} },
      { path: "/v1/default/banks/support-bot/mental-models", query: { detail: "content", limit: "100", offset: "0" } },
      { path: "/v1/default/banks/support-bot/directives", query: { active_only: "false", limit: "100", offset: "0" } },
    ]);
  });

  it("reads a bank whose id needs encoding, with inactive directives and more than a page of models", async () => {
    const bank = fake.addBank("team:big", "Big team");
    for (let i = 0; i < 150; i++) bank.mentalModels.set(`m-${i}`, { id: `m-${i}`, name: `M ${i}`, source_query: "q?", max_tokens: 512 });
    bank.directives.set("Off", { name: "Off", content: "Not now.", priority: 2, is_active: false, tags: ["x"] });
    bank.config = { disposition_empathy: 5 };
    const from = fake.requests.length;
    const read = (await client().getBank("team:big"))!;
    expect(read.name).toBe("Big team");
    expect(read.config).toEqual({ disposition_empathy: 5 });
    expect(read.mentalModels).toHaveLength(150);
    expect(read.mentalModels[149]).toEqual({ id: "m-149", name: "M 149", source_query: "q?", tags: [], max_tokens: 512 });
    expect(read.directives).toEqual([{ name: "Off", content: "Not now.", priority: 2, is_active: false, tags: ["x"] }]);
    const models = fake.requests.slice(from).filter((r) => r.path === "/v1/default/banks/team%3Abig/mental-models");
    expect(models.map((r) => r.query.offset)).toEqual(["0", "100"]);
  });

  it("a bank Hindsight does not hold is null, asked of the bank list only", async () => {
    const from = fake.requests.length;
    expect(await client().getBank("missing")).toBeNull();
    // A substring of other ids or names is not a match.
    expect(await client().getBank("alpha")).toBeNull();
    expect(fake.requests.slice(from).every((r) => r.path === "/v1/default/banks")).toBe(true);
  });

  it("puts, replaces and removes one mental model through the item endpoints (CONTRACT §21)", async () => {
    await client().importManifest("items", manifest, false);
    const calls = fake.requests.length;
    // A replacement names every field, those the entry leaves out as Hindsight's defaults: nothing of the old one stays.
    expect(
      await client().putMentalModel("items", { id: "team", name: "Team", source_query: "Who?", max_tokens: 512, tags: ["x"] }, true),
    ).toBe(true);
    expect(await client().putMentalModel("items", { id: "team", name: "Team", source_query: "Who is it?" }, true)).toBe(true);
    expect(await client().putMentalModel("items", { id: "new", name: "New", source_query: "What is new?" }, false)).toBe(true);
    const sent = fake.requests.slice(calls).map((r) => [r.method, r.path, r.body]);
    expect(sent).toEqual([
      [
        "PATCH",
        "/v1/default/banks/items/mental-models/team",
        { name: "Team", source_query: "Who?", tags: ["x"], max_tokens: 512, trigger: MODEL_DEFAULTS.trigger },
      ],
      ["PATCH", "/v1/default/banks/items/mental-models/team", { name: "Team", source_query: "Who is it?", ...MODEL_DEFAULTS }],
      ["POST", "/v1/default/banks/items/mental-models", { id: "new", name: "New", source_query: "What is new?", ...MODEL_DEFAULTS }],
    ]);
    expect((await client().getBank("items"))!.mentalModels).toEqual([
      { id: "open-questions", name: "Open questions", source_query: "What is still open?", ...MODEL_DEFAULTS },
      { id: "team", name: "Team", source_query: "Who is it?", ...MODEL_DEFAULTS },
      { id: "new", name: "New", source_query: "What is new?", ...MODEL_DEFAULTS },
    ]);
    expect(await client().deleteMentalModel("items", "new")).toBe(true);
    // Gone meanwhile, or in a bank that is gone: false, not a failure.
    expect(await client().deleteMentalModel("items", "new")).toBe(false);
    expect(await client().putMentalModel("nowhere", { id: "team", name: "Team", source_query: "Who?" }, true)).toBe(false);
    expect([...fake.banks.get("items")!.mentalModels.keys()]).toEqual(["open-questions", "team"]);
  });

  it("finds a directive by name for its PATCH and DELETE, and creates one it does not find", async () => {
    const calls = fake.requests.length;
    expect(await client().putDirective("items", { name: "Cite sources", content: "Cite.", is_active: false })).toBe(true);
    expect(await client().putDirective("items", { name: "Be kind", content: "Always." })).toBe(true);
    const writes = fake.requests.slice(calls).filter((r) => r.method !== "GET");
    expect(writes.map((r) => [r.method, r.path.replace(/[0-9a-f-]{36}$/, "{id}"), r.body])).toEqual([
      [
        "PATCH",
        "/v1/default/banks/items/directives/{id}",
        { name: "Cite sources", content: "Cite.", ...DIRECTIVE_DEFAULTS, is_active: false },
      ],
      ["POST", "/v1/default/banks/items/directives", { name: "Be kind", content: "Always.", ...DIRECTIVE_DEFAULTS }],
    ]);
    // Inactive directives are found too.
    expect((await client().getBank("items"))!.directives).toEqual([
      { name: "Cite sources", content: "Cite.", ...DIRECTIVE_DEFAULTS, is_active: false },
      { name: "Be kind", content: "Always.", ...DIRECTIVE_DEFAULTS },
    ]);
    expect(await client().deleteDirective("items", "Cite sources")).toBe(true);
    expect(await client().deleteDirective("items", "Cite sources")).toBe(false);
    expect(await client().deleteDirective("nowhere", "Be kind")).toBe(false);
    expect([...fake.banks.get("items")!.directives.keys()]).toEqual(["Be kind"]);
  });

  it("merges config fields into the overrides, and resets them all", async () => {
    expect(await client().updateConfig("items", { disposition_empathy: 2 })).toBe(true);
    expect((await client().getBank("items"))!.config).toEqual({ ...manifest.bank, disposition_empathy: 2 });
    expect(await client().resetConfig("items")).toBe(true);
    expect((await client().getBank("items"))!.config).toEqual({});
    expect(await client().resetConfig("nowhere")).toBe(false);
  });

  it("answers 502 naming the URL when Hindsight fails", async () => {
    fake.setMode("fail");
    const error = await failure(client().importManifest("support-bot", manifest, false));
    expect(error.status).toBe(502);
    expect(error.detail).toContain(fake.url);
    expect(error.detail).toContain("500");
    expect((await failure(client().bankExists("support-bot"))).status).toBe(502);
    expect((await failure(client().listBanks())).status).toBe(502);
    const read = await failure(client().getBank("support-bot"));
    expect(read.status).toBe(502);
    expect(read.detail).toContain(fake.url);
  });

  it("answers 504 when Hindsight is slower than the timeout", async () => {
    fake.setMode("slow", 2000);
    const started = Date.now();
    const error = await failure(hindsightClient({ url: fake.url, apiKey: null, timeoutMs: 300 }).bankExists("team"));
    expect(error.status).toBe(504);
    expect(error.detail).toContain(fake.url);
    expect(error.detail).toContain("300 ms");
    expect(Date.now() - started).toBeLessThan(1500);
    const slowClient = hindsightClient({ url: fake.url, apiKey: null, timeoutMs: 300 });
    expect((await failure(slowClient.listBanks())).status).toBe(504);
    const read = await failure(slowClient.getBank("support-bot"));
    expect(read.status).toBe(504);
    expect(read.detail).toContain("300 ms");
  });
});

describe("Hindsight client: API key", () => {
  let fake: FakeHindsight;
  beforeAll(async () => {
    fake = await startFakeHindsight({ apiKey: API_KEY });
  });
  afterAll(async () => {
    await fake.close();
  });

  it("sends the key as a bearer token", async () => {
    const client = hindsightClient({ url: fake.url, apiKey: API_KEY, timeoutMs: 5000 });
    const result = await client.importManifest("keyed", manifest, false);
    expect(result.bank_id).toBe("keyed");
    expect(await client.bankExists("keyed")).toBe(true);
    expect((await client.listBanks()).map((b) => b.bank_id)).toEqual(["keyed"]);
    expect((await client.getBank("keyed"))?.mentalModels).toHaveLength(2);
    for (const r of fake.requests) expect(r.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.violations).toEqual([]);
  });

  it("a refused key is a 502 that does not echo the key", async () => {
    const wrong = `wrong-key-${"w".repeat(20)}`;
    const error = await failure(hindsightClient({ url: fake.url, apiKey: wrong, timeoutMs: 5000 }).bankExists("keyed"));
    expect(error.status).toBe(502);
    expect(error.detail).toContain("401");
    expect(error.detail).not.toContain(wrong);
    const missing = await failure(hindsightClient({ url: fake.url, apiKey: null, timeoutMs: 5000 }).bankExists("keyed"));
    expect(missing.status).toBe(502);
    expect(fake.violations).toEqual([]);
  });
});

describe("Hindsight client: failures", () => {
  it("reports a 422 with Hindsight's messages", async () => {
    const fake = await startFakeHindsight();
    try {
      const client = hindsightClient({ url: fake.url, apiKey: null, timeoutMs: 5000 });
      const error = await failure(client.importManifest("b", { version: 1, mental_models: [{ id: "x", name: "X" }] }, false));
      expect(error.status).toBe(502);
      expect(error.detail).toContain("422");
      // FastAPI's wording, checked against the document's BankTemplateManifest.
      expect(error.detail).toContain("body.version: Input should be a valid string; body.mental_models.0.source_query: Field required");
      expect(fake.banks.size).toBe(0);
      // The fake noticed: that is what `violations` is for.
      expect(fake.violations.length).toBeGreaterThan(0);
    } finally {
      await fake.close();
    }
  });

  it("the fake refuses what its document does not allow, as FastAPI would", async () => {
    const fake = await startFakeHindsight();
    try {
      fake.addBank("b");
      const get = async (path: string) => {
        const res = await fetch(`${fake.url}${path}`, { headers: { Accept: "application/json" } });
        return { status: res.status, body: await res.json() };
      };
      expect((await get("/v1/default/banks/b/profile")).body).toMatchObject({ bank_id: "b", name: "b", mission: "" });
      expect((await get("/v1/default/banks/missing/config")).status).toBe(404);
      expect((await get("/v1/default/banks/missing/profile")).status).toBe(404);
      expect(fake.violations).toEqual([]);

      const tooMany = await get("/v1/default/banks/b/mental-models?limit=1001&detail=everything");
      expect(tooMany.status).toBe(422);
      expect(tooMany.body.detail.map((e: { loc: string[] }) => e.loc.join("."))).toEqual(["query.detail", "query.limit"]);
      expect((await get("/v1/default/banks/b/directives?active_only=maybe")).status).toBe(422);
      // FastAPI ignores a query parameter it does not know; the strict fake refuses it.
      expect((await get("/v1/default/banks/b/config?verbose=1")).status).toBe(422);
      expect((await fetch(`${fake.url}/v1/default/banks/b/config`, { method: "PUT" })).status).toBe(405);
      expect((await get("/v1/default/banks/b/nothing")).status).toBe(404);
      const rename = (body: string, type = "application/json") =>
        fetch(`${fake.url}/v1/default/banks/b`, { method: "PATCH", headers: { Accept: "application/json", "Content-Type": type }, body });
      expect((await rename('{"name": 5}')).status).toBe(422);
      expect((await rename("{")).status).toBe(422);
      expect((await rename('{"name": "B"}', "text/plain")).status).toBe(422);
      expect(fake.banks.get("b")!.name).toBe("b");
      expect(fake.violations).toEqual([
        "GET /v1/default/banks/b/mental-models: query.detail: Input should be 'metadata', 'content' or 'full'",
        "GET /v1/default/banks/b/mental-models: query.limit: Input should be less than or equal to 1000",
        "GET /v1/default/banks/b/directives: query.active_only: Input should be a valid boolean, unable to interpret input",
        "GET /v1/default/banks/b/config: query.verbose: Not a query parameter of this operation",
        "PUT /v1/default/banks/b/config: a method the document does not give this path",
        "GET /v1/default/banks/b/nothing: not a path of the document",
        "PATCH /v1/default/banks/b: body.name: Input should be a valid string",
        "PATCH /v1/default/banks/b: body.0: JSON decode error",
        "PATCH /v1/default/banks/b: body: Input should be a valid dictionary or object to extract fields from",
      ]);
      const renamed = await rename('{"name": "Team B", "mission": null}');
      expect(renamed.status).toBe(200);
      expect(await renamed.json()).toEqual({
        bank_id: "b",
        name: "Team B",
        disposition: { skepticism: 3, literalism: 3, empathy: 3 },
        mission: "",
        background: null,
      });
      expect(fake.violations).toHaveLength(9);
    } finally {
      await fake.close();
    }
  });

  it("the item endpoints too, each request held to every document that declares its operation", async () => {
    const fake = await startFakeHindsight();
    try {
      fake.addBank("b");
      const send = (method: string, path: string, body?: unknown) =>
        fetch(`${fake.url}/v1/default/banks/b${path}`, {
          method,
          headers: { Accept: "application/json", "Content-Type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      expect((await send("POST", "/mental-models", { id: "m", name: "M", source_query: "Q" })).status).toBe(200);
      expect((await send("GET", "/mental-models/m?detail=content")).status).toBe(200);
      expect((await send("GET", "/mental-models/missing")).status).toBe(404);
      expect((await send("DELETE", "/directives/missing")).status).toBe(404);
      expect(fake.violations).toEqual([]);

      expect((await send("PATCH", "/mental-models/m", { max_tokens: 10, trigger: { mode: "sometimes" } })).status).toBe(422);
      expect((await send("PATCH", "/directives/any", { priority: "high" })).status).toBe(422);
      // A creation both documents declare: held to each of them.
      expect((await send("POST", "/directives", { name: "D" })).status).toBe(422);
      expect((await send("PUT", "/mental-models/m", {})).status).toBe(405);
      expect(fake.violations).toEqual([
        "PATCH /v1/default/banks/b/mental-models/m: body.max_tokens: Input should be greater than or equal to 256",
        "PATCH /v1/default/banks/b/mental-models/m: body.trigger.mode: Input should be 'full' or 'delta'",
        "PATCH /v1/default/banks/b/directives/any: body.priority: Input should be a valid integer",
        "POST /v1/default/banks/b/directives: body.content: Field required",
        "PUT /v1/default/banks/b/mental-models/m: a method the document does not give this path",
      ]);
      expect(fake.banks.get("b")!.mentalModels.get("m")).toMatchObject({ max_tokens: 2048 });
    } finally {
      await fake.close();
    }
  });

  it("a stopped server is a 502 naming the URL", async () => {
    const fake = await startFakeHindsight();
    await fake.close();
    const error = await failure(hindsightClient({ url: fake.url, apiKey: null, timeoutMs: 5000 }).bankExists("x"));
    expect(error.status).toBe(502);
    expect(error.detail).toBe(`Hindsight at ${fake.url} could not be reached: connection refused.`);
  });

  it("a host name that does not resolve is a 502", async () => {
    const fetchImpl = (async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }) });
    }) as typeof fetch;
    const error = await failure(
      hindsightClient({ url: "http://hindsight.invalid", apiKey: null, timeoutMs: 5000 }, fetchImpl).bankExists("x"),
    );
    expect(error.status).toBe(502);
    expect(error.detail).toBe("Hindsight at http://hindsight.invalid could not be reached: its host name does not resolve.");
  });

  it("a fetch that ignores the abort signal still times out", async () => {
    const fetchImpl = (() => new Promise<Response>(() => {})) as typeof fetch;
    const error = await failure(hindsightClient({ url: "http://127.0.0.1:9", apiKey: null, timeoutMs: 200 }, fetchImpl).bankExists("x"));
    expect(error.status).toBe(504);
  });

  it("a body that is not JSON is a 502", async () => {
    const server = await adHocServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<html>hi</html>"));
    try {
      const error = await failure(hindsightClient({ url: server.url, apiKey: null, timeoutMs: 5000 }).importManifest("b", manifest, false));
      expect(error.status).toBe(502);
      expect(error.detail).toContain(server.url);
      expect(error.detail).toContain("not JSON");
    } finally {
      await server.close();
    }
  });

  it("a body of the wrong shape is a 502", async () => {
    const server = await adHocServer((req, res) => {
      const body = req.method === "GET" ? { banks: [{ bank_id: 7 }], total: 1, limit: 100, offset: 0 } : { bank_id: "b" };
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    });
    try {
      const client = hindsightClient({ url: server.url, apiKey: null, timeoutMs: 5000 });
      const imported = await failure(client.importManifest("b", manifest, false));
      expect(imported.status).toBe(502);
      expect(imported.detail).toContain("config_applied is required");
      const listed = await failure(client.bankExists("b"));
      expect(listed.status).toBe(502);
      expect(listed.detail).toContain("banks[0].bank_id must be a string");
      expect((await failure(client.listBanks())).detail).toContain("banks[0].bank_id must be a string");
      expect((await failure(client.getBank("b"))).status).toBe(502);
    } finally {
      await server.close();
    }
  });

  /**
   * A server holding bank "b" whose per-bank answers are given by `reads` (path suffix → [status, body]);
   * its bank list names "b" in its first `listed` answers (every one by default), none after.
   */
  async function oneBankServer(reads: Record<string, [number, unknown]>, listed = Number.POSITIVE_INFINITY) {
    const page = (key: string, items: unknown[]) => ({ [key]: items, total: items.length, limit: 100, offset: 0 });
    let listings = 0;
    return adHocServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const suffix = path.replace(/^\/v1\/default\/banks\/b/, "");
      const b = { bank_id: "b", name: null, disposition: { skepticism: 3, literalism: 3, empathy: 3 } };
      const [status, body] =
        path === "/v1/default/banks" ? [200, page("banks", ++listings <= listed ? [b] : [])] : (reads[suffix] ?? [200, page("items", [])]);
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    });
  }

  it("a bank answers of the wrong shape are a 502 naming the URL and the field", async () => {
    const cases: Array<[Record<string, [number, unknown]>, string]> = [
      [{ "/config": [200, { bank_id: "b", config: {} }] }, "overrides is required"],
      [
        {
          "/config": [200, { bank_id: "b", config: {}, overrides: {} }],
          "/mental-models": [200, { items: [{ id: 1 }], total: 1, limit: 100, offset: 0 }],
        },
        "items[0].id must be a string",
      ],
      [{ "/config": [200, { bank_id: "b", config: {}, overrides: {} }], "/directives": [200, { items: [] }] }, "total is required"],
    ];
    for (const [reads, problem] of cases) {
      const server = await oneBankServer(reads);
      try {
        const error = await failure(hindsightClient({ url: server.url, apiKey: API_KEY, timeoutMs: 5000 }).getBank("b"));
        expect(error.status).toBe(502);
        expect(error.detail).toContain(server.url);
        expect(error.detail).toContain(problem);
        expect(error.detail).not.toContain(API_KEY);
      } finally {
        await server.close();
      }
    }
  });

  it("a bank gone between the search and the reads is null; other failures of the reads are 502", async () => {
    // Gone: /config answers 404 and the bank list no longer names it.
    const gone = await oneBankServer({ "/config": [404, { detail: "Bank 'b' not found" }] }, 1);
    try {
      const bank = await hindsightClient({ url: gone.url, apiKey: null, timeoutMs: 5000 }).getBank("b");
      expect(bank).toBeNull();
    } finally {
      await gone.close();
    }
    const broken = await oneBankServer({
      "/config": [200, { bank_id: "b", config: {}, overrides: {} }],
      "/directives": [500, { detail: "boom" }],
    });
    try {
      const error = await failure(hindsightClient({ url: broken.url, apiKey: null, timeoutMs: 5000 }).getBank("b"));
      expect(error.status).toBe(502);
      expect(error.detail).toContain("500");
    } finally {
      await broken.close();
    }
  });

  it("a bank still listed whose /config answers 404 has its config unreadable, not missing (CONTRACT §19)", async () => {
    const configOff = await oneBankServer({
      "/config": [404, { detail: "Bank configuration API is disabled. Set HINDSIGHT_API_ENABLE_BANK_CONFIG_API=true to re-enable." }],
      "/directives": [200, { items: [{ id: "d1", bank_id: "b", name: "Be brief", content: "Short." }], total: 1, limit: 100, offset: 0 }],
    });
    try {
      const bank = await hindsightClient({ url: configOff.url, apiKey: null, timeoutMs: 5000 }).getBank("b");
      expect(bank).toEqual({
        name: null,
        created_at: null,
        updated_at: null,
        config: null,
        mentalModels: [],
        directives: [{ name: "Be brief", content: "Short.", priority: 0, is_active: true, tags: [] }],
      });
    } finally {
      await configOff.close();
    }
  });

  it("reads a bank without name or timestamps as nulls", async () => {
    const server = await oneBankServer({ "/config": [200, { bank_id: "b", config: { x: 1 }, overrides: {} }] });
    try {
      const bank = await hindsightClient({ url: server.url, apiKey: null, timeoutMs: 5000 }).getBank("b");
      expect(bank).toEqual({ name: null, created_at: null, updated_at: null, config: {}, mentalModels: [], directives: [] });
    } finally {
      await server.close();
    }
  });

  it("a 404 from the bank list itself is a 502, not a missing bank", async () => {
    const server = await adHocServer((_req, res) =>
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"detail":"Not Found"}'),
    );
    try {
      const client = hindsightClient({ url: server.url, apiKey: null, timeoutMs: 5000 });
      const read = await failure(client.getBank("b"));
      expect(read.status).toBe(502);
      expect(read.detail).toContain("404");
      expect((await failure(client.listBanks())).status).toBe(502);
    } finally {
      await server.close();
    }
  });

  it("fills the reference's defaults into a minimal import answer", async () => {
    const server = await adHocServer((_req, res) =>
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ bank_id: "b", config_applied: false, extra: 1 })),
    );
    try {
      const result = await hindsightClient({ url: `${server.url}/`, apiKey: null, timeoutMs: 5000 }).importManifest("b", manifest, false);
      expect(result).toEqual({
        bank_id: "b",
        config_applied: false,
        mental_models_created: [],
        mental_models_updated: [],
        directives_created: [],
        directives_updated: [],
        operation_ids: [],
        dry_run: false,
      });
    } finally {
      await server.close();
    }
  });

  it("a body that stalls after the headers is a 504", async () => {
    const server = await adHocServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"bank_id":');
    });
    try {
      const error = await failure(hindsightClient({ url: server.url, apiKey: null, timeoutMs: 300 }).importManifest("b", manifest, false));
      expect(error.status).toBe(504);
    } finally {
      await server.close();
    }
  });

  it("a redirect is not followed", async () => {
    const server = await adHocServer((_req, res) => res.writeHead(307, { Location: "http://127.0.0.1:9/elsewhere" }).end());
    try {
      const error = await failure(
        hindsightClient({ url: server.url, apiKey: API_KEY, timeoutMs: 5000 }).importManifest("b", manifest, false),
      );
      expect(error.status).toBe(502);
      expect(error.detail).toContain("307");
    } finally {
      await server.close();
    }
  });
});
