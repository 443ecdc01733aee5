import { beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, type Client, useTestApp } from "./support/app";
import { catalog, catalogEntry } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

// CONTRACT §19: every read answers a strong ETag and 304 to If-None-Match; every write to one
// resource takes If-Match (412 `precondition-failed`, nothing written) and answers the new tag.

const t = useTestApp();
const market = useMarketplace(t);
let dana: Client;

const STALE = '"not-the-current-version"';
const tagOf = (answer: ApiResponse) => answer.headers.get("etag");

/** A resource under test: where it is read, and a write that changes it (a new value each call). */
interface Resource {
  name: string;
  client: () => Client;
  path: () => string;
  /** Changes it (absent for resources whose only write is DELETE). */
  change?: (client: Client, headers: Record<string, string>) => Promise<ApiResponse>;
  /** Deletes it (skipped for resources that cannot be deleted here). */
  remove?: (client: Client, headers: Record<string, string>) => Promise<ApiResponse>;
}

let counter = 0;
const next = () => `v${++counter}`;
const policyDocument = () => ({ version: "2026-03-24", default_strategy: next() });

const RESOURCES: Resource[] = [
  {
    name: "a personal source",
    client: () => dana,
    path: () => "/ext/svc/me/template-sources/dana-market",
    change: (c, h) => c.send("PATCH", "/ext/svc/me/template-sources/dana-market", { description: next() }, h),
  },
  {
    name: "a server source",
    client: () => t.admin,
    path: () => "/ext/svc/admin/template-sources/shared-market",
    change: (c, h) => c.send("PATCH", "/ext/svc/admin/template-sources/shared-market", { description: next() }, h),
    remove: (c, h) => c.send("DELETE", "/ext/svc/admin/template-sources/shared-market", undefined, h),
  },
  {
    name: "a personal template",
    client: () => dana,
    path: () => "/ext/svc/me/templates/notes",
    change: (c, h) => c.send("PATCH", "/ext/svc/me/templates/notes", { description: next() }, h),
  },
  {
    name: "a server template",
    client: () => t.admin,
    path: () => "/ext/svc/admin/templates/shared-notes",
    change: (c, h) => c.send("PATCH", "/ext/svc/admin/templates/shared-notes", { description: next() }, h),
    remove: (c, h) => c.send("DELETE", "/ext/svc/admin/templates/shared-notes", undefined, h),
  },
  {
    name: "a bank's policy",
    client: () => dana,
    path: () => "/ext/svc/banks/dana-bank/policy",
    change: (c, h) => c.send("PUT", "/ext/svc/banks/dana-bank/policy", { document: policyDocument() }, h),
    remove: (c, h) => c.send("DELETE", "/ext/svc/banks/dana-bank/policy", undefined, h),
  },
  {
    name: "a bank",
    client: () => dana,
    path: () => "/ext/svc/banks/dana-bank",
    change: (c, h) => c.send("POST", "/ext/svc/banks", { bank_id: "dana-bank", template: "personal/notes", name: next() }, h),
    remove: (c, h) => c.send("DELETE", "/ext/svc/banks/dana-bank", undefined, h),
  },
  {
    name: "a user",
    client: () => t.admin,
    path: () => "/ext/svc/admin/users/olga",
    change: (c, h) => c.send("PATCH", "/ext/svc/admin/users/olga", { display_name: next() }, h),
    remove: (c, h) => c.send("DELETE", "/ext/svc/admin/users/olga", undefined, h),
  },
  {
    name: "a service account",
    client: () => dana,
    path: () => "/ext/svc/me/service-accounts/dana-bot",
    // Service accounts have no PATCH: their only write is DELETE.
    remove: (c, h) => c.send("DELETE", "/ext/svc/me/service-accounts/dana-bot", undefined, h),
  },
];

beforeAll(async () => {
  dana = await t.user("dana");
  market.setFile("/cond/templates.json", catalog(catalogEntry("notes"), catalogEntry("shared-notes")));
  expect((await dana.post("/ext/svc/me/template-sources", { url: `${market.url}/cond`, alias: "dana-market" })).status).toBe(201);
  expect((await t.admin.post("/ext/svc/admin/template-sources", { url: `${market.url}/cond`, alias: "shared-market" })).status).toBe(201);
  expect((await dana.post("/ext/svc/me/templates/notes/install", { source_name: "dana-market" })).status).toBe(200);
  expect((await t.admin.post("/ext/svc/admin/templates/shared-notes/install", { source_name: "shared-market" })).status).toBe(200);
  expect((await dana.post("/ext/svc/banks", { bank_id: "dana-bank", template: "personal/notes" })).status).toBe(200);
  expect((await dana.put("/ext/svc/banks/dana-bank/policy", { document: policyDocument() })).status).toBe(200);
  expect((await t.admin.post("/ext/svc/admin/users", { id: "olga", role: "member" })).status).toBe(201);
  expect((await dana.post("/ext/svc/me/service-accounts", { id: "dana-bot" })).status).toBe(201);
});

