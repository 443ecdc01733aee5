/**
 * CONTRACT §18: a write with an Idempotency-Key is done once. Runs on PGlite and PostgreSQL;
 * the cases where two requests truly overlap run on PostgreSQL only.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createBankTemplatesClient } from "@/client";
import { auditEntries, idempotencyKeys, templateSources } from "@/db/schema";
import { api } from "@/lib/client/api";
import { endpoints } from "@/lib/client/endpoints";
import { pruneIdempotencyKeys, requestFingerprint } from "@/lib/services/idempotency/keys";
import { type ApiResponse, type Client, request, useTestApp } from "./support/app";
import { runCli } from "./support/cli-process";
import { serveApp } from "./support/http-app";
import { listenOnLoopback } from "./support/loopback";

const t = useTestApp();
let alice: Client;
let bob: Client;
let aliceBot: Client;

beforeAll(async () => {
  alice = await t.user("alice");
  bob = await t.user("bob");
  expect((await alice.post("/ext/svc/me/service-accounts", { id: "bot" })).status).toBe(201);
  const key = await alice.post("/ext/svc/me/service-accounts/bot/api-keys", { description: "bot" });
  aliceBot = { ...alice, token: key.body.token };
});

const SOURCES = "/ext/svc/me/template-sources";

/** Sends a write as `client` with the Idempotency-Key `key` (none when null). */
function send(client: Client, method: string, path: string, key: string | null, body?: unknown): Promise<ApiResponse> {
  return request(method, path, { token: client.token, body, headers: key === null ? {} : { "idempotency-key": key } });
}

const sourcesNamed = async (name: string, owner: string) =>
  t.app.db
    .select()
    .from(templateSources)
    .where(and(eq(templateSources.name, name), eq(templateSources.owner, owner)));

const auditCount = async (action: string, target: string) =>
  (
    await t.app.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, action), eq(auditEntries.target, target)))
  ).length;

const keyRows = (key: string) => t.app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

describe("a write sent again with its key", () => {
  it("answers the first answer again (status, body, content-type) and writes once", async () => {
    const body = { url: "https://example.com/once" };
    const first = await send(alice, "POST", SOURCES, "create-once", body);
    expect(first.status).toBe(201);
    const again = await send(alice, "POST", SOURCES, "create-once", body);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The request id is this request's own.
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await sourcesNamed("once", "alice")).toHaveLength(1);
    expect(await auditCount("template_source.create", `${SOURCES}/once`)).toBe(1);
  });

  it("answers a stored 4xx of the handler again, even once the cause is gone", async () => {
    expect((await alice.post(SOURCES, { url: "https://example.com/taken" })).status).toBe(201);
    const refused = await send(alice, "POST", SOURCES, "taken-try", { url: "https://example.com/taken" });
    expect(refused.status).toBe(409);
    expect(refused.body.type).toMatch(/id-taken$/);
    expect((await alice.delete(`${SOURCES}/taken`)).status).toBe(204);
    const again = await send(alice, "POST", SOURCES, "taken-try", { url: "https://example.com/taken" });
    expect(again.status).toBe(409);
    expect(again.text).toBe(refused.text);
    expect(await sourcesNamed("taken", "alice")).toHaveLength(0);
  });

  it("answers a delete's 204 again instead of 404", async () => {
    expect((await alice.post(SOURCES, { url: "https://example.com/gone" })).status).toBe(201);
    expect((await send(alice, "DELETE", `${SOURCES}/gone`, "delete-gone")).status).toBe(204);
    const again = await send(alice, "DELETE", `${SOURCES}/gone`, "delete-gone");
    expect(again.status).toBe(204);
    expect(again.text).toBe("");
    expect(await auditCount("template_source.delete", `${SOURCES}/gone`)).toBe(1);
  });

  it("does not store an answer of failed validation: the key then serves a corrected request", async () => {
    const invalid = await send(alice, "POST", SOURCES, "fix-then-send", { url: "not a url" });
    expect(invalid.status).toBe(422);
    expect(await keyRows("fix-then-send")).toHaveLength(0);
    expect((await send(alice, "POST", SOURCES, "fix-then-send", { url: "https://example.com/fixed" })).status).toBe(201);
  });

  it("changes nothing without the header", async () => {
    const before = (await t.app.db.select().from(idempotencyKeys)).length;
    expect((await send(alice, "POST", SOURCES, null, { url: "https://example.com/plain" })).status).toBe(201);
    expect((await send(alice, "POST", SOURCES, null, { url: "https://example.com/plain" })).status).toBe(409);
    expect((await t.app.db.select().from(idempotencyKeys)).length).toBe(before);
  });
});

