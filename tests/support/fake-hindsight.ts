import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import hindsightDocument from "@/lib/services/banks/hindsight-banks-openapi.json";
import { openApiSchemas } from "@/lib/shared/openapi-schemas";
import itemsDocument from "../fixtures/hindsight-bank-items-openapi.json";
import { listenOnLoopback } from "./loopback";

/*
 * A strict fake Hindsight, built from its OpenAPI document (lib/services/banks/hindsight-banks-openapi.json,
 * the facts `npm run schema:vendor` keeps). Every operation of the document is served from banks kept in
 * memory. A request the document does not allow is refused as FastAPI would and recorded in `violations`:
 * an unknown path 404, a method the path does not have 405, a query parameter it does not list, a
 * parameter or body its schema refuses 422 with an HTTPValidationError (ajv checks them against the
 * document's schemas). Imports behave as Hindsight's: the defaults of the document's schemas filled in
 * (ajv `useDefaults`), null config fields ignored, keys the schemas do not name dropped; a dry run
 * validates only, calls every entry "created" and the config applied when a bank section is there, and
 * stores nothing. Every answer is checked against the document's response schema before it is sent (a
 * mismatch is a crash, recorded in `violations`), so the fake cannot drift from the document. A per-bank
 * call on a bank it does not hold answers 404 as Hindsight does; that is not a violation. Tests assert
 * that `violations` stays empty for well-formed calls. With its bank-config API off (`bankConfigApi`,
 * as HINDSIGHT_API_ENABLE_BANK_CONFIG_API=false) the three `/config` operations answer 404 whether
 * or not the bank exists, as Hindsight does; everything else, the import's config included, works.
 */

interface FakeBank {
  /** Defaults to the bank id, as the real import names a bank it creates. */
  name?: string;
  background?: string | null;
  /** Per-bank config overrides, merged field by field by each import. */
  config: Record<string, unknown>;
  /** Mental models by id, each the manifest entry last applied with Hindsight's defaults filled in. */
  mentalModels: Map<string, Record<string, unknown>>;
  /** Directives by name, likewise. */
  directives: Map<string, Record<string, unknown>>;
  createdAt?: string;
  updatedAt?: string;
}

interface FakeRequest {
  method: string;
  /** The path without query, as sent (still percent-encoded). */
  path: string;
  /** Each query key with its last value (FastAPI's reading of a scalar parameter). */
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
  /** Answers 500 to this one operation of the document (by operationId) until set to null. */
  failOperation(operationId: string | null): void;
  /** Turns the bank-config API on or off, as HINDSIGHT_API_ENABLE_BANK_CONFIG_API does (on unless the options said off). */
  setBankConfigApi(enabled: boolean): void;
  /** Seeds a bank, as if imported earlier with an empty manifest. */
  addBank(bankId: string, name?: string): FakeBank;
  close(): Promise<void>;
}

export interface FakeHindsightOptions {
  /** When set, every request must carry `Authorization: Bearer <apiKey>`, else 401. */
  apiKey?: string;
  /** False: started as with HINDSIGHT_API_ENABLE_BANK_CONFIG_API=false (the `/config` operations answer 404). */
  bankConfigApi?: boolean;
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

type Entry = Record<string, unknown>;

export async function startFakeHindsight(options: FakeHindsightOptions = {}): Promise<FakeHindsight> {
  const requests: FakeRequest[] = [];
  const violations: string[] = [];
  const banks = new Map<string, FakeBank>();
  const timers = new Set<NodeJS.Timeout>();
  let mode: FakeMode = "ok";
  let slowMs = 1000;
  let failingOperation: string | null = null;
  let bankConfigApi = options.bankConfigApi ?? true;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const received = await receive(req);
    requests.push(received.request);
    const failing = (operationId: string) => mode === "fail" || operationId === failingOperation;
    const answer = route(received, { apiKey: options.apiKey, banks, violations, failing, bankConfigApi });
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
    failOperation(operationId) {
      if (operationId !== null && !OPERATIONS.some((o) => o.id === operationId))
        throw new Error(`no operation ${operationId} in the document`);
      failingOperation = operationId;
    },
    setBankConfigApi(enabled) {
      bankConfigApi = enabled;
    },
    addBank(bankId, name) {
      const bank = newBank(name ?? bankId);
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

function newBank(name: string): FakeBank {
  const now = new Date().toISOString();
  return { name, background: null, config: {}, mentalModels: new Map(), directives: new Map(), createdAt: now, updatedAt: now };
}

// ---------------------------------------------------------------------------------------------------------
// The document: its operations, and ajv over its schemas

type SchemaNode = Record<string, unknown>;

interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  schema: SchemaNode;
}

interface OperationObject {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: SchemaNode }> };
  responses: Record<string, { content?: Record<string, { schema: SchemaNode }> }>;
}

