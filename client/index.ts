// The typed client for programs: openapi-fetch over the types openapi-typescript generated from
// GET /ext/svc/openapi.json (schema.d.ts). It imports nothing from the server's code, so a
// program can copy this folder as it is; see README.md.
import createClient, {
  type Client,
  type ClientOptions,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
} from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, operations, paths } from "./schema";

/** Every named schema of the API: `Schemas["Template"]`, `Schemas["CreateBankRequest"]`. */
export type Schemas = components["schemas"];

/** An error answer (`application/problem+json`); branch on its `type`. */
export type Problem = Schemas["Problem"];

/** The problem of a write whose `ifMatch` (or `ifNoneMatch: "*"`) did not hold: nothing was written. */
export type PreconditionFailed = Problem & { type: "urn:bank-templates:problem:precondition-failed" };

type Verb = "get" | "put" | "post" | "patch" | "delete";
type Methods = Uppercase<Verb>;

/** The request headers an operation declares (never when it declares none). */
type HeadersOf<Operation> = Operation extends { parameters: { header?: infer H } } ? NonNullable<H> : never;
type HeaderOf<Operation, Name extends string> = [HeadersOf<Operation>] extends [never]
  ? never
  : Name extends keyof HeadersOf<Operation>
    ? HeadersOf<Operation>[Name]
    : never;

/**
 * The preconditions (CONTRACT §19) a call may state, where its operation takes them: `ifMatch`,
 * the ETag of the version a write was made from (412 when the resource is no longer at it);
 * `ifNoneMatch`, for a read the ETag of the version you hold (304 when it is still current),
 * for a create-or-replace `"*"` (create only). A call whose operation does not take one does not compile.
 */
export interface Preconditions<Operation> {
  ifMatch?: HeaderOf<Operation, "If-Match">;
  ifNoneMatch?: HeaderOf<Operation, "If-None-Match">;
}

/**
 * A read answered 304 to `ifNoneMatch`: the version you hold is still the current one. It is not
 * an error: `data` and `error` are both absent, and `etag` is the (unchanged) tag.
 */
export interface NotModified {
  data?: never;
  error?: never;
  notModified: true;
  etag: string;
  response: Response;
}

/**
 * openapi-fetch's `{ data, error, response }` and the answer's `ETag` (on success the version
 * the answer shows or the write left; on a 412 the current version's), plus, for a read that sent
 * `ifNoneMatch`, the 304.
 */
export type Answer<V extends Verb, Operation extends Record<string | number, unknown>, Init> =
  | (FetchResponse<Operation, Init, `${string}/${string}`> & { etag: string | undefined; notModified?: false })
  | (V extends "get" ? (AsksIfChanged<Init> extends true ? NotModified : never) : never);

/** Whether a read sends If-None-Match (as `ifNoneMatch` or as the header itself), so may be answered 304. */
type AsksIfChanged<Init> = "ifNoneMatch" extends keyof Init
  ? true
  : Init extends { params: { header: infer H } }
    ? "If-None-Match" extends keyof H
      ? true
      : false
    : false;

/** The second argument, optional when the operation requires nothing (as openapi-fetch has it). */
type InitArgument<Init, Extra> = undefined extends Init
  ? [init?: NonNullable<Init> & Extra & { [key: string]: unknown }]
  : [init: Init & Extra & { [key: string]: unknown }];

type ConditionalMethod<V extends Verb> = <P extends ClientPathsWithMethod<Client<paths>, V>, Init extends MaybeOptionalInit<paths[P], V>>(
  url: P,
  ...init: InitArgument<Init, Preconditions<paths[P][V]>>
) => Promise<Answer<V, paths[P][V] & Record<string | number, unknown>, Init>>;

/**
 * openapi-fetch's client whose GET, PUT, POST, PATCH and DELETE also take `ifMatch` and
 * `ifNoneMatch` and answer the `etag` (and `notModified` for a 304); everything else as openapi-fetch has it.
 */
export type BankTemplatesClient = Omit<Client<paths>, Methods> & { [V in Verb as Uppercase<V>]: ConditionalMethod<V> };

export interface BankTemplatesClientOptions extends Omit<ClientOptions, "baseUrl" | "headers"> {
  /** The server's origin, `https://templates.example.com`; the paths carry `/ext/svc` themselves. */
  baseUrl: string;
  /** An API key of a user or service account (POST /ext/svc/me/api-keys), sent as a bearer token. */
  apiKey: string;
  /**
   * How many times a call is sent again after the network failed, a 503 (the server's database
   * is out of reach) or a 409 `idempotency-key-in-use` (an earlier attempt still runs); default 2,
   * 0 never. Writes are safe to send again: each carries one Idempotency-Key for all its attempts.
   */
  retries?: number;
}

