import { describe, expect, it } from "vitest";
import { banks } from "@/db/schema";
import { PolicyDocument } from "@/lib/contracts/policy/schemas";
import { resolvePolicy } from "@/lib/services/policy/policy";
import { as, type Client, useTestApp } from "./support/app";

const t = useTestApp();
const policyPath = (bankId: string) => `/ext/svc/banks/${bankId}/policy`;
const resolvePath = (bankId: string, query = "") => `${policyPath(bankId)}/resolve${query}`;

/** A document using every field of CONTRACT §9. */
const FULL = {
  version: "2026-03-24",
  default_strategy: "balanced",
  strategy_overrides: [
    { scope: "provider", value: "slack", strategy: "chatty" },
    { scope: "channel", value: "support", strategy: "careful" },
    { scope: "topic", value: "billing", strategy: "precise" },
    { scope: "topic", value: "billing", strategy: "never-picked" },
  ],
  public_access: {
    default: { actions: ["bank:recall"], recall_budget: "low", recall_max_tokens: 500 },
    overrides: [
      { scope: "provider", value: "slack", actions: ["bank:recall", "bank:reflect"], recall_budget: "mid" },
      { scope: "channel", value: "support", actions: ["bank:recall"], recall_max_tokens: 2000 },
      { scope: "topic", value: "billing", actions: ["bank:reflect"], recall_budget: "high", recall_max_tokens: 4000 },
    ],
  },
};

/** Inserts a bank row directly; bank creation through the API is another area. */
async function bankOwnedBy(id: string, owner: string) {
  await t.app.db.insert(banks).values({ id, owner, name: id });
}

const errorPaths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

