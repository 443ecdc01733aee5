import fc from "fast-check";
import type { Caller, FuzzBody, FuzzRequest } from "./dispatch";
import {
  BAD_AUTHORIZATION,
  BAD_SESSION_COOKIES,
  CONTENT_TYPES,
  FORWARDED_FOR_JUNK,
  HOSTILE_QUERY_KEYS,
  HOSTILE_QUERY_VALUES,
  HOSTILE_SEGMENTS,
  hostileString,
  ORIGIN_HEADERS,
  RAW_BODY_BYTES,
  RAW_BODY_TEXTS,
} from "./hostile";
import { applyMutation, type JsonSchema, mutationArb, resolveRef, type SchemaContext, validArbitrary } from "./schema-arbitraries";

/** An OpenAPI parameter, as the document lists it. */
interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

/** One operation of the document, or a pseudo-operation (wrong method, unknown path). */
export interface Operation {
  /** `POST /ext/svc/me/templates`; pseudo-operations are named in parentheses. */
  key: string;
  method: string;
  pathTemplate: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  bodySchema?: JsonSchema;
  /** Fetches a marketplace: 502 and 504 are correct answers for an unreachable source. */
  marketplace: boolean;
  documented: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Paths whose handlers fetch a marketplace (install, update, check-update, update-preview, catalog). */
export const MARKETPLACE_PATH = /\/(install|update|check-update|update-preview|catalog)$/;

/** Every path × method of the document. */
export function documentedOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [pathTemplate, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const upper = method.toUpperCase();
      if (!(METHODS as readonly string[]).includes(upper)) continue;
      const parameters = op.parameters ?? [];
      operations.push({
        key: `${upper} ${pathTemplate}`,
        method: upper,
        pathTemplate,
        pathParams: parameters.filter((p) => p.in === "path"),
        queryParams: parameters.filter((p) => p.in === "query"),
        bodySchema: op.requestBody?.content["application/json"]?.schema,
        marketplace: MARKETPLACE_PATH.test(pathTemplate),
        documented: true,
      });
    }
  }
  return operations;
}

/** Pseudo-operations: each documented path with a method it lacks (405), and paths no route names (404). */
export function pseudoOperations(doc: OpenApiDocument): Operation[] {
  const wrongMethods: { method: string; pathTemplate: string; pathParams: Parameter[] }[] = [];
  for (const [pathTemplate, item] of Object.entries(doc.paths)) {
    const documented = Object.keys(item).map((m) => m.toUpperCase());
    const pathParams = Object.values(item).flatMap((op) => (op.parameters ?? []).filter((p) => p.in === "path"));
    const unique = [...new Map(pathParams.map((p) => [p.name, p])).values()];
    for (const method of METHODS) if (!documented.includes(method)) wrongMethods.push({ method, pathTemplate, pathParams: unique });
  }
  return [
    {
      key: "(method not in the document)",
      method: "*",
      pathTemplate: "*",
      pathParams: [],
      queryParams: [],
      marketplace: false,
      documented: false,
      wrongMethods,
    } as Operation & { wrongMethods: typeof wrongMethods },
    {
      key: "(path no route names)",
      method: "*",
      pathTemplate: "*",
      pathParams: [],
      queryParams: [],
      marketplace: false,
      documented: false,
    },
  ];
}

/** Percent-encodes every code unit, writing an unpaired surrogate as its (invalid) WTF-8 bytes. */
function encodeLoosely(value: string): string {
  let out = "";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** Callers of the pseudo-operations. */
const CALLERS = fc.oneof(
  { weight: 9, arbitrary: fc.constant<Caller>("admin") },
  { weight: 8, arbitrary: fc.constant<Caller>("member") },
  { weight: 3, arbitrary: fc.constant<Caller>("anonymous") },
);

// X-Request-Id values: kept when well formed, replaced otherwise; never a reason to fail.
const REQUEST_IDS = fc.option(
  fc.constantFrom("fuzz-request-1", "a.b_c-D", "", " ", "x".repeat(129), "has space", "semi;colon", "caf\u00e9", "../.."),
  {
    freq: 4,
  },
);

/** Path parameters of a write (PATCH, DELETE, POST) draw from pools that leave the callers themselves alone. */
const poolNameForPathParam = (method: string, name: string) => (method === "GET" ? `path.${name}` : `path.${name}.write`);

const hostileSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 2, arbitrary: hostileString.map(encodeLoosely) },
);

function validSegmentArb(ctx: SchemaContext, method: string, param: Parameter): fc.Arbitrary<string> {
  return validArbitrary(param.schema, ctx, poolNameForPathParam(method, param.name)).map((value) => encodeLoosely(String(value)));
}

/** Mostly valid segments; sometimes one of them hostile. */
function segmentArb(ctx: SchemaContext, method: string, param: Parameter): fc.Arbitrary<string> {
  return fc.oneof({ weight: 5, arbitrary: validSegmentArb(ctx, method, param) }, { weight: 1, arbitrary: hostileSegment });
}

