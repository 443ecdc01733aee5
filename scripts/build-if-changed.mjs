// A production build of the current sources: `next build` runs only when the sources changed
// since the last one (scripts/source-stamp.mjs), then the stamp records what was built.
// npm start and the bundle-size test share it, so whichever comes first builds for both.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sourceStamp } from "./source-stamp.mjs";

/** Whether `.next` holds a build of the sources as they are now. */
export function isBuildCurrent(root) {
  const stampFile = path.join(root, ".next", "source-stamp");
  return existsSync(path.join(root, ".next", "BUILD_ID")) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === sourceStamp(root);
}

/** Builds unless the build is current; returns the exit status of `next build` (0 when none ran). */
export function buildIfChanged(root, { stdio = "inherit" } = {}) {
  if (isBuildCurrent(root)) return 0;
  const stamp = sourceStamp(root);
  console.log("Building the app (sources changed since the last build)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], { cwd: root, stdio });
  if (result.status !== 0) return result.status ?? 1;
  writeFileSync(path.join(root, ".next", "source-stamp"), stamp);
  return 0;
}