describe("a key used for another request", () => {
  it("answers 422 idempotency-key-reused for another body, path or method, and writes nothing", async () => {
    expect((await send(alice, "POST", SOURCES, "reuse", { url: "https://example.com/reuse" })).status).toBe(201);
    const otherBody = await send(alice, "POST", SOURCES, "reuse", { url: "https://example.com/reuse-2" });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.type).toMatch(/idempotency-key-reused$/);
    expect(otherBody.headers.get("content-type")).toBe("application/problem+json");
    expect(await sourcesNamed("reuse-2", "alice")).toHaveLength(0);

    const otherPath = await send(alice, "DELETE", `${SOURCES}/reuse`, "reuse");
    expect(otherPath.status).toBe(422);
    expect(await sourcesNamed("reuse", "alice")).toHaveLength(1);

    expect((await send(alice, "PATCH", `${SOURCES}/reuse`, "reuse-method", { description: "one" })).status).toBe(200);
    const otherMethod = await send(alice, "DELETE", `${SOURCES}/reuse`, "reuse-method");
    expect(otherMethod.status).toBe(422);
    expect(otherMethod.body.type).toMatch(/idempotency-key-reused$/);
    expect(await sourcesNamed("reuse", "alice")).toHaveLength(1);
  });

  it("counts a body by its JSON value: key order and spacing do not matter", async () => {
    const path = `${SOURCES}?x=1`;
    const first = await request("POST", path, {
      token: alice.token,
      rawBody: '{"url":"https://example.com/ordered","description":"d"}',
      headers: { "content-type": "application/json", "idempotency-key": "ordered" },
    });
    // The query is part of the request: the source endpoint ignores it, the key does not.
    expect(first.status).toBe(201);
    const reordered = await request("POST", path, {
      token: alice.token,
      rawBody: '{ "description": "d", "url": "https://example.com/ordered" }',
      headers: { "content-type": "application/json", "idempotency-key": "ordered" },
    });
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get("idempotent-replayed")).toBe("true");
    expect((await send(alice, "POST", SOURCES, "ordered", { url: "https://example.com/ordered", description: "d" })).status).toBe(422);
  });
});

describe("null for an optional field (CONTRACT §10)", () => {
  it("is the same request as the field left out, either way round, in a POST", async () => {
    const url = "https://example.com/null-absent";
    const first = await send(alice, "POST", SOURCES, "null-absent", { url, alias: null, description: null });
    expect(first.status, first.text).toBe(201);
    for (const body of [{ url }, { url, alias: null }, { description: null, url }]) {
      const again = await send(alice, "POST", SOURCES, "null-absent", body);
      expect(again.status, JSON.stringify(body)).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.text).toBe(first.text);
    }
    const absentFirst = await send(alice, "POST", SOURCES, "absent-null", { url: "https://example.com/absent-null" });
    expect(absentFirst.status).toBe(201);
    const nullAfter = await send(alice, "POST", SOURCES, "absent-null", { url: "https://example.com/absent-null", auth_token: null });
    expect(nullAfter.status).toBe(201);
    expect(nullAfter.headers.get("idempotent-replayed")).toBe("true");
    expect(await sourcesNamed("null-absent", "alice")).toHaveLength(1);
  });

  it("is another request in a PATCH, where null clears a field", async () => {
    expect((await send(alice, "PATCH", `${SOURCES}/null-absent`, "patch-null", { description: null })).status).toBe(200);
    const absent = await send(alice, "PATCH", `${SOURCES}/null-absent`, "patch-null", {});
    expect(absent.status).toBe(422);
    expect(absent.body.type).toMatch(/idempotency-key-reused$/);
  });
});

