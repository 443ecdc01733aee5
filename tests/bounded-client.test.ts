import net from "node:net";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { boundedClient } from "@/db/bounded-client";
import { startTcpProxy } from "./support/tcp-proxy";

/**
 * db/bounded-client.ts against what an outage does to postgres.js's connections, through a proxy
 * the test cuts (CONTRACT §10): a connection must come back into use as soon as the database
 * does, whatever the bound did to the queries on it meanwhile. Each case has a pool of one
 * connection, so a connection lost for good shows as every later query waiting.
 */
describe.runIf(process.env.TEST_DB === "postgres")("bounded queries through an outage", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /**
   * A pool of one connection to the test server through a proxy the test cuts; `sockets` are the
   * connection's sockets, newest last (postgres.js's `socket` option, missing from its types).
   */
  async function poolOfOneThroughProxy() {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    cleanups.push(() => proxy.stop());
    const sockets: net.Socket[] = [];
    const options = {
      max: 1,
      connect_timeout: 2,
      onnotice: () => {},
      socket: () => sockets[sockets.push(net.connect(proxy.port, "127.0.0.1")) - 1],
    };
    const sql = postgres(process.env.TEST_DATABASE_URL!, options);
    cleanups.push(() => sql.end({ timeout: 1 }));
    return { proxy, sql, sockets };
  }

  it("a query that passes its deadline while its connection is being opened neither runs later nor keeps the connection", async () => {
    const { proxy, sql } = await poolOfOneThroughProxy();
    // The only connection opens through a partition: the query waits as the connection's first one.
    proxy.partition();
    const abandoned = boundedClient(sql, 200).unsafe("select set_config('outage.abandoned', 'ran', false)");
    await expect(abandoned).rejects.toMatchObject({ code: "DATABASE_TIMEOUT" });
    proxy.heal();
    // The connection opens and takes the next query (before the fix it never left "connecting").
    const [row] = await boundedClient(sql, 10_000).unsafe("select current_setting('outage.abandoned', true) as setting");
    expect(row).toEqual({ setting: null });
  });

  it("a query handed to a connection after its socket failed settles, and the connection comes back (patches/postgres+3.4.9.patch)", async () => {
    const { proxy, sql, sockets } = await poolOfOneThroughProxy();
    expect(await sql`select 1 as n`).toEqual([{ n: 1 }]);
    // The pool hands a connection queries until its socket's "close" event, which comes some
    // turns after its "error": the test hands it one as soon as "error" is heard.
    const handedOver = new Promise((resolve) =>
      sockets.at(-1)!.once("error", () =>
        resolve(
          boundedClient(sql, 3_000)
            .unsafe("select 2 as n")
            .catch((error: { code?: string }) => error.code),
        ),
      ),
    );
    await proxy.stop({ reset: true });
    // Unpatched it never settled (DATABASE_TIMEOUT here), and once the connection reconnected it
    // waited for good for the answer to bytes that never left.
    expect(await handedOver).toBe("CONNECTION_CLOSED");
    await proxy.start();
    expect(await boundedClient(sql, 5_000).unsafe("select 3 as n")).toEqual([{ n: 3 }]);
  });

  it("a connection whose socket closes while a query waits to be written opens again (patches/postgres+3.4.9.patch)", async () => {
    const { sql, sockets } = await poolOfOneThroughProxy();
    expect(await sql`select 1 as n`).toEqual([{ n: 1 }]);
    // postgres.js writes a small query on the next turn of the event loop (setImmediate); the
    // socket closes in an earlier callback of that turn, queued before the query was.
    const socket = sockets.at(-1)!;
    const written = sql`select 2 as n`.execute();
    setImmediate(() => {
      socket.emit("close", false);
      socket.destroy();
    });
    await expect(written).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    // Unpatched, the unwritten bytes stayed buffered with their flush cancelled, and every later
    // startup message waited behind them: CONNECT_TIMEOUT, again and again.
    expect(await boundedClient(sql, 5_000).unsafe("select 3 as n")).toEqual([{ n: 3 }]);
  });

  type Body = (tx: postgres.TransactionSql, marker: string) => Promise<unknown>;
  const inTransaction: Body = async (tx, marker) => {
    await tx.unsafe(marker);
    await tx.unsafe("select 1");
  };
  // drizzle's nested transactions are savepoints.
  const inSavepoint: Body = (tx, marker) => tx.savepoint((savepoint) => inTransaction(savepoint, marker));

  it.each([
    ["a transaction", inTransaction],
    ["a savepoint in a transaction", inSavepoint],
  ])("%s whose connection is reset mid-query sends nothing more on it, and the connection comes back", async (_, body) => {
    const { proxy, sql } = await poolOfOneThroughProxy();
    const observer = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    cleanups.push(() => observer.end({ timeout: 1 }));
    const marker = `select pg_sleep(3) /* ${Math.random()} */`;
    const db = boundedClient(sql, 10_000);
    const transaction = db.begin((tx) => body(tx, marker));
    transaction.catch(() => {});
    await expect
      .poll(async () => (await observer`select count(*)::int as n from pg_stat_activity where query = ${marker}`)[0]!.n, {
        timeout: 10_000,
      })
      .toBe(1);
    await proxy.stop({ reset: true });
    await expect(transaction).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNRESET|CONNECTION_CLOSED)$/) });
    await proxy.start();
    // Before the fix postgres.js queued the transaction's ROLLBACK on the lost connection: once it
    // reconnected, that ROLLBACK (never sent) became the query it waited on after the first one, for
    // good; or writing it threw an uncaught TypeError and the bytes it kept kept the next connection
    // from starting up.
    for (const n of [1, 2, 3]) expect(await boundedClient(sql, 5_000).unsafe(`select ${n} as n`)).toEqual([{ n }]);
  });
});
