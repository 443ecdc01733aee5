// What a production build was made from: scripts/start.mjs rebuilds when it changed, and
// tests/bundle-size.test.ts measures a build only when it matches the sources.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

// What goes into the build; anything else (tests, docs, data) changing does not rebuild.
const INPUTS = [
  "app",
  "components",
  "lib",
  "db",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "tsconfig.json",
  "package-lock.json",
  // Fixes to dependencies, applied to node_modules on install (patch-package).
  "patches",
];

/** A hash over the path, size and content of every source file that goes into the build. */
export function sourceStamp(root) {
  const hash = createHash("sha256");
  const visit = (file) => {
    if (!existsSync(file)) return;
    if (statSync(file).isDirectory()) {
      for (const name of readdirSync(file).sort()) visit(path.join(file, name));
      return;
    }
    hash.update(path.relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  };
  for (const input of INPUTS) visit(path.join(root, input));
  return hash.digest("hex");
}
