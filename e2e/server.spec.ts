import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "./support/env";
import { ServerProcess } from "./support/server-process";

// The production server as `npm start` runs it: health, the bootstrap key, and that data
// survives a restart.

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

test("answers /healthz and /readyz", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  expect((await request.get("/readyz")).status()).toBe(200);
});

test("knows the bootstrap admin token", async ({ request }) => {
  const me = await request.get("/ext/svc/me", { headers: bearer(E2E_ADMIN_TOKEN) });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ user_id: "admin", principal_type: "user", role: "admin" });
  expect((await request.get("/ext/svc/me")).status()).toBe(401);
});

test("keeps its data across a restart", async ({ request }) => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bank-templates-restart-"));
  const token = "restart-test-admin-token-0123456789abcdef01234567";
  const server = new ServerProcess(3211, { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: token });
  try {
    await server.start();
    const created = await request.post(`${server.baseUrl}/ext/svc/me/template-sources`, {
      headers: bearer(token),
      data: { url: "https://github.com/restart/bank-templates", alias: "survivor" },
    });
    expect(created.status()).toBe(201);
    await server.stop();
    await expect(request.get(`${server.baseUrl}/healthz`)).rejects.toThrow();

    await server.start();
    const listed = await request.get(`${server.baseUrl}/ext/svc/me/template-sources`, { headers: bearer(token) });
    expect(listed.status()).toBe(200);
    expect(await listed.json()).toEqual([
      expect.objectContaining({ name: "survivor", url: "https://github.com/restart/bank-templates", owner: "admin" }),
    ]);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