/** What one document says of an operation: its parameters, body and answers, compiled against that document's schemas. */
interface Declaration {
  parameters: Parameter[];
  body: { required: boolean; validate: ValidateFunction } | null;
  /** The response schema of each documented status. */
  responses: Map<number, ValidateFunction>;
}

interface Operation extends Declaration {
  id: string;
  method: string;
  pattern: RegExp;
  /** Path parameter names in the order of the pattern's groups. */
  pathNames: string[];
  /** The same operation as the other documents declare it: a request and an answer must satisfy each of them too. */
  others: Declaration[];
}

interface OpenApiDocument {
  paths: unknown;
  components: { schemas: unknown };
}

const schemas = hindsightDocument.components.schemas as unknown as Record<string, SchemaNode>;

/**
 * Hindsight reads the import body itself, so the document names no request body for it; the body it
 * parses is a BankTemplateManifest (the schema the document keeps for it and answers from the export).
 */
const UNDECLARED_BODIES: Record<string, string> = { import_bank_template: "BankTemplateManifest" };

const checker = openApiSchemas(hindsightDocument, { allErrors: true });
const filler = openApiSchemas(hindsightDocument, { useDefaults: true });
/** Inline schemas (parameters, the empty response of the schema endpoint) and $ref ones alike. */
const compile = (schema: SchemaNode) => checker.compile(schema);

/**
 * A schema with OpenAPI 3.0's `nullable: true` (which the item endpoints' document keeps, some without a
 * `type` that ajv could widen) in 3.1's words: `anyOf: [schema, {type: "null"}]`. The same facts.
 */
function nullableAsAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableAsAnyOf);
  if (node === null || typeof node !== "object") return node;
  const { nullable, ...rest } = node as SchemaNode;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, nullableAsAnyOf(value)]));
  return nullable === true ? { anyOf: [converted, { type: "null" }] } : converted;
}

/** Every operation a document declares, its schemas compiled against that document. */
function operationsOf(source: OpenApiDocument): Operation[] {
  const document = source === hindsightDocument ? source : (nullableAsAnyOf(source) as OpenApiDocument);
  // The item endpoints' document leaves `type: "object"` out of its objects: ajv need not say so each time.
  const own = document === hindsightDocument ? checker : openApiSchemas(document, { allErrors: true, strictTypes: false });
  const paths = document.paths as Record<string, Record<string, OperationObject>>;
  return Object.entries(paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]): Operation => {
      const pathNames = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "([^/]+)")}$`);
      const declared = op.requestBody?.content["application/json"]?.schema;
      const bodySchema =
        declared ?? (UNDECLARED_BODIES[op.operationId] ? { $ref: `#/components/schemas/${UNDECLARED_BODIES[op.operationId]}` } : null);
      const responses = new Map(
        Object.entries(op.responses).map(([status, response]) => [
          Number(status),
          own.compile(response.content?.["application/json"]?.schema ?? {}),
        ]),
      );
      return {
        id: op.operationId,
        method: method.toUpperCase(),
        pattern,
        pathNames,
        parameters: op.parameters ?? [],
        body: bodySchema ? { required: op.requestBody?.required ?? true, validate: own.compile(bodySchema) } : null,
        responses,
        others: [],
      };
    }),
  );
}

/**
 * The operations of Hindsight's bank endpoints, then those of its item endpoints (CONTRACT §21) that
 * the first does not declare. One both declare (the lists, the creations, `/config`) is one operation
 * checked against each document: a request or an answer either refuses is refused.
 */
const OPERATIONS: Operation[] = [];
for (const operation of [hindsightDocument, itemsDocument].flatMap(operationsOf)) {
  const same = OPERATIONS.find((o) => o.method === operation.method && o.pattern.source === operation.pattern.source);
  if (!same) OPERATIONS.push(operation);
  else if (same.id !== operation.id)
    throw new Error(`the documents name ${operation.method} ${operation.pattern.source} ${same.id} and ${operation.id}`);
  else same.others.push(operation);
}

