import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpoints as routes } from "@/lib/client/endpoints";
import { POLICY_VERSION as clientPolicyVersion } from "@/lib/client/policy-version";
import { POLICY_VERSION } from "@/lib/contracts/policy/schemas";
import { endpoints as contracts, listEndpoints } from "@/lib/contracts/registry/endpoints";

const ROOT = path.resolve(__dirname, "..");

/** The contracts' groups with every endpoint reduced to what the browser's table holds. */
function methodAndPath(group: unknown): unknown {
  if (typeof group !== "object" || group === null) return group;
  if ("method" in group && "path" in group && "access" in group) return { method: group.method, path: group.path };
  return Object.fromEntries(Object.entries(group).map(([key, child]) => [key, methodAndPath(child)]));
}

/** Value imports of a module (type-only imports vanish when compiled). */
function valueImports(source: string): string[] {
  const pattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm;
  return [...source.matchAll(pattern)].map((m) => m[1]!);
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (/\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

describe("the console's endpoint table (lib/client/endpoints.ts)", () => {
  it("has every server endpoint under the same name, with the same method and path", () => {
    expect(routes).toEqual(methodAndPath(contracts));
    expect(listEndpoints().length).toBeGreaterThan(40);
  });

  it("holds method and path only: no zod schema reaches the browser through it", () => {
    const leaves = JSON.stringify(routes, (_, value) => value);
    expect(leaves).not.toMatch(/"(response|body|params|query|access)"/);
  });

  it("uses the server's policy version, from its zod-free module", () => {
    expect(clientPolicyVersion).toBe(POLICY_VERSION);
    expect(valueImports(readFileSync(path.join(ROOT, "lib/client/policy-version.ts"), "utf8"))).toEqual(["@/lib/contracts/policy/version"]);
    expect(valueImports(readFileSync(path.join(ROOT, "lib/contracts/policy/version.ts"), "utf8"))).toEqual([]);
  });

  // The browser never validates answers again, and no client module needs the contracts'
  // schemas at run time; zod back in any of these files means back in every page's bundle.
  it("keeps zod and the server's contract modules out of the console's client code", () => {
    const offending = [...sourceFiles(path.join(ROOT, "lib/client")), ...sourceFiles(path.join(ROOT, "components"))].flatMap((file) =>
      valueImports(readFileSync(file, "utf8"))
        .filter((specifier) => /^zod(\/|$)/.test(specifier) || /^@\/lib\/(?!client\/)[^/]+\/(schemas|endpoints|manifest)$/.test(specifier))
        .map((specifier) => `${path.relative(ROOT, file)} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it("never re-parses an answer against a schema", () => {
    expect(readFileSync(path.join(ROOT, "lib/client/api.ts"), "utf8")).not.toMatch(/safeParse|\.response\./);
  });
});
