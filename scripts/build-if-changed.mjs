// A production build of the current sources: `next build` runs only when the sources changed
// since the last one (scripts/source-stamp.mjs), then the stamp records what was built.
// npm start and the bundle-size test share it, so whichever comes first builds for both.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sourceStamp } from "./source-stamp.mjs";

/** The stamp of the sources `.next` was built from, or null when there is no complete build. */
function builtStamp(root) {
  const stampFile = path.join(root, ".next", "source-stamp");
  return existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(stampFile) ? readFileSync(stampFile, "utf8") : null;
}

/** Builds unless `.next` holds a build of the sources as they are now; returns the exit status of `next build` (0 when none ran). */
export function buildIfChanged(root, { stdio = "inherit" } = {}) {
  const stamp = sourceStamp(root);
  if (builtStamp(root) === stamp) return 0;
  console.log("Building the app (sources changed since the last build)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio,
    // As in the container: no telemetry, and no notice about it in a newcomer's first start.
    env: { NEXT_TELEMETRY_DISABLED: "1", ...process.env },
  });
  if (result.status !== 0) return result.status ?? 1;
  placeServer(root);
  placeStandaloneAssets(root, { replace: true });
  writeFileSync(path.join(root, ".next", "source-stamp"), stamp);
  return 0;
}

/** The modules http-server.cjs requires, placed beside it under their own names. */
const SERVER_HELPERS = ["api-fast-path.cjs", "connections.cjs", "front-door.cjs", "server-log.cjs"];

/**
 * The standalone output (next.config.mjs) with our server in it: lib/server/http-server.cjs
 * replaces the server.js Next generates (the container image and npm start run server.js).
 */
export function placeServer(root) {
  const standalone = path.join(root, ".next", "standalone");
  // The helpers first: a server.js that is there already finds what it requires.
  for (const [from, to] of [...SERVER_HELPERS.map((name) => [name, name]), ["http-server.cjs", "server.js"]]) {
    const target = path.join(standalone, to);
    const staging = `${target}.${process.pid}`;
    cpSync(path.join(root, "lib", "server", from), staging);
    // A rename: a server starting from this build at the same moment reads either file whole.
    renameSync(staging, target);
  }
}

/**
 * The standalone server (next.config.mjs) serves only the files beside it: puts the build's
 * static files and public/ there, as the Dockerfile copies them. Several servers may start
 * from one build at once (the two-process tests), and one may already be serving: each
 * folder appears whole, by a rename, and one already there is kept unless `replace` (right
 * after a build, when the old one belongs to the previous build).
 */
export function placeStandaloneAssets(root, { replace = false } = {}) {
  const standalone = path.join(root, ".next", "standalone");
  for (const [from, to] of [
    [path.join(root, ".next", "static"), path.join(standalone, ".next", "static")],
    [path.join(root, "public"), path.join(standalone, "public")],
  ]) {
    if (!existsSync(from)) continue;
    if (existsSync(to)) {
      if (!replace) continue;
      rmSync(to, { recursive: true, force: true });
    }
    const staging = `${to}.${process.pid}`;
    cpSync(from, staging, { recursive: true });
    try {
      renameSync(staging, to);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another process placed it first: the same files.
      if (!existsSync(to)) throw error;
    }
  }
}
