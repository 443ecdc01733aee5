import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One template as a marketplace catalog lists it (CONTRACT §6), with an inline manifest. */
export interface CatalogEntry {
  id: string;
  name: string;
  description?: string;
  category?: string;
  integrations?: string[];
  tags?: string[];
  homepage_url?: string;
  manifest: Record<string, unknown>;
}

/**
 * A marketplace for the browser tests: a real HTTP server on 127.0.0.1 (which the e2e app
 * server may fetch: playwright.config.ts puts 127.0.0.1 in MARKETPLACE_ALLOWED_HOSTS, any
 * port) serving catalogs the test writes, at `{url}/{name}/templates.json`, with ETags so
 * the app's conditional revalidation works as against a real host.
 */
export class E2eMarketplace {
  private readonly catalogs = new Map<string, { body: string; etag: string }>();
  /** Catalog paths answered with an error status instead, by `failCatalog`. */
  private readonly failing = new Map<string, number>();
  private server: Server | null = null;
  private port = 0;
  private version = 0;
  /** Paths requested, in order. */
  readonly requests: string[] = [];
  /** When each request came (ms since the epoch), in the order of `requests`. */
  readonly requestTimes: number[] = [];

  /** `http://127.0.0.1:PORT` */
  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The source URL of a catalog: its name is the first path segment. */
  sourceUrl(name: string) {
    return `${this.url}/${name}`;
  }

  /** Serves `templates` as the catalog of `name`, replacing what was there. */
  setCatalog(name: string, templates: CatalogEntry[]) {
    const body = JSON.stringify({ catalog_version: "1", name: `E2E ${name}`, templates }, null, 2);
    this.catalogs.set(`/${name}/templates.json`, { body, etag: `"v${++this.version}"` });
    this.failing.delete(`/${name}/templates.json`);
  }

  /** The catalog of `name` answers `status` (the marketplace is broken) until `setCatalog` serves one again. */
  failCatalog(name: string, status = 500) {
    this.failing.set(`/${name}/templates.json`, status);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://marketplace").pathname;
      this.requests.push(path);
      this.requestTimes.push(Date.now());
      const failure = this.failing.get(path);
      if (failure !== undefined) {
        res.writeHead(failure, { "content-type": "text/plain" }).end("The marketplace is broken.");
        return;
      }
      const file = this.catalogs.get(path);
      if (!file || req.method !== "GET") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
        return;
      }
      if (req.headers["if-none-match"] === file.etag) {
        res.writeHead(304, { etag: file.etag }).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json", etag: file.etag }).end(file.body);
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A valid bank-template manifest with two mental models and two directives. */
export function e2eManifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: "1",
    bank: { retain_mission: "Keep customer issues and how they were solved.", disposition_empathy: 4 },
    mental_models: [
      { id: "open-tickets", name: "Open tickets", source_query: "Which customer issues are still open?" },
      { id: "known-fixes", name: "Known fixes", source_query: "Which fixes solved recurring issues?" },
    ],
    directives: [
      { name: "Be kind", content: "Answer customers warmly and plainly." },
      { name: "Cite tickets", content: "Name the ticket each fact comes from." },
    ],
    ...overrides,
  };
}