/** What FastAPI answers outside the document (401, 404, 405, 500): `{detail: string}`. */
const validateErrorDetail = checker.compile({ type: "object", required: ["detail"], properties: { detail: { type: "string" } } });

/** A copy of a manifest entry (or a create request) as Hindsight stores it: defaults filled in, keys its schema does not name dropped. */
function stored(schemaName: string, entry: Entry): Entry {
  const copy = structuredClone(entry);
  filler.named(schemaName)(copy);
  const known = Object.keys((schemas[schemaName]!.properties ?? {}) as SchemaNode);
  return Object.fromEntries(Object.entries(copy).filter(([key]) => known.includes(key)));
}

// ---------------------------------------------------------------------------------------------------------
// FastAPI's validation errors from ajv's

const TYPE_WORDS: Record<string, [string, string]> = {
  string: ["a valid string", "string_type"],
  integer: ["a valid integer", "int_type"],
  number: ["a valid number", "float_type"],
  boolean: ["a valid boolean", "bool_type"],
  array: ["a valid list", "list_type"],
  object: ["a valid dictionary", "dict_type"],
  null: ["None", "none_required"],
};

/** `'a', 'b' or 'c'`, as Pydantic lists allowed values. */
const listed = (values: unknown[]) =>
  values
    .map((v) => `'${String(v)}'`)
    .join(", ")
    .replace(/, ([^,]*)$/, " or $1");

function asValidationError(error: ErrorObject, loc: Array<string | number>): ValidationError {
  const at = [
    ...loc,
    ...error.instancePath
      .split("/")
      .slice(1)
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
  ];
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { loc: [...at, String(params.missingProperty)], msg: "Field required", type: "missing" };
    case "type": {
      const [words, type] = TYPE_WORDS[String(params.type)] ?? [String(params.type), "type_error"];
      return { loc: at, msg: `Input should be ${words}`, type };
    }
    case "enum":
      return { loc: at, msg: `Input should be ${listed(params.allowedValues as unknown[])}`, type: "enum" };
    case "minimum":
      return { loc: at, msg: `Input should be greater than or equal to ${String(params.limit)}`, type: "greater_than_equal" };
    case "maximum":
      return { loc: at, msg: `Input should be less than or equal to ${String(params.limit)}`, type: "less_than_equal" };
    default:
      return { loc: at, msg: error.message ?? "Invalid", type: error.keyword };
  }
}

/** ajv's errors as FastAPI lists them: an anyOf's summary and its "must be null" branch add nothing to the other branch's error. */
function validationErrors(validate: ValidateFunction, value: unknown, loc: Array<string | number>): ValidationError[] {
  if (validate(value)) return [];
  const all = validate.errors ?? [];
  const telling = all.filter((e) => e.keyword !== "anyOf" && !(e.keyword === "type" && (e.params as { type?: string }).type === "null"));
  return (telling.length > 0 ? telling : all).map((e) => asValidationError(e, loc));
}

// ---------------------------------------------------------------------------------------------------------
// Plumbing

interface Received {
  request: FakeRequest;
  /** Every value of each query key, for array parameters. */
  queryValues: Map<string, string[]>;
  /** The body text did not parse as JSON. */
  badJson: boolean;
}

async function receive(req: IncomingMessage): Promise<Received> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const url = new URL(req.url ?? "/", "http://fake-hindsight");
  const queryValues = new Map<string, string[]>();
  for (const [key, value] of url.searchParams) queryValues.set(key, [...(queryValues.get(key) ?? []), value]);
  const query = Object.fromEntries([...queryValues].map(([key, values]) => [key, values.at(-1)!]));
  let body: unknown;
  let badJson = false;
  if (text !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
      badJson = true;
    }
  }
  return { request: { method: req.method ?? "GET", path: url.pathname, query, headers: req.headers, body }, queryValues, badJson };
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
  failing: (operationId: string) => boolean;
  bankConfigApi: boolean;
}

interface Call {
  operation: Operation;
  params: { path: Record<string, string>; query: Record<string, unknown> };
  body: unknown;
  banks: Map<string, FakeBank>;
  bankConfigApi: boolean;
}

