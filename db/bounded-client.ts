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

/** A postgres.js query as it waits to be awaited; the fields read here are its own. */
type PendingQuery = Promise<unknown> & {
  cancel(): unknown;
  /** Set once a connection sent it (or queued it to be sent). */
  state?: unknown;
  /** True while its connection runs it. */
  active?: boolean;
  [key: string]: unknown;
};

/**
 * What one transaction (or savepoint) stands on, shared by the queries run in it. Once either
 * flag is set its remaining queries fail before they are sent.
 */
interface TransactionState {
  /** Its deadline passed: postgres.js rolls back what it did, and it must not write later. */
  abandoned: boolean;
  /**
   * Its connection was lost (reset, closed). postgres.js would still send the ROLLBACK it ends a
   * failed transaction with (and a savepoint's) on that connection object, which by then is
   * closed or reconnected for other work: seen in outages as a ROLLBACK the reconnected
   * connection then waited on for good (every later query queued behind it), or as an uncaught
   * TypeError from writing it to no socket. So nothing more is sent for it, that ROLLBACK
   * included: PostgreSQL rolls back a transaction whose connection went away.
   */
  connectionLost: boolean;
}

/** Errors with which postgres.js rejects the queries of a connection that went away (its own, or the socket's). */
const LOST_CONNECTION_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED"]);
const lostConnection = (error: unknown) =>
  error instanceof Error &&
  (LOST_CONNECTION_CODES.has((error as { code?: string }).code ?? "") || typeof (error as { syscall?: unknown }).syscall === "string");

/**
 * Whether postgres.js can stop the query safely: one waiting for a connection (no `state`:
 * cancelling takes it out of the queue, or, as the first query of a connection being opened,
 * keeps that connection from sending it; patches/postgres+3.4.9.patch makes such a connection
 * open instead of waiting on nothing), or the one its connection is running (`active`: a
 * CancelRequest stops it on the server). A query pipelined behind another one on a connection
 * is neither: postgres.js would skip its replies once it came up while the server may still
 * answer it, and the connection would then read that answer as the next query's (seen in a
 * partition as TypeErrors, RangeErrors and UNSAFE_TRANSACTION). It was written to the socket
 * already, so the server runs it either way; it is left alone.
 */
const safelyCancellable = (query: PendingQuery) => !query.state || query.active === true;

/**
 * Resolves like the query, or rejects with DatabaseTimeoutError after `ms`. A query still
 * waiting for a connection never runs later, after its request was answered; one running is
 * cancelled on the server when it can be reached. In a transaction, a query failing because
 * the connection was lost marks the transaction so.
 */
function withDeadline<T>(query: PendingQuery, ms: number, transaction?: TransactionState): Promise<T> {
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
        if (transaction && lostConnection(error)) transaction.connectionLost = true;
        reject(error);
      },
    );
  });
}

/** A pending query whose awaiting is bounded; `.values()` and the like keep the bound. */
function boundQuery(query: PendingQuery, ms: number, transaction?: TransactionState): PendingQuery {
  const proxy: PendingQuery = new Proxy(query, {
    get(target, property) {
      if (property === "then") {
        return (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
          withDeadline(target, ms, transaction).then(onFulfilled, onRejected);
      }
      if (property === "catch") return (onRejected: (e: unknown) => unknown) => withDeadline(target, ms, transaction).catch(onRejected);
      if (property === "finally") return (onFinally: () => void) => withDeadline(target, ms, transaction).finally(onFinally);
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
export function boundedClient(sql: Sql, ms: number = DATABASE_WAIT_MS, transaction?: TransactionState): Sql {
  return new Proxy(sql, {
    get(target, property) {
      if (property === "unsafe") {
        return (...args: Parameters<Sql["unsafe"]>) => {
          if (transaction?.abandoned) throw new DatabaseTimeoutError(ms);
          if (transaction?.connectionLost) throw new ConnectionLostError();
          return boundQuery(target.unsafe(...args) as unknown as PendingQuery, ms, transaction);
        };
      }
      if (property === "begin") return (...args: unknown[]) => boundedTransaction(target, args, ms);
      // A nested transaction (drizzle's tx.transaction): its queries are the transaction's.
      if (property === "savepoint" && transaction) {
        return (...args: unknown[]) => {
          const fn = args.pop() as (savepointSql: Sql) => unknown;
          const transactionSql = target as unknown as { savepoint(...a: unknown[]): Promise<unknown> };
          return transactionSql.savepoint(...args, (savepointSql: Sql) =>
            settledUnlessLost(transaction, () => fn(boundedClient(savepointSql, ms, transaction))),
          );
        };
      }
      return Reflect.get(target, property, target);
    },
  });
}

class ConnectionLostError extends Error {
  readonly code = "CONNECTION_CLOSED";
  constructor() {
    super("The transaction's connection to the database was lost.");
  }
}

/**
 * The body of a transaction or savepoint as postgres.js awaits it, which then sends COMMIT or
 * ROLLBACK on the transaction's connection: once that connection was lost it never settles, so
 * nothing is sent (see TransactionState.connectionLost). The transaction itself still settles:
 * postgres.js rejects it when its connection closes.
 */
function settledUnlessLost(transaction: TransactionState, body: () => unknown): Promise<unknown> {
  const unsettled = () => new Promise<never>(() => {});
  return new Promise((resolve) => resolve(body())).then(
    (value) => (transaction.connectionLost ? unsettled() : value),
    (error: unknown) => {
      if (transaction.connectionLost) return unsettled();
      throw error;
    },
  );
}

function boundedTransaction(sql: Sql, args: unknown[], ms: number): Promise<unknown> {
  const fn = args.pop() as (transactionSql: Sql) => unknown;
  const transaction: TransactionState = { abandoned: false, connectionLost: false };
  const run = (transactionSql: Sql) => {
    if (transaction.abandoned) throw new DatabaseTimeoutError(ms);
    return settledUnlessLost(transaction, () => fn(boundedClient(transactionSql, ms, transaction)));
  };
  const begun = countWhilePending(
    metrics.databaseTransactionsActive,
    "postgres",
    (sql.begin as (...a: unknown[]) => Promise<unknown>)(...args, run),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      transaction.abandoned = true;
      reject(new DatabaseTimeoutError(ms));
    }, ms);
    begun.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        // Its connection closed while the body was not running a query: the body must not send more.
        if (lostConnection(error)) transaction.connectionLost = true;
        reject(error);
      },
    );
  });
}
