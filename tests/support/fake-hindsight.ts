import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { checkManifest } from "@/lib/templates/manifest";
import { listenOnLoopback } from "./loopback";

/*
 * A fake Hindsight server for the calls of the remote bank store (the reference's list_banks,
 * import_bank_template, get_bank_config, list_mental_models, list_directives and get_bank_profile). It keeps
 * banks in memory, behaves like the real import, serves the reads from what the imports stored, and checks
 * every request against the reference: a mismatch is recorded in `violations` and, where FastAPI would refuse
 * it, answered 422 with an HTTPValidationError. A per-bank read of a bank it does not hold answers 404 (as
 * the reference documents for get_bank_profile); that is not a violation. Tests assert that `violations`
 * stays empty for well-formed calls.
 */

interface FakeBank {
  /** Defaults to the bank id, as the real import names a bank it creates. */
  name?: string;
  /** Per-bank config overrides, merged field by field by each import. */
  config: Record<string, unknown>;
  /** Mental models by id, each the manifest entry last applied. */
  mentalModels: Map<string, Record<string, unknown>>;
  /** Directives by name, each the manifest entry last applied. */
  directives: Map<string, Record<string, unknown>>;
  createdAt?: string;
  updatedAt?: string;
}

interface FakeRequest {
  method: string;
  /** The path without query, as sent (still percent-encoded). */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
}

type FakeMode = "ok" | "fail" | "slow";

export interface FakeHindsight {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  port: number;
  requests: FakeRequest[];
  violations: string[];
  banks: Map<string, FakeBank>;
  /** "fail" answers 500 to everything; "slow" waits `slowMs` (default 1000) before answering. */
  setMode(mode: FakeMode, slowMs?: number): void;
  /** Seeds a bank, as if imported earlier with an empty manifest. */
  addBank(bankId: string, name?: string): FakeBank;
  close(): Promise<void>;
}

export interface FakeHindsightOptions {
  /** When set, every request must carry `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
}

/** One entry of FastAPI's HTTPValidationError. */
interface ValidationError {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

interface Answer {
  status: number;
  body: unknown;
}

const LIST_PATH = "/v1/default/banks";
/** `/v1/default/banks/{bank_id}/{operation}`; the id may be empty, which matches nothing. */
const BANK_PATH = /^\/v1\/default\/banks\/([^/]*)\/([^/]+)$/;
const BANK_ONLY_PATH = /^\/v1\/default\/banks\/([^/]+)$/;

export async function startFakeHindsight(options: FakeHindsightOptions = {}): Promise<FakeHindsight> {
  const requests: FakeRequest[] = [];
  const violations: string[] = [];
  const banks = new Map<string, FakeBank>();
  const timers = new Set<NodeJS.Timeout>();
  let mode: FakeMode = "ok";
  let slowMs = 1000;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { recorded, repeated } = await record(req);
    requests.push(recorded);
    for (const key of repeated) violations.push(`${recorded.method} ${recorded.path}: query parameter ${key} is repeated`);
    const answer = route(recorded, { apiKey: options.apiKey, banks, violations, failing: mode === "fail" });
    if (mode === "slow") await sleep(slowMs, timers);
    if (!res.destroyed) send(res, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      violations.push(`fake-hindsight crashed: ${String(error)}`);
      if (!res.headersSent && !res.destroyed) send(res, { status: 500, body: { detail: "Internal Server Error" } });
    });
  });
  const port = await listenOnLoopback(server);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    violations,
    banks,
    setMode(next, ms) {
      mode = next;
      if (ms !== undefined) slowMs = ms;
    },
    addBank(bankId, name) {
      const now = new Date().toISOString();
      const bank: FakeBank = {
        name: name ?? bankId,
        config: {},
        mentalModels: new Map(),
        directives: new Map(),
        createdAt: now,
        updatedAt: now,
      };
      banks.set(bankId, bank);
      return bank;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Plumbing

/** The request as tests see it, and the query keys sent more than once (a client bug worth flagging). */
async function record(req: IncomingMessage): Promise<{ recorded: FakeRequest; repeated: string[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const url = new URL(req.url ?? "/", "http://fake-hindsight");
  const keys = [...url.searchParams.keys()];
  const repeated = [...new Set(keys.filter((key, i) => keys.indexOf(key) !== i))];
  const recorded = { method: req.method ?? "GET", path: url.pathname, query: queryOf(url), headers: req.headers, body: parseBody(text) };
  return { recorded, repeated };
}

/** Repeated keys keep the last value, as FastAPI does for scalar parameters. */
function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  return query;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, answer: Answer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) });
  res.end(body);
}

