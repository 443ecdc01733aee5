import type { StdioOptions } from "node:child_process";

/** Builds unless `.next` holds a build of the sources as they are now; the exit status of `next build` (0 when none ran). */
export function buildIfChanged(root: string, options?: { stdio?: StdioOptions }): number;
/** Puts lib/server/http-server.cjs in the standalone output as its server.js, and the modules it requires beside it. */
export function placeServer(root: string): void;
/** Puts the build's static files and public/ beside the standalone server. */
export function placeStandaloneAssets(root: string, options?: { replace?: boolean }): void;
