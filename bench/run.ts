// npm run bench – speed targets that unit tests must not time.
// Seeds 100k templates and times the list queries the API runs (owner + category + tag, paged),
// on PGlite and, with BENCH_DATABASE_URL (a server where it may create a database), on PostgreSQL;
// then, with BENCH_DATABASE_URL, the throughput report of the running app against a bare server
// and the framework's floor, and of a poller's conditional GET answered 304 beside the full GET
// (bench/throughput.ts), and the marketplace report (bench/marketplace.ts).
// The large-import case (bench/imports.ts, a manifest at its limits into the embedded store) runs
// after the list queries, on the same databases, then the rollout case (bench/rollout.ts: 20 and
// 200 banks, time per bank) and the merged rollout case (the same banks each edited in place, rolled
// out with merge). With BENCH_DATABASE_URL, the webhook case (bench/webhooks.ts: 1,000 events
// delivered while the API answers reads).
// BENCH_ONLY=queries|imports|rollout|merged-rollout|throughput|webhooks|marketplace runs one part.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "@/db/client";
import { loadConfig } from "@/lib/platform/config";
import { listTemplates } from "@/lib/services/templates/templates";
import { serviceContext } from "@/tests/support/service-context";
import { onEachDatabase } from "./databases";
import { importBench } from "./imports";
import { rolloutBench } from "./rollout";
import { seedTemplates } from "./seed";

const ROWS = 100_000;
const TARGET_P95_MS = 50;

async function seed(handle: DatabaseHandle) {
  await seedTemplates(handle.db, ROWS, '{"version":"1"}');
}

async function time(label: string, run: () => Promise<unknown>, iterations = 40) {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const p95 = samples[Math.floor(samples.length * 0.95) - 1]!;
  const verdict = p95 <= TARGET_P95_MS ? "ok" : "SLOW";
  console.log(
    `  ${label.padEnd(58)} median ${samples[samples.length >> 1]!.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  ${verdict}`,
  );
  return p95 <= TARGET_P95_MS;
}

async function bench(name: string, handle: DatabaseHandle) {
  console.log(`${name}: seeding ${ROWS} templates…`);
  await seed(handle);
  const app = { config: loadConfig({ DATA_DIR: "/nonexistent" }), db: handle.db, database: handle, secretKey: randomBytes(32) };
  const ctx = serviceContext(app, { type: "user", id: "heavy", userId: "heavy", role: "admin", displayName: "Bench" });
  const heavy = { kind: "personal", owner: "heavy" } as const;
  const light = { kind: "personal", owner: "user7" } as const;
  const checks = [
    await time("heavy owner, first page of 50", () => listTemplates(ctx, { scope: heavy, query: { limit: 50 } })),
    await time("heavy owner, category filter, page of 50", () =>
      listTemplates(ctx, { scope: heavy, query: { category: "ops", limit: 50 } }),
    ),
    await time("heavy owner, tag filter, page of 50", () => listTemplates(ctx, { scope: heavy, query: { tag: "tag3", limit: 50 } })),
    await time("heavy owner, category + tag, page of 50", () =>
      listTemplates(ctx, { scope: heavy, query: { category: "sales", tag: "tag4", limit: 50 } }),
    ),
    await (async () => {
      // A cursor issued near the end of the heavy owner's 50k rows.
      const skip = await listTemplates(ctx, { scope: heavy, query: { limit: ROWS / 2 - 100 } });
      const cursor = skip.value().next_cursor!;
      return time("heavy owner, deep page (cursor near the end)", () => listTemplates(ctx, { scope: heavy, query: { limit: 50, cursor } }));
    })(),
    await time("light owner, whole list", () => listTemplates(ctx, { scope: light, query: {} })),
    await time("server scope, tag filter, page of 50", () =>
      listTemplates(ctx, { scope: { kind: "server", owner: null }, query: { tag: "tag0", limit: 50 } }),
    ),
  ];
  return checks.every(Boolean);
}

async function main() {
  let ok = true;
  const only = process.env.BENCH_ONLY;
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!only || only === "queries") ok = (await queryBench(serverUrl)) && ok;
  if (!only || only === "imports") ok = (await importBench(serverUrl)) && ok;
  if (!only || only === "rollout") ok = (await rolloutBench(serverUrl)) && ok;
  if (!only || only === "merged-rollout") ok = (await rolloutBench(serverUrl, "merged")) && ok;
  if ((!only || only === "throughput") && serverUrl) {
    const { throughputReport } = await import("./throughput");
    ok = (await throughputReport(serverUrl)) && ok;
  } else if (!serverUrl) {
    console.log("Throughput report skipped: it needs BENCH_DATABASE_URL (PostgreSQL).");
  }
  if ((!only || only === "webhooks") && serverUrl) {
    const { webhookBench } = await import("./webhooks");
    ok = (await webhookBench(serverUrl)) && ok;
  } else if (!serverUrl) {
    console.log("Webhook report skipped: it needs BENCH_DATABASE_URL (PostgreSQL).");
  }
  if (!only || only === "marketplace") await printMarketplaceReport();
  process.exit(ok ? 0 : 1);
}

/** bench/marketplace.ts (upstream request counts) is optional: printed when present. */
async function printMarketplaceReport() {
  // A variable specifier: the type checker does not require the module to exist.
  const specifier = "./marketplace";
  let report: (() => Promise<string[]>) | undefined;
  try {
    report = ((await import(specifier)) as { marketplaceReport?: () => Promise<string[]> }).marketplaceReport;
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND" && !String(error).includes("Cannot find module")) throw error;
  }
  if (!report) {
    console.log("Marketplace report skipped: bench/marketplace.ts is not there.");
    return;
  }
  console.log("Marketplace:");
  for (const line of await report()) console.log(`  ${line}`);
}

async function queryBench(serverUrl: string | undefined): Promise<boolean> {
  const ok = await onEachDatabase(serverUrl, bench);
  console.log(ok ? `All list queries within ${TARGET_P95_MS} ms p95.` : `Some list queries exceeded ${TARGET_P95_MS} ms p95.`);
  return ok;
}

void main();