describe.each(RESOURCES.map((r) => [r.name, r] as const))("%s", (_name, resource) => {
  it("answers a strong ETag, and 304 with that tag and no body to If-None-Match naming it", async () => {
    const client = resource.client();
    const read = await client.get(resource.path());
    expect(read.status).toBe(200);
    const tag = tagOf(read);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    // Nothing changed: the same tag again.
    expect(tagOf(await client.get(resource.path()))).toBe(tag);
    for (const held of [tag!, `W/${tag}`, `${STALE}, ${tag}`, "*"]) {
      const again = await client.send("GET", resource.path(), undefined, { "If-None-Match": held });
      expect(again.status, held).toBe(304);
      expect(again.text).toBe("");
      expect(tagOf(again)).toBe(tag);
    }
    const stale = await client.send("GET", resource.path(), undefined, { "If-None-Match": STALE });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(read.body);
  });

  it.runIf(resource.change !== undefined)(
    "refuses a write with a stale If-Match with 412, the current tag, and nothing written; writes with the current one and answers the new tag",
    async () => {
      const client = resource.client();
      const read = await client.get(resource.path());
      const tag = tagOf(read)!;
      const change = resource.change!;
      const refused = await change(client, { "If-Match": STALE });
      expect(refused.status).toBe(412);
      expect(refused.body.type).toBe("urn:bank-templates:problem:precondition-failed");
      expect(tagOf(refused)).toBe(tag);
      const unchanged = await client.get(resource.path());
      expect(unchanged.body).toEqual(read.body);
      expect(tagOf(unchanged)).toBe(tag);

      // A weak tag never matches If-Match.
      expect((await change(client, { "If-Match": `W/${tag}` })).status).toBe(412);

      const written = await change(client, { "If-Match": tag });
      expect(written.status).toBe(200);
      const newTag = tagOf(written);
      expect(newTag).not.toBe(tag);
      const after = await client.get(resource.path());
      expect(tagOf(after)).toBe(newTag);

      // `*`: any version of a resource that exists; the old tag now fails.
      expect((await change(client, { "If-Match": tag })).status).toBe(412);
      expect((await change(client, { "If-Match": "*" })).status).toBe(200);
      // Without the headers nothing changes (hindclaw's clients send none).
      expect((await change(client, {})).status).toBe(200);
    },
  );

  it.runIf(resource.remove !== undefined)("deletes only with the current tag", async () => {
    const client = resource.client();
    const tag = tagOf(await client.get(resource.path()))!;
    const refused = await resource.remove!(client, { "If-Match": STALE });
    expect(refused.status).toBe(412);
    expect(tagOf(refused)).toBe(tag);
    expect((await client.get(resource.path())).status).toBe(200);
    const removed = await resource.remove!(client, { "If-Match": tag });
    expect(removed.status).toBe(204);
    expect((await client.get(resource.path())).status).toBe(404);
  });
});

describe("reads that are not one writable resource", () => {
  it.each([
    ["a list of templates", "/ext/svc/me/templates"],
    ["a list of banks", "/ext/svc/banks"],
    ["a template version", "/ext/svc/me/templates/notes/versions/1"],
    ["a list of sources", "/ext/svc/me/template-sources"],
    ["the caller", "/ext/svc/me"],
  ])("%s answers an ETag and 304", async (_name, path) => {
    const read = await dana.get(path);
    expect(read.status).toBe(200);
    const again = await dana.send("GET", path, undefined, { "If-None-Match": tagOf(read)! });
    expect(again.status).toBe(304);
    expect(tagOf(again)).toBe(tagOf(read));
  });

  it("a list's tag changes when an item in it does", async () => {
    const before = tagOf(await dana.get("/ext/svc/me/templates"));
    expect((await dana.patch("/ext/svc/me/templates/notes", { description: next() })).status).toBe(200);
    const after = await dana.send("GET", "/ext/svc/me/templates", undefined, { "If-None-Match": before! });
    expect(after.status).toBe(200);
    expect(tagOf(after)).not.toBe(before);
  });
});