describe("keys are per actor", () => {
  it("lets another user and a service account use the same key independently", async () => {
    expect((await send(alice, "POST", SOURCES, "shared-key", { url: "https://example.com/alice-own" })).status).toBe(201);
    const bobs = await send(bob, "POST", SOURCES, "shared-key", { url: "https://example.com/bob-own" });
    expect(bobs.status).toBe(201);
    expect(bobs.headers.get("idempotent-replayed")).toBeNull();
    const bots = await send(aliceBot, "POST", SOURCES, "shared-key", { url: "https://example.com/bot-own" });
    expect(bots.status).toBe(201);
    expect(bots.headers.get("idempotent-replayed")).toBeNull();
    expect(await sourcesNamed("bob-own", "bob")).toHaveLength(1);
    expect(await sourcesNamed("bot-own", "alice")).toHaveLength(1);
    expect(await keyRows("shared-key")).toHaveLength(3);
  });
});

describe("stored answers of deleted actors", () => {
  it("go with a deleted user and a deleted service account", async () => {
    const carol = await t.user("carol");
    expect((await carol.post("/ext/svc/me/service-accounts", { id: "helper" })).status).toBe(201);
    const helperKey = await carol.post("/ext/svc/me/service-accounts/helper/api-keys", {});
    const helper = { ...carol, token: helperKey.body.token };
    expect((await send(helper, "POST", SOURCES, "helper-write", { url: "https://example.com/helper" })).status).toBe(201);
    expect((await send(carol, "POST", SOURCES, "carol-write", { url: "https://example.com/carol" })).status).toBe(201);
    expect(await keyRows("helper-write")).toHaveLength(1);

    expect((await carol.delete("/ext/svc/me/service-accounts/helper")).status).toBe(204);
    expect(await keyRows("helper-write")).toHaveLength(0);
    expect(await keyRows("carol-write")).toHaveLength(1);

    expect((await t.admin.delete("/ext/svc/admin/users/carol")).status).toBe(204);
    expect(await keyRows("carol-write")).toHaveLength(0);
  });
});

