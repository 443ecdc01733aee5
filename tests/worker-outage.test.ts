import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchDatabase, ServerProcess } from "../e2e/support/server-process";
import { freePort } from "./support/free-port";
import { startTcpProxy } from "./support/tcp-proxy";

/**
 * CONTRACT §10 and §19 on the production server (lib/server/http-server.cjs) with two worker
 * processes over PostgreSQL, reached through proxies the test cuts.
 *
 * - Outage rounds: keep-alive readers, writers and idempotent writers while the database is cut
 *   for CUT_MS, every connection reset (odd rounds) or frozen, no byte passing either way until
 *   the network heals (even rounds); every worker serves again within RECOVERY_MS of the
 *   database's return, and no worker is replaced meanwhile.
 * - A worker that alone cannot reach the database (its own proxy, TEST_ONLY_FIRST_WORKER_DATABASE_URL)
 *   is out of /readyz within 5 s and replaced within 30 s; a longer outage of the database for
 *   every worker replaces none.
 *
 * It needs the production build (made on the first start when the sources changed), so it runs
 * only with OUTAGE_ROUNDS set: `npm run test:outage` runs 20 rounds. tests/database-outage.test.ts
 * and tests/bounded-client.test.ts guard the same contract in the normal suite.
 */
const ROUNDS = Number(process.env.OUTAGE_ROUNDS ?? 0);
const RUNS = process.env.TEST_DB === "postgres" && ROUNDS > 0;
const CUT_MS = 10_000;
const RECOVERY_MS = 10_000;
/** After the recovery deadline, how long every worker must keep answering without a 5xx. */
const STEADY_MS = 4_000;
const KEEP_ALIVE_CLIENTS = 6;
const ADMIN_TOKEN = "worker-outage-admin-token-0123456789abcdef0123456789";
const SERVER_SOURCES = "/ext/svc/admin/template-sources";
/** The primary's line when it replaces a worker (lib/server/http-server.cjs). */
const REPLACED = "a worker process has not reached the database while another has; replacing it";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  requestId: string;
}