function sleep(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Routing and checks

interface Context {
  apiKey: string | undefined;
  banks: Map<string, FakeBank>;
  violations: string[];
  failing: boolean;
}

type Operation =
  | "list_banks"
  | "import_bank_template"
  | "get_bank_config"
  | "list_mental_models"
  | "list_directives"
  | "get_bank_profile"
  | "delete_bank";

/** The per-bank operations of the reference, by the last path segment. */
const BANK_OPERATIONS: Record<string, { method: string; operation: Operation }> = {
  import: { method: "POST", operation: "import_bank_template" },
  config: { method: "GET", operation: "get_bank_config" },
  "mental-models": { method: "GET", operation: "list_mental_models" },
  directives: { method: "GET", operation: "list_directives" },
  profile: { method: "GET", operation: "get_bank_profile" },
};

interface Matched {
  operation: Operation;
  /** Decoded; null for list_banks. */
  bankId: string | null;
}

function match(req: FakeRequest): Matched | null {
  if (req.path === LIST_PATH) return req.method === "GET" ? { operation: "list_banks", bankId: null } : null;
  const bankOnly = BANK_ONLY_PATH.exec(req.path);
  if (bankOnly) {
    const bankId = decodeSegment(bankOnly[1]!);
    return req.method === "DELETE" && bankId ? { operation: "delete_bank", bankId } : null;
  }
  const found = BANK_PATH.exec(req.path);
  const spec = found ? BANK_OPERATIONS[found[2]!] : undefined;
  const bankId = found ? decodeSegment(found[1]!) : null;
  if (!spec || !bankId || spec.method !== req.method) return null;
  return { operation: spec.operation, bankId };
}

function route(req: FakeRequest, ctx: Context): Answer {
  const label = `${req.method} ${req.path}`;
  const matched = match(req);
  if (!matched) {
    ctx.violations.push(`${label}: not an endpoint of the reference the fake serves`);
    return { status: 404, body: { detail: "Not Found" } };
  }
  checkHeaders(req, label, ctx.violations);
  if (!authorized(req, ctx.apiKey)) return { status: 401, body: { detail: "Invalid or missing API key" } };

  const errors = CHECKS[matched.operation](req, label, ctx.violations);
  if (errors.length > 0) {
    for (const e of errors) ctx.violations.push(`${label}: ${e.loc.join(".")}: ${e.msg}`);
    return { status: 422, body: { detail: errors } };
  }
  if (ctx.failing) return { status: 500, body: { detail: "Internal Server Error" } };
  if (matched.bankId === null) return listBanks(ctx.banks, req.query);
  if (matched.operation === "import_bank_template") return importManifest(ctx.banks, matched.bankId, req);
  const bank = ctx.banks.get(matched.bankId);
  if (!bank) return { status: 404, body: { detail: `Bank '${matched.bankId}' not found` } };
  if (matched.operation === "delete_bank") {
    ctx.banks.delete(matched.bankId);
    return { status: 200, body: { success: true, message: `Bank '${matched.bankId}' deleted` } };
  }
  return READS[matched.operation as keyof typeof READS](matched.bankId, bank, req.query);
}

/** A malformed percent-escape cannot name a bank; treat it like a path that does not match. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** What our client promises on every call; Hindsight itself would not refuse these, so they are only recorded. */
function checkHeaders(req: FakeRequest, label: string, violations: string[]): void {
  const accept = req.headers.accept ?? "";
  if (!/application\/json|\*\/\*/.test(accept)) violations.push(`${label}: Accept is "${accept}", not application/json`);
  if (req.method === "GET" && req.body !== undefined) violations.push(`${label}: a GET with a body`);
}

function authorized(req: FakeRequest, apiKey: string | undefined): boolean {
  return apiKey === undefined || req.headers.authorization === `Bearer ${apiKey}`;
}

/** Query keys outside the operation's parameters: FastAPI ignores them, so they are only recorded. */
function checkQueryKeys(req: FakeRequest, allowed: string[], label: string, violations: string[]): void {
  for (const key of Object.keys(req.query)) {
    if (!allowed.includes(key)) violations.push(`${label}: unknown query parameter ${key}`);
  }
}

type Check = (req: FakeRequest, label: string, violations: string[]) => ValidationError[];

const CHECKS: Record<Operation, Check> = {
  list_banks: checkListQuery,
  import_bank_template: checkImportRequest,
  get_bank_config: checkNoQuery,
  get_bank_profile: checkNoQuery,
  list_mental_models: checkMentalModelsQuery,
  list_directives: checkDirectivesQuery,
  delete_bank: checkNoQuery,
};

function checkListQuery(req: FakeRequest, label: string, violations: string[]): ValidationError[] {
  checkQueryKeys(req, ["q", "limit", "offset"], label, violations);
  return [intParam(req.query, "limit", 0), intParam(req.query, "offset", 0)].filter((e) => e !== null);
}

function checkNoQuery(req: FakeRequest, label: string, violations: string[]): ValidationError[] {
  checkQueryKeys(req, [], label, violations);
  return [];
}

function checkMentalModelsQuery(req: FakeRequest, label: string, violations: string[]): ValidationError[] {
  checkQueryKeys(req, ["tags", "tags_match", "detail", "limit", "offset"], label, violations);
  if (req.query.tags !== undefined) violations.push(`${label}: the fake does not filter by tags`);
  return [
    enumParam(req.query, "tags_match", ["any", "all", "exact"]),
    enumParam(req.query, "detail", ["metadata", "content", "full"]),
    intParam(req.query, "limit", 1, 1000),
    intParam(req.query, "offset", 0),
  ].filter((e) => e !== null);
}

function checkDirectivesQuery(req: FakeRequest, label: string, violations: string[]): ValidationError[] {
  checkQueryKeys(req, ["tags", "tags_match", "active_only", "limit", "offset"], label, violations);
  if (req.query.tags !== undefined) violations.push(`${label}: the fake does not filter by tags`);
  return [
    enumParam(req.query, "tags_match", ["any", "all", "exact"]),
    boolParam(req.query, "active_only"),
    intParam(req.query, "limit", 1, 1000),
    intParam(req.query, "offset", 0),
  ].filter((e) => e !== null);
}

function intParam(query: Record<string, string>, key: string, min: number, max?: number): ValidationError | null {
  const value = query[key];
  if (value === undefined) return null;
  if (!/^[+-]?\d+$/.test(value.trim())) {
    return { loc: ["query", key], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" };
  }
  if (Number(value) < min)
    return { loc: ["query", key], msg: `Input should be greater than or equal to ${min}`, type: "greater_than_equal" };
  if (max !== undefined && Number(value) > max) {
    return { loc: ["query", key], msg: `Input should be less than or equal to ${max}`, type: "less_than_equal" };
  }
  return null;
}

function enumParam(query: Record<string, string>, key: string, allowed: string[]): ValidationError | null {
  const value = query[key];
  if (value === undefined || allowed.includes(value)) return null;
  const expected = allowed
    .map((a) => `'${a}'`)
    .join(", ")
    .replace(/, ([^,]*)$/, " or $1");
  return { loc: ["query", key], msg: `Input should be ${expected}`, type: "enum" };
}

/** Pydantic's lenient boolean from a string; null when it is not one. */
function parseBool(value: string): boolean | null {
  const v = value.toLowerCase();
  if (["1", "on", "t", "true", "y", "yes"].includes(v)) return true;
  if (["0", "off", "f", "false", "n", "no"].includes(v)) return false;
  return null;
}

function boolParam(query: Record<string, string>, key: string): ValidationError | null {
  const value = query[key];
  if (value === undefined || parseBool(value) !== null) return null;
  return { loc: ["query", key], msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" };
}

function checkImportRequest(req: FakeRequest, label: string, violations: string[]): ValidationError[] {
  checkQueryKeys(req, ["dry_run"], label, violations);
  const errors: ValidationError[] = [];
  const dryRun = req.query.dry_run;
  if (dryRun !== undefined && dryRun !== "true" && dryRun !== "false") {
    errors.push({ loc: ["query", "dry_run"], msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" });
  }
  return [...errors, ...checkImportBody(req)];
}

function checkImportBody(req: FakeRequest): ValidationError[] {
  const type = req.headers["content-type"] ?? "";
  if (req.body === undefined) return [{ loc: ["body"], msg: "Field required", type: "missing" }];
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return [{ loc: ["body"], msg: "Input should be a valid dictionary or object to extract fields from", type: "model_attributes_type" }];
  }
  if (typeof req.body === "string") return [{ loc: ["body", 0], msg: "JSON decode error", type: "json_invalid" }];
  return checkManifest(req.body, "").errors.map((e) => ({ loc: ["body", ...pathParts(e.path)], msg: e.message, type: "value_error" }));
}

/** `mental_models[1].id` → ["mental_models", 1, "id"]; "(body)" is the root. */
function pathParts(path: string): Array<string | number> {
  if (path === "(body)") return [];
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]!));
}

// ---------------------------------------------------------------------------------------------------------
// Behaviour

function listBanks(banks: Map<string, FakeBank>, query: Record<string, string>): Answer {
  const q = (query.q ?? "").toLowerCase();
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  const matching = [...banks.entries()]
    .filter(([id, bank]) => id.toLowerCase().includes(q) || (bank.name ?? id).toLowerCase().includes(q))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const page = matching.slice(offset, offset + limit).map(([id, bank]) => listItem(id, bank));
  return { status: 200, body: { banks: page, total: matching.length, limit, offset } };
}

function listItem(bankId: string, bank: FakeBank) {
  const trait = (key: string) => (typeof bank.config[key] === "number" ? bank.config[key] : 3);
  return {
    bank_id: bankId,
    name: bank.name ?? bankId,
    disposition: {
      skepticism: trait("disposition_skepticism"),
      literalism: trait("disposition_literalism"),
      empathy: trait("disposition_empathy"),
    },
    mission: typeof bank.config.reflect_mission === "string" ? bank.config.reflect_mission : null,
    created_at: bank.createdAt ?? null,
    updated_at: bank.updatedAt ?? null,
    fact_count: 0,
    last_document_at: null,
    last_write_at: null,
  };
}

type Entry = Record<string, unknown>;

/** Created vs updated keys of a manifest section against what the bank holds; null leaves it alone. */
function split(entries: Entry[] | null, key: string, existing: Map<string, Entry> | undefined) {
  const keys = (entries ?? []).map((e) => String(e[key]));
  return { created: keys.filter((k) => !existing?.has(k)), updated: keys.filter((k) => existing?.has(k) ?? false) };
}

function importManifest(banks: Map<string, FakeBank>, bankId: string, req: FakeRequest): Answer {
  const manifest = req.body as Entry;
  const dryRun = req.query.dry_run === "true";
  const config = (manifest.bank ?? null) as Entry | null;
  const mentalModels = (manifest.mental_models ?? null) as Entry[] | null;
  const directives = (manifest.directives ?? null) as Entry[] | null;
  const existing = banks.get(bankId);
  const models = split(mentalModels, "id", existing?.mentalModels);
  const dirs = split(directives, "name", existing?.directives);
  // The real server starts content generation per mental model it writes; a dry run starts nothing.
  const operationIds = dryRun ? [] : [...models.created, ...models.updated].map(() => randomUUID());
  if (!dryRun) apply(banks, bankId, existing, { config, mentalModels, directives });
  const body = {
    bank_id: bankId,
    config_applied: config !== null && Object.keys(config).length > 0,
    mental_models_created: models.created,
    mental_models_updated: models.updated,
    directives_created: dirs.created,
    directives_updated: dirs.updated,
    operation_ids: operationIds,
    dry_run: dryRun,
  };
  return { status: 200, body };
}

interface Sections {
  config: Entry | null;
  mentalModels: Entry[] | null;
  directives: Entry[] | null;
}

function apply(banks: Map<string, FakeBank>, bankId: string, existing: FakeBank | undefined, sections: Sections): void {
  const now = new Date().toISOString();
  const bank: FakeBank = existing ?? { name: bankId, config: {}, mentalModels: new Map(), directives: new Map(), createdAt: now };
  Object.assign(bank.config, sections.config ?? {});
  for (const model of sections.mentalModels ?? []) bank.mentalModels.set(String(model.id), model);
  for (const directive of sections.directives ?? []) bank.directives.set(String(directive.name), directive);
  bank.updatedAt = now;
  banks.set(bankId, bank);
}

// ---------------------------------------------------------------------------------------------------------
// Reads of one bank, from what the imports stored

/** What a bank's resolved config holds besides its own overrides (a few of the server defaults). */
const SERVER_DEFAULTS: Entry = {
  retain_chunk_size: 3000,
  retain_extraction_mode: "concise",
  enable_observations: true,
  disposition_skepticism: 3,
  disposition_literalism: 3,
  disposition_empathy: 3,
};

type Read = (bankId: string, bank: FakeBank, query: Record<string, string>) => Answer;

const READS: Record<"get_bank_config" | "list_mental_models" | "list_directives" | "get_bank_profile", Read> = {
  get_bank_config: (bankId, bank) => ({
    status: 200,
    body: { bank_id: bankId, config: { ...SERVER_DEFAULTS, ...bank.config }, overrides: { ...bank.config } },
  }),
  list_mental_models: (bankId, bank, query) => {
    const detail = query.detail ?? "full";
    return page(
      [...bank.mentalModels.values()].map((model) => mentalModelResponse(bankId, bank, model, detail)),
      query,
    );
  },
  list_directives: (bankId, bank, query) => {
    const activeOnly = query.active_only === undefined ? true : parseBool(query.active_only)!;
    const all = [...bank.directives.values()].map((directive) => directiveResponse(bankId, bank, directive));
    return page(
      all.filter((d) => d.is_active || !activeOnly),
      query,
    );
  },
  get_bank_profile: (bankId, bank) => {
    const { disposition, mission } = listItem(bankId, bank);
    return { status: 200, body: { bank_id: bankId, name: bank.name ?? bankId, disposition, mission: mission ?? "", background: null } };
  },
};

/** One page of items, as MentalModelListResponse and DirectiveListResponse answer. */
function page(items: unknown[], query: Record<string, string>): Answer {
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  return { status: 200, body: { items: items.slice(offset, offset + limit), total: items.length, limit, offset } };
}

/** A MentalModelResponse at the requested detail: metadata (names/tags), content (adds the definition), full (adds reflect_response). */
function mentalModelResponse(bankId: string, bank: FakeBank, model: Entry, detail: string) {
  const metadata = { id: String(model.id), bank_id: bankId, name: model.name, tags: model.tags ?? [], created_at: bank.createdAt ?? null };
  if (detail === "metadata") return metadata;
  const content = {
    ...metadata,
    source_query: model.source_query ?? null,
    content: null,
    max_tokens: model.max_tokens ?? null,
    trigger: model.trigger ?? null,
    last_refreshed_at: null,
    last_memory_seen_at: null,
    is_stale: null,
  };
  return detail === "content" ? content : { ...content, reflect_response: null };
}

/** A DirectiveResponse; the id is stable per bank and name, as a stored row's would be. */
function directiveResponse(bankId: string, bank: FakeBank, directive: Entry) {
  const hex = createHash("sha256")
    .update(`${bankId}\0${String(directive.name)}`)
    .digest("hex");
  return {
    id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
    bank_id: bankId,
    name: String(directive.name),
    content: String(directive.content),
    priority: typeof directive.priority === "number" ? directive.priority : 0,
    is_active: directive.is_active !== false,
    tags: directive.tags ?? [],
    created_at: bank.createdAt ?? null,
    updated_at: bank.updatedAt ?? null,
  };
}
