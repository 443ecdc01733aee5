import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { AppRouteRouteModule } from "next/dist/server/route-modules/app-route/module";
import { type ApiRoute, createApiDispatcher, type RouteModule } from "@/lib/server/api-fast-path.cjs";
import { answerClientErrors } from "@/lib/server/connections.cjs";
import { createRequestListener } from "@/lib/server/front-door.cjs";
import { listenOnLoopback } from "./loopback";
import { answerWith } from "./node-bridge";
import { callRouteFile, resolveRoute, routes } from "./router";

/**
 * The API suite through the production server's fast path (issue 39): with
 * TEST_API_VIA=fast-path, tests/support/app.ts sends each API request over loopback HTTP to a
 * server made of the production server's own front door (lib/server/front-door.cjs) and fast
 * path (lib/server/api-fast-path.cjs), over Next's route modules of the route files' sources, in
 * this process (the modules the tests watch and set are the ones the handlers use). What the fast
 * path leaves to Next (a malformed escape, a trailing slash) goes to the route file in process,
 * as Next's router would send it.
 */

const HOSTNAME = "127.0.0.1";

/** Next's route module of each API route file, as the build makes one of each (its page key, its userland). */
function apiRoutes(): ApiRoute[] {
  return routes
    .filter((route) => route.segments[0] === "ext" && route.segments[1] === "svc")
    .map((route) => {
      const key = `/${route.segments.join("/")}/route`;
      const routeModule = new AppRouteRouteModule({
        definition: { kind: "APP_ROUTE", page: key, pathname: `/${route.segments.join("/")}`, filename: "route", bundlePath: `app${key}` },
        userland: () => import(/* @vite-ignore */ route.file),
        distDir: ".next",
        relativeProjectDir: "",
        resolvedPagePath: route.file,
        nextConfigOutput: undefined,
      } as unknown as ConstructorParameters<typeof AppRouteRouteModule>[0]);
      // Its resolveHandler is private in Next's types; the production server calls it all the same.
      return { key, routeModule: routeModule as unknown as RouteModule };
    });
}

/** Next's part in the test server: the route file in this process, or Next's 404 page where none answers. */
function nextStandIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
  return answerWith(req, res, async (request) => {
    const resolved = resolveRoute(new URL(request.url).pathname);
    return resolved
      ? callRouteFile(request, resolved)
      : new Response("not found", { status: 404, headers: { "content-type": "text/html" } });
  });
}

let server: Promise<string> | undefined;

const log = (level: string, msg: string, fields?: Record<string, unknown>) =>
  console.error(`fast-path test server: ${level}: ${msg}`, fields);

/** The base URL of this worker's fast-path server, started on first use. */
function fastPathServer(): Promise<string> {
  server ??= (async () => {
    let serve: ReturnType<typeof createApiDispatcher>["serve"] = null;
    const http = createServer(
      createRequestListener({
        serveApi: () => serve,
        handle: nextStandIn,
        stopping: () => false,
        log,
      }),
    );
    // Node's client does not read the server's Keep-Alive hint and may send on a connection the
    // server is closing at that moment (a reset); here connections stay open as long as the
    // worker, which they do not keep alive, nor does the idle server.
    http.keepAliveTimeout = 0;
    answerClientErrors(http, log);
    http.on("connection", (socket) => socket.unref());
    const port = await listenOnLoopback(http);
    http.unref();
    const dispatcher = createApiDispatcher({ routes: apiRoutes(), hostname: HOSTNAME, port });
    if (!dispatcher.serve) throw new Error(`the fast path cannot serve the route files: ${dispatcher.reason}`);
    serve = dispatcher.serve;
    return `http://${HOSTNAME}:${port}`;
  })();
  return server;
}

/** Connections to the fast-path server, kept open between requests as a program's client keeps them. */
const agent = new Agent({ keepAlive: true });
/** Statuses whose answer has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface RawRequest {
  method: string;
  /** Path and query as sent on the request line, not normalised. */
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | ReadableStream<Uint8Array> | null;
  signal?: AbortSignal;
}

/**
 * Sends a request to the fast-path server as it is (method, path, headers, body) and answers what
 * the server answered, as it arrives. Node's own client, not fetch: fetch would drop the Host and
 * add headers of its own.
 */
export async function sendToFastPath(request: RawRequest): Promise<Response> {
  const server = new URL(await fastPathServer());
  return new Promise<Response>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: server.hostname,
        port: server.port,
        method: request.method,
        path: request.path,
        headers: request.headers,
        agent,
        signal: request.signal,
      },
      (incoming) => {
        const answerHeaders = new Headers();
        for (let i = 0; i < incoming.rawHeaders.length; i += 2) answerHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        const status = incoming.statusCode ?? 0;
        const empty = NULL_BODY_STATUSES.has(status) || request.method === "HEAD";
        if (empty) incoming.resume();
        const body = empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, statusText: incoming.statusMessage, headers: answerHeaders }));
      },
    );
    outgoing.once("error", reject);
    const { body } = request;
    // What a program's client sends: the length of bytes it has, chunks of a stream. (Node's
    // client frames neither by itself for DELETE or OPTIONS, and the server would read the body
    // as the next request.)
    const named = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
    if (body instanceof Uint8Array && !named.has("content-length")) outgoing.setHeader("content-length", body.byteLength);
    else if (body && !(body instanceof Uint8Array) && !named.has("content-length")) outgoing.setHeader("transfer-encoding", "chunked");
    if (body instanceof Uint8Array) outgoing.end(body);
    else if (body) Readable.fromWeb(body as import("node:stream/web").ReadableStream).pipe(outgoing);
    else outgoing.end();
  });
}

/** Sends `req` to the fast-path server with the Host of its URL, its body as a stream. */
export function callThroughFastPath(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const headers: Record<string, string> = { host: url.host };
  req.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return sendToFastPath({ method: req.method, path: url.pathname + url.search, headers, body: req.body, signal: req.signal });
}

export const fastPathSelected = process.env.TEST_API_VIA === "fast-path";
/** Under the API as the front door (lib/server/front-door.cjs) tells it. */
export const isApiPath = (pathname: string) => pathname.startsWith("/ext/svc/");