describe("bank policy documents", () => {
  let alice: Client;

  it("sets up alice and her bank", async () => {
    alice = await t.user("alice");
    await bankOwnedBy("alice-bank", "alice");
  });

  it("stores a full document with PUT (200) and reads it back with GET", async () => {
    const put = await alice.put(policyPath("alice-bank"), { document: FULL });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ bank_id: "alice-bank", document: FULL });
    const get = await alice.get(policyPath("alice-bank"));
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ bank_id: "alice-bank", document: FULL });
  });

  it("replaces the document on a second PUT", async () => {
    const minimal = { version: "2026-03-24" };
    expect((await alice.put(policyPath("alice-bank"), { document: minimal })).body.document).toEqual(minimal);
    expect((await alice.get(policyPath("alice-bank"))).body.document).toEqual(minimal);
  });

  it("accepts null for every optional field", async () => {
    const document = {
      version: "2026-03-24",
      default_strategy: null,
      strategy_overrides: null,
      public_access: {
        default: null,
        overrides: [{ scope: "topic", value: "x", actions: ["a"], recall_budget: null, recall_max_tokens: null }],
      },
    };
    const put = await alice.put(policyPath("alice-bank"), { document });
    expect(put.status).toBe(200);
    expect(put.body.document).toEqual(document);
    expect((await alice.put(policyPath("alice-bank"), { document: { version: "2026-03-24", public_access: null } })).status).toBe(200);
  });

  it("deletes with 204 and an empty body; then GET and DELETE answer 404", async () => {
    const del = await alice.delete(policyPath("alice-bank"));
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const get = await alice.get(policyPath("alice-bank"));
    expect(get.status).toBe(404);
    expect(get.headers.get("content-type")).toBe("application/problem+json");
    expect((await alice.delete(policyPath("alice-bank"))).status).toBe(404);
  });

  const withOverride = (extra: Record<string, unknown>) => ({
    ...FULL,
    public_access: { ...FULL.public_access, overrides: [{ ...FULL.public_access.overrides[0], ...extra }] },
  });

  it.each([
    ["an unknown version", { document: { ...FULL, version: "2025-01-01" } }, "document.version"],
    ["a missing version", { document: { default_strategy: "x" } }, "document.version"],
    ["an unknown top-level key", { document: { ...FULL, colour: "red" } }, "document.colour"],
    [
      "an unknown key in a strategy override",
      { document: { ...FULL, strategy_overrides: [{ scope: "topic", value: "x", strategy: "y", colour: "red" }] } },
      "document.strategy_overrides[0].colour",
    ],
    [
      "an unknown key in a public-access override",
      { document: withOverride({ colour: "red" }) },
      "document.public_access.overrides[0].colour",
    ],
    [
      "an unknown key in public_access",
      { document: { ...FULL, public_access: { ...FULL.public_access, colour: "red" } } },
      "document.public_access.colour",
    ],
    [
      "an unknown key in the public-access default",
      { document: { ...FULL, public_access: { default: { actions: ["bank:recall"], colour: "red" } } } },
      "document.public_access.default.colour",
    ],
    [
      "scope region",
      { document: { ...FULL, strategy_overrides: [{ scope: "region", value: "eu", strategy: "y" }] } },
      "document.strategy_overrides[0].scope",
    ],
    ["recall_budget max", { document: withOverride({ recall_budget: "max" }) }, "document.public_access.overrides[0].recall_budget"],
    [
      "recall_max_tokens 0",
      { document: { ...FULL, public_access: { default: { actions: ["bank:recall"], recall_max_tokens: 0 } } } },
      "document.public_access.default.recall_max_tokens",
    ],
    [
      "recall_max_tokens 1.5",
      { document: withOverride({ recall_max_tokens: 1.5 }) },
      "document.public_access.overrides[0].recall_max_tokens",
    ],
    ["empty actions", { document: { ...FULL, public_access: { default: { actions: [] } } } }, "document.public_access.default.actions"],
    ["an empty action", { document: withOverride({ actions: ["bank:recall", ""] }) }, "document.public_access.overrides[0].actions[1]"],
    ["missing actions", { document: withOverride({ actions: undefined }) }, "document.public_access.overrides[0].actions"],
    [
      "an empty override value",
      { document: { ...FULL, strategy_overrides: [{ scope: "topic", value: "", strategy: "y" }] } },
      "document.strategy_overrides[0].value",
    ],
    [
      "an empty strategy",
      { document: { ...FULL, strategy_overrides: [{ scope: "topic", value: "x", strategy: "" }] } },
      "document.strategy_overrides[0].strategy",
    ],
    ["a document that is not an object", { document: "2026-03-24" }, "document"],
    ["a missing document", {}, "document"],
    ["an unknown field beside document", { document: FULL, colour: "red" }, "colour"],
  ])("answers 422 for %s", async (_, body, path) => {
    const res = await t.admin.put(policyPath("alice-bank"), body);
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(errorPaths(res.body)).toContain(path);
  });

  it("words a missing field as required and a wrong one by its rule", async () => {
    const res = await t.admin.put(policyPath("alice-bank"), {
      document: { default_strategy: "x", strategy_overrides: [{ scope: "region", value: "v", strategy: "s" }] },
    });
    expect(res.body.errors).toEqual([
      { path: "document.version", message: "is required" },
      { path: "document.strategy_overrides[0].scope", message: "must be one of provider, channel, topic" },
    ]);
  });

  it("stored nothing from the rejected documents", async () => {
    expect((await t.admin.get(policyPath("alice-bank"))).status).toBe(404);
  });

  it.each(["a%20b", "a%2Fb", "x".repeat(129)])("answers 422 at bank_id for the bank id %s", async (bankId) => {
    for (const res of [
      await t.admin.get(policyPath(bankId)),
      await t.admin.put(policyPath(bankId), { document: FULL }),
      await t.admin.delete(policyPath(bankId)),
      await t.admin.get(resolvePath(bankId)),
    ]) {
      expect(res.status).toBe(422);
      expect(errorPaths(res.body)).toEqual(["bank_id"]);
    }
  });

  it("accepts every character the bank id allows", async () => {
    const id = `Ab0._:-${"z".repeat(121)}`;
    expect((await t.admin.put(policyPath(id), { document: FULL })).status).toBe(200);
    expect((await t.admin.get(policyPath(id))).body.bank_id).toBe(id);
  });
});

