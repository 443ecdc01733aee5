import type { z } from "zod";
import { ETAG_HEADER, IF_MATCH_HEADER, IF_NONE_MATCH_HEADER } from "@/lib/contracts/conditional-header";
import type { Endpoint } from "@/lib/contracts/endpoint";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METHODS } from "@/lib/contracts/idempotency-header";
import { PROBLEM_CONTENT_TYPE } from "@/lib/contracts/problem-type-prefix";
import type { ContractOf, EndpointRoute } from "./endpoints";
import { keepEntityTag } from "./entity-tag";
import { isGatewayAnswer } from "./gateway-answer";
import { isSaveCancelled, resendWhenReachable } from "./pending-saves";
import { ApiProblem } from "./problem";

// The console's one way to call /ext/svc: an endpoint's route (method and path, with its
// contract's zod types for TypeScript only) plus its input, checked by TypeScript, returning
// the contract's response type. Same-origin fetches carry the session cookie; the API checks
// their origin. Answers are not parsed against the contract again here: the server encodes
// them from its contract, and shipping zod with every schema to the browser for that cost
// every page ~40 kB of JavaScript.

type Schema = z.ZodType | undefined;
type InputOf<S extends Schema> = S extends z.ZodType ? z.input<S> : never;

type ParamsPart<P extends Schema> = P extends z.ZodType ? { params: InputOf<P> } : { params?: undefined };
type QueryPart<Q extends Schema> = Q extends z.ZodType ? { query?: InputOf<Q> } : { query?: undefined };
type BodyPart<B extends Schema> = B extends z.ZodType ? { body: InputOf<B> } : { body?: undefined };

/**
 * A write's Idempotency-Key (CONTRACT §18): one per user action, given again when the same action
 * is sent again (a resend after a lost answer is then done once). Without it each call of a
 * write is its own action and gets a new key.
 */
interface IdempotencyPart {
  idempotencyKey?: string;
}

/**
 * The version a write was made from (CONTRACT §19), sent as If-Match: the ETag of what the form
 * showed (entityTagOf its answer). The server then writes only if the resource is still at that
 * version, and otherwise answers 412 `precondition-failed` having written nothing. Without it
 * the write happens whatever the version.
 */
interface ConditionPart {
  ifMatch?: string;
  /** `*`: create only (sent as If-None-Match): 412 when the resource exists already. */
  ifNoneMatch?: "*";
}

/** What `api.call(endpoint, input)` takes for an endpoint: its path params, query and body. */
export type CallInput<E> =
  ContractOf<E> extends Endpoint<infer P, infer Q, infer B, infer _R>
    ? ParamsPart<P> & QueryPart<Q> & BodyPart<B> & IdempotencyPart & ConditionPart
    : never;

/** What `api.call` resolves to: the parsed response (its ETag kept: entityTagOf), or undefined for 204 endpoints. */
export type CallResult<E> =
  ContractOf<E> extends Endpoint<infer _P, infer _Q, infer _B, infer R> ? (R extends z.ZodType ? z.output<R> : undefined) : never;

/** Endpoints with nothing required may be called without an input. */
export type CallArgs<E> = Record<string, never> extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/** The URL of an endpoint with its `{param}` segments filled in and its query appended. */
export function endpointUrl(endpoint: Pick<EndpointRoute, "path">, input: { params?: unknown; query?: unknown } = {}): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${endpoint.path} needs the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (value !== undefined && value !== null && value !== "") query.set(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/**
 * A new Idempotency-Key: a random UUID. crypto.randomUUID exists only in secure contexts, and
 * the console may be served over plain http; getRandomValues exists everywhere.
 */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The call never got an answer: no server, or no network to it. */
const networkProblem = () => new ApiProblem(0, "Network Error", "The server could not be reached.");

async function call<E extends EndpointRoute>(endpoint: E, ...[input]: CallArgs<E>): Promise<CallResult<E>> {
  const { body, idempotencyKey, ifMatch, ifNoneMatch } = (input ?? {}) as { body?: unknown } & IdempotencyPart & ConditionPart;
  const key = IDEMPOTENT_METHODS.has(endpoint.method) ? (idempotencyKey ?? newIdempotencyKey()) : undefined;
  // Every try of this call sends exactly this: the same request with the same key and the same
  // If-Match (or If-None-Match), so a save that waited for the server never overwrites a change made meanwhile. A proxy's
  // 502/503/504 standing in for the server counts as no answer, like a failed connection.
  const send = async () => {
    const response = await fetch(endpointUrl(endpoint, input ?? {}), {
      method: endpoint.method,
      credentials: "same-origin",
      headers: {
        accept: "application/json",
        // Proves same-origin where browsers send no Origin or Sec-Fetch-Site (lib/http/auth.ts).
        "x-requested-with": "bank-templates-console",
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(key !== undefined ? { [IDEMPOTENCY_KEY_HEADER]: key } : {}),
        ...(ifMatch !== undefined ? { [IF_MATCH_HEADER]: ifMatch } : {}),
        ...(ifNoneMatch !== undefined ? { [IF_NONE_MATCH_HEADER]: ifNoneMatch } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    // Thrown like a failed connection, and handled the same way below; no message is ever shown.
    if (isGatewayAnswer(response, PROBLEM_CONTENT_TYPE)) throw new TypeError();
    return response;
  };
  let response: Response;
  try {
    response = await send();
  } catch {
    // A read fails (its query waits and asks again); a write waits for the server and is sent
    // again with its key, so it is done once even when only its answer was lost.
    if (key === undefined) throw networkProblem();
    response = await resendWhenReachable(send);
  }
  if (!response.ok) throw await ApiProblem.fromResponse(response);
  // Endpoints whose contract has no response answer 204 with no body.
  const text = response.status === 204 ? "" : await response.text();
  if (text === "") return undefined as CallResult<E>;
  let answer: CallResult<E>;
  try {
    answer = JSON.parse(text) as CallResult<E>;
  } catch {
    throw new ApiProblem(response.status, "Unexpected Response", `The answer of ${endpoint.method} ${endpoint.path} was not JSON.`);
  }
  keepEntityTag(answer, response.headers.get(ETAG_HEADER));
  return answer;
}

export const api = { call };

/** The call never got an answer: the server (or the network to it) is out of reach. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 0 && !isSaveCancelled(error);
}
