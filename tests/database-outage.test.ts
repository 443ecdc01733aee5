import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/db/client";
import { setApp } from "@/lib/server/app";
import { loadConfig } from "@/lib/server/config";
import { bootstrapIdentity } from "@/lib/identity/bootstrap";
import { freshDatabase } from "./support/database";
import { startTcpProxy } from "./support/tcp-proxy";
import { ADMIN_TOKEN, as, request } from "./support/app";

// PostgreSQL is reached through a proxy the test can cut, as if the server stopped and started.
describe.runIf(process.env.TEST_DB === "postgres")("PostgreSQL outage", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    setApp(undefined);
    for (const c of cleanups.reverse()) await c();
  });

  it("answers 503 with Retry-After while the database is down and recovers without a restart", async () => {
    const fresh = await freshDatabase();
    cleanups.push(fresh.close);
    const target = new URL(fresh.url!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    cleanups.push(() => proxy.stop());
    const viaProxy = new URL(fresh.url!);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const handle = await openPostgres(viaProxy.toString());
    cleanups.push(() => handle.close());
    const config = loadConfig({ BOOTSTRAP_ADMIN_TOKEN: ADMIN_TOKEN, DATABASE_URL: viaProxy.toString(), SECRET_KEY: randomBytes(32).toString("hex") });
    const app = { config, db: handle.db, database: handle, secretKey: randomBytes(32) };
    await bootstrapIdentity(app, () => {});
    setApp(app);
    const admin = as(ADMIN_TOKEN);

    expect((await request("GET", "/readyz")).status).toBe(200);
    expect((await admin.get("/ext/svc/me")).status).toBe(200);

    await proxy.stop();
    const ready = await request("GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBeTruthy();
    const api = await admin.get("/ext/svc/me/template-sources");
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBeTruthy();
    expect(api.headers.get("content-type")).toBe("application/problem+json");
    expect((await request("GET", "/healthz")).status).toBe(200);

    await proxy.start();
    let recovered = 0;
    for (let i = 0; i < 20 && recovered !== 200; i++) {
      recovered = (await admin.get("/ext/svc/me/template-sources")).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(200);
    expect((await request("GET", "/readyz")).status).toBe(200);
  });
});
