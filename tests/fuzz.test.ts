import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/contracts/registry/openapi";
import { TestOidcProvider } from "../e2e/support/oidc-provider";
import { ServerProcess } from "../e2e/support/server-process";
import { formatSummary, groupViolations, runCampaign } from "./fuzz/campaign";
import { contractViolations } from "./fuzz/checks";
import { type Caller, dispatch, type FuzzRequest, type FuzzResponse } from "./fuzz/dispatch";
import { documentedOperations, type Operation, optionalBodyFields, pseudoOperations } from "./fuzz/operations";
import { headerUnsafeRequests, pageRequestArbitrary, pageTemplates, sendRaw, signIn } from "./fuzz/pages";
import { type JsonSchema, type SchemaContext, validArbitrary } from "./fuzz/schema-arbitraries";
import { type FuzzWorld, seedWorld } from "./fuzz/seed-state";
import { useTestApp } from "./support/app";
import { manifest } from "./support/fixtures";
import { freePort } from "./support/free-port";
import { resolveRoute } from "./support/router";

/**
 * CONTRACT §4, §10 and §18: no input, however malformed, produces a 5xx, and every API error
 * is problem+json. Requests are generated from the OpenAPI document for every operation and sent
 * through the real route handlers; a fifth of the total go to console pages and /api/auth/* of
 * the production server instead. `npm test` sends a few thousand; `npm run fuzz` 20,000
 * (FUZZ_REQUESTS). A failure prints the seed: FUZZ_SEED=<seed> replays the same requests,
 * FUZZ_ONLY=<text> narrows the run to the operations whose key contains the text.
 */
const ALL_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2500);
/**
 * A fifth of the requests go to console pages and /api/auth/* over HTTP (CONTRACT §18), the rest
 * to the API in-process. That part needs the production build, which nothing guards against a
 * second `next build` at once (the bundle-size test builds too): it runs with `npm run fuzz`
 * (FUZZ_REQUESTS set) or FUZZ_PAGES=1, once (in the PGlite project: the server has its own database).
 */
const FUZZ_PAGES = (process.env.FUZZ_REQUESTS !== undefined || process.env.FUZZ_PAGES === "1") && process.env.TEST_DB !== "postgres";
const PAGE_REQUESTS = FUZZ_PAGES ? Math.round(ALL_REQUESTS * 0.2) : 0;
const TOTAL_REQUESTS = ALL_REQUESTS - PAGE_REQUESTS;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const ONLY = process.env.FUZZ_ONLY || undefined;
const PRINT_SUMMARY = process.env.FUZZ_REQUESTS !== undefined || process.env.FUZZ_SUMMARY === "1";

// Marketplace fetches go to 127.0.0.1 or fail name resolution at once; the short timeout only bounds surprises.
const t = useTestApp({ MARKETPLACE_TIMEOUT_MS: "3000" });
let world: FuzzWorld;
let ctx: SchemaContext;
let operations: Operation[];
const openApi = buildOpenApiDocument() as unknown as Parameters<typeof documentedOperations>[0];

beforeAll(async () => {
  world = await seedWorld(t);
  ctx = { components: (openApi.components?.schemas ?? {}) as Record<string, JsonSchema>, pools: world.pools };
  operations = [...documentedOperations(openApi), ...pseudoOperations(openApi)];
});
afterAll(() => world?.close());

const send = async (
  caller: Caller,
  method: string,
  path: string,
  body?: FuzzRequest["body"],
  headers: Record<string, string> = {},
): Promise<FuzzResponse> => {
  const response = await dispatch({ operation: `${method} ${path}`, method, path, caller, headers, body }, world.tokens);
  if (!response) throw new Error(`no route answers ${path}`);
  return response;
};
const json = (response: FuzzResponse) => JSON.parse(response.text);
const errorPaths = (response: FuzzResponse): string[] => (json(response).errors ?? []).map((e: { path: string }) => e.path);
/** The problem+json rules every error answer must keep (no 5xx, type, title, status, detail, request_id). */
const expectProblem = (response: FuzzResponse, status: number) => {
  expect(contractViolations(undefined, response)).toEqual([]);
  expect(response.status).toBe(status);
};