describe("create only, and writes that race", () => {
  const policy = "/ext/svc/banks/race-bank/policy";

  beforeAll(async () => {
    expect((await dana.post("/ext/svc/banks", { bank_id: "race-bank", template: "personal/notes" })).status).toBe(200);
  });

  it("If-None-Match: * creates a policy only where there is none, and If-Match fails where there is none", async () => {
    expect((await dana.send("PUT", policy, { document: policyDocument() }, { "If-Match": "*" })).status).toBe(412);
    const created = await dana.send("PUT", policy, { document: policyDocument() }, { "If-None-Match": "*" });
    expect(created.status).toBe(200);
    const again = await dana.send("PUT", policy, { document: policyDocument() }, { "If-None-Match": "*" });
    expect(again.status).toBe(412);
    expect(tagOf(again)).toBe(tagOf(created));
    expect((await dana.get(policy)).body).toEqual(created.body);
  });

  it("If-None-Match: * creates a bank only where there is none", async () => {
    const body = { bank_id: "fresh-bank", template: "personal/notes" };
    expect((await dana.send("POST", "/ext/svc/banks", body, { "If-Match": "*" })).status).toBe(412);
    expect((await dana.get("/ext/svc/banks/fresh-bank")).status).toBe(404);
    expect((await dana.send("POST", "/ext/svc/banks", body, { "If-None-Match": "*" })).status).toBe(200);
    const again = await dana.send("POST", "/ext/svc/banks", body, { "If-None-Match": "*" });
    expect(again.status).toBe(412);
    expect(tagOf(again)).toBe(tagOf(await dana.get("/ext/svc/banks/fresh-bank")));
    // A dry run answers as the write would.
    expect((await dana.send("POST", "/ext/svc/banks?dry_run=true", body, { "If-None-Match": "*" })).status).toBe(412);
  });

  it("of two PUTs sent at once with the same If-Match, exactly one is written and the other is 412", async () => {
    for (let round = 0; round < 5; round++) {
      const tag = tagOf(await dana.get(policy))!;
      const answers = await Promise.all([0, 1].map(() => dana.send("PUT", policy, { document: policyDocument() }, { "If-Match": tag })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
      const winner = answers.find((a) => a.status === 200)!;
      const loser = answers.find((a) => a.status === 412)!;
      expect(tagOf(loser)).toBe(tagOf(winner));
      expect((await dana.get(policy)).body).toEqual(winner.body);
    }
  });

  it("template updates and rollbacks take If-Match", async () => {
    const T = "/ext/svc/me/templates/notes";
    const tag = tagOf(await dana.get(T))!;
    expect((await dana.send("POST", `${T}/rollback`, { version: 1 }, { "If-Match": STALE })).status).toBe(412);
    expect((await dana.send("POST", `${T}/update?force=true`, undefined, { "If-Match": STALE })).status).toBe(412);
    expect(tagOf(await dana.get(T))).toBe(tag);
    const rolled = await dana.send("POST", `${T}/rollback`, { version: 1 }, { "If-Match": tag });
    expect(rolled.status).toBe(200);
    expect(tagOf(rolled)).toBe(tagOf(await dana.get(T)));
    const updated = await dana.send("POST", `${T}/update?force=true`, undefined, { "If-Match": tagOf(rolled)! });
    expect(updated.status).toBe(200);
    expect(tagOf(updated)).toBe(tagOf(await dana.get(T)));
  });

  it("a rollout's {bank_id, if_match} pair with a stale tag fails that bank only", async () => {
    for (const id of ["wave-a", "wave-b", "wave-c"]) {
      expect((await dana.post("/ext/svc/banks", { bank_id: id, template: "personal/notes" })).status).toBe(200);
    }
    const bTag = tagOf(await dana.get("/ext/svc/banks/wave-b"))!;
    const historyOf = async (id: string) => (await dana.get(`/ext/svc/banks/${id}/history`)).body.entries.length;
    const before = await historyOf("wave-a");
    const rollout = await dana.post("/ext/svc/banks/rollout", {
      template: "personal/notes",
      bank_ids: [{ bank_id: "wave-a", if_match: STALE }, { bank_id: "wave-b", if_match: bTag }, "wave-c"],
    });
    expect(rollout.status).toBe(200);
    const results = rollout.body.results as { bank_id: string; applied: boolean; problem: { status: number; type: string } | null }[];
    expect(results.map((r) => [r.bank_id, r.applied, r.problem?.status ?? null])).toEqual([
      ["wave-a", false, 412],
      ["wave-b", true, null],
      ["wave-c", true, null],
    ]);
    expect(results[0]!.problem!.type).toBe("urn:bank-templates:problem:precondition-failed");
    expect(await historyOf("wave-a")).toBe(before);
    // Naming a bank twice, alone and in a pair, is refused.
    const twice = await dana.post("/ext/svc/banks/rollout", {
      template: "personal/notes",
      bank_ids: ["wave-a", { bank_id: "wave-a", if_match: bTag }],
    });
    expect(twice.status).toBe(422);
  });

  it("an idempotent replay answers the first answer's ETag", async () => {
    const key = { "Idempotency-Key": "cond-replay-1" };
    const first = await dana.send("PUT", policy, { document: { version: "2026-03-24", default_strategy: "replayed" } }, key);
    expect(first.status).toBe(200);
    expect((await dana.put(policy, { document: policyDocument() })).status).toBe(200);
    const replay = await dana.send("PUT", policy, { document: { version: "2026-03-24", default_strategy: "replayed" } }, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(tagOf(replay)).toBe(tagOf(first));
  });
});