/** The operation a request names with its decoded path parameters, else FastAPI's 404 or 405. */
function match(req: FakeRequest): { operation: Operation; path: Record<string, string> } | Answer {
  const onPath = OPERATIONS.flatMap((operation) => {
    const found = operation.pattern.exec(req.path);
    return found ? [{ operation, groups: found.slice(1) }] : [];
  });
  if (onPath.length === 0) return { status: 404, body: { detail: "Not Found" } };
  const hit = onPath.find((candidate) => candidate.operation.method === req.method);
  if (!hit) return { status: 405, body: { detail: "Method Not Allowed" } };
  try {
    const path = Object.fromEntries(hit.operation.pathNames.map((name, i) => [name, decodeURIComponent(hit.groups[i]!)]));
    return { operation: hit.operation, path };
  } catch {
    // Starlette would not route a path it cannot decode.
    return { status: 404, body: { detail: "Not Found" } };
  }
}

function route(received: Received, ctx: Context): Answer {
  const req = received.request;
  const label = `${req.method} ${req.path}`;
  const matched = match(req);
  if ("status" in matched) {
    ctx.violations.push(
      `${label}: ${matched.status === 405 ? "a method the document does not give this path" : "not a path of the document"}`,
    );
    return checkedAnswer(null, matched);
  }
  const { operation } = matched;
  checkHeaders(req, label, ctx.violations);
  if (ctx.apiKey !== undefined && req.headers.authorization !== `Bearer ${ctx.apiKey}`) {
    return checkedAnswer(null, { status: 401, body: { detail: "Invalid or missing API key" } });
  }
  for (const [key, values] of received.queryValues) {
    const parameter = operation.parameters.find((p) => p.in === "query" && p.name === key);
    if (parameter && values.length > 1 && !isArrayParameter(parameter)) ctx.violations.push(`${label}: query parameter ${key} is repeated`);
  }
  const { errors, query } = checkRequest(operation, received, matched.path);
  if (errors.length > 0) {
    for (const e of errors) ctx.violations.push(`${label}: ${e.loc.join(".")}: ${e.msg}`);
    return checkedAnswer(operation, { status: 422, body: { detail: errors } });
  }
  if (ctx.failing(operation.id)) return checkedAnswer(null, { status: 500, body: { detail: "Internal Server Error" } });
  const call = { operation, params: { path: matched.path, query }, body: req.body, banks: ctx.banks, bankConfigApi: ctx.bankConfigApi };
  const answer = HANDLERS[operation.id]!(call);
  return checkedAnswer(operation, answer);
}

/** The answer, once it validates against the document's schema for its status (FastAPI's `{detail}` for the statuses the document leaves out). */
function checkedAnswer(operation: Operation | null, answer: Answer): Answer {
  const declarations = operation ? [operation, ...operation.others] : [];
  const validators = declarations.map((declared) => declared.responses.get(answer.status) ?? validateErrorDetail);
  const errors = (validators.length > 0 ? validators : [validateErrorDetail]).flatMap((validate) =>
    validationErrors(validate, answer.body, ["response"]),
  );
  if (errors.length > 0) {
    const what = operation ? `${operation.id} ${answer.status}` : String(answer.status);
    throw new Error(`the fake answered ${what} with a body its document refuses: ${JSON.stringify(errors)}`);
  }
  return answer;
}

/** What our client promises on every call; Hindsight itself would not refuse these, so they are only recorded. */
function checkHeaders(req: FakeRequest, label: string, violations: string[]): void {
  const accept = req.headers.accept ?? "";
  if (!/application\/json|\*\/\*/.test(accept)) violations.push(`${label}: Accept is "${accept}", not application/json`);
  if (req.method === "GET" && req.body !== undefined) violations.push(`${label}: a GET with a body`);
}

const isArrayParameter = (parameter: Parameter) =>
  parameter.schema.type === "array" || ((parameter.schema.anyOf as SchemaNode[] | undefined) ?? []).some((s) => s.type === "array");