// The hand-written cases run first, on the freshly seeded state; the generated run changes it.
describe("hostile input from the issue answers its 4xx", () => {
  it("U+0000 in a stored string: POST /me/api-keys {description: 'a\\u0000b'} → 422 at description", async () => {
    const res = await send("member", "POST", "/ext/svc/me/api-keys", { json: { description: "a\u0000b" } });
    expectProblem(res, 422);
    expect(errorPaths(res)).toContain("description");
  });

  it("U+0000 in a query value: GET /me/templates?category=%00 → 422 at category", async () => {
    const res = await send("member", "GET", "/ext/svc/me/templates?category=%00");
    expectProblem(res, 422);
    expect(errorPaths(res)).toContain("category");
  });

  it("an unpaired surrogate in a mental model's name → 422 at that path, nothing stored", async () => {
    const body = {
      id: "surrogate",
      name: "Surrogate",
      manifest: manifest({ mental_models: [{ id: "m", name: "bad \ud800 name", source_query: "q?" }] }),
    };
    const res = await send("member", "POST", "/ext/svc/me/templates", { json: body });
    expectProblem(res, 422);
    expect(errorPaths(res)).toContain("manifest.mental_models[0].name");
    expect((await send("member", "GET", "/ext/svc/me/templates/surrogate")).status).toBe(404);
  });

  it("an object key containing U+0000 → 422 naming the key, at the top level and nested", async () => {
    const top = await send("member", "POST", "/ext/svc/me/api-keys", { text: '{"desc\\u0000ription":"x"}' });
    expectProblem(top, 422);
    expect(errorPaths(top)).toContain("desc\u0000ription");

    const nestedBody = { id: "nul-key", name: "Nul key", manifest: { ...manifest(), bank: { "retain\u0000mission": "x" } } };
    const nested = await send("member", "POST", "/ext/svc/me/templates", { json: nestedBody });
    expectProblem(nested, 422);
    expect(errorPaths(nested)).toContain("manifest.bank.retain\u0000mission");
  });

  it("a body nested 1,400 levels deep → 400", async () => {
    const deep = `{"manifest":${"[".repeat(1400)}${"]".repeat(1400)}}`;
    expectProblem(await send("member", "POST", "/ext/svc/manifests/validate", { text: deep }), 400);
    const deepObject = `{"a":${'{"b":'.repeat(1400)}1${"}".repeat(1400)}}`;
    expectProblem(await send("admin", "POST", "/ext/svc/me/templates", { text: deepObject }), 400);
  });

  it("65 levels is too deep, 64 is not", async () => {
    const nest = (depth: number) => `{"manifest":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    expectProblem(await send("member", "POST", "/ext/svc/manifests/validate", { text: nest(65) }), 400);
    expect((await send("member", "POST", "/ext/svc/manifests/validate", { text: nest(64) })).status).toBe(200);
  });

  it("GET /me/templates/%ff without credentials → 400 problem+json (from proxy.ts, before Next decodes the path)", async () => {
    expectProblem(await send("anonymous", "GET", "/ext/svc/me/templates/%ff"), 400);
    expectProblem(await send("member", "DELETE", "/ext/svc/banks/%ed%a0%80"), 400);
    expectProblem(await send("admin", "GET", "/ext/svc/no/such/%ff"), 400);
  });
});

describe("null for an optional POST/PUT field means the same as leaving it out (CONTRACT §10)", () => {
  it("null under a key an object inherits (constructor, __proto__, toString) is an unknown field: 422, not 500", async () => {
    // Found by the fuzzer: the null-means-absent step looked such keys up on the plain schema shape.
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const res = await send("member", "POST", "/ext/svc/me/template-sources", { text: `{"url":"${world.market.url}/x","${key}":null}` });
      expectProblem(res, 422);
      expect(errorPaths(res)).toContain(key);
    }
  });

  it("POST /me/template-sources {url, alias: null, auth_token: null} → 201", async () => {
    const res = await send("member", "POST", "/ext/svc/me/template-sources", {
      json: { url: `${world.market.url}/null-fields`, alias: null, auth_token: null },
    });
    expect(res.status, res.text).toBe(201);
    expect(json(res)).toMatchObject({ has_auth: false });
  });

  it("POST /banks {bank_id, template, name: null} → 200 with the default name", async () => {
    const template = await send("member", "POST", "/ext/svc/me/templates", {
      json: { id: "for-null-name", name: "For null name", manifest: manifest() },
    });
    expect(template.status, template.text).toBe(200);
    const res = await send("member", "POST", "/ext/svc/banks", {
      json: { bank_id: "null-name", template: "personal/for-null-name", name: null },
    });
    expect(res.status, res.text).toBe(200);
  });

  it("POST /me/templates with description, category, integrations and tags null → 200", async () => {
    const body = {
      id: "null-meta",
      name: "Null meta",
      manifest: manifest(),
      description: null,
      category: null,
      integrations: null,
      tags: null,
    };
    const res = await send("member", "POST", "/ext/svc/me/templates", { json: body });
    expect(res.status, res.text).toBe(200);
    expect(json(res)).toMatchObject({ description: null, category: null, integrations: [], tags: [] });
  });

  it("POST /me/templates/{id}/install with alias_id and source_scope null → 200", async () => {
    const res = await send("member", "POST", "/ext/svc/me/templates/sales-bot/install", {
      json: { source_name: "good", alias_id: null, source_scope: null },
    });
    expect(res.status, res.text).toBe(200);
  });

  it("no POST or PUT of the document refuses null for an optional field", async () => {
    const writes = operations.filter((op) => op.documented && (op.method === "POST" || op.method === "PUT") && op.bodySchema);
    const refused: string[] = [];
    for (const [index, op] of writes.entries()) {
      const [base] = fc.sample(validArbitrary(op.bodySchema!, ctx), { seed: index, numRuns: 1 }) as Record<string, unknown>[];
      const path = op.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) =>
        encodeURIComponent(String(world.pools[`path.${name}.write`]!()[0])),
      );
      const caller: Caller = op.pathTemplate.startsWith("/ext/svc/admin/") ? "admin" : "member";
      for (const field of optionalBodyFields(ctx, op.bodySchema)) {
        const res = await send(caller, op.method, path, { json: { ...base, [field]: null } });
        expect(contractViolations(op, res), `${op.key} with ${field}: null`).toEqual([]);
        if (res.status === 422 && errorPaths(res).some((p) => p === field || p.startsWith(`${field}.`) || p.startsWith(`${field}[`))) {
          refused.push(`${op.key} ${field}: ${res.text}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });
});

describe("fuzzing every operation of the OpenAPI document", () => {
  it("generates requests for every path × method, each with a route handler", () => {
    const documented = operations.filter((op) => op.documented);
    const expected = Object.entries(openApi.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.map((op) => op.key).sort()).toEqual(expected.sort());
    const missing = documented.filter((op) => {
      const route = resolveRoute(op.pathTemplate.replace(/\{[^}]+\}/g, "x"));
      return !route || route.file.includes("[...unknown]");
    });
    expect(missing.map((op) => op.key)).toEqual([]);
  });

  it(
    `answers ${TOTAL_REQUESTS} generated requests without a 5xx, every error as problem+json (seed ${SEED})`,
    async () => {
      const trace = process.env.FUZZ_TRACE
        ? (request: FuzzRequest, status: number, detail: string) =>
            console.log(`${status} ${request.caller} ${request.method} ${request.path.slice(0, 200)} ${detail}`)
        : undefined;
      const result = await runCampaign(world, ctx, operations, { totalRequests: TOTAL_REQUESTS, seed: SEED, only: ONLY, trace });
      const summary = formatSummary(result);
      if (PRINT_SUMMARY) console.log(summary);
      const replay = `\nReplay with FUZZ_SEED=${SEED} FUZZ_REQUESTS=${TOTAL_REQUESTS}${ONLY ? ` FUZZ_ONLY=${JSON.stringify(ONLY)}` : ""}.\n`;
      expect(groupViolations(result.violations).length, replay + summary).toBe(0);
      expect(result.serverErrors).toBe(0);
      expect(result.nonProblemErrors).toBe(0);
      if (!ONLY) {
        // Every operation was really exercised (not only generated): each has answers on record.
        const silent = operations.filter((op) => op.documented && !result.perOperation.has(op.key)).map((op) => op.key);
        expect(silent).toEqual([]);
      }
    },
    // Generous: the machine is shared, and a fuzz run is about correctness, not speed.
    60_000 + TOTAL_REQUESTS * 60,
  );
});