describe("expiry and claims left behind", () => {
  const fingerprint = (url: string) => requestFingerprint("POST", SOURCES, { url });

  it("prunes answers older than 24 hours, and never replays one", async () => {
    expect((await send(alice, "POST", SOURCES, "old-key", { url: "https://example.com/old" })).status).toBe(201);
    expect((await send(alice, "POST", SOURCES, "young-key", { url: "https://example.com/young" })).status).toBe(201);
    await t.app.db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(idempotencyKeys.key, "old-key"));
    // Expired but not yet pruned: the key is free again (another body is no reuse).
    expect((await send(alice, "POST", SOURCES, "old-key", { url: "https://example.com/old-2" })).status).toBe(201);
    await t.app.db.update(idempotencyKeys).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(idempotencyKeys.key, "old-key"));
    expect(await pruneIdempotencyKeys(t.app.db)).toBe(1);
    expect(await keyRows("old-key")).toHaveLength(0);
    expect(await keyRows("young-key")).toHaveLength(1);
  });

  it("answers 409 idempotency-key-in-use while a claim is fresh, and lets a retry take over a stale one", async () => {
    const claim = (key: string, url: string, state: "running" | "written", age: string) =>
      t.app.db.insert(idempotencyKeys).values({
        userId: "alice",
        actorSa: "",
        key,
        fingerprint: fingerprint(url),
        state,
        claimId: crypto.randomUUID(),
        claimedAt: sql`now() - ${age}::interval`,
      });
    await claim("fresh-claim", "https://example.com/fresh", "running", "1 second");
    const busy = await send(alice, "POST", SOURCES, "fresh-claim", { url: "https://example.com/fresh" });
    expect(busy.status).toBe(409);
    expect(busy.body.type).toMatch(/idempotency-key-in-use$/);
    expect(await sourcesNamed("fresh", "alice")).toHaveLength(0);

    // A process that stopped before writing: after 60 s the same request runs.
    await claim("stale-claim", "https://example.com/stale", "running", "2 minutes");
    expect((await send(alice, "POST", SOURCES, "stale-claim", { url: "https://example.com/stale-other" })).status).toBe(422);
    expect((await send(alice, "POST", SOURCES, "stale-claim", { url: "https://example.com/stale" })).status).toBe(201);
    expect((await keyRows("stale-claim"))[0]!.state).toBe("done");

    // A process that stopped after its write committed: never written twice.
    await claim("written-claim", "https://example.com/written", "written", "2 minutes");
    expect((await send(alice, "POST", SOURCES, "written-claim", { url: "https://example.com/written" })).status).toBe(409);
    expect(await sourcesNamed("written", "alice")).toHaveLength(0);
  });

  it("releases the key after a 5xx, so a retry runs", async () => {
    await t.app.db.execute(
      sql.raw(`create function refuse_source() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`),
    );
    await t.app.db.execute(
      sql.raw(`create trigger refuse_source before insert on template_sources for each row execute function refuse_source()`),
    );
    try {
      expect((await send(alice, "POST", SOURCES, "after-fault", { url: "https://example.com/fault" })).status).toBe(500);
      expect(await keyRows("after-fault")).toHaveLength(0);
    } finally {
      await t.app.db.execute(sql.raw(`drop trigger refuse_source on template_sources`));
    }
    expect((await send(alice, "POST", SOURCES, "after-fault", { url: "https://example.com/fault" })).status).toBe(201);
  });
});

