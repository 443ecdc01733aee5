import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Placeholder } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { countWhilePending, metrics } from "@/lib/platform/metrics";
import { boundedClient, DATABASE_WAIT_MS } from "./bounded-client";
import * as schema from "./schema";

/** One interface over PGlite and PostgreSQL: domain code never knows which it has. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * LISTEN/NOTIFY outside the pool and outside any transaction (PostgreSQL only): what lets
 * every process drop cached state at once when another process changes it.
 */
export interface Notifications {
  /** Subscribes; `onListen` runs after every (re)connection's LISTEN succeeded, since notifications sent meanwhile are lost. */
  listen(channel: string, onMessage: (payload: string) => void, onListen: () => void): Promise<{ unlisten(): Promise<void> }>;
  notify(channel: string, payload: string): Promise<void>;
}

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Present for PostgreSQL: several processes may share the database. */
  notifications?: Notifications;
  /** Runs `hook` before the database closes (stopping timers and listeners that use it). */
  onClose(hook: () => void | Promise<void>): void;
  close(): Promise<void>;
}

/** A close() that runs the registered hooks first, each once. */
function closing(close: () => Promise<void>): Pick<DatabaseHandle, "onClose" | "close"> {
  const hooks: Array<() => void | Promise<void>> = [];
  return {
    onClose: (hook) => void hooks.push(hook),
    close: async () => {
      for (const hook of hooks.splice(0)) await hook();
      await close();
    },
  };
}

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/**
 * Opens PostgreSQL through postgres.js. Unless `bounded` is false (migrations, which may
 * wait for another process's lock), every query and transaction is bounded in time on
 * both sides: the client gives up after DATABASE_WAIT_MS (db/bounded-client.ts) and the
 * server cancels statements that run longer and ends transactions left idle.
 */
export async function openPostgres(url: string, options: { max?: number; bounded?: boolean } = {}): Promise<DatabaseHandle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const bounded = options.bounded ?? true;
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Fail fast while the server is down so requests answer 503 instead of hanging.
    connect_timeout: 4,
    // Seconds before a connection tries again after failing to: postgres.js's default grows with
    // the pool's failed attempts to 10-20 s, so a connection came back that long after the
    // database did, even after an outage of seconds. A few connections per process retrying
    // every second or two load nobody.
    backoff: (attempts: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** attempts, 2),
    idle_timeout: 60,
    connection: {
      // postgres.js prepares every statement; after five runs PostgreSQL may switch to a
      // generic plan, which for the filtered template list (owner + tag) sorts the owner's
      // whole share of the table: 60 ms instead of 0.2. Planning for the actual values costs
      // a fraction of a millisecond.
      plan_cache_mode: "force_custom_plan",
      ...(bounded ? { statement_timeout: DATABASE_WAIT_MS, idle_in_transaction_session_timeout: 3 * DATABASE_WAIT_MS } : {}),
    },
  });
  const notifications: Notifications = {
    listen: async (channel, onMessage, onListen) => {
      const subscription = await client.listen(channel, onMessage, onListen);
      return { unlisten: () => subscription.unlisten() };
    },
    notify: async (channel, payload) => {
      await client.notify(channel, payload);
    },
  };
  return {
    db: drizzle(bounded ? boundedClient(client) : client, { schema }) as unknown as Database,
    kind: "postgres",
    notifications,
    ...closing(() => client.end({ timeout: 5 })),
  };
}

/**
 * Opens the embedded PGlite database in `dataDir` (or in memory when null); an in-memory one
 * may start from `image`, a data directory PGlite dumped (the tests' migrated database).
 */
export async function openPglite(dataDir: string | null, options: { image?: Blob } = {}): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  let client: InstanceType<typeof PGlite>;
  if (dataDir) {
    const dir = path.join(dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = new PGlite(options.image ? { loadDataDir: options.image } : undefined);
  }
  await client.waitReady;
  return {
    db: drizzle(countingPglite(client), { schema }) as unknown as Database,
    kind: "pglite",
    ...closing(() => client.close()),
  };
}

/**
 * The PGlite client with its statements and transactions counted in the database gauges that
 * db/bounded-client.ts keeps for PostgreSQL (PGlite has no pool: this is what waits on it).
 * Methods are bound to the client itself, whose private fields a proxy receiver could not reach.
 */
function countingPglite<C extends object>(client: C): C {
  const counted: Record<PropertyKey, typeof metrics.databaseQueriesInFlight> = {
    query: metrics.databaseQueriesInFlight,
    exec: metrics.databaseQueriesInFlight,
    transaction: metrics.databaseTransactionsActive,
  };
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      const gauge = counted[property];
      if (!gauge) return method;
      return (...args: unknown[]) => countWhilePending(gauge, "pglite", method(...args) as Promise<unknown>);
    },
  });
}

/** What drizzle keeps as `$client`: the postgres.js client (bounded, see openPostgres) or PGlite. */
type DriverClient =
  | { unsafe(query: string, params: unknown[], options: { prepare: boolean }): { values(): Promise<unknown[][]> } }
  | { query(query: string, params: unknown[], options: { rowMode: "array" }): Promise<{ rows: unknown[][] }> };

/**
 * A statement for the hottest reads, run on the driver's own client past drizzle's per-call
 * work (placeholder filling, tracing spans, row mapping): `query` is a drizzle query with
 * sql.placeholder values, built once; each call binds the named values and resolves to the
 * rows as arrays of column values, in the order the query selects them, as the driver parses
 * them (so select text, not timestamps or json, for the same values on both databases).
 * postgres.js prepares it on each connection; on PostgreSQL the time bounds of openPostgres
 * apply as to every other query.
 */
export function rawStatement<Row extends unknown[]>(
  db: Database,
  query: { toSQL(): { sql: string; params: unknown[] } },
): (values: Record<string, unknown>) => Promise<Row[]> {
  const { sql: text, params } = query.toSQL();
  const bind = (values: Record<string, unknown>) => params.map((p) => (p instanceof Placeholder ? values[p.name] : p));
  const client = (db as unknown as { $client: DriverClient }).$client;
  if ("unsafe" in client) return (values) => client.unsafe(text, bind(values), { prepare: true }).values() as Promise<Row[]>;
  return async (values) => (await client.query(text, bind(values), { rowMode: "array" })).rows as Row[];
}
