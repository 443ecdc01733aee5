import { ADMIN_TOKEN, type Client, type TestApp } from "../support/app";
import { catalog, catalogEntry, manifest } from "../support/fixtures";
import { type Marketplace, startMarketplace } from "../support/marketplace-server";
import type { Caller } from "./dispatch";
import type { ValuePools } from "./schema-arbitraries";

/** The member the fuzzer calls as; never a target of destructive generated requests. */
const MEMBER_ID = "fuzz-member";
/** Users generated PATCH and DELETE requests may change freely. */
const VICTIM_IDS = ["victim-a", "victim-b", "victim-c"];

/** What the seeded world looks like: tokens per caller and the ids generated values draw from. */
export interface FuzzWorld {
  tokens: Record<Caller, string | null>;
  pools: ValuePools;
  /** Ids that generated writes must not target (the callers and their keys). */
  protectedIds: Set<string>;
  /** Re-creates seeded resources that generated requests deleted, so a long run keeps hitting existing ones. */
  replenish(): Promise<void>;
  market: Marketplace;
  close(): Promise<void>;
}

const must = async (what: string, call: Promise<{ status: number; text: string; body: any }>, ...ok: number[]) => {
  const res = await call;
  if (!ok.includes(res.status)) throw new Error(`seeding: ${what} answered ${res.status} ${res.text}`);
  return res.body;
};

/** Replenishing after generated requests changed things: any 4xx may be right (a source renamed, a user promoted); a 5xx never is. */
const noServerError = async (what: string, call: Promise<{ status: number; text: string }>) => {
  const res = await call;
  if (res.status >= 500) throw new Error(`replenishing: ${what} answered ${res.status} ${res.text}`);
};

function policyDocument() {
  return {
    version: "2026-03-24",
    default_strategy: "balanced",
    strategy_overrides: [{ scope: "channel", value: "support", strategy: "careful" }],
    public_access: {
      default: { actions: ["bank:recall"], recall_budget: "low" },
      overrides: [{ scope: "topic", value: "press", actions: ["bank:recall"] }],
    },
  };
}

/**
 * Gives the test app some state so generated ids hit existing resources: a local marketplace
 * (installs that succeed) and an unresolvable one (fast 502), personal and server sources and
 * templates, users, service accounts, keys, banks and a policy. Host resolution fails at once
 * for every name, so nothing leaves the machine.
 */
