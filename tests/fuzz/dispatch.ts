import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { fastPathSelected, isApiPath, sendToFastPath } from "../support/fast-path";
import { resolveRoute } from "../support/router";

/** `bad-credentials` carries a broken Authorization header or session cookie in its own headers. */
export type Caller = "admin" | "member" | "anonymous" | "bad-credentials";

export type FuzzBody = { json: unknown } | { text: string } | { bytes: Uint8Array };

/** One generated request, in a form that can be printed and replayed. */
export interface FuzzRequest {
  /** The operation it was generated for: `POST /ext/svc/me/templates`, or a pseudo-operation. */
  operation: string;
  method: string;
  /** Path and query exactly as sent: segments are already percent-encoded (or deliberately broken). */
  path: string;
  caller: Caller;
  headers: Record<string, string>;
  body?: FuzzBody;
  /** The path parameters' values as the handler sees them (decoded), to spot writes aimed at the callers. */
  targets?: string[];
}

export interface FuzzResponse {
  status: number;
  headers: Headers;
  text: string;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * The route file and params for a path, like the harness's resolver, but tolerant of invalid
 * percent-encoding: such a segment reaches the handler undecoded (which must answer 400),
 * instead of throwing inside the test's own router.
 */
function routeFor(pathname: string) {
  const tolerant = pathname
    .split("/")
    .map((segment) => (decodes(segment) ? segment : encodeURIComponent(segment)))
    .join("/");
  return resolveRoute(tolerant);
}

function bodyText(body: FuzzBody): string | Uint8Array {
  if ("json" in body) return JSON.stringify(body.json);
  if ("text" in body) return body.text;
  return body.bytes;
}

const MIDDLEWARE_HEADER = /^x-middleware-/;

/**
 * Runs proxy.ts the way Next does before a route: it may answer on its own (a malformed API
 * path), or pass the request on with rewritten headers and headers to add to the answer.
 */
function runProxy(url: URL, method: string, headers: Headers): { answer: Response } | { forwarded: Headers; extra: Headers } {
  const result = proxy(new NextRequest(url, { method, headers }));
  if (result.headers.get("x-middleware-next") !== "1") return { answer: result };
  const forwarded = new Headers();
  const overridden = result.headers.get("x-middleware-override-headers");
  if (overridden === null) for (const [name, value] of headers) forwarded.set(name, value);
  else
    for (const name of overridden.split(",").filter(Boolean)) forwarded.set(name, result.headers.get(`x-middleware-request-${name}`) ?? "");
  const extra = new Headers();
  result.headers.forEach((value, name) => {
    if (!MIDDLEWARE_HEADER.test(name)) extra.set(name, value);
  });
  return { forwarded, extra };
}

/**
 * Sends a generated request in-process through proxy.ts and then the real route handler, as
 * Next would route it. Null when the (normalised) path leaves /ext/svc and no route file answers it.
 */
export async function dispatch(request: FuzzRequest, tokens: Record<Caller, string | null>): Promise<FuzzResponse | null> {
  const url = new URL(request.path, "http://localhost");
  const resolved = routeFor(url.pathname);
  if (!resolved) return null;
  if (fastPathSelected && isApiPath(url.pathname)) return sendToServer(request, tokens);
  const mod = (await import(/* @vite-ignore */ resolved.file)) as Record<string, unknown>;
  const handler = mod[request.method] as ((req: Request, ctx: unknown) => Promise<Response>) | undefined;
  if (!handler) throw new Error(`${resolved.file} does not export ${request.method}`);

  const given = new Headers(request.headers);
  const token = tokens[request.caller];
  if (token) given.set("authorization", `Bearer ${token}`);
  const proxied = runProxy(url, request.method, given);
  if ("answer" in proxied) return { status: proxied.answer.status, headers: proxied.answer.headers, text: await proxied.answer.text() };
  const headers = proxied.forwarded;
  let body: BodyInit | undefined;
  // Fetch forbids a GET body; other methods carry one even where the operation expects none.
  if (request.body && request.method !== "GET") {
    const sent = bodyText(request.body);
    // Bytes, not a string: a string body would get an automatic text/plain Content-Type.
    body = (typeof sent === "string" ? new TextEncoder().encode(sent) : sent) as BodyInit;
    if ("json" in request.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  }
  // Like Next: routes without dynamic segments get no params object at all.
  const context = Object.keys(resolved.params).length ? { params: Promise.resolve(resolved.params) } : undefined;
  const response = await handler(new Request(url, { method: request.method, headers, body }), context);
  // Headers proxy.ts set on its pass-through answer reach the client unless the route set its own.
  const answerHeaders = new Headers(response.headers);
  proxied.extra.forEach((value, name) => {
    if (!answerHeaders.has(name)) answerHeaders.set(name, value);
  });
  return { status: response.status, headers: answerHeaders, text: await response.text() };
}

/**
 * With TEST_API_VIA=fast-path, an API request goes as it is (its path unnormalised, its method,
 * headers and bytes) over HTTP to the production server's front door and fast path
 * (tests/support/fast-path.ts); Next runs no proxy.ts for /ext/svc/ (its matcher), so neither does this.
 */
async function sendToServer(request: FuzzRequest, tokens: Record<Caller, string | null>): Promise<FuzzResponse> {
  const headers: Record<string, string> = { host: "localhost" };
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  const token = tokens[request.caller];
  if (token) headers.authorization = `Bearer ${token}`;
  let body: Uint8Array | undefined;
  if (request.body && request.method !== "GET") {
    const sent = bodyText(request.body);
    body = typeof sent === "string" ? new TextEncoder().encode(sent) : sent;
    if ("json" in request.body && headers["content-type"] === undefined) headers["content-type"] = "application/json";
  }
  const response = await sendToFastPath({ method: request.method, path: request.path, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A request as a short, replayable description for failure reports. */
export function describeRequest(request: FuzzRequest, maxBody = 1500): string {
  const lines = [
    `${request.method} ${request.path.length > 300 ? `${request.path.slice(0, 300)}… (${request.path.length} chars)` : request.path}`,
  ];
  lines.push(`  caller: ${request.caller}`);
  for (const [name, value] of Object.entries(request.headers)) lines.push(`  ${name}: ${value}`);
  if (request.body) {
    const sent = bodyText(request.body);
    const text = typeof sent === "string" ? JSON.stringify(sent) : `bytes [${[...sent].join(", ")}]`;
    lines.push(
      `  body${"json" in request.body ? " (JSON.stringify of the value)" : ""}: ${text.length > maxBody ? `${text.slice(0, maxBody)}… (${text.length} chars)` : text}`,
    );
  }
  return lines.join("\n");
}
