import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { ETagHeaders, IfMatchParameter, IfNoneMatchCreateParameter, IfNoneMatchParameter } from "@/lib/contracts/conditional";
import type { Endpoint } from "@/lib/contracts/endpoint";
import { IdempotencyKeyParameter } from "@/lib/contracts/idempotency";
import { IDEMPOTENT_METHODS } from "@/lib/contracts/idempotency-header";
import { ProblemSchema } from "@/lib/contracts/problem-schema";
import { PROBLEM_CONTENT_TYPE } from "@/lib/contracts/problem-type-prefix";
import { nullMeansAbsent } from "@/lib/contracts/validation";
import { WEBHOOK_EVENT_BODIES } from "@/lib/contracts/webhooks/payloads";
import { listEndpoints } from "./endpoints";

const ERROR_TEXT: Record<number, string> = {
  400: "Malformed JSON, a body that is not an object or nests deeper than 64 levels, a path with invalid percent-encoding, an operation the resource does not allow, or a malformed Idempotency-Key",
  401: "Missing, unknown, revoked or inactive credentials",
  403: "Authenticated but not allowed",
  404: "No such resource (or not the caller's)",
  405: "The path does not have this method",
  409: "Conflict with the current state, or the Idempotency-Key is in use by a request still running",
  412: "`precondition-failed`: the resource is not at the version `If-Match` names (or exists, with `If-None-Match: *`); `ETag` names the current version, and nothing was written",
  413: "Body larger than 1 MiB",
  415: "Body is not JSON",
  422: "Validation failed (or a string holds U+0000 or an unpaired surrogate); `errors` lists each field; or the Idempotency-Key was used for another request",
  429: "Too many failed attempts; retry after `Retry-After` seconds",
  502: "An upstream server answered badly",
  503: "The database is unreachable",
  504: "An upstream server did not answer in time",
};

function problem(status: number) {
  return { description: ERROR_TEXT[status] ?? "Error", content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } } };
}

