import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiSchemas } from "@/lib/shared/openapi-schemas";
import { type DocumentedOperation, documentedOperations, hindclawDocument, ourPath } from "./hindclaw-client";
import { ADMIN_TOKEN, type ApiResponse, request, useTestApp } from "./support/app";
import { catalog, catalogEntry, manifest } from "./support/fixtures";
import { useMarketplace } from "./support/use-marketplace";

// Issue 18 / CONTRACT §15: hindclaw's generated clients work against us unchanged. Every operation of
// hindclaw's own document (tests/fixtures/hindclaw-openapi.json) is run here with a valid request: the
// request body must validate against the document's request schema, the answer's status must be one the
// document lists for the operation or an error status of CONTRACT §4 (and, the request being valid, a
// success), and a success's body must validate against the document's response schema (fields beyond it
// allowed, as JSON Schema allows them). The operations come from the document, so an operation added to
// it fails here until the scenario below covers it.

const t = useTestApp();
const market = useMarketplace(t);

/** The error statuses CONTRACT §4 (with §2's 401/403 and §11's 429) gives any operation. */
const CONTRACT_ERROR_STATUSES = [400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 502, 503, 504];

// OpenAPI 3.1 schemas are JSON Schema 2020-12; formats (date-time) are checked too.
const documentSchemas = openApiSchemas(hindclawDocument, { allErrors: true, strictSchema: true });
addFormats(documentSchemas.ajv);

interface JsonContent {
  content?: { "application/json"?: { schema?: unknown } };
}

/** The problems `value` has against `schema` (one of the document's), or [] when it validates. */
function violations(schema: unknown, value: unknown): string[] {
  const validate = documentSchemas.compile(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message}`);
}

const jsonSchemaOf = (part: unknown) => (part as JsonContent | undefined)?.content?.["application/json"]?.schema;

type Caller = "member" | "admin";

/** One valid request for an operation; `check` looks at the scenario's own expectations. */
interface Step {
  as: Caller;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  check?: (body: any) => void;
}

const MARKET = "/hindclaw-market";
const SOURCE = { personal: "hc", server: "hc-server" };
const BANK = "hindclaw:conformance";
const POLICY = { version: "2026-03-24", default_strategy: "balanced" };

const template = (id: string) => ({
  id,
  name: `Made ${id}`,
  manifest: manifest(),
  description: "Made by hand.",
  category: "ops",
  integrations: ["slack"],
  tags: ["conformance"],
});

/** The operations in the order they run (each may rely on what the ones before it made), by operationId; built when run. */
const SCENARIO: Record<string, () => Step> = {
  create_my_template_source: () => ({
    as: "member",
    body: { url: `${market.url}${MARKET}`, alias: SOURCE.personal, description: "hindclaw's marketplace" },
    check: (source) => expect(source).toMatchObject({ name: SOURCE.personal, scope: "personal", description: "hindclaw's marketplace" }),
  }),
  list_my_template_sources: () => ({
    as: "member",
    check: (list) => expect(list.map((s: { name: string }) => s.name)).toEqual([SOURCE.personal]),
  }),
  create_template_source: () => ({
    as: "admin",
    body: { url: `${market.url}${MARKET}`, alias: SOURCE.server, auth_token: "market-token" },
    check: (source) => expect(source).toMatchObject({ name: SOURCE.server, scope: "server", has_auth: true, description: null }),
  }),
  list_template_sources: () => ({
    as: "admin",
    check: (list) => expect(list.map((s: { name: string }) => s.name)).toEqual([SOURCE.server]),
  }),

  create_my_template: () => ({
    as: "member",
    body: template("mine"),
    check: (made) => expect(made).toMatchObject({ id: "mine", scope: "personal" }),
  }),
  list_my_templates: () => ({
    as: "member",
    query: { category: "ops", tag: "conformance" },
    check: (list) => expect(list.templates.map((x: { id: string }) => x.id)).toEqual(["mine"]),
  }),
  get_my_template: () => ({ as: "member", params: { template_id: "mine" } }),
  patch_my_template: () => ({
    as: "member",
    params: { template_id: "mine" },
    body: { name: "Renamed", category: null },
    check: (patched) => expect(patched).toMatchObject({ name: "Renamed", category: null, tags: ["conformance"] }),
  }),
  install_my_template: () => ({
    as: "member",
    params: { template_id: "notes-bot" },
    body: { source_name: SOURCE.personal, source_scope: "personal", alias_id: "notes" },
    check: (installed) => expect(installed).toMatchObject({ id: "notes", source_name: SOURCE.personal, source_scope: "personal" }),
  }),
  check_my_template_update: () => ({ as: "member", params: { template_id: "notes" }, check: (c) => expect(c.has_update).toBe(false) }),
  update_my_template_from_source: () => ({
    as: "member",
    params: { template_id: "notes" },
    query: { force: "true" },
    check: (u) => expect(u).toMatchObject({ updated: true }),
  }),

  create_admin_template: () => ({
    as: "admin",
    body: template("shared"),
    check: (made) => expect(made).toMatchObject({ scope: "server" }),
  }),
  list_admin_templates: () => ({ as: "admin", query: { category: "ops" } }),
  get_admin_template: () => ({ as: "admin", params: { template_id: "shared" } }),
  patch_admin_template: () => ({ as: "admin", params: { template_id: "shared" }, body: { tags: ["server"], description: null } }),
  install_admin_template: () => ({
    as: "admin",
    params: { template_id: "ops-bot" },
    body: { source_name: SOURCE.server, source_scope: "server" },
    check: (installed) => expect(installed).toMatchObject({ id: "ops-bot", scope: "server", source_scope: "server" }),
  }),
  check_admin_template_update: () => ({ as: "admin", params: { template_id: "ops-bot" } }),
  update_admin_template_from_source: () => ({ as: "admin", params: { template_id: "ops-bot" } }),

  create_bank_from_template: () => ({
    as: "member",
    body: { bank_id: BANK, template: "personal/notes", name: "Conformance" },
    check: (created) => expect(created).toMatchObject({ bank_id: BANK, bank_created: true, import_result: { config_applied: true } }),
  }),
  upsert_bank_policy: () => ({ as: "member", params: { bank_id: BANK }, body: { document: POLICY } }),
  get_bank_policy: () => ({
    as: "member",
    params: { bank_id: BANK },
    check: (policy) => expect(policy).toEqual({ bank_id: BANK, document: POLICY }),
  }),
  delete_bank_policy: () => ({ as: "member", params: { bank_id: BANK } }),

  delete_my_template: () => ({ as: "member", params: { template_id: "mine" } }),
  delete_admin_template: () => ({ as: "admin", params: { template_id: "shared" } }),
  delete_my_template_source: () => ({ as: "member", params: { name: SOURCE.personal } }),
  delete_template_source: () => ({ as: "admin", params: { name: SOURCE.server } }),
};

const tokens: Record<Caller, string> = { member: "", admin: ADMIN_TOKEN };

beforeAll(async () => {
  market.setFile(`${MARKET}/templates.json`, catalog(catalogEntry("notes-bot"), catalogEntry("ops-bot")));
  tokens.member = (await t.user("hana")).token!;
});

/** Our URL for an operation's hindclaw path with its parameters and query filled in. */
function urlFor(operation: DocumentedOperation, step: Step): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = step.params?.[name];
    if (value === undefined) throw new Error(`${operation.operationId} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(step.query).toString();
  return ourPath(path) + (query ? `?${query}` : "");
}

