import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { marketplaceFetchLeases } from "@/db/schema";
import { clientGone } from "@/lib/platform/operation";

/**
 * Single flight (CONTRACT §12) in two layers. In a process, callers that want the same cache
 * entry at the same time share one promise (`coalesce`). Across processes, the one that holds
 * the entry's lease row fetches upstream and writes the cache; the others poll the cache row
 * until the answer they may use is there, or the lease is gone (the holder failed) or expired
 * (it died), and then try to take the lease themselves.
 */

/** A value and when its upstream answer was received, which decides who may use it. */
export interface Resolved<T> {
  value: T;
  fetchedAt: Date;
}

/**
 * One shared piece of work. It runs under its own signal, which fires only once every caller
 * that joined it has gone away: one impatient client never cancels the fetch for the others.
 */
class Flight<T> {
  private readonly controller = new AbortController();
  private callers = 0;
  readonly promise: Promise<Resolved<T>>;

  constructor(work: (signal: AbortSignal) => Promise<Resolved<T>>, onAbandoned: () => void) {
    this.controller.signal.addEventListener("abort", onAbandoned, { once: true });
    this.promise = work(this.controller.signal);
    // Rejections reach the callers through join(); an abandoned flight has none left.
    this.promise.catch(() => {});
  }

  join(signal: AbortSignal | undefined): Promise<Resolved<T>> {
    this.callers++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        reject(clientGone());
        if (--this.callers === 0) this.controller.abort();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.promise.then(
        (value) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }
}

// Per database handle, not per module: two app instances in one process (as in tests and the
// bench) then behave like two processes and meet only through the database.
const flightsByDatabase = new WeakMap<Database, Map<string, Flight<unknown>>>();

function flightsOf(db: Database): Map<string, Flight<unknown>> {
  let flights = flightsByDatabase.get(db);
  if (!flights) {
    flights = new Map();
    flightsByDatabase.set(db, flights);
  }
  return flights;
}

/**
 * Runs `work` once for all callers in this process that ask for `key` while it runs. A caller
 * that joins a running flight may use its answer only if `accepts` says so (a revalidating
 * caller needs an answer received after it began); otherwise it starts a flight of its own.
 * Failures are shared: callers that asked at the same time get the same upstream answer.
 */
export async function coalesce<T>(
  db: Database,
  key: string,
  accepts: (fetchedAt: Date) => boolean,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<Resolved<T>>,
): Promise<Resolved<T>> {
  const flights = flightsOf(db);
  const running = flights.get(key) as Flight<T> | undefined;
  if (running) {
    const shared = await running.join(signal);
    if (accepts(shared.fetchedAt)) return shared;
  }
  const flight: Flight<T> = new Flight(work, () => {
    // Nobody waits for it any more: later callers must not join a cancelled flight.
    if (flights.get(key) === flight) flights.delete(key);
  });
  flights.set(key, flight as Flight<unknown>);
  const settled = () => {
    if (flights.get(key) === flight) flights.delete(key);
  };
  flight.promise.then(settled, settled);
  return flight.join(signal);
}

/** Unique per flight; the host and pid only make a stuck lease easier to trace. */
export const leaseHolder = () => `${hostname()}:${process.pid}:${randomUUID()}`;

const interval = (ms: number) => sql`${`${Math.ceil(ms)} milliseconds`}::interval`;

/**
 * Takes the lease on `key` for `ttlMs` when nobody holds it or its holder's time ran out.
 * Expiry uses the database's clock, so processes on hosts with skewed clocks agree on it.
 */
export async function takeLease(db: Database, key: string, holder: string, ttlMs: number): Promise<boolean> {
  const expiresAt = sql`now() + ${interval(ttlMs)}`;
  const taken = await db
    .insert(marketplaceFetchLeases)
    .values({ cacheKey: key, holder, expiresAt })
    .onConflictDoUpdate({
      target: marketplaceFetchLeases.cacheKey,
      set: { holder, expiresAt },
      setWhere: sql`${marketplaceFetchLeases.expiresAt} < now()`,
    })
    .returning({ holder: marketplaceFetchLeases.holder });
  return taken.length === 1;
}

export async function releaseLease(db: Database, key: string, holder: string): Promise<void> {
  await db.delete(marketplaceFetchLeases).where(and(eq(marketplaceFetchLeases.cacheKey, key), eq(marketplaceFetchLeases.holder, holder)));
}

/** Whether someone holds an unexpired lease on `key`. */
export async function leaseIsLive(db: Database, key: string): Promise<boolean> {
  const [lease] = await db
    .select({ live: sql<boolean>`${marketplaceFetchLeases.expiresAt} > now()` })
    .from(marketplaceFetchLeases)
    .where(eq(marketplaceFetchLeases.cacheKey, key));
  return lease?.live === true;
}

/** Leases whose holder died long ago; a live holder deletes its own lease when done. */
export async function pruneDeadLeases(db: Database): Promise<void> {
  await db.delete(marketplaceFetchLeases).where(sql`${marketplaceFetchLeases.expiresAt} < now() - interval '1 hour'`);
}
