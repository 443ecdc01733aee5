import "server-only";
import type { Sql } from "postgres";
import { countWhilePending, metrics } from "@/lib/platform/metrics";

/**
 * How long one database operation (a query, or a whole transaction) may wait, queueing for a
 * connection included. Past it the caller gets DATABASE_TIMEOUT, which the API answers with
 * 503 + Retry-After: a request never waits on an unreachable database for more than about
 * five seconds (CONTRACT §10), whether the server refuses connections or a partition
 * swallows packets and postgres.js would otherwise queue work without end.
 */
export const DATABASE_WAIT_MS = 4000;

class DatabaseTimeoutError extends Error {
  readonly code = "DATABASE_TIMEOUT";
  constructor(ms: number) {
    super(`The database did not answer within ${ms} ms.`);
  }
}

type PendingQuery = Promise<unknown> & { cancel(): unknown; [key: string]: unknown };

/**
 * Whether postgres.js can cancel the query safely: one still in its queue (no `state`: it is
 * taken out and never sent) or the one its connection is running (`active`: a CancelRequest
 * stops it on the server). A query pipelined behind another one on a connection is neither:
 * postgres.js would skip its replies once it came up while the server may still answer it,
 * and the connection would then read that answer as the next query's (seen in a partition
 * as TypeErrors, RangeErrors and UNSAFE_TRANSACTION). It was written to the socket already,
 * so the server runs it either way; it is left alone.
 */
const safelyCancellable = (query: PendingQuery) => !query.state || query.active === true;

/**
 * Resolves like the query, or rejects with DatabaseTimeoutError after `ms`. A query still
 * waiting in postgres.js's queue is taken out of it (so it never runs later, after its
 * request was answered); one running is cancelled on the server when it can be reached.
 */
function withDeadline<T>(query: PendingQuery, ms: number): Promise<T> {
  // Counted from being awaited (postgres.js sends a query only then) until the driver settles
  // it, past the deadline too: a query the server still holds is still in flight.
  countWhilePending(metrics.databaseQueriesInFlight, "postgres", query);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new DatabaseTimeoutError(ms));
      Promise.resolve()
        .then(() => safelyCancellable(query) && query.cancel())
        .catch(() => {});
    }, ms);
    query.then(
      (value) => {
        clearTimeout(timer);
        resolve(value as T);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A pending query whose awaiting is bounded; `.values()` and the like keep the bound. */
function boundQuery(query: PendingQuery, ms: number): PendingQuery {
  const proxy: PendingQuery = new Proxy(query, {
    get(target, property) {
      if (property === "then") {
        return (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
          withDeadline(target, ms).then(onFulfilled, onRejected);
      }
      if (property === "catch") return (onRejected: (e: unknown) => unknown) => withDeadline(target, ms).catch(onRejected);
      if (property === "finally") return (onFinally: () => void) => withDeadline(target, ms).finally(onFinally);
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const out = value.apply(target, args);
        return out === target ? proxy : out;
      };
    },
  });
  return proxy;
}

/**
 * Wraps a postgres.js client so every query drizzle sends, and every transaction as a whole,
 * is bounded by `ms`. Once a transaction's deadline has passed its remaining queries fail
 * before they are sent, and one that only gets a connection after its deadline does nothing
 * (postgres.js rolls both back), so a request answered 503 never writes later.
 */
export function boundedClient(sql: Sql, ms: number = DATABASE_WAIT_MS, isAbandoned: () => boolean = () => false): Sql {
  return new Proxy(sql, {
    get(target, property) {
      if (property === "unsafe") {
        return (...args: Parameters<Sql["unsafe"]>) => {
          if (isAbandoned()) throw new DatabaseTimeoutError(ms);
          return boundQuery(target.unsafe(...args) as unknown as PendingQuery, ms);
        };
      }
      if (property === "begin") return (...args: unknown[]) => boundedTransaction(target, args, ms);
      return Reflect.get(target, property, target);
    },
  });
}

function boundedTransaction(sql: Sql, args: unknown[], ms: number): Promise<unknown> {
  const fn = args.pop() as (transactionSql: Sql) => unknown;
  let abandoned = false;
  const run = (transactionSql: Sql) => {
    if (abandoned) throw new DatabaseTimeoutError(ms);
    return fn(boundedClient(transactionSql, ms, () => abandoned));
  };
  const transaction = countWhilePending(
    metrics.databaseTransactionsActive,
    "postgres",
    (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args, run),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      abandoned = true;
      reject(new DatabaseTimeoutError(ms));
    }, ms);
    transaction.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
