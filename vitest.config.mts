import path from "node:path";
import { defineConfig } from "vitest/config";

// The same suite runs on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL.
const databases = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".ci-out/vitest.json" }]] : ["default"],
    projects: databases.map((name) => ({
      extends: true,
      // The bundle-size test builds the app and needs no database: once, in the PGlite project.
      test: { name, env: { TEST_DB: name }, ...(name === "pglite" ? {} : { exclude: ["tests/bundle-size.test.ts"] }) },
    })),
  },
});
