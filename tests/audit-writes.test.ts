import { gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntries, bankImports, bankPolicyChanges, userIdentities } from "@/db/schema";
import { defineEndpoint } from "@/lib/contracts/endpoint";
import { listEndpoints } from "@/lib/contracts/registry/endpoints";
import { buildOpenApiDocument } from "@/lib/contracts/registry/openapi";
import { auditFor } from "@/lib/services/audit/record";
import { callContext, withTransaction } from "@/lib/services/context";
import { createSession } from "@/lib/services/identity/session-store";
import { ADMIN_TOKEN, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

// CONTRACT §14: every successful write through /ext/svc records exactly one audit entry with
// its actor, action, target and request id, in the write's own transaction; failed writes
// record none, and no entry ever holds a secret. The writes come from the OpenAPI document.
const t = useTestApp();
const market = useMarketplace(t);

type Caller = "admin" | "member" | "bot";
interface Actor {
  principal_type: "user" | "service_account";
  principal_id: string;
  user_id: string;
}
const ACTORS: Record<Caller, Actor> = {
  admin: { principal_type: "user", principal_id: "admin", user_id: "admin" },
  member: { principal_type: "user", principal_id: "mia", user_id: "mia" },
  bot: { principal_type: "service_account", principal_id: "mia-bot", user_id: "mia" },
};
const tokens = {} as Record<Caller, string>;

/** Every token, password and source credential the test creates: none may appear in an entry. */
const secrets = new Set<string>([ADMIN_TOKEN]);
const MIA_PASSWORD = "mia's first long password";
const MIA_NEW_PASSWORD = "mia's second long password";
const SOURCE_TOKEN = "marketplace-source-secret-0123456789";
for (const s of [MIA_PASSWORD, MIA_NEW_PASSWORD, SOURCE_TOKEN]) secrets.add(s);

/** Remembers the tokens in an answer (API keys) and the secrets (webhooks) as secrets. */
function collectSecrets(body: unknown) {
  if (body && typeof body === "object" && "token" in body && typeof body.token === "string") secrets.add(body.token);
  if (body && typeof body === "object" && "secret" in body && typeof body.secret === "string") secrets.add(body.secret);
}

/** The writes of a user's own webhooks (`me`, by the member) or the server's (`admin`), in order. */
function webhookFixtures(scope: "me" | "admin"): WriteFixture[] {
  const caller: Caller = scope === "me" ? "member" : "admin";
  const base = `/ext/svc/${scope}/webhooks`;
  const hook = () => `${base}/${created[`${scope}Webhook`]}`;
  const id = () => created[`${scope}Webhook`]!;
  return [
    {
      operation: `POST ${base}`,
      caller,
      path: base,
      // Nothing listens there: the ping below fails, as a delivery may.
      body: { url: "http://127.0.0.1:9/hook", events: ["*"] },
      target: (answer) => {
        created[`${scope}Webhook`] = answer.id;
        return hook();
      },
      about: ["webhook", id, "create"],
    },
    {
      operation: `PATCH ${base}/{webhook_id}`,
      caller,
      path: hook,
      body: { description: "x" },
      target: hook,
      about: ["webhook", id, "change"],
    },
    {
      operation: `POST ${base}/{webhook_id}/rotate-secret`,
      caller,
      path: () => `${hook()}/rotate-secret`,
      target: hook,
      about: ["webhook", id, "change"],
    },
    {
      operation: `POST ${base}/{webhook_id}/ping`,
      caller,
      path: () => `${hook()}/ping`,
      target: (answer) => {
        created[`${scope}Delivery`] = answer.id;
        return hook();
      },
      about: ["webhook", id, "create"],
    },
    {
      operation: `POST ${base}/{webhook_id}/deliveries/{delivery_id}/redeliver`,
      caller,
      path: () => `${hook()}/deliveries/${created[`${scope}Delivery`]}/redeliver`,
      target: hook,
      about: ["webhook", id, "create"],
    },
    { operation: `DELETE ${base}/{webhook_id}`, caller, path: hook, target: hook, about: ["webhook", id, "delete"] },
  ];
}

async function call(caller: Caller, method: string, path: string, body?: unknown, requestId?: string) {
  const headers = requestId ? { "x-request-id": requestId } : undefined;
  const response = await request(method, path, { token: tokens[caller], body, headers });
  collectSecrets(response.body);
  return response;
}

const lastSeq = async () =>
  (await t.app.db.select({ seq: sql<number>`coalesce(max(${auditEntries.seq}), 0)::int` }).from(auditEntries))[0]!.seq;
const entriesAfter = (seq: number) => t.app.db.select().from(auditEntries).where(gt(auditEntries.seq, seq));

type TargetType = "source" | "template" | "bank" | "policy" | "user" | "api_key" | "service_account" | "session" | "webhook";
/** What the write does to the resource: `before` is null for a creation, `after` for a deletion, both present otherwise. */
type Change = "create" | "change" | "delete";

/** How to make one write succeed: who calls, the concrete path and body, and the resource's path it must be audited at. */
interface WriteFixture {
  operation: string;
  caller: Caller;
  path: string | (() => string);
  body?: unknown;
  /** The expected target; a function reads what the call answered (a created key's id). */
  target: string | ((answer: { id: string }) => string);
  /** CONTRACT §17: `target_type`, `target_id` (the id as the API names it; a function reads it after `target` ran) and the change. */
  about: [TargetType, string | (() => string), Change];
}

/** A policy entry of mia-bank's history, stored by beforeAll, that the restore fixture puts back. */
const RESTORABLE_POLICY_ENTRY = "audit-restorable-policy-entry";

/** An import entry of mia-bank's history (an empty bank), stored by beforeAll, that the bank restore fixture puts back. */
const RESTORABLE_IMPORT_ENTRY = "audit-restorable-import-entry";

// Ids created by earlier fixtures, for the later ones.
const created: Record<string, string> = {};
const T_ME = "/ext/svc/me/templates";
const T_ADMIN = "/ext/svc/admin/templates";

/** In order: each create comes before what uses it, each delete after. */
const FIXTURES: WriteFixture[] = [
  // Identity. mia's two console sessions (beforeAll) end first: her password change ends them all.
  {
    operation: "DELETE /ext/svc/me/sessions/{session_id}",
    caller: "member",
    path: () => `/ext/svc/me/sessions/${created.miaSession}`,
    target: () => `/ext/svc/me/sessions/${created.miaSession}`,
    about: ["session", () => created.miaSession!, "delete"],
  },
  {
    operation: "POST /ext/svc/me/sessions/sign-out-others",
    caller: "member",
    path: "/ext/svc/me/sessions/sign-out-others",
    target: () => `/ext/svc/me/sessions/${created.miaOtherSession}`,
    about: ["session", () => created.miaOtherSession!, "delete"],
  },
  {
    operation: "POST /ext/svc/me/password",
    caller: "member",
    path: "/ext/svc/me/password",
    body: { current_password: MIA_PASSWORD, new_password: MIA_NEW_PASSWORD },
    target: "/ext/svc/me/password",
    about: ["user", "mia", "change"],
  },
  {
    operation: "POST /ext/svc/me/api-keys",
    caller: "member",
    path: "/ext/svc/me/api-keys",
    body: { description: "laptop" },
    target: (answer) => {
      created.myKey = answer.id;
      return `/ext/svc/me/api-keys/${created.myKey}`;
    },
    about: ["api_key", () => created.myKey!, "create"],
  },
  {
    operation: "DELETE /ext/svc/me/api-keys/{key_id}",
    caller: "member",
    path: () => `/ext/svc/me/api-keys/${created.myKey}`,
    target: () => `/ext/svc/me/api-keys/${created.myKey}`,
    about: ["api_key", () => created.myKey!, "delete"],
  },
  {
    operation: "POST /ext/svc/me/service-accounts",
    caller: "member",
    path: "/ext/svc/me/service-accounts",
    body: { id: "tmp-bot" },
    target: "/ext/svc/me/service-accounts/tmp-bot",
    about: ["service_account", "tmp-bot", "create"],
  },
  {
    operation: "POST /ext/svc/me/service-accounts/{sa_id}/api-keys",
    caller: "member",
    path: "/ext/svc/me/service-accounts/tmp-bot/api-keys",
    body: {},
    target: (answer) => {
      created.botKey = answer.id;
      return `/ext/svc/me/service-accounts/tmp-bot/api-keys/${created.botKey}`;
    },
    about: ["api_key", () => created.botKey!, "create"],
  },
  {
    operation: "DELETE /ext/svc/me/service-accounts/{sa_id}/api-keys/{key_id}",
    caller: "member",
    path: () => `/ext/svc/me/service-accounts/tmp-bot/api-keys/${created.botKey}`,
    target: () => `/ext/svc/me/service-accounts/tmp-bot/api-keys/${created.botKey}`,
    about: ["api_key", () => created.botKey!, "delete"],
  },
  {
    operation: "DELETE /ext/svc/me/service-accounts/{sa_id}",
    caller: "member",
    path: "/ext/svc/me/service-accounts/tmp-bot",
    target: "/ext/svc/me/service-accounts/tmp-bot",
    about: ["service_account", "tmp-bot", "delete"],
  },
  {
    operation: "POST /ext/svc/admin/users",
    caller: "admin",
    path: "/ext/svc/admin/users",
    body: { id: "uma", password: "uma's long initial password" },
    target: "/ext/svc/admin/users/uma",
    about: ["user", "uma", "create"],
  },
  {
    operation: "PATCH /ext/svc/admin/users/{user_id}",
    caller: "admin",
    path: "/ext/svc/admin/users/uma",
    body: { display_name: "Uma", password: "uma's long changed password" },
    target: "/ext/svc/admin/users/uma",
    about: ["user", "uma", "change"],
  },
  {
    // mia's single-sign-on account, linked by beforeAll.
    operation: "DELETE /ext/svc/admin/users/{user_id}/sso-identity",
    caller: "admin",
    path: "/ext/svc/admin/users/mia/sso-identity",
    target: "/ext/svc/admin/users/mia/sso-identity",
    about: ["user", "mia", "change"],
  },
  {
    operation: "POST /ext/svc/admin/users/{user_id}/api-keys",
    caller: "admin",
    path: "/ext/svc/admin/users/uma/api-keys",
    body: {},
    target: (answer) => {
      created.umaKey = answer.id;
      return `/ext/svc/admin/users/uma/api-keys/${created.umaKey}`;
    },
    about: ["api_key", () => created.umaKey!, "create"],
  },
  {
    operation: "DELETE /ext/svc/admin/users/{user_id}/api-keys/{key_id}",
    caller: "admin",
    path: () => `/ext/svc/admin/users/uma/api-keys/${created.umaKey}`,
    target: () => `/ext/svc/admin/users/uma/api-keys/${created.umaKey}`,
    about: ["api_key", () => created.umaKey!, "delete"],
  },
  {
    operation: "DELETE /ext/svc/admin/users/{user_id}",
    caller: "admin",
    path: "/ext/svc/admin/users/uma",
    target: "/ext/svc/admin/users/uma",
    about: ["user", "uma", "delete"],
  },
  // Sources
  {
    operation: "POST /ext/svc/me/template-sources",
    caller: "bot",
    path: "/ext/svc/me/template-sources",
    body: () => ({ url: `${market.url}/audit`, alias: "mine", auth_token: SOURCE_TOKEN }),
    target: "/ext/svc/me/template-sources/mine",
    about: ["source", "mine", "create"],
  },
  {
    operation: "PATCH /ext/svc/me/template-sources/{name}",
    caller: "bot",
    path: "/ext/svc/me/template-sources/mine",
    body: { description: "Changed.", auth_token: `${SOURCE_TOKEN}-2` },
    target: "/ext/svc/me/template-sources/mine",
    about: ["source", "mine", "change"],
  },
  {
    operation: "DELETE /ext/svc/me/template-sources/{name}",
    caller: "bot",
    path: "/ext/svc/me/template-sources/mine",
    target: "/ext/svc/me/template-sources/mine",
    about: ["source", "mine", "delete"],
  },
  {
    operation: "POST /ext/svc/admin/template-sources",
    caller: "admin",
    path: "/ext/svc/admin/template-sources",
    body: () => ({ url: `${market.url}/audit`, alias: "spare", auth_token: SOURCE_TOKEN }),
    target: "/ext/svc/admin/template-sources/spare",
    about: ["source", "spare", "create"],
  },
  {
    operation: "PATCH /ext/svc/admin/template-sources/{name}",
    caller: "admin",
    path: "/ext/svc/admin/template-sources/spare",
    body: { description: "Changed.", auth_token: `${SOURCE_TOKEN}-2` },
    target: "/ext/svc/admin/template-sources/spare",
    about: ["source", "spare", "change"],
  },
  {
    operation: "DELETE /ext/svc/admin/template-sources/{name}",
    caller: "admin",
    path: "/ext/svc/admin/template-sources/spare",
    target: "/ext/svc/admin/template-sources/spare",
    about: ["source", "spare", "delete"],
  },
  // Templates of both scopes: the personal ones by a service account, who installs under an alias_id
  // (the entry then names the installed id).
  ...(
    [
      ["bot", T_ME, "my-alpha"],
      ["admin", T_ADMIN, "alpha"],
    ] as const
  ).flatMap(([caller, base, installed]): WriteFixture[] => [
    {
      operation: `POST ${base}`,
      caller,
      path: base,
      body: { id: "hand", name: "Hand made", manifest: manifest() },
      target: `${base}/hand`,
      about: ["template", "hand", "create"],
    },
    {
      operation: `PATCH ${base}/{template_id}`,
      caller,
      path: `${base}/hand`,
      body: { description: "Edited" },
      target: `${base}/hand`,
      about: ["template", "hand", "change"],
    },
    {
      operation: `POST ${base}/{template_id}/install`,
      caller,
      path: `${base}/alpha/install`,
      body: { source_name: "market", source_scope: "server", ...(installed === "alpha" ? {} : { alias_id: installed }) },
      target: `${base}/${installed}`,
      about: ["template", installed, "create"],
    },
    {
      operation: `POST ${base}/{template_id}/update`,
      caller,
      path: `${base}/${installed}/update`,
      target: `${base}/${installed}`,
      about: ["template", installed, "change"],
    },
    {
      operation: `POST ${base}/{template_id}/rollback`,
      caller,
      path: `${base}/${installed}/rollback`,
      body: { version: 1 },
      target: `${base}/${installed}`,
      about: ["template", installed, "change"],
    },
    // The bulk writes name every template ("*"); before and after list the templates they changed.
    {
      operation: `POST ${base}/check-updates`,
      caller,
      path: `${base}/check-updates`,
      target: `${base}`,
      about: ["template", "*", "change"],
    },
    { operation: `POST ${base}/update-all`, caller, path: `${base}/update-all`, target: `${base}`, about: ["template", "*", "change"] },
    {
      operation: `DELETE ${base}/{template_id}`,
      caller,
      path: `${base}/hand`,
      target: `${base}/hand`,
      about: ["template", "hand", "delete"],
    },
  ]),
  // Banks and policies
  {
    operation: "POST /ext/svc/banks",
    caller: "member",
    path: "/ext/svc/banks",
    body: { bank_id: "mia-bank", template: "server/alpha" },
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "create"],
  },
  {
    // A rollout records each bank's bank.import entry: one bank here, so one entry, as POST /banks.
    operation: "POST /ext/svc/banks/rollout",
    caller: "member",
    path: "/ext/svc/banks/rollout",
    body: { template: "server/alpha", bank_ids: ["mia-bank"] },
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "change"],
  },
  {
    operation: "PUT /ext/svc/banks/{bank_id}/policy",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/policy",
    body: { document: { version: "2026-03-24", default_strategy: "balanced" } },
    target: "/ext/svc/banks/mia-bank/policy",
    about: ["policy", "mia-bank", "create"],
  },
  {
    operation: "DELETE /ext/svc/banks/{bank_id}/policy",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/policy",
    target: "/ext/svc/banks/mia-bank/policy",
    about: ["policy", "mia-bank", "delete"],
  },
  {
    // Puts back the history entry beforeAll stored (its id is fixed there): the policy comes back.
    operation: "POST /ext/svc/banks/{bank_id}/policy/restore",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/policy/restore",
    body: { entry: RESTORABLE_POLICY_ENTRY },
    target: "/ext/svc/banks/mia-bank/policy",
    about: ["policy", "mia-bank", "create"],
  },
  // Edits in place (CONTRACT §21): each an entry on the bank, whatever item it touched.
  {
    operation: "PATCH /ext/svc/banks/{bank_id}",
    caller: "member",
    path: "/ext/svc/banks/mia-bank",
    body: { name: "Mia's bank", config: { disposition_empathy: 4 } },
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "change"],
  },
  {
    operation: "PUT /ext/svc/banks/{bank_id}/mental-models/{id}",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/mental-models/people",
    body: { name: "People", source_query: "Who is involved?" },
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "change"],
  },
  {
    operation: "DELETE /ext/svc/banks/{bank_id}/mental-models/{id}",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/mental-models/people",
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "change"],
  },
  {
    operation: "PUT /ext/svc/banks/{bank_id}/directives/{name}",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/directives/Be%20kind",
    body: { content: "Always." },
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "change"],
  },
  {
    operation: "DELETE /ext/svc/banks/{bank_id}/directives/{name}",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/directives/Be%20kind",
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "change"],
  },
  {
    // Puts back the content the import entry beforeAll stored kept (an empty bank).
    operation: "POST /ext/svc/banks/{bank_id}/restore",
    caller: "member",
    path: "/ext/svc/banks/mia-bank/restore",
    body: { entry: RESTORABLE_IMPORT_ENTRY },
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "change"],
  },
  {
    operation: "DELETE /ext/svc/banks/{bank_id}",
    caller: "member",
    path: "/ext/svc/banks/mia-bank",
    target: "/ext/svc/banks/mia-bank",
    about: ["bank", "mia-bank", "delete"],
  },
  ...webhookFixtures("me"),
  ...webhookFixtures("admin"),
];

