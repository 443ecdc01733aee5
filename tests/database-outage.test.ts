import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import { loadConfig } from "@/lib/platform/config";
import { setApp } from "@/lib/server/app";
import type { AppContext } from "@/lib/services/context";
import { bootstrapIdentity } from "@/lib/services/identity/bootstrap";
import { ADMIN_TOKEN, as, request } from "./support/app";
import { freshDatabase } from "./support/database";
import { startTcpProxy } from "./support/tcp-proxy";

const SOURCES = "/ext/svc/me/template-sources";
// The load test writes hundreds of sources: server sources, which no per-user bound limits (CONTRACT §18).
const SERVER_SOURCES = "/ext/svc/admin/template-sources";
// CONTRACT §10 asks for a 40 s partition; OUTAGE_PARTITION_SECONDS shortens it while iterating.
const PARTITION_MS = Number(process.env.OUTAGE_PARTITION_SECONDS ?? 40) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// PostgreSQL is reached through a proxy the test can cut or partition.
describe.runIf(process.env.TEST_DB === "postgres")("PostgreSQL outage", () => {
  const cleanups: Array<() => Promise<void>> = [];
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  const admin = as(ADMIN_TOKEN);

  beforeAll(async () => {
    const fresh = await freshDatabase();
    cleanups.push(fresh.close);
    const target = new URL(fresh.url!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    cleanups.push(() => proxy.stop());
    const viaProxy = new URL(fresh.url!);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const handle = await openPostgres(viaProxy.toString());
    cleanups.push(() => handle.close());
    const config = loadConfig({
      BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN,
      DATABASE_URL: viaProxy.toString(),
      SECRET_KEY: randomBytes(32).toString("hex"),
    });
    const app: AppContext = { config, db: handle.db, database: handle, secretKey: randomBytes(32) };
    await bootstrapIdentity(app, () => {});
    setApp(app);
  });
  afterAll(async () => {
    setApp(undefined);
    for (const c of cleanups.reverse()) await c();
  });

  it("answers 503 with Retry-After while the database is down and recovers without a restart", async () => {
    expect((await request("GET", "/readyz")).status).toBe(200);
    expect((await admin.get("/ext/svc/me")).status).toBe(200);

    await proxy.stop();
    const ready = await request("GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBeTruthy();
    const api = await admin.get(SOURCES);
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBeTruthy();
    expect(api.headers.get("content-type")).toBe("application/problem+json");
    expect((await request("GET", "/healthz")).status).toBe(200);

    await proxy.start();
    let recovered = 0;
    for (let i = 0; i < 20 && recovered !== 200; i++) {
      recovered = (await admin.get(SOURCES)).status;
      if (recovered !== 200) await sleep(250);
    }
    expect(recovered).toBe(200);
    expect((await request("GET", "/readyz")).status).toBe(200);
  });

  it(
    "bounds every request during a network partition under load and loses no acknowledged write",
    async () => {
      interface Outcome {
        startedAt: number;
        endedAt: number;
        status: number;
        retryAfter: string | null;
        problem: boolean;
      }
      const outcomes: Outcome[] = [];
      const acknowledged: string[] = [];
      let running = true;
      let counter = 0;

      const worker = async (w: number) => {
        while (running) {
          const write = counter++ % 3 === 0;
          const alias = `w${w}-${counter}`;
          const startedAt = Date.now();
          const res = write
            ? await admin.post(SERVER_SOURCES, { url: `https://example.com/${alias}`, alias })
            : await admin.get(SERVER_SOURCES);
          outcomes.push({
            startedAt,
            endedAt: Date.now(),
            status: res.status,
            retryAfter: res.headers.get("retry-after"),
            problem: res.headers.get("content-type") === "application/problem+json",
          });
          if (write && res.status === 201) acknowledged.push(alias);
          if (res.status >= 500) await sleep(50);
        }
      };
      const workers = Array.from({ length: 8 }, (_, w) => worker(w));

      await sleep(2000);
      const partitionedAt = Date.now();
      proxy.partition();
      const readyStarted = Date.now();
      const ready = await request("GET", "/readyz");
      expect(ready.status).toBe(503);
      expect(Date.now() - readyStarted).toBeLessThan(3500);
      await sleep(PARTITION_MS - (Date.now() - partitionedAt));
      const healedAt = Date.now();
      proxy.heal();
      await sleep(8000);
      running = false;
      await Promise.all(workers);

      const slowest = Math.max(...outcomes.map((o) => o.endedAt - o.startedAt));
      expect(slowest, "slowest request (ms)").toBeLessThanOrEqual(6000);
      expect(outcomes.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
      expect(outcomes.filter((o) => o.status === 503 && (!o.retryAfter || !o.problem))).toEqual([]);

      // Requests that began and ended while the network was partitioned all got 503.
      const during = outcomes.filter((o) => o.startedAt > partitionedAt + 100 && o.endedAt < healedAt);
      expect(during.length).toBeGreaterThan(0);
      expect(new Set(during.map((o) => o.status))).toEqual(new Set([503]));

      // Within 5 s of the network healing, everything answers normally again.
      const after = outcomes.filter((o) => o.startedAt > healedAt + 5000);
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((o) => o.status >= 400)).toEqual([]);

      // Every acknowledged write is there.
      const listed = await admin.get<Array<{ name: string }>>(SERVER_SOURCES);
      expect(listed.status).toBe(200);
      const names = new Set(listed.body.map((s) => s.name));
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(acknowledged.filter((alias) => !names.has(alias))).toEqual([]);
    },
    PARTITION_MS + 60_000,
  );
});