function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const statuses = new Set<number>(endpoint.errors ?? []);
  if (endpoint.access !== "public") for (const s of [401, 429, 503]) statuses.add(s);
  if (endpoint.access === "admin" || endpoint.access === "user") statuses.add(403);
  if (endpoint.body) for (const s of [400, 413, 415, 422]) statuses.add(s);
  if (endpoint.params || endpoint.query) statuses.add(422);
  const idempotent = endpoint.access !== "public" && IDEMPOTENT_METHODS.has(endpoint.method);
  // A write may carry an Idempotency-Key (CONTRACT §18): a malformed one (400), reused for another
  // request (422), or in use by a request still running (409).
  if (idempotent) for (const s of [400, 409, 422]) statuses.add(s);
  // CONTRACT §19: a read answers its ETag (and 304 to If-None-Match); a conditional write takes If-Match (412).
  const tagged = endpoint.method === "GET" && endpoint.response !== undefined && endpoint.stream === undefined;
  if (endpoint.conditional) statuses.add(412);
  const parameters = [
    ...(idempotent ? [IdempotencyKeyParameter] : []),
    ...(tagged ? [IfNoneMatchParameter] : []),
    ...(endpoint.conditional ? [IfMatchParameter] : []),
    ...(endpoint.conditional === "if-match-or-create" ? [IfNoneMatchCreateParameter] : []),
  ];
  const headers = tagged || (endpoint.conditional && endpoint.response) ? { headers: ETagHeaders } : {};

  const success = !endpoint.response
    ? { description: "Done; no body" }
    : endpoint.stream === "ndjson"
      ? { description: "Success: one JSON value per line", content: { "application/x-ndjson": { schema: endpoint.response } } }
      : { description: "Success", ...headers, content: { "application/json": { schema: endpoint.response } } };
  return {
    summary: endpoint.summary,
    tags: [endpoint.tag],
    operationId: `${endpoint.method.toLowerCase()}${endpoint.path
      .replace(/^\/ext\/svc/, "")
      .replace(/[{}]/g, "")
      .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    security: endpoint.access === "public" ? [] : [{ bearer: [] }],
    // The action a successful call records in the audit log (CONTRACT §14).
    ...(endpoint.audit ? { "x-audit-action": endpoint.audit.action } : {}),
    requestParams: {
      ...(endpoint.params && Object.keys(endpoint.params.shape).length ? { path: endpoint.params } : {}),
      ...(endpoint.query ? { query: endpoint.query } : {}),
    },
    ...(parameters.length ? { parameters } : {}),
    requestBody: endpoint.body
      ? {
          required: !endpoint.optionalBody,
          content: { "application/json": { schema: endpoint.body, example: bodyExample(endpoint.body) } },
        }
      : undefined,
    responses: {
      [String(endpoint.status)]: success,
      ...(tagged
        ? { "304": { description: "Not modified: `If-None-Match` names the current version; no body", headers: ETagHeaders } }
        : {}),
      ...Object.fromEntries([...statuses].sort().map((s) => [String(s), problem(s)])),
    },
  };
}

/** The example a request body's schema carries (`.meta({ example })`), shown as the body's example too. */
function bodyExample(schema: z.ZodType): unknown {
  return z.globalRegistry.get(schema)?.example;
}

type JsonObject = Record<string, unknown>;

/**
 * CONTRACT §10: a POST or PUT body may send `null` for an optional field (it counts as absent,
 * lib/contracts/validation.ts). The zod schemas refuse null and the handlers drop it before
 * validating, so the document alone widens those fields to `anyOf: [field, null]`, and a
 * generated client lets programs send the null they would send anyway. Done on the document
 * once built: a field a body shares with another schema (a manifest entry's, taken with .omit)
 * is complete only then.
 */
function widenNullableBodyFields(endpoints: Endpoint[], document: { paths?: unknown; components?: unknown }): void {
  const paths = document.paths as Record<string, Record<string, JsonObject>>;
  const schemas = ((document.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, JsonObject>;
  const widened = new Set<JsonObject>();
  for (const endpoint of endpoints) {
    if ((endpoint.method !== "POST" && endpoint.method !== "PUT") || !(endpoint.body instanceof z.ZodObject)) continue;
    const content = (paths[endpoint.path]?.[endpoint.method.toLowerCase()]?.requestBody as JsonObject | undefined)?.content;
    const declared = (content as Record<string, { schema?: JsonObject }> | undefined)?.["application/json"]?.schema;
    const ref = typeof declared?.$ref === "string" ? declared.$ref.replace("#/components/schemas/", "") : null;
    const body = ref === null ? declared : schemas[ref];
    if (!body || widened.has(body)) continue;
    widened.add(body);
    const properties = (body.properties ?? {}) as Record<string, JsonObject>;
    for (const [key, field] of Object.entries(endpoint.body.shape as Record<string, z.ZodType>)) {
      const property = properties[key];
      if (!property || !nullMeansAbsent(field)) continue;
      // The description stays on the field, as zod renders `.nullable()`.
      const { description, ...schema } = property;
      properties[key] = { ...(description === undefined ? {} : { description }), anyOf: [schema, { type: "null" }] };
    }
  }
}

/** The Standard Webhooks headers every delivery carries (CONTRACT §20). */
const DELIVERY_HEADERS = [
  { name: "webhook-id", description: "The event's id (`msg_…`): the same on every attempt of it; act on each id once." },
  { name: "webhook-timestamp", description: "When this attempt was sent, in Unix seconds." },
  {
    name: "webhook-signature",
    description:
      "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the secret's bytes (the base64 after `whsec_`); two, space-separated, for 24 hours after a rotate-secret.",
  },
].map((header) => ({ ...header, in: "header" as const, required: true, schema: { type: "string" as const } }));

/**
 * The requests the server sends to webhooks (OpenAPI 3.1 `webhooks`): one per event type, its
 * body `{type, timestamp, data}` with `data` the resource it tells of, so generated clients have
 * a type for each payload a receiver gets.
 */
function deliveries(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_BODIES).map(([type, { meaning, body }]) => [
      type,
      {
        post: {
          summary: meaning,
          tags: ["Webhooks"],
          parameters: DELIVERY_HEADERS,
          requestBody: { required: true, content: { "application/json": { schema: body } } },
          responses: {
            "2XX": { description: "Taken. Any other answer, or none within 10 seconds, is a failure and the event is sent again later." },
          },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of every endpoint, built from the same zod schemas the handlers use. */
export function buildOpenApiDocument() {
  const endpoints = listEndpoints();
  const paths: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) {
    paths[endpoint.path] ??= {};
    (paths[endpoint.path] as Record<string, ZodOpenApiOperationObject>)[endpoint.method.toLowerCase()] = operation(endpoint);
  }
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Bank template and bank policy extension API",
      version: "1.0.0",
      description: "Template sources, templates, bank policies and bank creation for agent-memory banks.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API key from /ext/svc/me/api-keys" } },
    },
    paths,
    webhooks: deliveries(),
  });
  widenNullableBodyFields(endpoints, document);
  return document;
}