function fillPath(template: string, segments: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? "x");
}

type QueryPair = [string, string];

function validQueryArb(ctx: SchemaContext, params: Parameter[]): fc.Arbitrary<QueryPair[]> {
  if (!params.length) return fc.constant([]);
  const pairs = params.map((p) => {
    const value = validArbitrary(p.schema, ctx, `query.${p.name}`).map((v): QueryPair | null => [p.name, encodeLoosely(String(v))]);
    if (p.required) return value;
    // A cursor is bound to the filters it was issued with: sent rarely, or most list requests end in 422.
    const absentWeight = p.name === "cursor" ? 4 : 1;
    return fc.oneof({ weight: absentWeight, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });
  });
  return fc.tuple(...pairs).map((list) => list.filter((pair): pair is QueryPair => pair !== null));
}

/** Valid pairs plus one to three hostile ones: unknown or unstorable keys, repeated keys, broken values. */
function hostileQueryArb(ctx: SchemaContext, params: Parameter[]): fc.Arbitrary<QueryPair[]> {
  const names = params.map((p) => p.name);
  const key = names.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_QUERY_KEYS) })
    : fc.constantFrom(...HOSTILE_QUERY_KEYS);
  const value = fc.oneof(fc.constantFrom(...HOSTILE_QUERY_VALUES), hostileString.map(encodeLoosely));
  const pairs = fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 3 });
  return fc.tuple(validQueryArb(ctx, params), pairs).map(([valid, hostile]) => [...valid, ...hostile]);
}

