// The typed client for programs: openapi-fetch over the types openapi-typescript generated from
// GET /ext/svc/openapi.json (schema.d.ts). It imports nothing from the server's code, so a
// program can copy this folder as it is; see README.md.
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { components, paths } from "./schema";

export type { components, operations, paths } from "./schema";

/** Every named schema of the API: `Schemas["Template"]`, `Schemas["CreateBankRequest"]`. */
export type Schemas = components["schemas"];

/** An error answer (`application/problem+json`); branch on its `type`. */
export type Problem = Schemas["Problem"];

export type BankTemplatesClient = Client<paths>;

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
  return createClient<paths>({
    ...options,
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    fetch: retrying(fetch ?? ((request) => globalThis.fetch(request)), retries),
  });
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
