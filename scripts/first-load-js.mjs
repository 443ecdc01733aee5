#!/usr/bin/env node
// First-load JavaScript of every console page, gzipped, read from a production build's own
// manifests (`next build` must have run; nothing is started or rebuilt).
//
// What a page loads first, per Next 16 (Turbopack) App Router:
// - `.next/build-manifest.json` → `rootMainFiles`: the framework and Turbopack runtime every
//   page starts with (the HTML's async <script src> tags);
// - `.next/server/app/<page>/page_client-reference-manifest.js` → `entryJSFiles`: for each
//   segment the page renders (root layout, route-group layouts, error and not-found
//   boundaries, the page itself) the chunks of its client components, which the RSC payload
//   makes the browser load before the page hydrates.
// Every distinct chunk is counted once per page. `polyfillFiles` are left out: they are
// `nomodule` scripts that browsers with ES modules never fetch. Chunks loaded later through
// `import()` / `next/dynamic` (the Swagger viewer) are not first-load and do not appear there.
//
// Sizes are gzip at zlib's default level (6), what the server's `compress` sends.
//
// Usage: node scripts/first-load-js.mjs [--budget-kb 220] [--json] [--dir .next]
// Exits 1 when a page is over the budget, 2 when there is no build.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { gzipSync } from "node:zlib";

/** The budget of the Done-when: first-load JS of every console page ≤ 220 kB gzipped. */
export const FIRST_LOAD_BUDGET_BYTES = 220 * 1000;

/** Next's page key (`/(console)/templates/[scope]/page`) → the URL route it serves (`/templates/[scope]`). */
function routeOf(pageKey) {
  const route = pageKey
    .replace(/\/page$/, "")
    .split("/")
    .filter((segment) => segment && !/^\(.*\)$/.test(segment))
    .join("/");
  return `/${route}`;
}

/** The console's pages: every App Router page but Next's own error pages. */
function isConsolePage(pageKey) {
  return pageKey.endsWith("/page") && !pageKey.startsWith("/_");
}

/** Every `page_client-reference-manifest.js` under `.next/server/app`, as {pageKey, file}. */
function clientReferenceManifests(appDir) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "page_client-reference-manifest.js") found.push(full);
    }
  };
  walk(appDir);
  return found;
}

/** The manifest file assigns `globalThis.__RSC_MANIFEST[pageKey]`; run it in a sandbox to read it. */
function readClientReferenceManifest(file) {
  const sandbox = { globalThis: {} };
  sandbox.globalThis = sandbox;
  vm.runInNewContext(readFileSync(file, "utf8"), sandbox, { filename: file });
  return Object.entries(sandbox.__RSC_MANIFEST ?? {});
}

/**
 * Measures a built `.next` directory: every console page with its first-load chunks and their
 * gzipped total, largest first.
 */
export function measureFirstLoadJs(nextDir) {
  const buildManifest = JSON.parse(readFileSync(path.join(nextDir, "build-manifest.json"), "utf8"));
  const rootMainFiles = buildManifest.rootMainFiles ?? [];
  const gzippedSizes = new Map();
  const gzippedSize = (chunk) => {
    if (!gzippedSizes.has(chunk)) gzippedSizes.set(chunk, gzipSync(readFileSync(path.join(nextDir, chunk))).length);
    return gzippedSizes.get(chunk);
  };

  const pages = [];
  for (const file of clientReferenceManifests(path.join(nextDir, "server", "app"))) {
    for (const [pageKey, manifest] of readClientReferenceManifest(file)) {
      if (!isConsolePage(pageKey)) continue;
      const chunks = new Set(rootMainFiles);
      for (const files of Object.values(manifest.entryJSFiles ?? {})) for (const chunk of files) chunks.add(chunk);
      const list = [...chunks].map((chunk) => ({ chunk, gzipBytes: gzippedSize(chunk) }));
      pages.push({ page: pageKey, route: routeOf(pageKey), gzipBytes: list.reduce((sum, c) => sum + c.gzipBytes, 0), chunks: list });
    }
  }
  return pages.sort((a, b) => b.gzipBytes - a.gzipBytes || a.route.localeCompare(b.route));
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** One line per page, for people: the route, its gzipped first-load JS and how many chunks. */
export function formatReport(pages, budgetBytes = FIRST_LOAD_BUDGET_BYTES) {
  const width = Math.max(...pages.map((p) => p.route.length), 5);
  const lines = [`${"route".padEnd(width)}  first-load JS (gzip)  chunks`];
  for (const p of pages) {
    const mark = p.gzipBytes > budgetBytes ? `  OVER ${kB(budgetBytes)}` : "";
    lines.push(`${p.route.padEnd(width)}  ${kB(p.gzipBytes).padStart(20)}  ${String(p.chunks.length).padStart(6)}${mark}`);
  }
  return lines.join("\n");
}

function main(argv) {
  const option = (name, fallback) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : fallback;
  };
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const nextDir = path.resolve(root, option("--dir", ".next"));
  const budgetBytes = Number(option("--budget-kb", FIRST_LOAD_BUDGET_BYTES / 1000)) * 1000;
  if (!existsSync(path.join(nextDir, "BUILD_ID"))) {
    console.error(`No production build in ${nextDir}: run \`next build\` first.`);
    return 2;
  }
  const pages = measureFirstLoadJs(nextDir);
  if (pages.length === 0) {
    console.error(`No console pages found in ${nextDir}/server/app: the manifests' layout may have changed.`);
    return 2;
  }
  if (argv.includes("--json")) console.log(JSON.stringify(pages, null, 2));
  else console.log(formatReport(pages, budgetBytes));
  const over = pages.filter((p) => p.gzipBytes > budgetBytes);
  if (over.length) {
    console.error(`${over.length} page(s) over the first-load budget of ${kB(budgetBytes)} gzipped.`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