describe.runIf(FUZZ_PAGES)("fuzzing console pages and /api/auth/* on the production server, single sign-on configured", () => {
  let server: ServerProcess | undefined;
  let provider: TestOidcProvider | undefined;
  let base: URL;
  let sessionCookie = "";
  let dataDir = "";
  const PASSWORD = "fuzz admin password";

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "fuzz-pages-"));
    const port = await freePort();
    // A real provider behind /api/auth/signin/oidc and /api/auth/callback/oidc, so their paths are fuzzed past discovery.
    provider = new TestOidcProvider([`http://127.0.0.1:${port}/api/auth/callback/oidc`]);
    await provider.start();
    server = new ServerProcess(port, {
      ...provider.consoleEnv,
      OIDC_CREATE_USERS: "true",
      OIDC_ADMIN_GROUPS: "ops",
      DATA_DIR: dataDir,
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: "warn",
    });
    // The first start may build the app (scripts/build-if-changed.mjs).
    await server.start(600_000);
    base = new URL(server.baseUrl);
    sessionCookie = await signIn(base, "admin", PASSWORD);
  }, 660_000);
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    `answers ${PAGE_REQUESTS} generated requests without a 5xx, signed in and not (seed ${SEED})`,
    async () => {
      const fixed = headerUnsafeRequests(pageTemplates());
      const generated = fc.sample(pageRequestArbitrary(pageTemplates()), {
        seed: SEED,
        numRuns: Math.max(PAGE_REQUESTS - fixed.length, 0),
      });
      const requests = [...fixed, ...generated];
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      // A few at a time: the server is one process on a shared machine.
      for (let i = 0; i < requests.length; i += 4) {
        await Promise.all(
          requests.slice(i, i + 4).map(async (request) => {
            const answer = await sendRaw(base, request, sessionCookie);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            if (answer.status >= 500 || answer.status === 0) {
              failures.push(
                `${answer.status} ${request.signedIn ? "signed-in" : "anonymous"} ${request.method} ${request.path} ${JSON.stringify(request.headers)} ${JSON.stringify(request.body ?? null)}: ${answer.text.slice(0, 200)}`,
              );
            }
          }),
        );
      }
      if (PRINT_SUMMARY)
        console.log(
          `pages and /api/auth/*: ${[...statuses]
            .sort(([a], [b]) => a - b)
            .map(([status, n]) => `${status}×${n}`)
            .join(", ")}`,
        );
      expect(failures, `Replay with FUZZ_SEED=${SEED} FUZZ_REQUESTS=${ALL_REQUESTS}`).toEqual([]);
      // Nothing crashed: the server still answers, and the session still works.
      expect((await fetch(new URL("/readyz", base))).status).toBe(200);
      const signedIn = await fetch(new URL("/api/auth/session", base), { headers: { cookie: sessionCookie } });
      expect(await signedIn.json()).toMatchObject({ user: { id: "admin" } });
    },
    60_000 + PAGE_REQUESTS * 200,
  );
});
