import { randomBytes } from "node:crypto";
import http from "node:http";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/contracts/registry/openapi";
import { createScratchDatabase, type ScratchDatabase, ServerProcess } from "../e2e/support/server-process";
import { documentedOperations, type Operation } from "./fuzz/operations";
import { type JsonSchema, validArbitrary } from "./fuzz/schema-arbitraries";
import { manifest } from "./support/fixtures";
import { freePort } from "./support/free-port";

/**
 * Issue 39: the production server answers /ext/svc itself, calling the handlers the route files
 * export (lib/server/api-fast-path.cjs), instead of handing the request to Next's router. Every
 * operation of the OpenAPI document (and the requests the server marks or leaves to Next: HEAD,
 * OPTIONS, an unsupported method, an unknown path, a malformed escape, a trailing slash) is sent
 * alike to two production servers started on copies of one data set, one with the fast path
 * (the default) and one with API_FAST_PATH=0: the status, the headers that matter and the body
 * must be the same. What each write generates (ids, times, secrets shown once) is compared by
 * its shape. Needs PostgreSQL (a database copied by `create database … template`) and the
 * production build (the first start builds it when the sources changed).
 */

const TOKEN = "fast-path-comparison-admin-token-0123456789abcdef";
const SECRET_KEY = randomBytes(32).toString("hex");
/** Headers whose value must be the same on both paths (ETag and Location: see `compared`). */
const SAME_HEADERS = [
  "content-type",
  "cache-control",
  "x-content-type-options",
  "x-request-id",
  "allow",
  "www-authenticate",
  "retry-after",
  "idempotent-replayed",
];

/** A path parameter's value in the seeded data set (or one that names nothing: a 404 on both). */
const PATH_VALUES: Record<string, string> = {
  template_id: "cmp-alpha",
  id: "cmp-alpha",
  scope: "personal",
  version: "1",
  bank_id: "cmp-bank",
  user_id: "cmp-user",
  sa_id: "cmp-sa",
  name: "cmp-source",
  session_id: "00000000-0000-4000-8000-000000000001",
  webhook_id: "00000000-0000-4000-8000-000000000002",
  delivery_id: "00000000-0000-4000-8000-000000000003",
};

