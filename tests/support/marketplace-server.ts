import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback } from "./loopback";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
}

interface FileOptions {
  headers?: Record<string, string>;
  status?: number;
  /** Each request is answered only once this settles (either way): for a crowd that must all be waiting. */
  heldUntil?: Promise<unknown>;
}

export interface Marketplace {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  port: number;
  /** `127.0.0.1:PORT`, as MARKETPLACE_ALLOWED_HOSTS names it. */
  host: string;
  /** Serves `body` (an object is sent as JSON, a string or Buffer as is) at `path`, with ETag and Last-Modified. */
  setFile(path: string, body: unknown, options?: FileOptions): void;
  /** Takes over `path` entirely, for fault modes (slow bodies, resets, odd statuses). */
  setHandler(path: string, handler: Handler): void;
  /** Answers `path` with a redirect to `location` (absolute, or relative to this server). */
  setRedirect(path: string, location: string, status?: number): void;
  remove(path: string): void;
  requests: RecordedRequest[];
  /** Requests received whose response has not finished (or been abandoned) yet. */
  readonly inFlight: number;
  /** The most requests that were in flight at once since the last clearRequests(). */
  readonly maxInFlight: number;
  /** How many recorded requests asked for `path` (path and query, as sent). */
  count(path: string): number;
  clearRequests(): void;
  close(): Promise<void>;
}

interface StoredFile {
  body: Buffer;
  etag: string;
  lastModified: string;
  status: number;
  headers: Record<string, string>;
  heldUntil?: Promise<unknown>;
}

const toBuffer = (body: unknown): Buffer =>
  Buffer.isBuffer(body) ? body : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));

function storedFile(body: unknown, options: FileOptions): StoredFile {
  const bytes = toBuffer(body);
  return {
    body: bytes,
    etag: `"${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}"`,
    // Whole seconds, as HTTP dates have no more.
    lastModified: new Date(Math.floor(Date.now() / 1000) * 1000).toUTCString(),
    status: options.status ?? 200,
    headers: options.headers ?? {},
    heldUntil: options.heldUntil,
  };
}

function serveFile(req: IncomingMessage, res: ServerResponse, file: StoredFile): void {
  const validators = { ETag: file.etag, "Last-Modified": file.lastModified };
  const tags = req.headers["if-none-match"]?.split(",").map((t) => t.trim());
  if (file.status === 200 && tags && (tags.includes(file.etag) || tags.includes("*"))) {
    res.writeHead(304, validators).end();
    return;
  }
  res.writeHead(file.status, {
    "Content-Type": "application/json",
    "Content-Length": String(file.body.length),
    ...validators,
    ...file.headers,
  });
  res.end(file.body);
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "not found" }));
}

/**
 * A real HTTP marketplace on 127.0.0.1 and an ephemeral port. Tests put files and fault handlers
 * at paths and read back every request it received (method, path, headers).
 */
export async function startMarketplace(): Promise<Marketplace> {
  const files = new Map<string, StoredFile>();
  const handlers = new Map<string, Handler>();
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push({ method: req.method ?? "GET", path, headers: req.headers });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // "close" comes once per response, whether it finished or the client went away.
    res.once("close", () => inFlight--);
    const pathname = new URL(path, "http://marketplace").pathname;
    const handler = handlers.get(pathname);
    if (handler) return handler(req, res);
    const file = files.get(pathname);
    if (file?.heldUntil) {
      const serve = () => serveFile(req, res, file);
      return void file.heldUntil.then(serve, serve);
    }
    if (file) return serveFile(req, res, file);
    notFound(res);
  });
  const port = await listenOnLoopback(server);

  const remove = (path: string) => {
    files.delete(path);
    handlers.delete(path);
  };
  const setHandler = (path: string, handler: Handler) => {
    remove(path);
    handlers.set(path, handler);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    host: `127.0.0.1:${port}`,
    setFile(path, body, options = {}) {
      remove(path);
      files.set(path, storedFile(body, options));
    },
    setHandler,
    setRedirect(path, location, status = 302) {
      setHandler(path, (_req, res) => res.writeHead(status, { Location: location }).end());
    },
    remove,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    count: (path) => requests.filter((r) => r.path === path).length,
    clearRequests: () => {
      requests.splice(0);
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Handlers may hold a response open on purpose; do not wait for them.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
