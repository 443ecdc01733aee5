// A strict client of hindclaw's own OpenAPI document, made as client/ is made (openapi-typescript
// types in schema.d.ts, openapi-fetch) and as strict as hindclaw's generated Python and Rust clients:
// an answer whose status the document does not list for the operation is an error, thrown, even
// when the write behind it happened. Its paths stay hindclaw's (`/ext/hindclaw/...`); a middleware
// maps them onto ours (`/ext/svc/...`, API.md's stand-in for that segment).
import { readFileSync } from "node:fs";
import createClient, { type Client, type Middleware } from "openapi-fetch";
import { HINDCLAW_DOCUMENT_PATH } from "./generate";
import type { paths } from "./schema";

const HINDCLAW_PREFIX = "/ext/hindclaw/";
const OUR_PREFIX = "/ext/svc/";

interface Operation {
  operationId: string;
  responses: Record<string, unknown>;
}
type HindclawDocument = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/** hindclaw's document of the 26 operations (tests/fixtures/hindclaw-openapi.json). */
export const hindclawDocument = JSON.parse(readFileSync(HINDCLAW_DOCUMENT_PATH, "utf8")) as HindclawDocument;

/** One operation of the document: its method, hindclaw path, id and the statuses it lists. */
export interface DocumentedOperation {
  method: string;
  /** hindclaw's path, `/ext/hindclaw/me/templates/{template_id}`. */
  path: string;
  operationId: string;
  statuses: number[];
  operation: Operation;
}

/** Every operation the document describes, in its order. */
export function documentedOperations(): DocumentedOperation[] {
  return Object.entries(hindclawDocument.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operationId: operation.operationId,
      statuses: Object.keys(operation.responses).map(Number),
      operation,
    })),
  );
}

/** Our path for one of hindclaw's: `/ext/hindclaw/banks` → `/ext/svc/banks`. */
export function ourPath(hindclawPath: string): string {
  if (!hindclawPath.startsWith(HINDCLAW_PREFIX)) throw new Error(`${hindclawPath} is not a hindclaw path`);
  return OUR_PREFIX + hindclawPath.slice(HINDCLAW_PREFIX.length);
}

/** What hindclaw's generated clients raise (`UnexpectedStatus`) for a status their operation does not list. */
export class UndocumentedStatus extends Error {
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${operationId} answered ${status}, which hindclaw's document does not list for it: ${body.slice(0, 500)}`);
    this.name = "UndocumentedStatus";
  }
}

const operationsByRoute = new Map(documentedOperations().map((o) => [`${o.method} ${o.path}`, o]));

/** The call a generated client makes, seen as it happened: which operation, and its status. */
export interface Exchange {
  operationId: string;
  status: number;
}

/**
 * A client of hindclaw's paths against our server at `baseUrl` (its origin). `onExchange` hears
 * every documented answer (tests count the operations they drove).
 */
export function createHindclawClient(options: {
  baseUrl: string;
  apiKey: string;
  onExchange?: (exchange: Exchange) => void;
}): Client<paths> {
  const client = createClient<paths>({ baseUrl: options.baseUrl, headers: { Authorization: `Bearer ${options.apiKey}` } });
  const strict: Middleware = {
    async onRequest({ request }) {
      const url = new URL(request.url);
      url.pathname = ourPath(url.pathname);
      const body = request.method === "GET" || request.method === "DELETE" ? undefined : await request.arrayBuffer();
      return new Request(url, { method: request.method, headers: request.headers, body });
    },
    async onResponse({ request, response, schemaPath }) {
      const operation = operationsByRoute.get(`${request.method} ${schemaPath}`);
      if (!operation) throw new Error(`${request.method} ${schemaPath} is not an operation of hindclaw's document`);
      if (!operation.statuses.includes(response.status)) {
        throw new UndocumentedStatus(operation.operationId, response.status, await response.clone().text());
      }
      options.onExchange?.({ operationId: operation.operationId, status: response.status });
      return undefined;
    },
  };
  client.use(strict);
  return client;
}
