import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH, CLEARED_ENV, E2E_ADMIN_PASSWORD, E2E_ADMIN_TOKEN, E2E_BASE_URL, E2E_PORT } from "./e2e/support/env";

// A fresh embedded database for every run. The config is evaluated again in each worker,
// which inherits the runner's environment, so the directory is made once.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "bank-templates-e2e-"));

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  // The console flow is one story in order, against one server: no parallel workers.
  workers: 1,
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
    trace: "retain-on-failure",
  },
  webServer: {
    // `npm start` builds first when the sources changed since the last build. Its output goes
    // through log-tap.mjs: every line kept for the credentials scan, request lines not shown.
    command: `bash -o pipefail -c 'npm start 2>&1 | node e2e/support/log-tap.mjs "$DATA_DIR/server.log"'`,
    url: `${E2E_BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 600_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...CLEARED_ENV,
      PORT: String(E2E_PORT),
      DATA_DIR: process.env.E2E_DATA_DIR,
      BOOTSTRAP_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      BOOTSTRAP_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      MARKETPLACE_ALLOWED_HOSTS: "127.0.0.1",
      // A line per request, as in production, for the credentials scan (e2e/support/server-log.ts).
      LOG_LEVEL: "info",
    },
  },
});