/** Pydantic's reading of a query string as the parameter's type; an error when it is not one. */
function fromQuery(parameter: Parameter, values: string[]): { value: unknown } | { error: ValidationError } {
  const loc = ["query", parameter.name];
  if (isArrayParameter(parameter)) return { value: values };
  const text = values.at(-1)!;
  if (parameter.schema.type === "integer") {
    if (!/^\s*[+-]?\d+\s*$/.test(text)) {
      return { error: { loc, msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" } };
    }
    return { value: Number(text) };
  }
  if (parameter.schema.type === "boolean") {
    const lower = text.toLowerCase();
    if (["1", "on", "t", "true", "y", "yes"].includes(lower)) return { value: true };
    if (["0", "off", "f", "false", "n", "no"].includes(lower)) return { value: false };
    return { error: { loc, msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" } };
  }
  return { value: text };
}

/**
 * The request checked against each document that declares its operation (errors once each), and the
 * query as typed values with the first document's defaults.
 */
function checkRequest(operation: Operation, received: Received, path: Record<string, string>) {
  const { errors, query } = checkDeclared(operation, received, path);
  const said = new Set(errors.map((e) => `${e.loc.join(".")}: ${e.msg}`));
  for (const other of operation.others) {
    for (const error of checkDeclared(other, received, path).errors) {
      const text = `${error.loc.join(".")}: ${error.msg}`;
      if (!said.has(text)) errors.push(error);
      said.add(text);
    }
  }
  return { errors, query };
}

/** Query and path parameters in the document's order, then the body; the query as typed values with the document's defaults. */
function checkDeclared(operation: Declaration, received: Received, path: Record<string, string>) {
  const errors: ValidationError[] = [];
  const query: Record<string, unknown> = {};
  for (const key of received.queryValues.keys()) {
    if (!operation.parameters.some((p) => p.in === "query" && p.name === key)) {
      errors.push({ loc: ["query", key], msg: "Not a query parameter of this operation", type: "extra_forbidden" });
    }
  }
  for (const parameter of operation.parameters) {
    if (parameter.in === "header") continue;
    const loc = [parameter.in, parameter.name];
    const values = parameter.in === "path" ? [path[parameter.name]!] : received.queryValues.get(parameter.name);
    if (values === undefined) {
      if (parameter.required) errors.push({ loc, msg: "Field required", type: "missing" });
      else if ("default" in parameter.schema) query[parameter.name] = parameter.schema.default;
      continue;
    }
    const read = fromQuery(parameter, values);
    if ("error" in read) {
      errors.push(read.error);
      continue;
    }
    const found = validationErrors(compile(parameter.schema), read.value, loc);
    errors.push(...found);
    if (found.length === 0 && parameter.in === "query") query[parameter.name] = read.value;
  }
  errors.push(...checkBody(operation, received));
  return { errors, query };
}

function checkBody(operation: Declaration, received: Received): ValidationError[] {
  const { body, headers } = received.request;
  if (!operation.body) return body === undefined ? [] : [{ loc: ["body"], msg: "This operation takes no body", type: "extra_forbidden" }];
  if (body === undefined) return operation.body.required ? [{ loc: ["body"], msg: "Field required", type: "missing" }] : [];
  if (!/^application\/json\s*(;|$)/i.test(headers["content-type"] ?? "")) {
    return [{ loc: ["body"], msg: "Input should be a valid dictionary or object to extract fields from", type: "model_attributes_type" }];
  }
  if (received.badJson) return [{ loc: ["body", 0], msg: "JSON decode error", type: "json_invalid" }];
  return validationErrors(operation.body.validate, body, ["body"]);
}

// ---------------------------------------------------------------------------------------------------------
// Behaviour

type Handler = (call: Call) => Answer;

const ok = (body: unknown): Answer => ({ status: 200, body });
const bankMissing = (bankId: string): Answer => ({ status: 404, body: { detail: `Bank '${bankId}' not found` } });

/** Runs `then` on the path's bank, or answers Hindsight's 404 when it holds none. */
const onBank =
  (then: (bankId: string, bank: FakeBank, call: Call) => Answer): Handler =>
  (call) => {
    const bankId = call.params.path.bank_id!;
    const bank = call.banks.get(bankId);
    return bank ? then(bankId, bank, call) : bankMissing(bankId);
  };

/**
 * A `/config` operation, served only while the bank-config API is on. Off, Hindsight answers before
 * it looks for the bank (after authentication and validation): 404 with this detail.
 */
const bankConfigApi =
  (then: Handler): Handler =>
  (call) =>
    call.bankConfigApi
      ? then(call)
      : {
          status: 404,
          body: { detail: "Bank configuration API is disabled. Set HINDSIGHT_API_ENABLE_BANK_CONFIG_API=true to re-enable." },
        };

/** The config fields a bank template may set: what an import and the profile writes store as overrides. */
const CONFIG_FIELDS = Object.keys(schemas.BankTemplateConfig!.properties as SchemaNode);

/** Sets each non-null field; Hindsight ignores nulls. Whether anything was set. */
function setFields(target: Entry, fields: Entry): boolean {
  const set = Object.entries(fields).filter(([, value]) => value !== null);
  for (const [key, value] of set) target[key] = value;
  return set.length > 0;
}

const touch = (bank: FakeBank) => {
  bank.updatedAt = new Date().toISOString();
};

/** An update request's fields that set something (Hindsight leaves a field sent as null as it was). */
const withoutNullFields = (request: Entry) => Object.fromEntries(Object.entries(request).filter(([, value]) => value !== null));

/** Runs `then` on the path's mental model; 404 when the bank or the model is missing. */
const onMentalModel = (then: (bankId: string, bank: FakeBank, model: Entry, call: Call) => Answer): Handler =>
  onBank((bankId, bank, call) => {
    const id = call.params.path.mental_model_id!;
    const model = bank.mentalModels.get(id);
    return model ? then(bankId, bank, model, call) : { status: 404, body: { detail: `Mental model '${id}' not found` } };
  });

/** Runs `then` on the path's directive, found by the id its answers give it; 404 when the bank or the directive is missing. */
const onDirective = (then: (bankId: string, bank: FakeBank, directive: Entry, call: Call) => Answer): Handler =>
  onBank((bankId, bank, call) => {
    const id = call.params.path.directive_id!;
    const directive = [...bank.directives.values()].find((d) => directiveId(bankId, d) === id);
    return directive ? then(bankId, bank, directive, call) : { status: 404, body: { detail: `Directive '${id}' not found` } };
  });

const HANDLERS: Record<string, Handler> = {
  list_banks: ({ params, banks }) => {
    const q = String(params.query.q ?? "").toLowerCase();
    const matching = [...banks.entries()]
      .filter(([id, bank]) => id.toLowerCase().includes(q) || (bank.name ?? id).toLowerCase().includes(q))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, bank]) => listItem(id, bank));
    const page = pageOf(matching, params.query);
    return ok({ banks: page.items, ...page.paging });
  },
  import_bank_template: ({ params, body, banks }) =>
    importManifest(banks, params.path.bank_id!, body as Entry, params.query.dry_run === true),
  export_bank_template: onBank((_bankId, bank) =>
    ok({
      version: "1",
      bank: { ...bank.config },
      mental_models: [...bank.mentalModels.values()],
      directives: [...bank.directives.values()],
    }),
  ),
  get_bank_template_schema: () => ok(schemas.BankTemplateManifest),
  get_bank_config: bankConfigApi(onBank((bankId, bank) => ok(configResponse(bankId, bank)))),
  update_bank_config: bankConfigApi(
    onBank((bankId, bank, { body }) => {
      for (const [key, value] of Object.entries((body as { updates: Entry }).updates)) {
        bank.config[key.replace(/^HINDSIGHT_API_/, "").toLowerCase()] = value;
      }
      touch(bank);
      return ok(configResponse(bankId, bank));
    }),
  ),
  reset_bank_config: bankConfigApi(
    onBank((bankId, bank) => {
      bank.config = {};
      touch(bank);
      return ok(configResponse(bankId, bank));
    }),
  ),
  get_bank_profile: onBank((bankId, bank) => ok(profile(bankId, bank))),
  update_bank_disposition: onBank((bankId, bank, { body }) => {
    applyProfile(bank, body as Entry);
    return ok(profile(bankId, bank));
  }),
  update_bank: onBank((bankId, bank, { body }) => {
    applyProfile(bank, body as Entry);
    return ok(profile(bankId, bank));
  }),
  create_or_update_bank: ({ params, body, banks }) => {
    const bankId = params.path.bank_id!;
    const bank = banks.get(bankId) ?? newBank(bankId);
    banks.set(bankId, bank);
    applyProfile(bank, body as Entry);
    return ok(profile(bankId, bank));
  },
  delete_bank: ({ params, banks }) => {
    const bankId = params.path.bank_id!;
    if (!banks.delete(bankId)) return bankMissing(bankId);
    return ok({ success: true, message: `Bank '${bankId}' deleted`, deleted_count: null });
  },
  list_mental_models: onBank((bankId, bank, { params }) => {
    const models = [...bank.mentalModels.values()].filter((m) => tagsMatch(m.tags, params.query));
    const page = pageOf(models, params.query);
    return ok({ items: page.items.map((m) => mentalModelResponse(bankId, bank, m, String(params.query.detail))), ...page.paging });
  }),
  create_mental_model: onBank((_bankId, bank, { body }) => {
    const request = body as Entry;
    const id = typeof request.id === "string" ? request.id : randomUUID();
    bank.mentalModels.set(id, stored("BankTemplateMentalModel", { ...request, id }));
    touch(bank);
    return ok({ mental_model_id: id, operation_id: randomUUID() });
  }),
  list_directives: onBank((bankId, bank, { params }) => {
    const directives = [...bank.directives.values()]
      .filter((d) => d.is_active !== false || params.query.active_only === false)
      .filter((d) => tagsMatch(d.tags, params.query));
    const page = pageOf(directives, params.query);
    return ok({ items: page.items.map((d) => directiveResponse(bankId, bank, d)), ...page.paging });
  }),
  create_directive: onBank((bankId, bank, { body }) => {
    const directive = stored("BankTemplateDirective", body as Entry);
    bank.directives.set(String(directive.name), directive);
    touch(bank);
    return ok(directiveResponse(bankId, bank, directive));
  }),
  // One bank's items in place (tests/fixtures/hindsight-bank-items-openapi.json).
  get_mental_model: onMentalModel((bankId, bank, model, { params }) =>
    ok(mentalModelResponse(bankId, bank, model, String(params.query.detail))),
  ),
  update_mental_model: onMentalModel((bankId, bank, model, { body }) => {
    // Fields set to null are left as they are; a trigger given is taken whole (its defaults filled in).
    const updated = stored("BankTemplateMentalModel", { ...model, ...withoutNullFields(body as Entry) });
    bank.mentalModels.set(String(model.id), updated);
    touch(bank);
    return ok(mentalModelResponse(bankId, bank, updated, "full"));
  }),
  delete_mental_model: onMentalModel((_bankId, bank, model) => {
    bank.mentalModels.delete(String(model.id));
    touch(bank);
    return ok({});
  }),
  get_directive: onDirective((bankId, bank, directive) => ok(directiveResponse(bankId, bank, directive))),
  update_directive: onDirective((bankId, bank, directive, { body }) => {
    const updated = stored("BankTemplateDirective", { ...directive, ...withoutNullFields(body as Entry) });
    bank.directives.delete(String(directive.name));
    bank.directives.set(String(updated.name), updated);
    touch(bank);
    return ok(directiveResponse(bankId, bank, updated));
  }),
  delete_directive: onDirective((_bankId, bank, directive) => {
    bank.directives.delete(String(directive.name));
    touch(bank);
    return ok({});
  }),
};

// A newer document with an operation the fake does not serve fails every test that starts it.
for (const { id } of OPERATIONS) if (!HANDLERS[id]) throw new Error(`fake-hindsight has no handler for ${id} of its document`);

/**
 * Hindsight's import: a dry run validates only (every entry "created", the config applied when a bank
 * section is present, nothing stored); a real one creates the bank when missing, sets the non-null config
 * fields, and creates or replaces entries by id and name with the schema's defaults filled in.
 */
function importManifest(banks: Map<string, FakeBank>, bankId: string, manifest: Entry, dryRun: boolean): Answer {
  const models = (manifest.mental_models ?? []) as Entry[];
  const directives = (manifest.directives ?? []) as Entry[];
  const config = (manifest.bank ?? null) as Entry | null;
  if (dryRun) {
    return ok({
      bank_id: bankId,
      config_applied: config !== null,
      mental_models_created: models.map((m) => String(m.id)),
      mental_models_updated: [],
      directives_created: directives.map((d) => String(d.name)),
      directives_updated: [],
      operation_ids: [],
      dry_run: true,
    });
  }
  const bank = banks.get(bankId) ?? newBank(bankId);
  banks.set(bankId, bank);
  const known = Object.fromEntries(Object.entries(config ?? {}).filter(([key]) => CONFIG_FIELDS.includes(key)));
  const configApplied = setFields(bank.config, known);
  const split = <T>(keys: string[], existing: Map<string, T>) => ({
    created: keys.filter((k) => !existing.has(k)),
    updated: keys.filter((k) => existing.has(k)),
  });
  const modelKeys = split(
    models.map((m) => String(m.id)),
    bank.mentalModels,
  );
  const directiveKeys = split(
    directives.map((d) => String(d.name)),
    bank.directives,
  );
  for (const model of models) bank.mentalModels.set(String(model.id), stored("BankTemplateMentalModel", model));
  for (const directive of directives) bank.directives.set(String(directive.name), stored("BankTemplateDirective", directive));
  touch(bank);
  return ok({
    bank_id: bankId,
    config_applied: configApplied,
    mental_models_created: modelKeys.created,
    mental_models_updated: modelKeys.updated,
    directives_created: directiveKeys.created,
    directives_updated: directiveKeys.updated,
    // The real server starts content generation per mental model it writes.
    operation_ids: models.map(() => randomUUID()),
    dry_run: false,
  });
}

/** CreateBankRequest or UpdateDispositionRequest: non-null fields set; deprecated ones mapped as Hindsight maps them. */
function applyProfile(bank: FakeBank, request: Entry): void {
  const { name, disposition, mission, background, ...rest } = request;
  if (typeof name === "string") bank.name = name;
  if (background !== undefined && background !== null) bank.background = String(background);
  const traits = (disposition ?? {}) as Entry;
  setFields(bank.config, {
    ...Object.fromEntries(Object.entries(traits).map(([trait, value]) => [`disposition_${trait}`, value])),
    ...(mission !== undefined ? { reflect_mission: mission } : {}),
    ...Object.fromEntries(Object.entries(rest).filter(([key]) => CONFIG_FIELDS.includes(key))),
  });
  touch(bank);
}

// ---------------------------------------------------------------------------------------------------------
// Answers in the document's shapes

/** What a bank's resolved config holds besides its own overrides (a few of the server defaults). */
const SERVER_DEFAULTS: Entry = {
  retain_chunk_size: 3000,
  retain_extraction_mode: "concise",
  enable_observations: true,
  disposition_skepticism: 3,
  disposition_literalism: 3,
  disposition_empathy: 3,
};

const configResponse = (bankId: string, bank: FakeBank) => ({
  bank_id: bankId,
  config: { ...SERVER_DEFAULTS, ...bank.config },
  overrides: { ...bank.config },
});

function disposition(bank: FakeBank) {
  const trait = (key: string) => (typeof bank.config[key] === "number" ? bank.config[key] : 3);
  return {
    skepticism: trait("disposition_skepticism"),
    literalism: trait("disposition_literalism"),
    empathy: trait("disposition_empathy"),
  };
}

const mission = (bank: FakeBank) => (typeof bank.config.reflect_mission === "string" ? bank.config.reflect_mission : null);

const listItem = (bankId: string, bank: FakeBank) => ({
  bank_id: bankId,
  name: bank.name ?? bankId,
  disposition: disposition(bank),
  mission: mission(bank),
  created_at: bank.createdAt ?? null,
  updated_at: bank.updatedAt ?? null,
  fact_count: 0,
  last_document_at: null,
  last_write_at: null,
});

const profile = (bankId: string, bank: FakeBank) => ({
  bank_id: bankId,
  name: bank.name ?? bankId,
  disposition: disposition(bank),
  mission: mission(bank) ?? "",
  background: bank.background ?? null,
});

/** One page by the (validated, defaulted) limit and offset, with the paging fields of every list answer. */
function pageOf<T>(items: T[], query: Record<string, unknown>) {
  const limit = Number(query.limit);
  const offset = Number(query.offset);
  return { items: items.slice(offset, offset + limit), paging: { total: items.length, limit, offset } };
}

/** The `tags` filter of the list operations: any shares a tag, all holds every one, exact holds just these. */
function tagsMatch(entryTags: unknown, query: Record<string, unknown>): boolean {
  const wanted = query.tags as string[] | undefined;
  if (!wanted || wanted.length === 0) return true;
  const held = new Set(Array.isArray(entryTags) ? (entryTags as string[]) : []);
  if (query.tags_match === "all") return wanted.every((t) => held.has(t));
  if (query.tags_match === "exact") return wanted.length === held.size && wanted.every((t) => held.has(t));
  return wanted.some((t) => held.has(t));
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

/** A directive's id: a UUID stable per bank and name, as a stored row's would be (a fake that renames one gives it another). */
function directiveId(bankId: string, directive: Entry): string {
  const hex = createHash("sha256")
    .update(`${bankId}\0${String(directive.name)}`)
    .digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A DirectiveResponse. */
function directiveResponse(bankId: string, bank: FakeBank, directive: Entry) {
  return {
    id: directiveId(bankId, directive),
    bank_id: bankId,
    name: String(directive.name),
    content: String(directive.content),
    priority: directive.priority ?? 0,
    is_active: directive.is_active ?? true,
    tags: directive.tags ?? [],
    created_at: bank.createdAt ?? null,
    updated_at: bank.updatedAt ?? null,
  };
}
