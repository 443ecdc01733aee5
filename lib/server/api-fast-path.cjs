// The API's fast path in the production server (issue 39): a request under /ext/svc/ goes
// straight to the handler that its route file (app/ext/svc/**/route.ts) exports, the very
// function Next would call, without Next's per-request machinery (about 1 ms of CPU a request
// before any of ours runs). The handlers are the build's own compiled route modules, loaded from
// .next/server through the build's app-paths manifest in this same process, so Next's router and
// this one serve one copy of each handler with one set of module instances (one database pool,
// one metrics registry, one actor cache); the pipeline (lib/http/route.ts) does everything else a
// request needs (request id, log line, metrics, body limit, idempotency, audit, problem answers),
// on both paths alike. Paths are matched with the manifest's own segments, static before dynamic
// before catch-all, as Next matches them. A request whose path Next would first normalize or
// decode (a "%", an empty or dot segment, a trailing slash) is not taken and goes to Next as before.
// `API_FAST_PATH=0` turns it off; `next dev` never runs this file, and routes the API through the
// route files as Next does.
// Plain CommonJS with no imports but Node's: it runs beside the traced node_modules (http-server.cjs).
"use strict";

const fs = require("node:fs");
const path = require("node:path");

/** Set once lib/platform/peer-address.ts hooks the server's requests (instrumentation.ts, run by Next's prepare). */
const PEER_ADDRESS_HOOK = Symbol.for("bank-template-console.peer-address");
const API_ROUTE_KEY = /^\/ext\/svc\/(.*)\/route$/;
/** A path the fast path takes as it is: no escapes, no empty or dot segments, nothing Next rewrites. */
const PLAIN_PATH = /^\/ext\/svc(\/[A-Za-z0-9\-._~!$&'()*+,;=:@]+)+$/;
const NEEDS_NEXT_SEGMENT = /^\.{1,2}$|\.rsc$/;
const NO_BODY_METHODS = new Set(["GET", "HEAD"]);
/** Headers Next does not copy from a handler's Response (node frames the body itself). */
const FRAMING_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding"]);
/** Where an answer built from text keeps that text, and the mark asking for such answers (lib/http/text-response.ts). */
const RESPONSE_TEXT = Symbol.for("bank-templates.response-text");
const TEXT_ANSWERS = Symbol.for("bank-templates.text-answers");
/** Answers sent as they are produced, line by line (lib/http/route.ts NdjsonStream); every other answer is read whole first. */
const STREAMED_TYPE = "application/x-ndjson";

/** One level of the route tree: static children, one dynamic child, one catch-all, and the route ending here. */
function newNode() {
  return { children: new Map(), dynamic: null, catchAll: null, route: null };
}

/**
 * The API route modules of the build at `distDir` (its app-paths manifest), each as `{ key,
 * routeModule }` with the key Next files it under (`/ext/svc/me/route`), or null with the reason
 * when one does not have the shape this file relies on (Next's `resolveHandler`).
 */
function buildRouteModules(distDir) {
  const serverDir = path.join(distDir, "server");
  const manifest = JSON.parse(fs.readFileSync(path.join(serverDir, "app-paths-manifest.json"), "utf8"));
  const routes = [];
  for (const [key, file] of Object.entries(manifest)) {
    if (!API_ROUTE_KEY.test(key)) continue;
    const routeModule = require(path.join(serverDir, file)).routeModule;
    if (typeof routeModule?.resolveHandler !== "function") return { routes: null, reason: `${key} has no route module Next's way` };
    routes.push({ key, routeModule });
  }
  return { routes, reason: null };
}

/** The route tree of `routes` (`{ key, routeModule }`), or null with the reason when a path has a shape this file does not match. */
function loadRouteTree(routes) {
  const root = newNode();
  let count = 0;
  for (const { key, routeModule } of routes) {
    const matched = API_ROUTE_KEY.exec(key);
    if (!matched) return { root: null, reason: `${key} is not an API route` };
    let node = root;
    let dynamic = false;
    let catchAll = null;
    for (const segment of matched[1].split("/")) {
      const catchAllName = /^\[\.\.\.(.+)\]$/.exec(segment)?.[1];
      const dynamicName = /^\[([^.[\]]+)\]$/.exec(segment)?.[1];
      if (/^\(.*\)$/.test(segment)) continue; // a route group: no part of the path
      if (catchAllName) {
        catchAll = catchAllName;
        break;
      }
      if (segment.startsWith("[") && !dynamicName) return { root: null, reason: `${key}: an optional catch-all is not handled here` };
      dynamic ||= Boolean(dynamicName);
      if (dynamicName) {
        node.dynamic ??= { name: dynamicName, node: newNode() };
        if (node.dynamic.name !== dynamicName) return { root: null, reason: `${key}: two names for one dynamic segment` };
        node = node.dynamic.node;
      } else {
        if (!node.children.has(segment)) node.children.set(segment, newNode());
        node = node.children.get(segment);
      }
    }
    const route = { key, routeModule, hasParams: dynamic || catchAll !== null, ready: null };
    if (catchAll) node.catchAll = { name: catchAll, route };
    else node.route = route;
    count++;
  }
  return count > 0 ? { root, reason: null } : { root: null, reason: "the build has no API routes" };
}

/** The route a path's segments reach, with their params, or null: static before dynamic before catch-all, as Next matches. */
function matchRoute(node, segments, index, params) {
  if (index === segments.length) return node.route ? { route: node.route, params } : null;
  const segment = segments[index];
  const child = node.children.get(segment);
  const staticMatch = child ? matchRoute(child, segments, index + 1, params) : null;
  if (staticMatch) return staticMatch;
  if (node.dynamic) {
    const dynamicMatch = matchRoute(node.dynamic.node, segments, index + 1, { ...params, [node.dynamic.name]: segment });
    if (dynamicMatch) return dynamicMatch;
  }
  if (node.catchAll) return { route: node.catchAll.route, params: { ...params, [node.catchAll.name]: segments.slice(index) } };
  return null;
}

/** The request as Next's adapter builds it for a route handler: the same URL, headers, body and abort signal. */
function toRequest(req, res, origin) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  const init = { method: req.method, headers };
  if (!NO_BODY_METHODS.has(req.method)) {
    init.body = bodyStream(req);
    init.duplex = "half";
  }
  const request = new Request(origin + req.url, init);
  // Aborted when the client goes away before the answer is sent (Next's signalFromNodeResponse).
  // Given to the constructor, a signal costs more than the rest of the Request (a second signal
  // made to follow it); the handlers read `request.signal`, which is this one.
  const controller = new AbortController();
  res.once("close", () => res.writableFinished || controller.abort());
  Object.defineProperty(request, "signal", { value: controller.signal });
  // The pipeline may answer with text alone (lib/http/text-response.ts): sendResponse writes it.
  request[TEXT_ANSWERS] = true;
  return request;
}

/**
 * The request's body as a web stream that a reader may give up on (the pipeline stops at 1 MiB)
 * without destroying the request: Node's Readable.toWeb destroys it on cancel, and with it the
 * connection, whose unread bytes then make the kernel reset it, so a client that keeps its
 * connections open loses its next request. What was not read is drained after the answer (answer()).
 */
function bodyStream(req) {
  let open = true;
  const stop = () => {
    open = false;
    req.pause();
  };
  return new ReadableStream(
    {
      start(controller) {
        const end = (error) => {
          if (!open) return;
          stop();
          if (error) controller.error(error);
          else controller.close();
        };
        req.on("data", (chunk) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (controller.desiredSize <= 0) req.pause();
        });
        req.once("end", () => end(null));
        req.once("error", end);
        // A client gone before its body ended: the reading fails rather than waits.
        req.once("close", () => req.complete || end(new Error("the client closed the request before its body ended")));
      },
      pull() {
        req.resume();
      },
      cancel: stop,
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** Writes a handler's Response as Next's sendResponse does, with Content-Length when the answer is read whole. */
async function sendResponse(req, res, response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (FRAMING_HEADERS.has(name) || name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  // An answer the pipeline made of text (lib/http/text-response.ts) is written as that text; it
  // may have no body stream at all.
  const text = response[RESPONSE_TEXT];
  if (typeof text === "string" && req.method !== "HEAD") {
    res.setHeader("content-length", Buffer.byteLength(text));
    return res.end(text);
  }
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    return res.end();
  }
  if (!response.headers.get("content-type")?.startsWith(STREAMED_TYPE)) {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("content-length", body.length);
    return res.end(body);
  }
  await pipeToResponse(response.body, res);
}

/** Streams a body with backpressure; a client that leaves cancels the reading (the stream logs it). */
async function pipeToResponse(body, res) {
  const reader = body.getReader();
  const cancel = () => reader.cancel().catch(() => {});
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) {
        await new Promise((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
      }
    }
    res.end();
  } catch (error) {
    res.destroy(error);
  } finally {
    res.off("close", cancel);
  }
}

/**
 * The fast path over the build in `distDir`, for a server Next knows as `hostname`:`port` (the
 * origin of the request URL a handler sees, as Next builds it), or null with the reason.
 * Call once Next is prepared (instrumentation has run: the peer address hook, lib/platform/peer-address.ts).
 */
function createApiFastPath({ distDir, hostname, port }) {
  // The rate limits count the address X-Forwarded-For ends with, which that hook appends.
  if (globalThis[PEER_ADDRESS_HOOK] !== true) return { serve: null, reason: "instrumentation.ts has not run (no peer address hook)" };
  const { routes, reason } = buildRouteModules(distDir);
  if (!routes) return { serve: null, reason };
  return createApiDispatcher({ routes, hostname, port });
}

/**
 * The fast path over `routes` (`{ key, routeModule }`: Next's route modules of the API's route
 * files), or null with the reason. The production server passes the build's; the API tests pass
 * modules built the same way over the route files' sources (tests/support/fast-path.ts).
 */
function createApiDispatcher({ routes, hostname, port }) {
  const { root, reason } = loadRouteTree(routes);
  if (!root) return { serve: null, reason };
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;

  /** Answers the request and returns the promise of it, or returns null when Next is to answer it. */
  function serve(req, res, pathname) {
    if (!PLAIN_PATH.test(pathname)) return null;
    const segments = pathname.slice(1).split("/").slice(2);
    if (segments.some((segment) => NEEDS_NEXT_SEGMENT.test(segment))) return null;
    const matched = matchRoute(root, segments, 0, {});
    if (!matched) return null;
    return answer(req, res, matched.route, matched.params);
  }

  async function answer(req, res, route, params) {
    // What Next's server fills in before any route runs (base-server.js, handleRequestImpl).
    const forwardedProto = req.headers["x-forwarded-proto"];
    const https = forwardedProto ? forwardedProto === "https" : Boolean(req.socket.encrypted);
    req.headers["x-forwarded-host"] ??= req.headers.host ?? hostname;
    req.headers["x-forwarded-port"] ??= String(port);
    req.headers["x-forwarded-proto"] ??= https ? "https" : "http";
    req.headers["x-forwarded-for"] ??= req.socket.remoteAddress;
    const protocol = req.headers["x-forwarded-proto"].includes("https") ? "https" : "http";
    const request = toRequest(req, res, `${protocol}://${host}:${port}`);
    route.ready ??= route.routeModule.ensureUserland?.();
    await route.ready;
    const handler = route.routeModule.resolveHandler(req.method);
    const response = await handler(request, { params: route.hasParams ? Promise.resolve(params) : undefined });
    if (!(response instanceof Response)) throw new Error(`${route.key} answered ${req.method} with no Response`);
    await sendResponse(req, res, response);
    // A body the handler left unread (a 413 before reading, a partly read one): read to its end
    // and dropped, as Node does for a request nobody read, so the connection serves the next one.
    if (!req.complete) {
      req.removeAllListeners("data");
      req.resume();
    }
  }

  return { serve, reason: null };
}

module.exports = { createApiDispatcher, createApiFastPath };
