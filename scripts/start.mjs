// npm start: builds only when the sources changed since the last build, then serves on PORT.
import { spawnSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = process.cwd();
const stampFile = path.join(root, ".next", "source-stamp");
// What goes into the build; anything else (tests, docs, data) changing does not rebuild.
const INPUTS = ["app", "components", "lib", "db", "public", "instrumentation.ts", "proxy.ts", "next.config.mjs", "tsconfig.json", "package-lock.json"];

/** A hash over the path, size and content of every source file that goes into the build. */
function sourceStamp() {
  const hash = createHash("sha256");
  const visit = (file) => {
    if (!existsSync(file)) return;
    if (statSync(file).isDirectory()) {
      for (const name of readdirSync(file).sort()) visit(path.join(file, name));
      return;
    }
    hash.update(path.relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  };
  INPUTS.forEach((input) => visit(path.join(root, input)));
  return hash.digest("hex");
}

const stamp = sourceStamp();
const built = existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp;
if (!built) {
  console.log("Building the app (sources changed since the last build)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, stamp);
}

const port = process.env.PORT || "3000";
const server = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", port], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