/** POSTs that write nothing, and why: they record no entry. */
const NOT_WRITES: Record<string, string> = {
  "POST /ext/svc/manifests/validate": "validates a manifest and stores nothing",
};

interface Operation {
  key: string;
  action: string | undefined;
}

/** The document's write operations, with the audit action each declares (`x-audit-action`). */
function documentedWrites(): Operation[] {
  const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["post", "put", "patch", "delete"].includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, action: op["x-audit-action"] as string | undefined })),
  );
}

beforeAll(async () => {
  market.setFile("/audit/templates.json", catalog(catalogEntry("alpha"), catalogEntry("beta")));
  tokens.admin = ADMIN_TOKEN;
  t.app.config.webhooks.allowedHosts.push("127.0.0.1");
  await t.app.db
    .insert(bankPolicyChanges)
    .values({ id: RESTORABLE_POLICY_ENTRY, bankId: "mia-bank", actor: "mia", before: null, after: { version: "2026-03-24" } });
  await t.app.db.insert(bankImports).values({
    id: RESTORABLE_IMPORT_ENTRY,
    bankId: "mia-bank",
    template: "server/alpha",
    actor: "mia",
    importResult: {},
    content: { config: {}, mentalModels: [], directives: [] },
    appliedAt: new Date(0),
  });
  expect((await call("admin", "POST", "/ext/svc/admin/users", { id: "mia", password: MIA_PASSWORD })).status).toBe(201);
  tokens.member = (await call("admin", "POST", "/ext/svc/admin/users/mia/api-keys", {})).body.token;
  await t.app.db
    .insert(userIdentities)
    .values({ issuer: "https://sso.example", subject: "mia-sub", userId: "mia", email: "mia@example.org" });
  created.miaSession = (await createSession(t.app.db, "mia")).publicId;
  created.miaOtherSession = (await createSession(t.app.db, "mia")).publicId;
  expect((await call("member", "POST", "/ext/svc/me/service-accounts", { id: "mia-bot" })).status).toBe(201);
  tokens.bot = (await call("member", "POST", "/ext/svc/me/service-accounts/mia-bot/api-keys", {})).body.token;
  const source = await call("admin", "POST", "/ext/svc/admin/template-sources", {
    url: `${market.url}/audit`,
    alias: "market",
    auth_token: SOURCE_TOKEN,
  });
  expect(source.status, source.text).toBe(201);
});

