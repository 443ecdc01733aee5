import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  CLEARED_ENV,
  E2E_ADMIN_PASSWORD,
  E2E_ADMIN_TOKEN,
  E2E_BASE_URL,
  E2E_WORKERS,
  serverDataDir,
  serverPort,
} from "./e2e/support/env";

// Fresh embedded databases for every run. The config is evaluated again in each worker,
// which inherits the runner's environment, so the directory is made once.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "bank-templates-e2e-"));
const runDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // A worker per server (e2e/support/env.ts): a spec file's tests run in order on one worker,
  // whose server holds only what the files that worker ran made; files spread over workers.
  workers: E2E_WORKERS,
  fullyParallel: false,
  // In CI a failed test runs once more: one that then passes is reported as flaky (named at the
  // end of .ci/run's output, to be fixed) instead of failing the whole landing; one that fails
  // twice fails the run.
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: ".ci-out/playwright.json" }]] : [["list"]],
  globalTeardown: "./e2e/support/global-teardown.ts",
  use: {
    baseURL: E2E_BASE_URL,
    browserName: "chromium",
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    // A trace records the page's frames and a DOM snapshot at every step: a fifth of a run's CPU
    // (the browser's compositor and the test worker receiving the frames). CI traces the retry of
    // a failed test; a developer's run keeps the trace of each test that failed.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
  },
  // One server per worker slot, started one after another: the first `npm start` builds
  // (when the sources changed since the last build), the others find the build current.
  webServer: Array.from({ length: E2E_WORKERS }, (_, index) => ({
    // Its output goes through log-tap.mjs: every line kept for the credentials scan, request lines not shown.
    command: `bash -o pipefail -c 'npm start 2>&1 | node e2e/support/log-tap.mjs "$DATA_DIR/server.log"'`,
    url: `http://127.0.0.1:${serverPort(index)}/readyz`,
    reuseExistingServer: false,
    timeout: 600_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      ...CLEARED_ENV,
      PORT: String(serverPort(index)),
      DATA_DIR: serverDataDir(runDir, index),
      BOOTSTRAP_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      BOOTSTRAP_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      MARKETPLACE_ALLOWED_HOSTS: "127.0.0.1",
      // The webhook receivers the browser tests start on this machine.
      WEBHOOK_ALLOWED_HOSTS: "127.0.0.1",
      // A line per request, as in production, for the credentials scan (e2e/support/server-log.ts).
      LOG_LEVEL: "info",
    },
  })),
});