interface Sent {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The answer, or status 0 with the error's code when the connection failed (the same on both paths, or a difference). */
async function send(base: string, request: Sent): Promise<Answer> {
  try {
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${TOKEN}`, "x-request-id": "fast-path-comparison", ...request.headers },
      body: request.body,
      redirect: "manual",
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: 0, headers: new Headers(), text: String(cause?.code ?? error) };
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIMESTAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g;
/** API key ids and token prefixes (lib/services/identity/api-keys.ts): random. */
const KEY_ID = /\b(key|hbk)_[A-Za-z0-9_-]+/g;
const withoutGenerated = (text: string) => text.replace(UUID, "<uuid>").replace(TIMESTAMP, "<time>").replace(KEY_ID, "<key>");
/** Fields whose value a write generates at random: compared by being there. */
const GENERATED_FIELDS = new Set(["token", "secret", "api_key", "key", "id_prefix", "prefix"]);

/** The answer's text with what differs between two runs of one write (ids, times, secrets) replaced by placeholders. */
function generic(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return withoutGenerated(text);
  }
  const walk = (node: unknown, key?: string): unknown => {
    if (typeof node === "string") return key && GENERATED_FIELDS.has(key) ? "<generated>" : withoutGenerated(node);
    if (Array.isArray(node)) return node.map((item) => walk(item));
    if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]));
    return node;
  };
  return JSON.stringify(walk(value));
}

/** What must be the same of one request's two answers. */
function compared(answer: Answer, other: Answer) {
  const exact = answer.text === other.text;
  const header = (name: string) => answer.headers.get(name);
  return {
    status: answer.status,
    headers: Object.fromEntries(SAME_HEADERS.map((name) => [name, header(name)])),
    // The tag of the same text is the same; of a text with generated values, only there.
    etag: exact ? header("etag") : header("etag") !== null,
    location: header("location") && generic(header("location")!),
    body: exact ? "(same text)" : generic(answer.text),
  };
}

/** One request per documented operation, reads first and deletions last, each with a valid body drawn from a fixed seed. */
function operationRequests(): Sent[] {
  const doc = buildOpenApiDocument() as unknown as Parameters<typeof documentedOperations>[0];
  const ctx = { components: (doc.components?.schemas ?? {}) as Record<string, JsonSchema>, pools: {} };
  const order = (op: Operation) => ({ GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 })[op.method] ?? 1;
  return documentedOperations(doc)
    .sort((a, b) => order(a) - order(b))
    .map((op, index) => {
      const path = op.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(PATH_VALUES[name] ?? "unknown"));
      const sample = <T>(arbitrary: fc.Arbitrary<T>) => fc.sample(arbitrary, { seed: 39_000 + index, numRuns: 1 })[0]!;
      const query = op.queryParams
        .filter((parameter) => parameter.required)
        .map((parameter) => `${parameter.name}=${encodeURIComponent(String(sample(validArbitrary(parameter.schema, ctx))))}`);
      const body = op.bodySchema ? JSON.stringify(sample(validArbitrary(op.bodySchema, ctx))) : undefined;
      return {
        label: op.key,
        method: op.method,
        path: query.length ? `${path}?${query.join("&")}` : path,
        headers: body === undefined ? undefined : { "content-type": "application/json" },
        body,
      };
    });
}

/** What the server marks for the pipeline or leaves to Next, and an Idempotency-Key's replay. */
const EDGE_REQUESTS: Sent[] = [
  { label: "HEAD of a read", method: "HEAD", path: "/ext/svc/me" },
  { label: "OPTIONS", method: "OPTIONS", path: "/ext/svc/me/templates/cmp-alpha" },
  { label: "a method Next does not route", method: "PROPFIND", path: "/ext/svc/me" },
  { label: "an unknown path", method: "GET", path: "/ext/svc/no/such/endpoint" },
  { label: "no credentials", method: "GET", path: "/ext/svc/me", headers: { authorization: "" } },
  { label: "a malformed escape", method: "GET", path: "/ext/svc/me/templates/%E0%A4%A" },
  { label: "a trailing slash", method: "GET", path: "/ext/svc/me/" },
  { label: "a body over 1 MiB", method: "POST", path: "/ext/svc/me/templates", body: "x".repeat(1024 * 1024 + 1) },
  { label: "malformed JSON", method: "POST", path: "/ext/svc/me/templates", body: "{", headers: { "content-type": "application/json" } },
  { label: "a conditional read", method: "GET", path: "/ext/svc/me/templates/cmp-alpha", headers: { "if-none-match": "*" } },
  ...[1, 2].map((n) => ({
    label: `an Idempotency-Key, request ${n}`,
    method: "POST",
    path: "/ext/svc/me/templates",
    headers: { "content-type": "application/json", "idempotency-key": "cmp-key-1" },
    body: JSON.stringify({ id: "cmp-idempotent", name: "Once", manifest: manifest() }),
  })),
  { label: "the streamed audit export", method: "GET", path: "/ext/svc/admin/audit/export" },
];

/** The data set both servers start from: a few of each resource, made through the API. */
async function seed(base: string) {
  const must = async (method: string, path: string, body: unknown) => {
    const answer = await send(base, {
      label: "seed",
      method,
      path,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (answer.status >= 300) throw new Error(`seeding: ${method} ${path} answered ${answer.status} ${answer.text}`);
  };
  await must("POST", "/ext/svc/me/templates", { id: "cmp-alpha", name: "Alpha", manifest: manifest(), category: "ops", tags: ["t1"] });
  await must("POST", "/ext/svc/admin/templates", { id: "cmp-alpha", name: "Server alpha", manifest: manifest() });
  await must("POST", "/ext/svc/banks", { bank_id: "cmp-bank", template: "personal/cmp-alpha" });
  await must("PUT", "/ext/svc/banks/cmp-bank/policy", {
    document: { version: "2026-03-24", default_strategy: "balanced", public_access: { default: { actions: ["bank:recall"] } } },
  });
  await must("POST", "/ext/svc/admin/users", { id: "cmp-user" });
  await must("POST", "/ext/svc/me/service-accounts", { id: "cmp-sa" });
  await must("POST", "/ext/svc/me/api-keys", { description: "comparison" });
}

describe.runIf(process.env.TEST_DB === "postgres")("the API's fast path answers as Next's router does", () => {
  const servers: ServerProcess[] = [];
  const databases: ScratchDatabase[] = [];
  let fast = "";
  let routed = "";
  let fastLog = () => "";

  const serverOn = async (databaseUrl: string, settings: Record<string, string> = {}) => {
    const server = new ServerProcess(await freePort(), {
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      BOOTSTRAP_ADMIN_TOKEN: TOKEN,
      WEB_CONCURRENCY: "1",
      UPDATE_CHECK_INTERVAL_MINUTES: "0",
      LOG_LEVEL: "warn",
      ...settings,
    });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    const original = await createScratchDatabase("fast_path");
    databases.push(original);
    const seeder = await serverOn(original.url);
    // The first start may build the app (scripts/build-if-changed.mjs).
    await seeder.start(600_000);
    await seed(seeder.baseUrl);
    await seeder.stop();
    // The same data set, times and generated ids included: a copy of the database.
    const name = new URL(original.url).pathname.slice(1);
    const admin = postgres(original.url.replace(/\/[^/]*$/, "/postgres"), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}_routed template ${name}`);
    await admin.end();
    const copyUrl = original.url.replace(/\/[^/]*$/, `/${name}_routed`);
    databases.push({
      url: copyUrl,
      drop: async () => {
        const sql = postgres(original.url.replace(/\/[^/]*$/, "/postgres"), { max: 1, onnotice: () => {} });
        await sql.unsafe(`drop database if exists ${name}_routed with (force)`);
        await sql.end();
      },
    });
    const [fastServer, routedServer] = await Promise.all([serverOn(original.url), serverOn(copyUrl, { API_FAST_PATH: "0" })]);
    await Promise.all([fastServer.start(), routedServer.start()]);
    fast = fastServer.baseUrl;
    routed = routedServer.baseUrl;
    fastLog = () => fastServer.messages;
  }, 900_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const database of databases.reverse()) await database.drop();
  });

  it("serves the API itself with the switch on, through Next's router with it off", async () => {
    expect(fastLog()).not.toContain("served through Next's router");
    // Next's router adds its own cache key for pages (Vary: rsc, …) to every answer it sends;
    // the fast path does not (the API's answers are no-store), so it tells which path answered.
    const [viaFastPath, viaNext] = await Promise.all(
      [fast, routed].map((base) => send(base, { label: "me", method: "GET", path: "/ext/svc/me" })),
    );
    expect([viaFastPath!.status, viaFastPath!.headers.get("vary")]).toEqual([200, null]);
    expect([viaNext!.status, viaNext!.headers.get("vary")]).toEqual([200, expect.stringContaining("rsc")]);
  });

  it("keeps a connection serving after a body it stopped reading (413), as a program's client reuses it", async () => {
    // Streamed without a declared length, the body is read until it passes 1 MiB; the rest is
    // drained after the answer. Destroying the request instead left unread bytes that made the
    // kernel reset the connection, and the client's next request on it failed.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { hostname, port } = new URL(fast);
    const call = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
        const outgoing = http.request({ hostname, port, method, path, agent, headers }, (answer) => {
          answer.resume();
          answer.once("end", () => resolve({ status: answer.statusCode ?? 0, reused: outgoing.reusedSocket }));
        });
        outgoing.once("error", reject);
        if (body) outgoing.setHeader("transfer-encoding", "chunked");
        outgoing.end(body);
      });
    try {
      expect((await call("POST", "/ext/svc/me/template-sources", Buffer.alloc(2 * 1024 * 1024, "a"))).status).toBe(413);
      for (let i = 0; i < 3; i++) expect(await call("GET", "/ext/svc/me")).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("answers every operation of the OpenAPI document, and the requests around them, the same way", async () => {
    const requests = [...operationRequests(), ...EDGE_REQUESTS];
    expect(requests.length).toBeGreaterThan(100);
    const differences: string[] = [];
    // One at a time, in the same order on both: each write sees the state the same earlier writes left.
    for (const request of requests) {
      const [viaFastPath, viaNext] = [await send(fast, request), await send(routed, request)];
      const [a, b] = [compared(viaFastPath, viaNext), compared(viaNext, viaFastPath)];
      if (!isDeepStrictEqual(a, b)) {
        differences.push(
          `${request.label} (${request.method} ${request.path}):\n fast path ${JSON.stringify(a)}\n Next      ${JSON.stringify(b)}`,
        );
      }
    }
    expect(differences).toEqual([]);
  }, 300_000);
});
