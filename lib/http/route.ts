import "server-only";
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import type { Database } from "@/db/client";
import type { Endpoint, EndpointBody, EndpointParams, EndpointQuery, EndpointResult, HttpMethod } from "@/lib/contracts/endpoint";
import { methodNotAllowed, notFound } from "@/lib/contracts/errors";
import { assertPathEncoding, assertStorable } from "@/lib/contracts/hygiene";
import { shownOnceFields } from "@/lib/contracts/shown-once";
import { dropNullOptionals, parseOrThrow } from "@/lib/contracts/validation";
import { observeRequest, type RequestObservation } from "@/lib/http/request-log";
import { logError, logger, UNMATCHED_ROUTE } from "@/lib/platform/log";
import { getApp } from "@/lib/server/app";
import { auditFor, settleJournal } from "@/lib/services/audit/record";
import { type AuthenticatedActor, callContext, type ServiceContext, silentAudit } from "@/lib/services/context";
import { claimIdempotencyKey, type IdempotencyClaim, markingWrites, requestFingerprint } from "@/lib/services/idempotency/keys";
import { JsonText } from "@/lib/shared/json-text";
import { inSenderKeyOrder } from "@/lib/shared/key-order";
import { authenticate, authorize } from "./auth";
import { readJsonObject } from "./body";
import { answerTagged, writePrecondition, writtenTagHeaders } from "./conditional";
import { idempotencyKeyOf, replayedAnswer, settleClaim } from "./idempotency";
import { errorToResponse } from "./problem";
import { apiHeaders } from "./problem-response";
import { requestIdFor } from "./request-id";
import { textResponse } from "./text-response";

/**
 * What a handler receives: the service context (app, database, the caller as actor, request id,
 * abort signal, audit journal), which it passes to the services as it is, and the request.
 */
export interface RequestContext extends ServiceContext {
  /** The caller, authenticated: never the process itself. */
  actor: AuthenticatedActor;
  request: Request;
}

export interface HandlerInput<E extends Endpoint> {
  ctx: RequestContext;
  params: EndpointParams<E>;
  query: EndpointQuery<E>;
  body: EndpointBody<E>;
}

/**
 * The answer of an endpoint with `stream: "ndjson"`: its items, read one at a time and sent as
 * they come, one JSON line each (application/x-ndjson), so an answer of any length takes
 * bounded memory. What fails before the first item is answered as problem+json as usual.
 */
export class NdjsonStream<T> {
  constructor(readonly items: AsyncIterable<T>) {}
}

/** An answer, one already encoded (JsonText: sent as it is), or a stream of lines. */
type HandlerResult<E extends Endpoint> = EndpointResult<E> | JsonText<EndpointResult<E>> | NdjsonStream<EndpointResult<E>>;

/** Next passes route params as a promise; catch-all segments arrive as arrays. */
interface RouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}
export type RouteHandler = (request: Request, context?: RouteContext) => Promise<Response>;

/** The Idempotency-Key a request claimed, once it did. */
interface IdempotencyHold {
  held?: { claim: IdempotencyClaim; db: Database };
}

const NO_ACTOR = undefined as unknown as AuthenticatedActor;

/**
 * Whether the production server (lib/server/http-server.cjs) passed this request on with its
 * path escaped because the path's percent-encoding was malformed (which Next would answer with
 * a 500): the path the pipeline sees then decodes, so the mark is what tells. The server removes
 * the header from every request it did not mark.
 */
const markedInvalidPath = (request: Request) => request.headers.has("x-invalid-path-encoding");

/**
 * The client's method when the production server passed the request on as DELETE because Next
 * does not route that method (TRACE, PROPFIND, ...: Next would answer with a 500); null for
 * every other request, whose header the server removes.
 */
const markedUnsupportedMethod = (request: Request) => request.headers.get("x-unsupported-method");

/**
 * Wraps one endpoint: authentication and permission, path/query/body parsing and
 * validation, then the handler; every error thrown on the way becomes problem+json.
 */