/**
 * A client whose calls are checked against the API's paths, parameters, bodies and answers:
 * `client.POST("/ext/svc/banks", { params: { query: { dry_run: true } }, body })` resolves to
 * `{ data }` on success and `{ error }` (a Problem) otherwise, with the `response` beside them.
 */
export function createBankTemplatesClient({
  baseUrl,
  apiKey,
  retries = 2,
  fetch,
  ...options
}: BankTemplatesClientOptions): BankTemplatesClient {
  const client = createClient<paths>({
    ...options,
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    fetch: retrying(fetch ?? ((request) => globalThis.fetch(request)), retries),
  });
  return {
    ...client,
    GET: conditional(client.GET),
    PUT: conditional(client.PUT),
    POST: conditional(client.POST),
    PATCH: conditional(client.PATCH),
    DELETE: conditional(client.DELETE),
  } as BankTemplatesClient;
}

/**
 * Whether a write was refused because its `ifMatch` (or `ifNoneMatch: "*"`) did not hold: someone
 * changed the resource since you read it, and nothing was written. `etag` is then the current version's.
 */
export function isPreconditionFailed<A extends { error?: unknown; etag?: string; response: Response }>(
  answer: A,
): answer is A & { error: PreconditionFailed; etag: string } {
  const type = (answer.error as { type?: unknown } | undefined)?.type;
  return answer.response.status === 412 && type === "urn:bank-templates:problem:precondition-failed";
}

type Options = { ifMatch?: string; ifNoneMatch?: string; params?: { header?: Record<string, unknown> } } & Record<string, unknown>;
type Untyped = (url: string, init?: Options) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** One of openapi-fetch's methods, taking `ifMatch` / `ifNoneMatch` as headers and answering the ETag (and a 304 as NotModified). */
function conditional(method: unknown) {
  const send = method as Untyped;
  return async (url: string, init?: Options) => {
    const { ifMatch, ifNoneMatch, ...rest } = init ?? {};
    const header = {
      ...rest.params?.header,
      ...(ifMatch === undefined ? {} : { "If-Match": ifMatch }),
      ...(ifNoneMatch === undefined ? {} : { "If-None-Match": ifNoneMatch }),
    };
    const answer = await send(url, { ...rest, params: { ...rest.params, header } });
    const etag = answer.response.headers.get("ETag") ?? undefined;
    // openapi-fetch reads a 304 as an error with an empty body; it is the version you hold being current.
    if (answer.response.status === 304) return { notModified: true, etag, response: answer.response };
    return { ...answer, etag };
  };
}

const IDEMPOTENCY_KEY = "Idempotency-Key";
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Waits before another attempt: the server's Retry-After, at most this long. */
const MAX_RETRY_WAIT_MS = 5_000;

/**
 * Sends a request, and again (up to `retries` times) when trying again may succeed. A write gets
 * an Idempotency-Key (a new random UUID, unless the caller gave one in `params.header`) that
 * every attempt repeats, so a write whose answer was lost is done once (the server answers the
 * first answer again).
 */
function retrying(send: (request: Request) => Promise<Response>, retries: number) {
  return async (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers);
    if (WRITES.has(request.method) && !headers.has(IDEMPOTENCY_KEY)) headers.set(IDEMPOTENCY_KEY, globalThis.crypto.randomUUID());
    const body = request.body ? await request.arrayBuffer() : undefined;
    const attempt = () => send(new Request(request.url, { method: request.method, headers, body, signal: request.signal }));
    for (let done = 0; ; done++) {
      let response: Response;
      try {
        response = await attempt();
      } catch (error) {
        // A failed connection may be tried again; a timeout or a cancellation is the caller's to decide.
        if (done >= retries || !(error instanceof TypeError) || request.signal.aborted) throw error;
        await wait(backoff(done));
        continue;
      }
      if (done >= retries || !(await worthRetrying(response))) return response;
      await wait(retryAfterMs(response) ?? backoff(done));
    }
  };
}

async function worthRetrying(response: Response): Promise<boolean> {
  if (response.status === 503) return true;
  if (response.status !== 409) return false;
  const problem = (await response
    .clone()
    .json()
    .catch(() => null)) as { type?: unknown } | null;
  return typeof problem?.type === "string" && problem.type.endsWith(":idempotency-key-in-use");
}

const backoff = (done: number) => Math.min(250 * 2 ** done, MAX_RETRY_WAIT_MS);

function retryAfterMs(response: Response): number | null {
  const seconds = Number(response.headers.get("retry-after") ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_RETRY_WAIT_MS) : null;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