export async function seedWorld(t: TestApp): Promise<FuzzWorld> {
  t.app.resolveHost = async () => {
    throw Object.assign(new Error("not resolvable in tests"), { code: "ENOTFOUND" });
  };
  const market = await startMarketplace();
  t.app.config.marketplace.allowedHosts.push(market.host);
  market.setFile("/good/templates.json", catalog(catalogEntry("support-bot"), catalogEntry("sales-bot", { category: "sales" })));
  market.setFile("/files/templates.json", catalog({ id: "filed", name: "Filed", manifest_file: "manifests/filed.json" }));
  market.setFile("/files/manifests/filed.json", manifest({ directives: [{ name: "From file", content: "yes" }] }));
  market.setFile("/broken/templates.json", "{ not json");
  market.setFile("/invalid/templates.json", catalog(catalogEntry("support-bot", { manifest: manifest({ version: "7" }) })));

  const admin = t.admin;
  const member: Client = await t.user(MEMBER_ID);
  for (const id of VICTIM_IDS) await t.user(id);

  const sourceUrls = [
    `${market.url}/good`,
    `${market.url}/files`,
    `${market.url}/broken`,
    `${market.url}/invalid`,
    "https://marketplace.invalid/catalog",
    "https://github.com/acme/bank-templates",
  ];
  const sourceNames = ["good", "files", "broken", "invalid", "unresolvable", "acme"];
  const templateIds = ["fuzz-alpha", "fuzz-beta", "support-bot"];
  const bankIds = ["fuzz-bank-1", "fuzz-bank-2", "admin-bank"];
  const serviceAccountIds = ["fuzz-sa-1", "fuzz-sa-2"];

  /**
   * Creates whatever of the seeded state is missing. At the start everything must be created;
   * later (generated DELETEs remove things) an existing resource's 409 is fine too.
   */
  const ensureSeeded = async (first: boolean) => {
    const check = (what: string, call: Promise<{ status: number; text: string; body: any }>) =>
      first ? must(what, call, 200, 201) : noServerError(what, call);
    for (const client of [member, admin]) {
      const base = client === admin ? "/ext/svc/admin/template-sources" : "/ext/svc/me/template-sources";
      for (const [i, url] of sourceUrls.entries()) {
        await check(`source ${sourceNames[i]}`, client.post(base, { url, alias: sourceNames[i] }));
        // A generated PATCH may have moved a seeded source (CONTRACT §16): back to its own URL, without a token.
        if (!first) await check(`source ${sourceNames[i]} url`, client.patch(`${base}/${sourceNames[i]}`, { url, auth_token: null }));
      }
    }
    await check(
      "personal template",
      member.post("/ext/svc/me/templates", { id: "fuzz-alpha", name: "Alpha", manifest: manifest(), category: "ops", tags: ["t1"] }),
    );
    await check(
      "personal template",
      member.post("/ext/svc/me/templates", { id: "fuzz-beta", name: "Beta", manifest: manifest({ bank: null }) }),
    );
    await check(
      "server template",
      admin.post("/ext/svc/admin/templates", { id: "fuzz-alpha", name: "Server alpha", manifest: manifest(), category: "ops" }),
    );
    await check("server template", admin.post("/ext/svc/admin/templates", { id: "fuzz-gamma", name: "Gamma", manifest: manifest() }));
    await check("install", member.post("/ext/svc/me/templates/support-bot/install", { source_name: "good", source_scope: "personal" }));
    await check("install", admin.post("/ext/svc/admin/templates/support-bot/install", { source_name: "good", source_scope: "server" }));
    await check("bank", member.post("/ext/svc/banks", { bank_id: "fuzz-bank-1", template: "personal/fuzz-alpha" }));
    await check("bank", member.post("/ext/svc/banks", { bank_id: "fuzz-bank-2", template: "server/fuzz-gamma", name: "Two" }));
    await check("bank", admin.post("/ext/svc/banks", { bank_id: "admin-bank", template: "server/fuzz-alpha" }));
    await check("policy", member.put("/ext/svc/banks/fuzz-bank-1/policy", { document: policyDocument() }));
    for (const id of serviceAccountIds) await check("service account", member.post("/ext/svc/me/service-accounts", { id }));
    if (!first) {
      for (const id of VICTIM_IDS) {
        await check("victim", admin.post("/ext/svc/admin/users", { id }));
        await check("victim", admin.patch(`/ext/svc/admin/users/${id}`, { is_active: true }));
      }
    }
  };
  await ensureSeeded(true);

  const saKey = await must(
    "service account key",
    member.post("/ext/svc/me/service-accounts/fuzz-sa-1/api-keys", { description: "sa" }),
    201,
  );
  const spareKey = await must("spare key", member.post("/ext/svc/me/api-keys", { description: "spare" }), 201);
  const victimKey = await must("victim key", admin.post("/ext/svc/admin/users/victim-a/api-keys", { description: "victim" }), 201);

  const callerKeys = [
    ...(await must("keys", admin.get("/ext/svc/me/api-keys"), 200)),
    ...(await must("keys", member.get("/ext/svc/me/api-keys"), 200)),
  ]
    .map((key: { id: string }) => key.id)
    .filter((id: string) => id !== spareKey.id);
  const keyIds = [spareKey.id, saKey.id, victimKey.id, ...callerKeys];

  // Real cursors, so paging with a cursor the server issued is exercised too.
  const cursors: string[] = [];
  for (const res of [await member.get("/ext/svc/me/templates?limit=1"), await admin.get("/ext/svc/admin/templates?limit=1")]) {
    if (res.body?.next_cursor) cursors.push(res.body.next_cursor);
  }

  const protectedIds = new Set<string>(["admin", MEMBER_ID, ...callerKeys]);
  const writable = (values: string[]) => values.filter((v) => !protectedIds.has(v));
  const mentalModelIds = manifest().mental_models.map((model) => model.id);
  const directiveNames = manifest().directives.map((directive) => directive.name);
  const userIds = ["admin", MEMBER_ID, ...VICTIM_IDS, "nobody"];
  const templates = [...templateIds, "fuzz-gamma", "sales-bot", "filed", "missing-template"];
  const pools: ValuePools = {
    // Path parameters, for reads and for writes (writes leave the callers and their keys alone).
    "path.user_id": () => userIds,
    "path.user_id.write": () => writable(userIds),
    "path.key_id": () => keyIds,
    "path.key_id.write": () => writable(keyIds),
    "path.sa_id": () => [...serviceAccountIds, "no-such-sa"],
    "path.sa_id.write": () => [...serviceAccountIds, "no-such-sa"],
    // `{name}` is a source's, or a bank's directive's (the seeded banks hold the fixture manifest's).
    "path.name": () => [...sourceNames, "missing-source", ...directiveNames],
    "path.name.write": () => [...sourceNames, "missing-source", ...directiveNames],
    // `{id}`: a bank's mental model.
    "path.id": () => [...mentalModelIds, "missing-model"],
    "path.id.write": () => [...mentalModelIds, "missing-model"],
    "path.template_id": () => templates,
    "path.template_id.write": () => templates,
    "path.bank_id": () => [...bankIds, "missing-bank"],
    "path.bank_id.write": () => [...bankIds, "missing-bank"],
    // Query parameters.
    "query.cursor": () => [...cursors, "bm90IGEgY3Vyc29y.AAAAAAAAAAAAAAAAAAAAAA", "e30.x", "."],
    "query.category": () => ["ops", "sales", "engineering"],
    "query.tag": () => ["t1", "starter"],
    "query.force": () => ["true", "false", "1", "0", "yes", "no"],
    "query.dry_run": () => ["true", "false", "1", "0", "on", "off"],
    "query.provider": () => ["slack", "discord"],
    "query.channel": () => ["support", "general"],
    "query.topic": () => ["press", "launch"],
    // Body fields.
    source_name: () => sourceNames,
    email: () => ["someone@example.com", "first.last+tag@example.org"],
    current_password: () => ["not-the-password", "correct horse battery staple"],
    new_password: () => ["correct horse battery staple", "short"],
    template: () => [
      "personal/fuzz-alpha",
      "server/fuzz-alpha",
      "fuzz-beta",
      "server/fuzz-gamma",
      "personal/support-bot",
      "personal/missing",
      "server/",
      "/x",
      "other/fuzz-alpha",
    ],
    bank_id: () => [...bankIds, "fresh-bank"],
    url: () => [...sourceUrls, "http://127.0.0.1:1/closed", "http://10.0.0.1/private", "https://[::1]/", "ftp://example.invalid/"],
    manifest: () => [
      manifest(),
      manifest({ bank: null, mental_models: null, directives: null }),
      manifest({ mental_models: [] }),
      { version: "1" },
    ],
    document: () => [policyDocument(), { version: "2026-03-24" }, { version: "2026-03-24", public_access: null }],
  };

  return {
    tokens: { admin: ADMIN_TOKEN, member: member.token, anonymous: null, "bad-credentials": null },
    pools,
    protectedIds,
    market,
    replenish: () => ensureSeeded(false),
    close: () => market.close(),
  };
}