export function handle<E extends Endpoint>(
  endpoint: E,
  handler: (input: HandlerInput<E>) => Promise<HandlerResult<E>>,
): RouteHandler & { endpoint: E } {
  // The answer's secrets shown once (CONTRACT §19): an idempotent replay answers them null.
  const shownOnce = shownOnceFields(endpoint.response);
  const run = async (request: Request, context?: RouteContext): Promise<Response> => {
    const requestId = requestIdFor(request.headers);
    const observation = observeRequest(request.method, endpoint.path, requestId);
    return observation.finish(await answer(request, context, requestId, observation));
  };
  const answer = async (
    request: Request,
    context: RouteContext | undefined,
    requestId: string,
    observation: RequestObservation,
  ): Promise<Response> => {
    // The Idempotency-Key the request holds (CONTRACT §18): its answer is stored once it is known.
    const idempotency: IdempotencyHold = {};
    const response = await respond(request, context, requestId, observation, idempotency);
    if (idempotency.held) await settleClaim(idempotency.held.db, idempotency.held.claim, response, shownOnce);
    return response;
  };
  const respond = async (
    request: Request,
    context: RouteContext | undefined,
    requestId: string,
    observation: RequestObservation,
    idempotency: IdempotencyHold,
  ): Promise<Response> => {
    const url = new URL(request.url);
    const where = { method: request.method, path: url.pathname, requestId };
    try {
      assertPathEncoding(url.pathname, markedInvalidPath(request));
      const app = await getApp();
      const actor = endpoint.access === "public" ? NO_ACTOR : await authenticate(request, app);
      observation.actor = actor;
      if (endpoint.access !== "public") authorize(actor, endpoint.access);

      // Next passes no params object at all to routes without dynamic segments.
      const rawParams = (await context?.params) ?? {};
      assertStorable(rawParams, "path");
      const params = endpoint.params ? parseOrThrow(endpoint.params, rawParams, "path") : undefined;
      // An empty query value counts as absent (`?cursor=`).
      const rawQuery = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ""));
      assertStorable(rawQuery, "query");
      const query = endpoint.query ? parseOrThrow(endpoint.query, rawQuery, "query") : undefined;
      const idempotencyKey = endpoint.access === "public" ? null : idempotencyKeyOf(request);
      const sent = endpoint.body ? await parseBody(endpoint.body, request) : undefined;
      const body = sent?.value;

      // After validation: a request that fails it changes nothing and fails the same way again.
      if (idempotencyKey) {
        const fingerprint = requestFingerprint(request.method, url.pathname + url.search, sent?.meant);
        const outcome = await claimIdempotencyKey(app.db, actor, idempotencyKey, fingerprint);
        if (outcome.replay) return replayedAnswer(outcome.replay, requestId);
        idempotency.held = { claim: outcome.claim, db: app.db };
      }

      // A write records its one audit entry in its own transaction (lib/services/audit/record.ts),
      // which also marks its Idempotency-Key written there.
      const journal = endpoint.access === "public" ? null : auditFor(endpoint, actor, requestId, { params, query, body });
      const journaled = journal ? journal.using(app.db) : silentAudit;
      const marked = journal && idempotency.held ? markingWrites(journaled, app.db, idempotency.held.claim) : journaled;
      // A conditional write (CONTRACT §19) checks its precondition holding the resource, and answers its new tag.
      const { precondition, audit, written } = writePrecondition(endpoint, request, marked);
      const call = { actor, requestId, startedAt: observation.startedAt, signal: request.signal, audit, precondition };
      const ctx: RequestContext = { ...callContext(app, call), request };
      const payload = await handler({ ctx, params, query, body } as HandlerInput<E>);
      await settleJournal(journal, app.db, payload);
      const { status } = endpoint;
      if (!endpoint.response || status === 204) {
        return new Response(null, { status: 204, headers: { ...apiHeaders(requestId), ...writtenTagHeaders(written) } });
      }
      if (payload instanceof NdjsonStream) return await streamLines(endpoint, payload, requestId);
      // Presenters build exactly the wire shape from rows that were validated before they were
      // stored, so answers are encoded as they are: no per-response zod parse (which also
      // reordered manifest keys). Outside production every answer is checked against the schema.
      // A JsonText answer is already encoded (by the database, for the hot reads): sent as it is.
      const encoded = payload instanceof JsonText;
      if (CHECK_RESPONSES) assertWireShape(endpoint, encoded ? payload.value() : payload);
      const text = encoded ? payload.text : JSON.stringify(payload);
      const headers = { ...JSON_HEADERS, ...apiHeaders(requestId) };
      // A read answers its representation's tag, and 304 to a client that holds it already.
      if (request.method === "GET") return answerTagged(request, text, headers);
      return textResponse(text, { status, headers: { ...headers, ...writtenTagHeaders(written, { payload, text }) } }, request);
    } catch (error) {
      return errorToResponse(error, where);
    }
  };
  return Object.assign(run, { endpoint });
}

const NDJSON_HEADERS = { "content-type": "application/x-ndjson" } as const;

/**
 * Sends a stream's items as lines, reading the next only when the client took the last (the
 * stream pulls): the first item is read before answering, so an early failure is still a
 * problem+json; a later one can only cut the answer short (and is logged as an error). A client
 * that goes away cancels the reading: its doing, logged as such (info), and the item being read
 * meanwhile is dropped, not sent into the closed stream.
 */
async function streamLines<T>(endpoint: Endpoint, stream: NdjsonStream<T>, requestId: string): Promise<Response> {
  const items = stream.items[Symbol.asyncIterator]();
  let pending: IteratorResult<T> | null = await items.next();
  const encoder = new TextEncoder();
  let linesSent = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await items.next());
        pending = null;
        if (cancelled) return;
        if (next.done) return controller.close();
        if (CHECK_RESPONSES) assertWireShape(endpoint, next.value);
        controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
        linesSent++;
      } catch (error) {
        if (cancelled) return;
        logError("streaming an answer failed", error, { request_id: requestId });
        controller.error(error);
      }
    },
    async cancel() {
      cancelled = true;
      await items.return?.();
      logger.info({ request_id: requestId, lines_sent: linesSent }, "the client left before the end of a streamed answer");
    },
  });
  return new Response(body, { status: endpoint.status, headers: { ...NDJSON_HEADERS, ...apiHeaders(requestId) } });
}

