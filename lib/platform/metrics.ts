import "server-only";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** How a marketplace document was obtained by the shared cache (lib/services/marketplace/cache.ts). */
export type MarketplaceOutcome =
  /** Upstream answered with a body. */
  | "fetched"
  /** Upstream answered 304 to a conditional request: the cached body still holds. */
  | "not_modified"
  /** A fresh cache entry answered without any request. */
  | "cache_fresh"
  /** Another process fetched it while this one waited for its lease. */
  | "shared"
  /** Upstream failed: refused address, unreachable, timeout, error status, too large. */
  | "failed"
  /** The caller went away before upstream answered. */
  | "cancelled";

export type DatabaseKind = "pglite" | "postgres";

interface Metrics {
  registry: Registry;
  httpRequests: Counter<"route" | "method" | "status">;
  httpRequestDuration: Histogram<"route" | "method">;
  httpRequestsInFlight: Gauge<"route" | "method">;
  marketplaceFetches: Counter<"outcome">;
  databaseQueriesInFlight: Gauge<"database">;
  databaseTransactionsActive: Gauge<"database">;
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "API requests answered, by endpoint path template, method and status.",
      labelNames: ["route", "method", "status"],
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from receiving an API request to its response, by endpoint path template and method.",
      labelNames: ["route", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    httpRequestsInFlight: new Gauge({
      name: "http_requests_in_flight",
      help: "API requests received and not yet answered, by endpoint path template and method.",
      labelNames: ["route", "method"],
      registers: [registry],
    }),
    marketplaceFetches: new Counter({
      name: "marketplace_fetches_total",
      help: "Marketplace documents (catalogs, manifests) obtained through the shared cache, by outcome.",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    databaseQueriesInFlight: new Gauge({
      name: "db_queries_in_flight",
      help: "Database queries sent or queued for a connection and not yet answered.",
      labelNames: ["database"],
      registers: [registry],
    }),
    databaseTransactionsActive: new Gauge({
      name: "db_transactions_active",
      help: "Database transactions begun (or waiting for a connection) and not yet finished.",
      labelNames: ["database"],
      registers: [registry],
    }),
  };
}

// One registry per process. Route bundles and instrumentation are separate module graphs, dev
// hot reload re-evaluates modules, and vitest builds several apps in one process: a second
// registration of the same metric names would throw, and a second registry would split counts.
const SLOT = Symbol.for("bank-template-console.metrics");
const slots = globalThis as Record<symbol, Metrics | undefined>;
slots[SLOT] ??= createMetrics();
export const metrics: Metrics = slots[SLOT];

export function countMarketplaceFetch(outcome: MarketplaceOutcome): void {
  metrics.marketplaceFetches.inc({ outcome });
}

/** Counts `pending` in `gauge` until it settles; answers it unchanged. */
export function countWhilePending<T>(gauge: Gauge<"database">, database: DatabaseKind, pending: Promise<T>): Promise<T> {
  gauge.inc({ database });
  const done = () => gauge.dec({ database });
  pending.then(done, done);
  return pending;
}
