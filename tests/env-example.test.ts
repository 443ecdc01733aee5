import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES } from "@/lib/platform/config";

// .env.example must name every variable the app reads, so operators see them all.
const root = path.resolve(import.meta.dirname, "..");

/** Names in .env.example, set (`NAME=`) or commented out (`# NAME=`). */
const listed = new Set([...readFileSync(path.join(root, ".env.example"), "utf8").matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));

// Set by Node, Next or vitest, not by operators; HOSTNAME by npm start and the image (every interface).
const FRAMEWORK_VARIABLES = new Set(["NODE_ENV", "NEXT_RUNTIME", "VITEST", "HOSTNAME"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mjs|cjs)$/.test(name) ? [full] : [];
  });
}

/** Every `env.NAME` (process.env included) the app's own code reads. */
function variablesReadBySource(): Set<string> {
  const files = [
    ...["app", "lib", "db", "scripts"].flatMap((dir) => sourceFiles(path.join(root, dir))),
    ...["proxy.ts", "instrumentation.ts"].map((f) => path.join(root, f)),
  ];
  const names = files.flatMap((file) => [...readFileSync(file, "utf8").matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!));
  return new Set(names.filter((name) => !FRAMEWORK_VARIABLES.has(name)));
}

describe(".env.example", () => {
  it("lists every variable of the configuration schema", () => {
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(10);
    expect(CONFIG_VARIABLES.filter((name) => !listed.has(name))).toEqual([]);
  });

  it("lists every variable the source reads", () => {
    const read = variablesReadBySource();
    expect(read).toContain("NEXTAUTH_URL");
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
  });
});
