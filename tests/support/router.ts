import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Maps a URL path to a route file under app/, the way Next's App Router does
 * (static segments before [dynamic] before [...catchAll]), so tests call the real handlers.
 */
export interface RouteFile {
  file: string;
  segments: string[];
}

const appDir = path.resolve(__dirname, "../../app");

function collect(dir: string, segments: string[], out: RouteFile[]) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) collect(full, [...segments, name], out);
    else if (name === "route.ts") out.push({ file: full, segments });
  }
}

/** Every route file under app/, most specific first. */
export const routes: RouteFile[] = [];
collect(appDir, [], routes);

type Params = Record<string, string | string[]>;

function match(segments: string[], parts: string[]): Params | null {
  const params: Params = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const catchAll = /^\[\.\.\.(.+)\]$/.exec(seg);
    if (catchAll) {
      if (parts.length <= i) return null;
      params[catchAll[1]!] = parts.slice(i);
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    const dynamic = /^\[(.+)\]$/.exec(seg);
    if (dynamic) params[dynamic[1]!] = decodeURIComponent(part);
    else if (seg !== part) return null;
  }
  return segments.length === parts.length ? params : null;
}

// Lower is more specific: static 0, dynamic 1, catch-all 2, compared segment by segment.
const rank = (segments: string[]) => segments.map((s) => (s.startsWith("[...") ? 2 : s.startsWith("[") ? 1 : 0));
function compareSpecificity(a: string[], b: string[]): number {
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
    const d = (ra[i] ?? 3) - (rb[i] ?? 3);
    if (d !== 0) return d;
  }
  return 0;
}
routes.sort((a, b) => compareSpecificity(a.segments, b.segments));

export function resolveRoute(pathname: string): { file: string; params: Params } | null {
  const parts = pathname.split("/").filter(Boolean);
  for (const route of routes) {
    const params = match(route.segments, parts);
    if (params) return { file: route.file, params };
  }
  return null;
}

/** Hands `req` to the route handler its path and method reach, in this process, as Next would. */
export async function callRouteFile(req: Request, resolved = resolveRoute(new URL(req.url).pathname)): Promise<Response> {
  if (!resolved) throw new Error(`No route file matches ${new URL(req.url).pathname}`);
  const mod = (await import(/* @vite-ignore */ resolved.file)) as Record<string, unknown>;
  const handler = mod[req.method] as ((req: Request, ctx: unknown) => Promise<Response>) | undefined;
  if (!handler) throw new Error(`${resolved.file} does not export ${req.method}`);
  // Like Next: routes without dynamic segments get no params object at all.
  const context = Object.keys(resolved.params).length ? { params: Promise.resolve(resolved.params) } : undefined;
  return handler(req, context);
}
