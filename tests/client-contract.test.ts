import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpointUrl } from "@/lib/client/api";
import { endpoints } from "@/lib/client/endpoints";
import { ApiProblem } from "@/lib/client/problem";
import { listEndpoints } from "@/lib/contracts/registry/endpoints";
import { request, useTestApp } from "./support/app";

const ROOT = path.resolve(__dirname, "..");

useTestApp();

// Modules that must never reach the browser bundle: the database, native code, Node APIs,
// and every module marked with `import "server-only"`.
const SERVER_ONLY = [
  /^server-only$/,
  /^drizzle-orm/,
  /^postgres$/,
  /^@electric-sql\//,
  /^@node-rs\//,
  /^node:/,
  /^next\/headers$/,
  /^@\/db\//,
  /^@\/lib\/server\//,
];

/** Value imports of a module (type-only imports vanish when compiled). */
function valueImports(source: string): string[] {
  const found: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next one
    }
  }
  return null;
}

/** Every module a file pulls in at run time, following local imports, that matches `unwanted`; `chain` tells how. */
function importGraph(entry: string, unwanted: RegExp[] = SERVER_ONLY) {
  const seen = new Map<string, string[]>();
  const externals: { specifier: string; chain: string[] }[] = [];
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.set(file, chain);
    for (const specifier of valueImports(readFileSync(file, "utf8"))) {
      if (unwanted.some((p) => p.test(specifier))) externals.push({ specifier, chain: [...chain, path.relative(ROOT, file)] });
      const local = resolveLocal(file, specifier);
      if (local && !/\.(css)$/.test(local)) visit(local, [...chain, path.relative(ROOT, file)]);
    }
  };
  visit(entry, []);
  return externals;
}

function clientComponents(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) clientComponents(full, out);
    else if (/\.tsx?$/.test(name) && /^["']use client["']/.test(readFileSync(full, "utf8"))) out.push(full);
  }
  return out;
}

const describeLeaks = (entry: string, unwanted?: RegExp[]) =>
  importGraph(entry, unwanted).map((l) => `${l.chain.join(" → ")} → ${l.specifier}`);

describe("the console's typed client", () => {
  it("keeps server-only modules out of every client component's imports", () => {
    const entries = clientComponents(path.join(ROOT, "components"));
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.flatMap((entry) => describeLeaks(entry))).toEqual([]);
  });

  it("finds every area's endpoint contracts, and the list gathering them, client-safe (zod and schemas only)", () => {
    const areas = readdirSync(path.join(ROOT, "lib/contracts"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const contracts = areas
      .map((area) => path.posix.join("lib/contracts", area.name, "endpoints.ts"))
      .filter((file) => statSync(path.join(ROOT, file), { throwIfNoEntry: false }));
    expect(contracts).toEqual(
      expect.arrayContaining([
        "lib/contracts/registry/endpoints.ts",
        "lib/contracts/banks/endpoints.ts",
        "lib/contracts/policy/endpoints.ts",
      ]),
    );
    for (const file of contracts) expect(describeLeaks(path.join(ROOT, file)), file).toEqual([]);
  });

  it("takes the endpoint table from the contracts' routes, which pull in no zod and no schema", () => {
    const zodOrSchemas = [/^zod(\/|$)/, /\/(schemas|endpoints|lifecycle-endpoints|manifest)$/];
    expect(describeLeaks(path.join(ROOT, "lib/client/endpoints.ts"), zodOrSchemas)).toEqual([]);
    expect(valueImports(readFileSync(path.join(ROOT, "lib/client/endpoints.ts"), "utf8"))).toEqual(["@/lib/contracts/registry/routes"]);
  });

  it("fills path parameters (encoded) and drops empty query values", () => {
    expect(endpointUrl(endpoints.sources.personal.remove, { params: { name: "a b/c" } })).toBe("/ext/svc/me/template-sources/a%20b%2Fc");
    const list = { ...endpoints.sources.personal.list, path: "/ext/svc/x" };
    expect(endpointUrl(list, { query: { category: "ops", tag: "", limit: 5, cursor: undefined } })).toBe("/ext/svc/x?category=ops&limit=5");
    expect(() => endpointUrl(endpoints.identity.users.get, { params: {} })).toThrow(/user_id/);
  });

  it("turns problem+json into an ApiProblem with status, detail and field errors", async () => {
    const body = { type: "urn:x", title: "Conflict", status: 409, detail: "Taken.", errors: [{ path: "url", message: "is taken" }] };
    const problem = await ApiProblem.fromResponse(new Response(JSON.stringify(body), { status: 409, statusText: "Conflict" }));
    expect(problem).toMatchObject({ status: 409, title: "Conflict", detail: "Taken.", errors: [{ path: "url", message: "is taken" }] });
    expect(problem.fieldError("url")).toBe("is taken");
    expect(problem.fieldError("alias")).toBeUndefined();
    const html = await ApiProblem.fromResponse(new Response("<h1>Bad gateway</h1>", { status: 502, statusText: "Bad Gateway" }));
    expect(html).toMatchObject({ status: 502, detail: "The server answered 502 Bad Gateway.", errors: [] });
  });
});

describe("endpoint contracts and Next's route params", () => {
  it("declare path params only on paths that have them (Next passes none to static routes)", () => {
    for (const endpoint of listEndpoints()) {
      const inPath = [...endpoint.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = Object.keys(endpoint.params?.shape ?? {}).sort();
      expect(declared, `${endpoint.method} ${endpoint.path}`).toEqual(inPath);
    }
  });

  it("serves GET /ext/svc/me/api-keys when the route receives no params object", async () => {
    const { GET } = await import("@/app/ext/svc/me/api-keys/route");
    const { ADMIN_TOKEN } = await import("./support/app");
    const req = new Request("http://localhost/ext/svc/me/api-keys", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const res = await GET(req, { params: Promise.resolve(undefined as never) });
    expect(res.status).toBe(200);
    expect((await request("GET", "/ext/svc/me/api-keys", { token: ADMIN_TOKEN })).status).toBe(200);
  });
});