describe("resolving a policy", () => {
  const bank = "resolve-bank";

  it("stores the full document", async () => {
    expect((await t.admin.put(policyPath(bank), { document: FULL })).status).toBe(200);
  });

  const DEFAULT_ACCESS = { actions: ["bank:recall"], recall_budget: "low", recall_max_tokens: 500 };
  const SLACK_ACCESS = { actions: ["bank:recall", "bank:reflect"], recall_budget: "mid", recall_max_tokens: null };
  const SUPPORT_ACCESS = { actions: ["bank:recall"], recall_budget: null, recall_max_tokens: 2000 };
  const BILLING_ACCESS = { actions: ["bank:reflect"], recall_budget: "high", recall_max_tokens: 4000 };

  it.each([
    ["no context", "", "balanced", DEFAULT_ACCESS],
    ["an unmatched context", "?provider=teams&channel=general&topic=weather", "balanced", DEFAULT_ACCESS],
    ["a provider", "?provider=slack", "chatty", SLACK_ACCESS],
    ["a channel over a provider", "?provider=slack&channel=support", "careful", SUPPORT_ACCESS],
    ["a topic over a channel and a provider", "?provider=slack&channel=support&topic=billing", "precise", BILLING_ACCESS],
    ["a topic alone", "?topic=billing", "precise", BILLING_ACCESS],
    ["a matching provider when channel and topic miss", "?provider=slack&channel=x&topic=y", "chatty", SLACK_ACCESS],
    ["a value matched in the wrong scope", "?provider=support&channel=billing", "balanced", DEFAULT_ACCESS],
    ["an exact, case-sensitive match", "?provider=Slack", "balanced", DEFAULT_ACCESS],
    ["an empty query value as absent", "?provider=slack&topic=", "chatty", SLACK_ACCESS],
  ])("resolves %s", async (_, query, strategy, publicAccess) => {
    const res = await t.admin.get(resolvePath(bank, query));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ strategy, public_access: publicAccess });
  });

  it("takes the first matching entry within one scope", () => {
    const document = PolicyDocument.parse(FULL);
    expect(resolvePolicy(document, { topic: "billing" }).strategy).toBe("precise");
  });

  it("resolves strategy and public access independently", () => {
    const document = PolicyDocument.parse({
      version: "2026-03-24",
      strategy_overrides: [{ scope: "channel", value: "support", strategy: "careful" }],
      public_access: { overrides: [{ scope: "topic", value: "billing", actions: ["bank:recall"] }] },
    });
    expect(resolvePolicy(document, { channel: "support", topic: "billing" })).toEqual({
      strategy: "careful",
      public_access: { actions: ["bank:recall"], recall_budget: null, recall_max_tokens: null },
    });
    expect(resolvePolicy(document, { channel: "other" })).toEqual({ strategy: null, public_access: null });
  });

  it.each([
    ["no public_access", { version: "2026-03-24", default_strategy: "s" }, {}],
    ["public_access null", { version: "2026-03-24", public_access: null }, {}],
    ["an empty public_access", { version: "2026-03-24", public_access: {} }, { topic: "x" }],
    [
      "no matching override and no default",
      { version: "2026-03-24", public_access: { default: null, overrides: [{ scope: "topic", value: "a", actions: ["x"] }] } },
      { topic: "b" },
    ],
  ])("gives public_access null when nothing grants access: %s", (_, raw, context) => {
    expect(resolvePolicy(PolicyDocument.parse(raw), context).public_access).toBeNull();
  });

  it("answers with null strategy and access over HTTP when the document grants nothing", async () => {
    await t.admin.put(policyPath("bare-bank"), { document: { version: "2026-03-24" } });
    const res = await t.admin.get(resolvePath("bare-bank", "?topic=billing"));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ strategy: null, public_access: null });
  });

  it("answers 404 for a bank without a policy, and 422 for an unknown query parameter", async () => {
    expect((await t.admin.get(resolvePath("no-policy-bank"))).status).toBe(404);
    const res = await t.admin.get(resolvePath(bank, "?region=eu"));
    expect(res.status).toBe(422);
    expect(errorPaths(res.body)).toEqual(["region"]);
  });
});