/** One request on `agent` (keep-alive: the connection, so the worker, stays while it lives), or on a new connection. */
function send(
  base: URL,
  agent: http.Agent | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const requestId = randomUUID();
  return new Promise((resolve) => {
    const req = http.request(
      new URL(path, base),
      {
        method,
        agent: agent ?? false,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          "x-request-id": requestId,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(agent ? {} : { connection: "close" }),
          ...headers,
        },
        timeout: 15_000,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, requestId }));
        res.on("error", () => resolve({ status: 0, requestId }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, requestId }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A proxy to the scratch database, and the database's URL through it. */
async function proxyTo(database: ScratchDatabase) {
  const target = new URL(database.url);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const url = new URL(database.url);
  url.hostname = "127.0.0.1";
  url.port = String(proxy.port);
  return { proxy, url: url.toString() };
}

/** `npm start` with two workers, started (built first when the sources changed). */
async function startTwoWorkers(env: Record<string, string>): Promise<ServerProcess> {
  const server = new ServerProcess(await freePort(), {
    WEB_CONCURRENCY: "2",
    SECRET_KEY: randomBytes(32).toString("hex"),
    BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
    // Request lines carry the pid of the worker that answered (lib/platform/log.ts).
    LOG_LEVEL: "info",
    ...env,
  });
  await server.start(600_000);
  return server;
}

/** The JSON lines of a server's log with this message (a line cut at either end of `log` is left out). */
const linesSaying = (log: string, msg: string) =>
  log.split("\n").flatMap((line) => {
    if (!line.includes(`"msg":${JSON.stringify(msg)}`)) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });

/** GET /readyz on a new connection: the primary hands new connections to the workers in turn. */
const readiness = async (base: URL) => (await send(base, null, "GET", "/readyz")).status;

/** Resolves once /readyz answered 200 `times` times in a row (so from every worker); false at `deadline`. */
async function allReady(base: URL, deadline: number, times = 4): Promise<boolean> {
  let inARow = 0;
  while (Date.now() < deadline) {
    inARow = (await readiness(base)) === 200 ? inARow + 1 : 0;
    if (inARow >= times) return true;
    await sleep(100);
  }
  return false;
}

describe.runIf(RUNS)("two workers through database outages", () => {
  let database: ScratchDatabase;
  let cut: Awaited<ReturnType<typeof proxyTo>>;
  let server: ServerProcess;
  let base: URL;

  beforeAll(async () => {
    database = await createScratchDatabase("outage_workers");
    cut = await proxyTo(database);
    server = await startTwoWorkers({ DATABASE_URL: cut.url });
    base = new URL(server.baseUrl);
  }, 660_000);

  afterAll(async () => {
    await server?.stop();
    await cut?.proxy.stop();
    await database?.drop();
  });

  /** Which worker answered each request, by its request id (the server's request log lines). */
  const workersByRequest = (log: string) => new Map(linesSaying(log, "request").map((line) => [line.request_id, line.pid as number]));

  for (let round = 1; round <= ROUNDS; round++) {
    const reset = round % 2 === 1;
    it(`round ${round}: a ${CUT_MS / 1000} s cut that ${reset ? "resets every connection" : "freezes every connection"}`, async () => {
      const logFrom = server.log.length;
      const outcomes: Array<Answer & { kind: string; startedAt: number; endedAt: number }> = [];
      let running = true;
      let counter = 0;
      const record = async (kind: string, sent: () => Promise<Answer>) => {
        const startedAt = Date.now();
        const answer = await sent();
        outcomes.push({ kind, startedAt, endedAt: Date.now(), ...answer });
        return answer.status;
      };

      // Keep-alive clients, each on one connection (so one worker) while it lasts: readers, writers
      // and idempotent writers, which send a write again after a 503 with the same key, as a client would.
      const client = async (c: number) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        let pending: { key: string; alias: string } | null = null;
        while (running) {
          const alias = `r${round}-c${c}-${counter++}`;
          let status: number;
          if (c % 3 === 0) {
            status = await record("read", () => send(base, agent, "GET", SERVER_SOURCES));
          } else if (c % 3 === 1) {
            status = await record("write", () => send(base, agent, "POST", SERVER_SOURCES, { url: `https://example.com/${alias}`, alias }));
          } else {
            pending ??= { key: randomUUID(), alias };
            const { key, alias: keyed } = pending;
            status = await record("idempotent", () =>
              send(base, agent, "POST", SERVER_SOURCES, { url: `https://example.com/${keyed}`, alias: keyed }, { "idempotency-key": key }),
            );
            if (status !== 503 && status !== 0) pending = null;
          }
          await sleep(status >= 500 || status === 0 ? 100 : 20);
        }
        agent.destroy();
      };
      // A new connection for each probe, so both workers are asked whichever keeps the keep-alive ones.
      const prober = async () => {
        while (running) {
          await record("probe", () => send(base, null, "GET", "/ext/svc/me"));
          await sleep(100);
        }
      };
      const load = [...Array.from({ length: KEEP_ALIVE_CLIENTS }, (_, c) => client(c)), prober()];

      await sleep(2_000);
      const cutAt = Date.now();
      if (reset) await cut.proxy.stop({ reset: true });
      else cut.proxy.partition();
      await sleep(CUT_MS);
      if (reset) await cut.proxy.start();
      else cut.proxy.heal();
      const healedAt = Date.now();
      await sleep(RECOVERY_MS + STEADY_MS);
      running = false;
      await Promise.all(load);

      const log = server.log.slice(logFrom);
      const pids = workersByRequest(log);
      const answered = outcomes.map((o) => ({ ...o, pid: pids.get(o.requestId) }));
      const workers = [...new Set(answered.flatMap((o) => (o.pid === undefined ? [] : [o.pid])))];
      const recovery = workers.map((pid) => {
        const after = answered.filter((o) => o.pid === pid && o.startedAt >= healedAt);
        const firstServed = after.find((o) => o.status < 500);
        return {
          pid,
          servedAfterMs: firstServed ? firstServed.endedAt - healedAt : null,
          failingLater: after.filter((o) => o.startedAt > healedAt + RECOVERY_MS && o.status >= 500).length,
        };
      });
      console.log(
        `round ${round} (${reset ? "reset" : "freeze"}): ${outcomes.length} requests; ${recovery
          .map((r) => `worker ${r.pid} served ${r.servedAfterMs ?? "never"} ms after the database came back`)
          .join(", ")}`,
      );

      expect(workers.length, "workers that answered").toBeGreaterThanOrEqual(2);
      expect(
        answered.filter((o) => o.startedAt > cutAt + 200 && o.endedAt < healedAt && o.status < 500 && o.kind !== "probe"),
        "answered 2xx/4xx while the database was cut",
      ).toEqual([]);
      for (const r of recovery) {
        expect(r.servedAfterMs, `worker ${r.pid}: ms from the database's return to its first answer`).not.toBeNull();
        expect(r.servedAfterMs!, `worker ${r.pid}: ms from the database's return to its first answer`).toBeLessThanOrEqual(RECOVERY_MS);
        expect(r.failingLater, `worker ${r.pid}: 5xx more than ${RECOVERY_MS} ms after the database came back`).toBe(0);
      }
      // Nothing hung (status 0: the connection failed or timed out), and no worker was replaced.
      expect(outcomes.filter((o) => o.status === 0)).toEqual([]);
      expect(linesSaying(log, REPLACED)).toEqual([]);
    }, 120_000);
  }
});

describe.runIf(RUNS)("a worker that alone cannot reach the database", () => {
  let database: ScratchDatabase;
  /** Between the first worker and the database. */
  let own: Awaited<ReturnType<typeof proxyTo>>;
  /** Between every other worker (the first one's replacement included) and the database. */
  let shared: Awaited<ReturnType<typeof proxyTo>>;
  let server: ServerProcess;
  let base: URL;

  beforeAll(async () => {
    database = await createScratchDatabase("outage_replace");
    own = await proxyTo(database);
    shared = await proxyTo(database);
    server = await startTwoWorkers({ DATABASE_URL: shared.url, TEST_ONLY_FIRST_WORKER_DATABASE_URL: own.url });
    base = new URL(server.baseUrl);
  }, 660_000);

  afterAll(async () => {
    await server?.stop();
    for (const { proxy } of [own, shared]) await proxy?.stop();
    await database?.drop();
  });

  it("is out of /readyz within 5 s and replaced within 30 s", async () => {
    expect(await allReady(base, Date.now() + 30_000), "both workers ready before the cut").toBe(true);
    const cutAt = Date.now();
    own.proxy.partition();

    let firstUnready: number | null = null;
    while (firstUnready === null && Date.now() < cutAt + 10_000) {
      if ((await readiness(base)) === 503) firstUnready = Date.now();
      else await sleep(100);
    }
    expect(firstUnready, "a /readyz answered 503").not.toBeNull();
    expect(firstUnready! - cutAt, "ms from the cut to a 503 from /readyz").toBeLessThanOrEqual(5_000);

    // Replaced (the primary's line), and the new worker ready beside the other one, within 30 s.
    await expect.poll(() => linesSaying(server.log, REPLACED).length, { timeout: cutAt + 30_000 - Date.now(), interval: 250 }).toBe(1);
    expect(await allReady(base, cutAt + 30_000), "both workers ready again within 30 s of the cut").toBe(true);
    const [replaced] = linesSaying(server.log, REPLACED);
    expect(replaced).toMatchObject({ level: "warn", worker_pid: expect.any(Number), reason: "the database is not reachable" });
    console.log(`replaced worker ${replaced!.worker_pid} ${Date.now() - cutAt} ms after the cut, not ready for ${replaced!.unready_ms} ms`);
  }, 60_000);

  it("replaces no worker while the database is out for all of them", async () => {
    const replacedBefore = linesSaying(server.log, REPLACED).length;
    // Longer than a worker may be unready while another is ready.
    shared.proxy.partition();
    await sleep(25_000);
    shared.proxy.heal();
    const healedAt = Date.now();
    expect(await allReady(base, healedAt + RECOVERY_MS), `both workers ready within ${RECOVERY_MS} ms of the database's return`).toBe(true);
    expect(linesSaying(server.log, REPLACED).length).toBe(replacedBefore);
  }, 60_000);
});
