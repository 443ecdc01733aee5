// CONTRACT §10 and §15: the one check of characters and depth that requests and upstream answers share.
import { createServer, type RequestListener } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError, nestedProblem } from "@/lib/contracts/errors";
import { cutJsonBelow, jsonFlaws, jsonTextNestsDeeperThan, MAX_JSON_DEPTH, parseUpstreamJson } from "@/lib/contracts/json-hygiene";
import { hindsightClient } from "@/lib/services/banks/remote";
import { type Client, useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";
import { listenOnLoopback } from "./support/loopback";

const arraysText = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

/** A parsed value nesting `levels` objects, `leaf` at the bottom; built in a loop, as no recursion could. */
function nestedValue(levels: number, leaf: unknown): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf };
  for (let i = 1; i < levels; i++) value = { d: value };
  return value;
}

describe("the depth scan of JSON text", () => {
  it("measures 100,000 levels without throwing", () => {
    const text = arraysText(100_000);
    expect(jsonTextNestsDeeperThan(text, MAX_JSON_DEPTH)).toBe(true);
    expect(jsonTextNestsDeeperThan(arraysText(64), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonTextNestsDeeperThan(arraysText(65), MAX_JSON_DEPTH)).toBe(true);
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: `"${"[".repeat(200)}\\"{` });
    expect(jsonTextNestsDeeperThan(text, 1)).toBe(false);
    expect(jsonTextNestsDeeperThan(`[${text}]`, 1)).toBe(true);
  });

  it("cuts what lies deeper to [] so the parser never sees it, and the cut places stay too deep", () => {
    const text = `{"keep":${arraysText(3)},"deep":${arraysText(100_000)},"after":"[still a string]"}`;
    const cut = cutJsonBelow(text, 4);
    expect(cut).toBe(`{"keep":${arraysText(3)},"deep":${arraysText(4)},"after":"[still a string]"}`);
    expect(jsonFlaws(JSON.parse(cut), { maxDepth: 4 })).toEqual([{ path: "deep[0][0][0]", message: "nests more than 4 levels" }]);
    expect(cutJsonBelow(arraysText(4), 4)).toBe(arraysText(4));
  });

  it("refuses 100,000-deep upstream text before parsing it", () => {
    expect(parseUpstreamJson(arraysText(100_000))).toEqual({ problem: "nests more than 64 levels", type: "unusable-upstream-content" });
    expect(parseUpstreamJson("\uFEFF{}")).toEqual({ value: {} });
    expect(parseUpstreamJson("{")).toMatchObject({ problem: "is not JSON", type: "bad-gateway" });
  });
});

describe("the walk of parsed values", () => {
  it("walks a 100,000-deep value without throwing, finding what is at the bottom", () => {
    const bottom = nestedValue(100_000, "a\u0000b");
    const flaws = jsonFlaws(bottom);
    expect(flaws).toHaveLength(1);
    expect(flaws[0]!.path).toMatch(/^d\.d\.d.*\.leaf$/);
    expect(flaws[0]!.message).toMatch(/U\+0000/);
    expect(jsonFlaws(bottom, { maxDepth: 64 })).toEqual([{ path: `${"d.".repeat(63)}d`, message: "nests more than 64 levels" }]);
    expect(jsonFlaws(nestedValue(100_000, "fine"))).toEqual([]);
  });

  it("names every unstorable string and key in document order, up to a limit", () => {
    const value = { a: ["ok", "x\ud800"], "k\u0000": 1, b: { c: "\udc00y", d: [{ "\ud83d": "z" }] }, e: "\ud83d\ude00" };
    const flaws = jsonFlaws(value);
    expect(flaws.map((f) => f.path)).toEqual(["a[1]", "k\u0000", "b.c", "b.d[0].\ud83d"]);
    expect(flaws[1]!.message).toMatch(/^is a key that /);
    expect(jsonFlaws(value, { limit: 2 })).toHaveLength(2);
    expect(jsonFlaws("\u0000")).toEqual([{ path: "(body)", message: expect.stringMatching(/U\+0000/) }]);
  });

  it("shows unstorable upstream text in messages as U+FFFD, so the message itself can be stored", () => {
    const parsed = parseUpstreamJson('{"bank":{"x\\u0000":"\\ud800"}}');
    expect(parsed.problem).toBe(
      "is unusable: bank.x\uFFFD is a key that contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored",
    );
    expect(parsed.problem !== undefined && parsed.errors?.map((e) => e.path)).toEqual(["bank.x\uFFFD", "bank.x\uFFFD"]);
  });
});

/** A loopback server answering every request with `body` (JSON text). */
async function answering(body: string) {
  const listener: RequestListener = (_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(body);
  const server = createServer(listener);
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const hostileAnswers = [
  ["10,000 levels deep", `{"banks":[],"total":0,"limit":100,"offset":0,"x":${arraysText(10_000)}}`, /nests more than 64 levels/],
  ["holding U+0000", '{"banks":[{"bank_id":"b\\u0000"}],"total":1,"limit":100,"offset":0}', /U\+0000/],
  ["holding a lone surrogate", '{"bank_id":"b","config_applied":true,"note":"\\udfff"}', /unpaired UTF-16 surrogate/],
] as const;

describe("Hindsight's answers", () => {
  it.each(hostileAnswers)("one %s is a 502 naming why", async (_what, body, reason) => {
    const server = await answering(body);
    try {
      const client = hindsightClient({ url: server.url, apiKey: null, timeoutMs: 5000 });
      for (const call of [() => client.importManifest("b", manifest(), false), () => client.listBanks()]) {
        let failure: unknown;
        await call().catch((error: unknown) => {
          failure = error;
        });
        expect(failure).toBeInstanceOf(DomainError);
        expect(nestedProblem(failure as DomainError).status).toBe(502);
        expect((failure as DomainError).detail).toMatch(reason);
      }
    } finally {
      await server.close();
    }
  });
});

describe("a bank created against a Hindsight that answers badly", () => {
  const t = useTestApp();
  let alice: Client;
  const servers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    alice = await t.user("alice");
    expect((await alice.post("/ext/svc/me/templates", { id: "tpl", name: "Template", manifest: manifest() })).status).toBeLessThan(300);
  });
  afterAll(async () => {
    t.app.config.hindsight = null;
    await Promise.all(servers.map((s) => s.close()));
  });

  it.each(hostileAnswers)("answers 502 to an answer %s, never 500", async (_what, body, reason) => {
    const server = await answering(body);
    servers.push(server);
    t.app.config.hindsight = { url: server.url, apiKey: null, timeoutMs: 2000 };
    for (const dryRun of ["true", "false"]) {
      const res = await alice.post(`/ext/svc/banks?dry_run=${dryRun}`, { bank_id: "hostile", template: "tpl" });
      expect(res.status, res.text).toBe(502);
      expect(res.body.detail).toMatch(reason);
    }
    const list = await alice.get("/ext/svc/banks");
    expect([200, 502]).toContain(list.status);
  });
});
