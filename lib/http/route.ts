import type { z } from "zod";
import type { AppContext } from "@/lib/server/app";
import { getApp } from "@/lib/server/app";
import type { Principal } from "@/lib/identity/principal";
import { authenticate, authorize } from "./auth";
import { readJsonObject } from "./body";
import type { Endpoint, EndpointBody, EndpointParams, EndpointQuery, EndpointResult, HttpMethod } from "./endpoint";
import { methodNotAllowed, notFound } from "./errors";
import { assertPathEncoding, assertStorable } from "./hygiene";
import { apiHeaders, errorToResponse } from "./problem";
import { requestIdFor } from "./request-id";
import { dropNullOptionals, parseOrThrow } from "./validation";

/** What a handler receives: the app, the caller and the validated input. */
export interface RequestContext {
  app: AppContext;
  principal: Principal;
  request: Request;
  /** X-Request-Id of this request (kept from the caller when well formed). */
  requestId: string;
}

export interface HandlerInput<E extends Endpoint> {
  ctx: RequestContext;
  params: EndpointParams<E>;
  query: EndpointQuery<E>;
  body: EndpointBody<E>;
}

/** Lets a handler pick its success status (POST /banks: 201 created, 200 updated). */
export class WithStatus<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

type HandlerResult<E extends Endpoint> = EndpointResult<E> | WithStatus<EndpointResult<E>>;

/** Next passes route params as a promise; catch-all segments arrive as arrays. */
export interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}
export type RouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;

const NO_PRINCIPAL = undefined as unknown as Principal;

/**
 * Wraps one endpoint: authentication and permission, path/query/body parsing and
 * validation, then the handler; every error thrown on the way becomes problem+json.
 */
export function handle<E extends Endpoint>(
  endpoint: E,
  handler: (input: HandlerInput<E>) => Promise<HandlerResult<E>>,
): RouteHandler & { endpoint: E } {
  const run = async (request: Request, context?: RouteContext): Promise<Response> => {
    const requestId = requestIdFor(request.headers);
    const url = new URL(request.url);
    const where = { method: request.method, path: url.pathname, requestId };
    try {
      assertPathEncoding(url.pathname);
      const app = await getApp();
      const principal = endpoint.access === "public" ? NO_PRINCIPAL : await authenticate(request, app);
      if (endpoint.access !== "public") authorize(principal, endpoint.access);

      // Next passes no params object at all to routes without dynamic segments.
      const rawParams = (await context?.params) ?? {};
      assertStorable(rawParams, "path");
      const params = endpoint.params ? parseOrThrow(endpoint.params, rawParams, "path") : undefined;
      // An empty query value counts as absent (`?cursor=`).
      const rawQuery = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ""));
      assertStorable(rawQuery, "query");
      const query = endpoint.query ? parseOrThrow(endpoint.query, rawQuery, "query") : undefined;
      const body = endpoint.body ? await parseBody(endpoint.body, request) : undefined;

      const input = { ctx: { app, principal, request, requestId }, params, query, body };
      const result = await handler(input as HandlerInput<E>);
      const [status, payload] = result instanceof WithStatus ? [result.status, result.body] : [endpoint.status, result];
      if (!endpoint.response || status === 204) return new Response(null, { status: 204, headers: apiHeaders(requestId) });
      // Encoding through the response schema drops anything it does not name (no leaked columns).
      const encoded = endpoint.response.parse(payload);
      return Response.json(encoded, { status, headers: apiHeaders(requestId) });
    } catch (error) {
      return errorToResponse(error, where);
    }
  };
  return Object.assign(run, { endpoint });
}

/** The validated body; in POST and PUT a null optional field counts as absent (CONTRACT §10). */
async function parseBody(schema: z.ZodType, request: Request): Promise<unknown> {
  const raw = await readJsonObject(request);
  const value = request.method === "POST" || request.method === "PUT" ? dropNullOptionals(schema, raw) : raw;
  return parseOrThrow(schema, value, "request body");
}

const ALL_METHODS: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
type MethodTable = Record<HttpMethod, RouteHandler>;

/**
 * The exports of one route file: the given handlers, and a 405 problem with `Allow`
 * for every other method (Next would answer those with an empty 405).
 */
export function route(handlers: Partial<MethodTable>): MethodTable {
  const allowed = ALL_METHODS.filter((m) => handlers[m]);
  const refuse: RouteHandler = async (request) =>
    errorToResponse(methodNotAllowed(allowed), {
      method: request.method,
      path: new URL(request.url).pathname,
      requestId: requestIdFor(request.headers),
    });
  return Object.fromEntries(ALL_METHODS.map((m) => [m, handlers[m] ?? refuse])) as MethodTable;
}

/** Exports of the catch-all route: any path under /ext/svc that no route file names. */
export function unknownPath(): MethodTable {
  const answer: RouteHandler = async (request) => {
    const path = new URL(request.url).pathname;
    const requestId = requestIdFor(request.headers);
    try {
      assertPathEncoding(path);
      await authenticate(request, await getApp());
      throw notFound(`No endpoint exists at ${path}.`);
    } catch (error) {
      return errorToResponse(error, { method: request.method, path, requestId });
    }
  };
  return Object.fromEntries(ALL_METHODS.map((m) => [m, answer])) as MethodTable;
}