describe("who may manage a bank's policy", () => {
  let alice: Client;
  let bob: Client;
  let aliceBot: Client;
  const document = { version: "2026-03-24", default_strategy: "s" };

  it("sets up bob, alice's service account and a bank of bob's", async () => {
    alice = as((await t.admin.post("/ext/svc/admin/users/alice/api-keys", {})).body.token);
    bob = await t.user("bob");
    expect((await alice.post("/ext/svc/me/service-accounts", { id: "alice-bot" })).status).toBe(201);
    const key = await alice.post("/ext/svc/me/service-accounts/alice-bot/api-keys", {});
    expect(key.status).toBe(201);
    aliceBot = as(key.body.token);
    await bankOwnedBy("bob-bank", "bob");
  });

  it("lets an admin set a policy for a bank that does not exist yet", async () => {
    const res = await t.admin.put(policyPath("future-bank"), { document });
    expect(res.status).toBe(200);
    expect((await t.admin.get(resolvePath("future-bank"))).body.strategy).toBe("s");
    expect((await t.admin.delete(policyPath("future-bank"))).status).toBe(204);
  });

  it("lets the owner read, write, resolve and delete her bank's policy", async () => {
    expect((await alice.put(policyPath("alice-bank"), { document })).status).toBe(200);
    expect((await alice.get(policyPath("alice-bank"))).status).toBe(200);
    expect((await alice.get(resolvePath("alice-bank"))).body).toEqual({ strategy: "s", public_access: null });
    expect((await alice.delete(policyPath("alice-bank"))).status).toBe(204);
  });

  it("lets the owner's service account act as her", async () => {
    expect((await aliceBot.put(policyPath("alice-bank"), { document })).status).toBe(200);
    expect((await aliceBot.get(policyPath("alice-bank"))).body).toEqual({ bank_id: "alice-bank", document });
    expect((await aliceBot.get(resolvePath("alice-bank", "?topic=x"))).status).toBe(200);
    expect((await aliceBot.delete(policyPath("alice-bank"))).status).toBe(204);
    expect((await aliceBot.put(policyPath("alice-bank"), { document })).status).toBe(200);
  });

  /** Every policy path and method, for a caller who must be refused. */
  async function everyPolicyCall(client: Client, bankId: string) {
    return [
      await client.get(policyPath(bankId)),
      await client.put(policyPath(bankId), { document }),
      await client.delete(policyPath(bankId)),
      await client.get(resolvePath(bankId)),
    ];
  }

  it.each([
    ["alice's bank, which has a policy", "alice-bank"],
    ["a bank id that does not exist", "nobody-bank"],
    ["a bank id with a policy but no bank", "orphan-bank"],
  ])("answers 403 to bob on every policy path for %s", async (_, bankId) => {
    if (bankId === "orphan-bank") await t.admin.put(policyPath(bankId), { document });
    for (const res of await everyPolicyCall(bob, bankId)) {
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    // Nothing changed: alice's policy is still hers, and bob created none.
    if (bankId === "alice-bank") expect((await alice.get(policyPath(bankId))).body.document).toEqual(document);
    if (bankId === "nobody-bank") expect((await t.admin.get(policyPath(bankId))).status).toBe(404);
  });

  it("refuses alice (403) on bob's bank and on a policy without a bank, even for admins' policies", async () => {
    for (const res of await everyPolicyCall(alice, "bob-bank")) expect(res.status).toBe(403);
    for (const res of await everyPolicyCall(aliceBot, "orphan-bank")) expect(res.status).toBe(403);
  });

  it("answers 401 without credentials", async () => {
    const res = await as(null).get(policyPath("alice-bank"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("answers 405 with Allow for methods the paths do not have", async () => {
    const post = await alice.post(policyPath("alice-bank"), { document });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, PUT, DELETE");
    const put = await alice.put(resolvePath("alice-bank"), {});
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET");
  });
});