describe("audit entries of the writes in the OpenAPI document", () => {
  it("has a fixture for every write operation of the document, and an action for every one that writes", () => {
    const writes = documentedWrites();
    expect(writes.length).toBeGreaterThan(30);
    for (const write of writes) {
      if (write.key in NOT_WRITES) expect(write.action, write.key).toBeUndefined();
      else expect(write.action, `${write.key} declares no audit action`).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
    }
    const audited = writes
      .filter((w) => w.action)
      .map((w) => w.key)
      .sort();
    expect(FIXTURES.map((f) => f.operation).sort()).toEqual(audited);
    // And the endpoints say so themselves: every write names its action or says it writes nothing.
    for (const endpoint of listEndpoints().filter((e) => e.method !== "GET")) expect(endpoint.audit, endpoint.path).toBeDefined();
  });

  it("leaves exactly one entry per successful write, with its actor, action, target and request id", async () => {
    const actions = new Map(documentedWrites().map((w) => [w.key, w.action]));
    for (const [index, fixture] of FIXTURES.entries()) {
      const path = typeof fixture.path === "function" ? fixture.path() : fixture.path;
      const body = typeof fixture.body === "function" ? (fixture.body as () => unknown)() : fixture.body;
      const method = fixture.operation.split(" ")[0]!;
      const requestId = `audit-write-${index}`;
      const before = await lastSeq();
      const answer = await call(fixture.caller, method, path, body ?? (method === "POST" ? {} : undefined), requestId);
      expect(answer.status, `${fixture.operation}: ${answer.text}`).toBeLessThan(300);
      const entries = await entriesAfter(before);
      expect(entries, fixture.operation).toHaveLength(1);
      const target = typeof fixture.target === "function" ? fixture.target(answer.body) : fixture.target;
      const actor = ACTORS[fixture.caller];
      expect(entries[0], fixture.operation).toMatchObject({
        actorType: actor.principal_type,
        actorId: actor.principal_id,
        userId: actor.user_id,
        action: actions.get(fixture.operation),
        requestId,
      });
      // Soft from here: every operation's shortfall is reported, not only the first one's.
      const entry = entries[0]!;
      expect.soft(entry.target, `${fixture.operation}: target`).toBe(target);
      const [type, id, change] = fixture.about;
      expect.soft(entry.targetType, `${fixture.operation}: target_type`).toBe(type);
      expect.soft(entry.targetId, `${fixture.operation}: target_id`).toBe(typeof id === "function" ? id() : id);
      const present = (value: unknown) => typeof value === "object" && value !== null;
      expect
        .soft(change === "create" ? entry.before === null : present(entry.before), `${fixture.operation}: before (${change})`)
        .toBe(true);
      expect.soft(change === "delete" ? entry.after === null : present(entry.after), `${fixture.operation}: after (${change})`).toBe(true);
    }
  });

  it("leaves no entry for failed writes (422, 404, 409, 403), dry runs and validation", async () => {
    const before = await lastSeq();
    const failures: Array<[Caller, string, string, unknown, number]> = [
      ["member", "POST", T_ME, { id: "Not An Id", name: "x", manifest: manifest() }, 422],
      ["member", "DELETE", `${T_ME}/nothing-here`, undefined, 404],
      ["admin", "POST", "/ext/svc/admin/users", { id: "mia" }, 409],
      ["member", "POST", "/ext/svc/admin/users", { id: "someone" }, 403],
      ["member", "PATCH", `${T_ME}/nothing-here`, { description: "x" }, 404],
      ["member", "POST", `${T_ME}/gamma/install`, { source_name: "market", source_scope: "server" }, 404],
      ["member", "POST", "/ext/svc/me/password", { current_password: "not it at all, really", new_password: "another long password" }, 422],
    ];
    for (const [caller, method, path, body, status] of failures) {
      expect((await call(caller, method, path, body)).status, `${method} ${path}`).toBe(status);
    }
    const dryRun = await call("member", "POST", "/ext/svc/banks?dry_run=true", { bank_id: "dry-bank", template: "server/alpha" });
    expect(dryRun.status, dryRun.text).toBe(200);
    const dryRollout = await call("member", "POST", "/ext/svc/banks/rollout?dry_run=true", {
      template: "server/alpha",
      bank_ids: ["dry-bank"],
    });
    expect(dryRollout.status, dryRollout.text).toBe(200);
    expect((await call("member", "POST", "/ext/svc/manifests/validate", { manifest: manifest() })).status).toBe(200);
    expect(await entriesAfter(before)).toEqual([]);
  });

  it("writes the entry in the write's transaction: a write whose entry cannot be stored is not made", async () => {
    // Make every audit insert fail; the template delete must then roll back with it.
    expect((await call("member", "POST", T_ME, { id: "kept", name: "Kept", manifest: manifest() })).status).toBe(200);
    await t.app.db.execute(
      sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`),
    );
    await t.app.db.execute(
      sql.raw(`create trigger refuse_audit before insert on audit_entries for each row execute function refuse_audit()`),
    );
    try {
      expect((await call("member", "DELETE", `${T_ME}/kept`)).status).toBe(500);
      expect((await call("admin", "POST", "/ext/svc/admin/users", { id: "never" })).status).toBe(500);
    } finally {
      await t.app.db.execute(sql.raw(`drop trigger refuse_audit on audit_entries`));
      await t.app.db.execute(sql.raw(`drop function refuse_audit()`));
    }
    expect((await call("member", "GET", `${T_ME}/kept`)).status).toBe(200);
    expect((await call("admin", "GET", "/ext/svc/admin/users/never")).status).toBe(404);
  });

  it("leaves no entry when the transaction that recorded it rolls back", async () => {
    const before = await lastSeq();
    const endpoint = defineEndpoint({
      method: "POST",
      path: "/ext/svc/test",
      summary: "",
      tag: "",
      access: "authenticated",
      status: 204,
      // Any listed action: only listed ones compile.
      audit: { action: "template.create" },
    });
    const admin = { type: "user" as const, id: "admin", userId: "admin", role: "admin" as const, displayName: "admin" };
    const journal = auditFor(endpoint, admin, "r", { params: undefined, query: undefined, body: undefined })!;
    const ctx = callContext(t.app, { actor: admin, requestId: "r", signal: new AbortController().signal, audit: journal.using(t.app.db) });
    const write = withTransaction(ctx, async (tx) => {
      await tx.audit.record({ action: "template.create", target: { type: "template", id: "x" }, before: null, after: { id: "x" } });
      expect(journal.recorded).toBe(true);
      throw new Error("rolled back after the audit insert");
    });
    await expect(write).rejects.toThrow("rolled back after the audit insert");
    expect(await entriesAfter(before)).toEqual([]);
  });

  it("holds no token, password or source credential anywhere in the log", async () => {
    expect(secrets.size).toBeGreaterThan(8);
    const rows = await t.app.db.select().from(auditEntries);
    expect(rows.length).toBeGreaterThan(FIXTURES.length);
    const text = JSON.stringify(rows);
    for (const secret of secrets) expect(text.includes(secret), `an entry holds ${secret.slice(0, 6)}…`).toBe(false);
    // Every entry's before and after as well.
    const snapshots = JSON.stringify(rows.map((row) => [row.before, row.after]));
    for (const secret of secrets) expect(snapshots.includes(secret), `a before/after holds ${secret.slice(0, 6)}…`).toBe(false);
    // The API's own answers too: the list and the export.
    const answered = (await call("admin", "GET", "/ext/svc/admin/audit?limit=200")).text;
    for (const secret of secrets) expect(answered.includes(secret)).toBe(false);
    const exported = await call("admin", "GET", "/ext/svc/admin/audit/export");
    expect(exported.status).toBe(200);
    expect(exported.text.trim().split("\n")).toHaveLength(rows.length);
    for (const secret of secrets) expect(exported.text.includes(secret)).toBe(false);
  });
});