/**
 * The validated body (`value`), its keys in the order sent (manifests are stored and answered that
 * way, CONTRACT §12), and the JSON it stands for (`meant`, what an Idempotency-Key's request is):
 * in POST and PUT a null optional field counts as absent (CONTRACT §10), in both.
 */
async function parseBody(schema: z.ZodType, request: Request): Promise<{ meant: unknown; value: unknown }> {
  const raw = await readJsonObject(request);
  const meant = request.method === "POST" || request.method === "PUT" ? dropNullOptionals(schema, raw) : raw;
  return { meant, value: inSenderKeyOrder(parseOrThrow(schema, meant, "request body"), meant) };
}

const JSON_HEADERS = { "content-type": "application/json" } as const;

// Next inlines NODE_ENV in the production build, so the check costs nothing there.
const CHECK_RESPONSES = process.env.NODE_ENV !== "production";

/** An answer that is not exactly what its endpoint's response schema describes: a bug of ours. */
class ResponseShapeError extends Error {
  constructor(endpoint: Endpoint, detail: string) {
    super(`The answer of ${endpoint.method} ${endpoint.path} does not match its response schema: ${detail}`);
    this.name = "ResponseShapeError";
  }
}

/**
 * Development and tests: the answer, as JSON, must parse with the response schema into exactly
 * itself — no key the schema does not name (a leaked column), none missing, nothing coerced.
 */
function assertWireShape(endpoint: Endpoint, payload: unknown): void {
  if (!endpoint.response) return;
  const wire: unknown = JSON.parse(JSON.stringify(payload));
  const parsed = endpoint.response.safeParse(wire);
  if (!parsed.success) throw new ResponseShapeError(endpoint, parsed.error.message);
  if (!isDeepStrictEqual(parsed.data, wire)) {
    throw new ResponseShapeError(endpoint, "it has keys or values the schema would drop or change");
  }
}

const ALL_METHODS: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
type MethodTable = Record<HttpMethod, RouteHandler>;

/**
 * The exports of one route file: the given handlers, and a 405 problem with `Allow`
 * for every other method (Next would answer those with an empty 405).
 */
export function route(handlers: Partial<MethodTable>): MethodTable {
  const allowed = ALL_METHODS.filter((m) => handlers[m]);
  // Every handler of one route file serves the same path template (a handler borrowed from another
  // route, as /banks/rollout borrows the bank's GET and DELETE for a bank of that id, declares none).
  const template =
    allowed.map((m) => (handlers[m] as Partial<{ endpoint: Endpoint }> | undefined)?.endpoint?.path).find(Boolean) ?? UNMATCHED_ROUTE;
  const refuse = refuseMethod(template, allowed);
  return Object.fromEntries(ALL_METHODS.map((m) => [m, refusingUnsupported(handlers[m] ?? refuse, refuse)])) as MethodTable;
}

/** 405 method-not-allowed with `Allow`, logged under the client's own method (the server's mark, if any). */
function refuseMethod(template: string, allowed: HttpMethod[]): RouteHandler {
  return async (request) => {
    const method = markedUnsupportedMethod(request) ?? request.method;
    const requestId = requestIdFor(request.headers);
    const observation = observeRequest(method, template, requestId);
    const where = { method, path: new URL(request.url).pathname, requestId };
    return observation.finish(errorToResponse(methodNotAllowed(allowed), where));
  };
}

/** `handler`, except that a request the server marked as of an unsupported method goes to `refuse`; keeps `endpoint`. */
function refusingUnsupported(handler: RouteHandler, refuse: RouteHandler): RouteHandler {
  const guarded: RouteHandler = (request, context) =>
    markedUnsupportedMethod(request) !== null ? refuse(request) : handler(request, context);
  return Object.assign(guarded, handler);
}

/** Exports of the catch-all route: any path under /ext/svc that no route file names. */
export function unknownPath(): MethodTable {
  const answer: RouteHandler = async (request) => {
    const path = new URL(request.url).pathname;
    const requestId = requestIdFor(request.headers);
    const observation = observeRequest(request.method, UNMATCHED_ROUTE, requestId);
    try {
      assertPathEncoding(path, markedInvalidPath(request));
      observation.actor = await authenticate(request, await getApp());
      throw notFound(`No endpoint exists at ${path}.`);
    } catch (error) {
      return observation.finish(errorToResponse(error, { method: request.method, path, requestId }));
    }
  };
  // A method the API routes nowhere is refused on any path, known or not.
  const refuse = refuseMethod(UNMATCHED_ROUTE, ALL_METHODS);
  return Object.fromEntries(ALL_METHODS.map((m) => [m, refusingUnsupported(answer, refuse)])) as MethodTable;
}
