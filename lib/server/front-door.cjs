// What the production server (http-server.cjs) does with each request before anything answers it,
// and whom it hands it to: the API's fast path (api-fast-path.cjs) or Next. One function for the
// server and for the tests that run the API suite through the fast path (tests/support/app.ts),
// so both meet one front door.
// - refuses a declared body over 1 MiB outside the API before reading it (the API answers its own
//   413 as problem+json, after authentication, without reading the body either);
// - answers a path with malformed percent-encoding, which Next would answer with a 500: outside
//   the API with a plain 400; under the API by passing it on escaped and marked, so the API's
//   pipeline answers it with its problem+json, request id and log line (lib/http/route.ts); outside
//   the API, malformed percent-encoding in the query is refused with a plain 400 too;
// - answers a method Next does not route (TRACE, PROPFIND, ...), which Next would answer with a
//   500, the same way: outside the API with a plain 405 and Allow; under the API as DELETE (a
//   method Next routes that may carry a body) marked with the method, so the pipeline answers
//   405 method-not-allowed with the path's Allow.
// Plain CommonJS with no imports: it runs beside the traced node_modules.
"use strict";

const MAX_DECLARED_BODY_BYTES = 1024 * 1024;
const API_PREFIX = "/ext/svc/";
/** Set on a request whose path had malformed percent-encoding (and removed from any client's request). */
const INVALID_PATH_HEADER = "x-invalid-path-encoding";
/** Set to the client's method on a request whose method Next does not route (and removed from any client's request). */
const UNSUPPORTED_METHOD_HEADER = "x-unsupported-method";
/** The methods Next routes to pages and route handlers; Node's parser refuses names it does not know with its own 400. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function hasValidPercentEncoding(text) {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** A plain 4xx outside the API, closing the connection (the rest of the request is not read). */
function refuse(res, status, text, headers = {}) {
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "x-content-type-options": "nosniff",
    connection: "close",
    ...headers,
  });
  res.end(`${text}\n`);
}

/**
 * The server's request listener. `serveApi()` is the fast path's `serve` (or null while there is
 * none: before Next is prepared, or with API_FAST_PATH=0); `handle(req, res)` is Next's request
 * handler; `stopping()` tells whether the server is shutting down; `log` writes a line.
 */
function createRequestListener({ serveApi, handle, stopping, log }) {
  return (req, res) => {
    if (stopping()) res.setHeader("connection", "close");
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    const isApi = pathname.startsWith(API_PREFIX);
    delete req.headers[INVALID_PATH_HEADER];
    delete req.headers[UNSUPPORTED_METHOD_HEADER];
    if (!ROUTED_METHODS.has(req.method)) {
      if (!isApi) return refuse(res, 405, `Method Not Allowed: ${req.method}.`, { allow: [...ROUTED_METHODS].join(", ") });
      req.headers[UNSUPPORTED_METHOD_HEADER] = req.method;
      req.method = "DELETE";
    }
    // Outside the API a bad escape in the query is refused as well (pages decode their parameters);
    // the API's pipeline reads its query leniently and validates the values.
    if (!isApi && query !== -1 && !hasValidPercentEncoding(url.slice(query + 1))) {
      return refuse(res, 400, "Bad Request: the URL query has invalid percent-encoding.");
    }
    if (!hasValidPercentEncoding(pathname)) {
      if (!isApi) return refuse(res, 400, "Bad Request: the URL path has invalid percent-encoding.");
      // Every % escaped, so Next routes it (to the endpoint or the catch-all) without decoding
      // errors; the mark makes the pipeline answer 400 invalid-path-encoding.
      req.headers[INVALID_PATH_HEADER] = "1";
      req.url = pathname.replaceAll("%", "%25") + (query === -1 ? "" : url.slice(query));
    }
    const declared = Number(req.headers["content-length"]);
    if (!isApi && declared > MAX_DECLARED_BODY_BYTES) return refuse(res, 413, "Payload Too Large: at most 1 MiB.");
    const serve = isApi ? serveApi() : null;
    const served = serve ? serve(req, res, pathname) : null;
    (served ?? handle(req, res)).catch((error) => {
      log("error", "the request handler failed", { err: String(error?.stack ?? error) });
      if (!res.headersSent) refuse(res, 500, "Internal Server Error");
      else res.destroy();
    });
  };
}

module.exports = { createRequestListener };
