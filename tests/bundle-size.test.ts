import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildIfChanged } from "../scripts/build-if-changed.mjs";
// @ts-expect-error -- a plain .mjs script without type declarations
import { FIRST_LOAD_BUDGET_BYTES, formatReport, measureFirstLoadJs } from "../scripts/first-load-js.mjs";

// First-load JavaScript of every console page, from the production build's own manifests
// (scripts/first-load-js.mjs says how). Only a build can tell: without a build of the current
// sources this file makes one first (as `npm start` would, and which it then reuses), so the
// first `npm test` after a change takes a few minutes longer. It runs in the PGlite project
// only (vitest.config.ts): it needs no database, and two builds at once would collide.

const ROOT = path.resolve(__dirname, "..");
const NEXT_DIR = path.join(ROOT, ".next");
const BUILD_TIMEOUT_MS = 15 * 60_000;

interface PageSize {
  page: string;
  route: string;
  gzipBytes: number;
  chunks: { chunk: string; gzipBytes: number }[];
}

/** Every page.tsx of the console, as Next names it in its manifests: `/(console)/banks/[bank_id]/page`. */
function consolePageSources(dir = path.join(ROOT, "app"), out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) consolePageSources(full, out);
    else if (name === "page.tsx")
      out.push(
        `/${path
          .relative(path.join(ROOT, "app"), full)
          .replace(/\\/g, "/")
          .replace(/\.tsx$/, "")}`,
      );
  }
  return out.sort();
}

describe("first-load JavaScript of the console's pages (production build)", () => {
  let pages: PageSize[] = [];
  beforeAll(() => {
    expect(buildIfChanged(ROOT, { stdio: ["ignore", "ignore", "inherit"] }), "next build").toBe(0);
    pages = measureFirstLoadJs(NEXT_DIR);
  }, BUILD_TIMEOUT_MS);

  it("measures every page the app has", () => {
    expect(pages.map((p) => p.page).sort()).toEqual(consolePageSources());
  });

  it(`keeps every page at or under ${FIRST_LOAD_BUDGET_BYTES / 1000} kB gzipped`, () => {
    console.log(formatReport(pages));
    const over = pages.filter((p) => p.gzipBytes > FIRST_LOAD_BUDGET_BYTES).map((p) => `${p.route}: ${(p.gzipBytes / 1000).toFixed(1)} kB`);
    expect(over).toEqual([]);
  });
});

/** The names a file imports from "@mantine/core" as values (type-only imports vanish when compiled). */
function mantineValueImports(source: string): string[] {
  return [...source.matchAll(/^import\s+\{([^}]*)\}\s+from\s+["']@mantine\/core["']/gm)].flatMap((m) =>
    m[1]!
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith("type ")),
  );
}

function componentFiles(dir = path.join(ROOT, "components"), out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) componentFiles(full, out);
    else if (/\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

// Without a build: Mantine's Table carries Table.ScrollContainer, and ScrollArea brings
// @floating-ui/react and tabbable (~27 kB gzipped) into the first load of every page that
// shows one; the console's tables are components/console/Table.tsx, its scrolling the browser's.
describe("what keeps floating-ui out of the console's first load", () => {
  it("uses the console's Table and the browser's scrolling, never Mantine's Table or ScrollArea", () => {
    const offending = componentFiles().flatMap((file) =>
      mantineValueImports(readFileSync(file, "utf8"))
        .filter((name) => /^(Table|TableScrollContainer|ScrollArea|ScrollAreaAutosize)$/.test(name))
        .map((name) => `${path.relative(ROOT, file)} → ${name}`),
    );
    expect(offending).toEqual([]);
  });

  it("leaves the boundaries every page loads (not-found, the console's error) without Mantine components", () => {
    for (const file of ["app/not-found.tsx", "app/(console)/error.tsx"]) {
      expect(mantineValueImports(readFileSync(path.join(ROOT, file), "utf8")), file).toEqual([]);
    }
  });
});
