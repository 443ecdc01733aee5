import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import SlowFirstSequencer from "./tests/support/slow-first-sequencer.mts";

// The same suite runs on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL.
const databases = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Server modules start with `import "server-only"`, which throws outside a React Server
      // Components build; the tests run them on the server side, so they get its empty module.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["tests/**/*.test.ts"],
    // Every test file: Next's server globals (next-environment.ts); the logger at info, each line
    // scanned for credentials (log-scan.ts).
    setupFiles: ["tests/support/next-environment.ts", "tests/support/log-scan.ts"],
    // Test files in one worker share its imported modules instead of importing the app anew
    // each (a fifth of the unit tests' time): every file opens its own database and app, and
    // module state that must not carry over is set up per file (setApp, next-environment.ts).
    isolate: false,
    // Once per project: the migrated database that each file's database is a copy of.
    globalSetup: ["tests/support/database-image.ts"],
    // A file per core: Vitest's default leaves one core to itself (one file at a time on CI's two),
    // while most files wait on PostgreSQL or a test server for part of their time.
    maxWorkers: os.availableParallelism(),
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: process.env.CI
      ? [
          "default",
          ["json", { outputFile: ".ci-out/vitest.json" }],
          ["./tests/support/timing-reporter.ts", { outputFile: ".ci-out/vitest-timing.json" }],
        ]
      : ["default"],
    projects: databases.map((name) => ({
      extends: true,
      // The bundle-size test builds the app and needs no database: once, in the PGlite project.
      // The API tests reach the handlers on PostgreSQL as in production, over HTTP through the
      // production server's front door and fast path, and on PGlite in process, as Next's router
      // hands them a request (tests/support/app.ts); TEST_API_VIA chooses one for both.
      test: {
        name,
        env: { TEST_DB: name, TEST_API_VIA: process.env.TEST_API_VIA ?? (name === "postgres" ? "fast-path" : "in-process") },
        ...(name === "pglite" ? {} : { exclude: ["tests/bundle-size.test.ts"] }),
      },
    })),
  },
});