describe("malformed keys", () => {
  it.each([
    ["a space", "has space"],
    ["empty", ""],
    ["129 characters", "k".repeat(129)],
    ["a slash", "a/b"],
    ["non-ASCII", "schlüssel"],
  ])("answers 400 invalid-idempotency-key for %s, at the header, and writes nothing", async (_, key) => {
    const res = await send(alice, "POST", SOURCES, key, { url: "https://example.com/malformed-key" });
    expect(res.status).toBe(400);
    expect(res.body.type).toMatch(/invalid-idempotency-key$/);
    expect(res.body.errors).toEqual([{ path: "Idempotency-Key", message: expect.any(String) }]);
    expect(await sourcesNamed("malformed-key", "alice")).toHaveLength(0);
  });

  it("accepts 128 characters of every allowed kind, and ignores the header on reads", async () => {
    const key = `${"aZ09._:-".repeat(16)}`;
    expect(key).toHaveLength(128);
    expect((await send(alice, "POST", SOURCES, key, { url: "https://example.com/long-key" })).status).toBe(201);
    expect((await send(alice, "GET", SOURCES, "not a key")).status).toBe(200);
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("two requests with one key at once on PostgreSQL", () => {
  it("lets exactly one write; the other answers 409 while the first runs, and its answer after", async () => {
    const { default: postgres } = await import("postgres");
    const other = postgres(t.databaseUrl!, { max: 1, onnotice: () => {} });
    try {
      // Another transaction inserts the row the first request needs and holds it until told:
      // the first request waits in its insert, deterministically, with its key claimed.
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let held!: () => void;
      const holding = new Promise<void>((resolve) => {
        held = resolve;
      });
      const holder = other
        .begin(async (transaction) => {
          await transaction`insert into template_sources (scope, owner, name, url) values ('personal', 'alice', 'slow', 'https://example.com/held')`;
          held();
          await released;
          throw new Error("roll back");
        })
        .catch(() => {});
      await holding;

      const body = { url: "https://example.com/slow" };
      const first = send(alice, "POST", SOURCES, "slow-key", body);
      for (let i = 0; i < 200 && (await keyRows("slow-key")).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect((await keyRows("slow-key"))[0]?.state).toBe("running");

      const during = await Promise.all([1, 2, 3].map(() => send(alice, "POST", SOURCES, "slow-key", body)));
      for (const res of during) {
        expect(res.status).toBe(409);
        expect(res.body.type).toMatch(/idempotency-key-in-use$/);
      }
      release();
      await holder;
      const answered = await first;
      expect(answered.status).toBe(201);
      const after = await send(alice, "POST", SOURCES, "slow-key", body);
      expect(after.status).toBe(201);
      expect(after.text).toBe(answered.text);
      expect(await sourcesNamed("slow", "alice")).toHaveLength(1);
      expect(await auditCount("template_source.create", `${SOURCES}/slow`)).toBe(1);
    } finally {
      await other.end();
    }
  });

  it("writes once when many requests with one key race, round after round", async () => {
    for (let round = 0; round < 10; round++) {
      const body = { url: `https://example.com/race-${round}` };
      const answers = await Promise.all(Array.from({ length: 8 }, () => send(bob, "POST", SOURCES, `race-${round}`, body)));
      for (const res of answers) expect([201, 409], `${res.status} ${res.text}`).toContain(res.status);
      const created = answers.filter((res) => res.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const res of created) expect(res.text).toBe(created[0]!.text);
      expect(await sourcesNamed(`race-${round}`, "bob")).toHaveLength(1);
      expect(await auditCount("template_source.create", `${SOURCES}/race-${round}`)).toBe(1);
    }
  });
});

describe("the OpenAPI document", () => {
  it("names the header on every write operation, as one reusable parameter, and the new problem types", async () => {
    const doc = (await request("GET", "/ext/svc/openapi.json")).body;
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ in: "header", name: "Idempotency-Key" });
    expect(doc.components.parameters.IdempotencyKey.required).not.toBe(true);
    let writes = 0;
    for (const [path, operations] of Object.entries<Record<string, { parameters?: unknown[]; security?: unknown[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const names = (op.parameters ?? []).filter((p) => JSON.stringify(p) === '{"$ref":"#/components/parameters/IdempotencyKey"}');
        const isWrite = ["post", "put", "patch", "delete"].includes(method) && op.security?.length;
        expect(names.length, `${method} ${path}`).toBe(isWrite ? 1 : 0);
        if (isWrite) writes++;
      }
    }
    expect(writes).toBeGreaterThan(20);
    const problemTypes = JSON.stringify(doc.components.schemas.ProblemType);
    for (const type of ["invalid-idempotency-key", "idempotency-key-reused", "idempotency-key-in-use"])
      expect(problemTypes).toContain(type);
  });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("the typed client and the CLI", () => {
  it("the typed client sends a key on every write, none on reads, and repeats it when it sends a write again", async () => {
    const served = await serveApp();
    try {
      const sent: Array<{ method: string; key: string | null }> = [];
      let loseNextAnswer = true;
      const client = createBankTemplatesClient({
        baseUrl: served.url,
        apiKey: alice.token!,
        fetch: async (req) => {
          sent.push({ method: req.method, key: req.headers.get("idempotency-key") });
          const response = await fetch(req);
          // The first write is done, but its answer is lost on the way back.
          if (req.method === "POST" && loseNextAnswer) {
            loseNextAnswer = false;
            throw new TypeError("fetch failed");
          }
          return response;
        },
      });
      const created = await client.POST("/ext/svc/me/template-sources", { body: { url: "https://example.com/typed-client" } });
      expect(created.response.status).toBe(201);
      expect(created.response.headers.get("idempotent-replayed")).toBe("true");
      expect(created.data?.name).toBe("typed-client");
      expect(sent).toHaveLength(2);
      expect(sent[0]!.key).toMatch(UUID);
      expect(sent[1]!.key).toBe(sent[0]!.key);
      expect(await sourcesNamed("typed-client", "alice")).toHaveLength(1);

      sent.length = 0;
      await client.GET("/ext/svc/me/template-sources");
      await client.DELETE("/ext/svc/me/template-sources/{name}", { params: { path: { name: "typed-client" } } });
      await client.POST("/ext/svc/me/template-sources", { body: { url: "https://example.com/typed-client-2" } });
      expect(sent.map((s) => s.method)).toEqual(["GET", "DELETE", "POST"]);
      expect(sent[0]!.key).toBeNull();
      expect(sent[1]!.key).toMatch(UUID);
      expect(sent[2]!.key).toMatch(UUID);
      expect(sent[2]!.key).not.toBe(sent[1]!.key);
    } finally {
      await served.close();
    }
  });

  /**
   * Runs the CLI as alice through a proxy that cuts the connection of the first write's answer
   * (the write is done, its answer never reaches the CLI); `keys` are the Idempotency-Keys it sent.
   */
  async function cliLosingFirstAnswer(args: string[]) {
    const served = await serveApp();
    const keys: string[] = [];
    let dropped = false;
    const lossy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "content-type", "accept", "idempotency-key"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      if (req.method !== "GET") keys.push(headers["idempotency-key"] ?? "");
      const method = req.method ?? "GET";
      const upstream = await fetch(`${served.url}${req.url}`, {
        method,
        headers,
        body: method === "GET" ? undefined : Buffer.concat(chunks),
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (req.method === "POST" && !dropped) {
        dropped = true;
        req.socket.destroy();
        return;
      }
      res.writeHead(upstream.status, Object.fromEntries(upstream.headers));
      res.end(body);
    });
    const port = await listenOnLoopback(lossy);
    const configDir = await mkdtemp(path.join(tmpdir(), "bank-templates-idem-"));
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NO_COLOR: "1",
        BANK_TEMPLATES_URL: `http://127.0.0.1:${port}`,
        BANK_TEMPLATES_API_KEY: alice.token!,
        BANK_TEMPLATES_CONFIG_DIR: configDir,
      };
      return { run: await runCli(args, env), keys };
    } finally {
      await new Promise<void>((resolve) => lossy.close(() => resolve()));
      await served.close();
      await rm(configDir, { recursive: true, force: true });
    }
  }

  it("the CLI sends a write again after its answer was lost, with the same key, and it is done once", async () => {
    const { run, keys } = await cliLosingFirstAnswer(["--json", "sources", "add", "https://example.com/cli-retry"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).name).toBe("cli-retry");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(await sourcesNamed("cli-retry", "alice")).toHaveLength(1);
    expect(await auditCount("template_source.create", `${SOURCES}/cli-retry`)).toBe(1);
  });

  it("the CLI's key whose answer was lost: made once, its token never shown again, and the CLI says to revoke it", async () => {
    const { run, keys } = await cliLosingFirstAnswer(["api-keys", "create", "--description", "lost-answer"]);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const made = (await alice.get("/ext/svc/me/api-keys")).body.filter((key: { description: string }) => key.description === "lost-answer");
    expect(made).toHaveLength(1);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`Key ${made[0].id} was made, but its token cannot be shown again`);
    expect(run.stderr).toContain(`bank-templates api-keys revoke ${made[0].id}`);
  });
});

describe("the console's client", () => {
  it("sends a new key with every write, the caller's key for a resent action, and none with reads", async () => {
    const keys: Array<string | null> = [];
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      keys.push(new Headers(init.headers).get("idempotency-key"));
      return new Response(null, { status: 204 });
    });
    vi.stubGlobal("fetch", fetchMock);
    try {
      await api.call(endpoints.sources.personal.remove, { params: { name: "a" } });
      await api.call(endpoints.sources.personal.remove, { params: { name: "a" } });
      await api.call(endpoints.sources.personal.remove, { params: { name: "a" }, idempotencyKey: "action-1" });
      await api.call(endpoints.sources.personal.remove, { params: { name: "a" }, idempotencyKey: "action-1" });
      await api.call(endpoints.sources.personal.list);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual(["action-1", "action-1", null]);
  });
});