const operations = documentedOperations();
const order = Object.keys(SCENARIO);
const rank = (operation: DocumentedOperation) => {
  const at = order.indexOf(operation.operationId);
  return at === -1 ? order.length : at;
};
const exercised = new Set<string>();

describe("hindclaw's document, operation by operation", () => {
  it("has the 26 operations API.md describes, each with a step of the scenario and no step without one", () => {
    expect(operations).toHaveLength(26);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(26);
    expect(order.filter((id) => !operations.some((o) => o.operationId === id))).toEqual([]);
  });

  for (const operation of [...operations].sort((a, b) => rank(a) - rank(b))) {
    it(`${operation.operationId}: ${operation.method} ${operation.path}`, async () => {
      const step = SCENARIO[operation.operationId]?.();
      expect(step, `the scenario has no request for ${operation.operationId}`).toBeDefined();
      const body = step!.body;
      const requestSchema = jsonSchemaOf((operation.operation as { requestBody?: unknown }).requestBody);
      if (requestSchema !== undefined) expect(violations(requestSchema, body), "the request is valid for the document").toEqual([]);

      const res: ApiResponse = await request(operation.method, urlFor(operation, step!), { token: tokens[step!.as], body });
      expect([...operation.statuses, ...CONTRACT_ERROR_STATUSES], `status ${res.status}: ${res.text}`).toContain(res.status);
      expect(operation.statuses, `a valid request succeeds as documented: ${res.text}`).toContain(res.status);

      const responseSchema = jsonSchemaOf(operation.operation.responses[String(res.status)]);
      if (responseSchema === undefined) expect(res.text, "an answer the document gives no body").toBe("");
      else expect(violations(responseSchema, res.body), "the answer validates against the document's response schema").toEqual([]);
      step!.check?.(res.body);
      exercised.add(operation.operationId);
    });
  }

  it("ran every operation of the document", () => {
    expect([...exercised].sort()).toEqual(operations.map((o) => o.operationId).sort());
  });
});