const withQuery = (path: string, pairs: QueryPair[]) => (pairs.length ? `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : path);

interface BodyPlan {
  body?: FuzzBody;
  contentType?: string;
}

const rawBodyArb: fc.Arbitrary<BodyPlan> = fc.record({
  body: fc.oneof(
    fc.constantFrom(...RAW_BODY_TEXTS).map((text): FuzzBody => ({ text })),
    fc.constantFrom(...RAW_BODY_BYTES).map((bytes): FuzzBody => ({ bytes })),
  ),
  contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 3, nil: undefined }),
});

function validBodyArb(ctx: SchemaContext, schema: JsonSchema | undefined): fc.Arbitrary<BodyPlan> {
  if (!schema) return fc.constant({});
  return validArbitrary(schema, ctx).map((json): BodyPlan => ({ body: { json } }));
}

/** A broken body: a valid one mutated in one to three places, raw bytes, a wrong content type, or none at all. */
function hostileBodyArb(ctx: SchemaContext, schema: JsonSchema | undefined): fc.Arbitrary<BodyPlan> {
  // No body expected: send one anyway (it must be ignored or refused cleanly).
  if (!schema) return rawBodyArb;
  const valid = validArbitrary(schema, ctx);
  const mutated = fc
    .tuple(valid, fc.array(mutationArb, { minLength: 1, maxLength: 3 }))
    .map(([value, mutations]): BodyPlan => ({ body: { json: mutations.reduce(applyMutation, value) } }));
  // A valid body under some content type: JSON spellings must pass, others must get 415.
  const validWithType = fc.record({ body: valid.map((json): FuzzBody => ({ json })), contentType: fc.constantFrom(...CONTENT_TYPES) });
  return fc.oneof(
    { weight: 8, arbitrary: mutated },
    { weight: 3, arbitrary: rawBodyArb },
    { weight: 1, arbitrary: validWithType },
    { weight: 1, arbitrary: fc.constant<BodyPlan>({}) },
  );
}

function headersFor(plan: BodyPlan, requestId: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (plan.contentType !== undefined) headers["content-type"] = plan.contentType;
  if (requestId !== null) headers["x-request-id"] = requestId;
  return headers;
}

/** Where a request is hostile: nowhere (to reach the domain code), or in exactly one part. */
type Focus = "valid" | "path" | "query" | "body";

function focusArb(operation: Operation): fc.Arbitrary<Focus> {
  const choices: { weight: number; arbitrary: fc.Arbitrary<Focus> }[] = [{ weight: 5, arbitrary: fc.constant("valid") }];
  if (operation.pathParams.length) choices.push({ weight: 1, arbitrary: fc.constant("path") });
  choices.push({ weight: 1, arbitrary: fc.constant("query") });
  choices.push({ weight: operation.bodySchema ? 4 : 1, arbitrary: fc.constant("body") });
  return fc.oneof(...choices);
}

/**
 * Headers of the `bad-credentials` caller. Each comes from its own made-up address (the
 * rightmost X-Forwarded-For entry), so its failures never add up to the per-address limit
 * of the good callers, who share the unknown address of in-process requests.
 */
const badCredentialHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record({
    credential: fc.oneof(
      fc.constantFrom(...BAD_AUTHORIZATION).map((authorization) => ({ authorization })),
      fc
        .tuple(fc.constantFrom(...BAD_SESSION_COOKIES), fc.constantFrom(...ORIGIN_HEADERS))
        .map(([cookie, origin]) => ({ cookie, ...origin })),
    ),
    junk: fc.constantFrom(...FORWARDED_FOR_JUNK),
    address: fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })),
  })
  .map(({ credential, junk, address }) => ({ ...credential, "x-forwarded-for": `${junk}10.${address.join(".")}` }));

function callersFor(operation: Operation): fc.Arbitrary<Caller> {
  // Admin paths mostly as the admin (members only learn 403); the rest mostly as the member, who owns the seeded personal state.
  const adminPath = operation.pathTemplate.startsWith("/ext/svc/admin/");
  return fc.oneof(
    { weight: adminPath ? 12 : 6, arbitrary: fc.constant<Caller>("admin") },
    { weight: adminPath ? 3 : 11, arbitrary: fc.constant<Caller>("member") },
    { weight: 2, arbitrary: fc.constant<Caller>("anonymous") },
    { weight: 1, arbitrary: fc.constant<Caller>("bad-credentials") },
  );
}

/** The arbitrary of requests for one operation. */
export function requestArbitrary(ctx: SchemaContext, operation: Operation): fc.Arbitrary<FuzzRequest> {
  if (operation.key === "(path no route names)") return unknownPathArb();
  if ("wrongMethods" in operation)
    return wrongMethodArb(
      ctx,
      (operation as Operation & { wrongMethods: { method: string; pathTemplate: string; pathParams: Parameter[] }[] }).wrongMethods,
    );

  const validSegments = fc.record(Object.fromEntries(operation.pathParams.map((p) => [p.name, validSegmentArb(ctx, operation.method, p)])));
  const hostileSegments = fc.record(Object.fromEntries(operation.pathParams.map((p) => [p.name, segmentArb(ctx, operation.method, p)])));
  return focusArb(operation)
    .chain((focus) =>
      fc.record({
        focus: fc.constant(focus),
        caller: callersFor(operation),
        segments: focus === "path" ? hostileSegments : validSegments,
        query: focus === "query" ? hostileQueryArb(ctx, operation.queryParams) : validQueryArb(ctx, operation.queryParams),
        plan: focus === "body" ? hostileBodyArb(ctx, operation.bodySchema) : validBodyArb(ctx, operation.bodySchema),
        requestId: REQUEST_IDS,
        credentials: badCredentialHeaders,
      }),
    )
    .map(({ caller, segments, query, plan, requestId, credentials }) => ({
      operation: operation.key,
      method: operation.method,
      path: withQuery(fillPath(operation.pathTemplate, segments), query),
      caller,
      headers: { ...headersFor(plan, requestId), ...(caller === "bad-credentials" ? credentials : {}) },
      ...(plan.body ? { body: plan.body } : {}),
      targets: Object.values(segments).map(decodeLeniently),
    }));
}

function decodeLeniently(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function wrongMethodArb(
  ctx: SchemaContext,
  choices: { method: string; pathTemplate: string; pathParams: Parameter[] }[],
): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...choices).chain((choice) =>
    fc
      .record({
        caller: CALLERS,
        segments: fc.record(Object.fromEntries(choice.pathParams.map((p) => [p.name, segmentArb(ctx, "GET", p)]))),
        plan: fc.oneof(validBodyArb(ctx, { type: "object" }), hostileBodyArb(ctx, { type: "object" })),
      })
      .map(({ caller, segments, plan }) => ({
        operation: "(method not in the document)",
        method: choice.method,
        path: fillPath(choice.pathTemplate, segments),
        caller,
        headers: headersFor(plan, null),
        ...(plan.body ? { body: plan.body } : {}),
        targets: Object.values(segments).map(decodeLeniently),
      })),
  );
}

function unknownPathArb(): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "me",
        "admin",
        "banks",
        "templates",
        "template-sources",
        "users",
        "api-keys",
        "policy",
        "nope",
        "v2",
        "openapi.json",
      ),
    },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }).map(encodeLoosely) },
  );
  return fc
    .record({
      method: fc.constantFrom(...METHODS),
      caller: CALLERS,
      segments: fc.array(segment, { minLength: 1, maxLength: 6 }),
      plan: fc.oneof({ weight: 4, arbitrary: fc.constant<BodyPlan>({}) }, { weight: 1, arbitrary: rawBodyArb }),
    })
    .map(({ method, caller, segments, plan }) => ({
      operation: "(path no route names)",
      method,
      path: `/ext/svc/${segments.join("/")}`,
      caller,
      headers: headersFor(plan, null),
      ...(plan.body ? { body: plan.body } : {}),
      // Any segment may land on a parameter (`admin/users/admin`).
      targets: segments.map(decodeLeniently),
    }));
}

/** The top-level properties of a body schema that are optional (for the null-means-absent rule). */
export function optionalBodyFields(ctx: SchemaContext, schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const resolved = resolveRef(schema, ctx);
  const required = new Set(resolved.required ?? []);
  return Object.keys(resolved.properties ?? {}).filter((name) => !required.has(name));
}
