import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { checkManifest } from "@/lib/contracts/templates/manifest";
import referenceSchema from "./fixtures/bank-template-schema.json";

// Issue 12: our manifest validator (lib/contracts/templates/manifest.ts, zod, written by hand) must cover
// every keyword of Hindsight's bank-template schema (tests/fixtures/bank-template-schema.json,
// its validation keywords as scripts/vendor-reference.mjs keeps them). The walk below
// visits every node of the reference schema and, for each keyword it finds, makes manifests
// that keep or break exactly that keyword at that place. A manifest the reference refuses must
// be refused by us with an error at that place; one the reference takes must be taken by us,
// except where CONTRACT §7 is deliberately stricter. Ajv, run on the same reference, checks
// the walk itself: every "break" case really breaks the reference and every "keep" case
// really keeps it. A keyword the walk does not know fails the test, so a newer reference
// schema with new keywords cannot pass unnoticed.

type SchemaNode = Record<string, unknown>;
type JsonPath = Array<string | number>;

interface Case {
  /** Where in the manifest the value sits. */
  path: JsonPath;
  value: unknown;
  /** The whole manifest with the value in its place. */
  manifest: unknown;
  /** Which keyword of which schema node the case exercises, for messages and coverage. */
  keyword: string;
  at: string;
  /** Whether the reference schema takes the manifest. */
  valid: boolean;
}

const defs = (referenceSchema as { $defs: Record<string, SchemaNode> }).$defs;
const HANDLED = new Set([
  "type",
  "properties",
  "required",
  "items",
  "anyOf",
  "$ref",
  "$defs",
  "enum",
  "minimum",
  "maximum",
  "additionalProperties",
  "default",
]);
const ANNOTATIONS = new Set(["title", "description", "example", "examples"]);

// CONTRACT §7's rules beyond the reference schema: values the reference takes and we refuse.
const STRICTER: Array<{ path: RegExp; reason: string }> = [
  { path: /^version$/, reason: 'version must be "1"' },
  { path: /^bank\.retain_extraction_mode$/, reason: "one of concise, verbose, custom, verbatim, chunks" },
  { path: /^bank\.retain_custom_instructions$/, reason: "needs retain_extraction_mode custom" },
];

const resolve = (node: SchemaNode): SchemaNode => (typeof node.$ref === "string" ? defs[node.$ref.replace("#/$defs/", "")]! : node);

/** A small value the reference takes for a node, and our rules too (used to build the manifest around a case). */
function sample(node: SchemaNode, seen: Set<string> = new Set()): unknown {
  if (typeof node.$ref === "string") {
    if (seen.has(node.$ref)) return undefined;
    return sample(resolve(node), new Set([...seen, node.$ref]));
  }
  if (Array.isArray(node.anyOf)) {
    for (const option of node.anyOf as SchemaNode[]) {
      const value = sample(option, seen);
      if (value !== undefined) return value;
    }
    return null;
  }
  if (Array.isArray(node.enum)) return node.enum[0];
  switch (node.type) {
    case "string":
      return "x";
    case "integer":
    case "number":
      return typeof node.minimum === "number" ? node.minimum : 1;
    case "boolean":
      return true;
    case "null":
      return null;
    case "array":
      return [];
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, SchemaNode>;
      const object: Record<string, unknown> = {};
      for (const name of (node.required ?? []) as string[]) object[name] = sample(properties[name]!, seen);
      return object;
    }
    default:
      return undefined;
  }
}

function objectOption(node: SchemaNode): SchemaNode | undefined {
  const resolved = resolve(node);
  if (resolved.type === "object") return resolved;
  for (const option of (resolved.anyOf ?? []) as SchemaNode[]) {
    const found = objectOption(option);
    if (found) return found;
  }
  return undefined;
}

/** Puts a value at one place of a manifest the reference and we both take otherwise. */
type Embed = (value: unknown) => unknown;

/** A value of another JSON type than `type`. */
const OTHER_TYPE: Record<string, unknown> = {
  string: 12345,
  integer: 1.5,
  number: "1",
  boolean: "true",
  array: { not: "an array" },
  object: ["not an object"],
};

/** Every case of the reference schema, walking each definition's keywords once. */
function collectCases(): { cases: Case[]; unknownKeywords: string[] } {
  const cases: Case[] = [];
  const unknownKeywords = new Set<string>();
  const walkedDefs = new Set<string>();

  // Each place is reached through the schema chosen at every level above it (a property of
  // TagGroupAnd sits in an object made as a TagGroupAnd), so only the case's value is off.
  function walk(node: SchemaNode, path: JsonPath, at: string, embed: Embed) {
    for (const keyword of Object.keys(node)) {
      if (!HANDLED.has(keyword) && !ANNOTATIONS.has(keyword)) unknownKeywords.add(`${at}: ${keyword}`);
    }
    const add = (keyword: string, value: unknown, valid: boolean) =>
      cases.push({ path, value, manifest: embed(value), keyword, at, valid });

    if (typeof node.$ref === "string") {
      const name = node.$ref.replace("#/$defs/", "");
      // A recursive definition (MapField, TagGroup*) is walked at its first place only.
      if (walkedDefs.has(name)) return;
      walkedDefs.add(name);
      add("$ref", sample(node), true);
      walk(defs[name]!, path, `$defs/${name}`, embed);
      return;
    }
    if ("default" in node) add("default", node.default, true);
    if (Array.isArray(node.anyOf)) {
      const options = node.anyOf as SchemaNode[];
      if (options.some((o) => o.type === "null")) add("anyOf", null, true);
      // A value no option takes: an object when no option is an object, else a number.
      const anyObject = options.some((o) => objectOption(o));
      add("anyOf", anyObject ? 12345 : { matches: "no option" }, false);
      options.forEach((option, index) => {
        if (option.type !== "null") walk(option, path, `${at}/anyOf/${index}`, embed);
      });
      return;
    }
    if (typeof node.type === "string" && node.type !== "null") {
      const wrong = OTHER_TYPE[node.type];
      // "integer" refused as a string too: no coercion of "1".
      add("type", wrong, false);
      if (node.type === "integer") add("type", "1", false);
    }
    if (Array.isArray(node.enum)) {
      for (const member of node.enum) add("enum", member, true);
      add("enum", "not-a-member", false);
    }
    if (typeof node.minimum === "number") {
      add("minimum", node.minimum, true);
      add("minimum", node.minimum - 1, false);
    }
    if (typeof node.maximum === "number") {
      add("maximum", node.maximum, true);
      add("maximum", node.maximum + 1, false);
    }
    if (node.type === "object") {
      // The root's version is "1" (CONTRACT §7), not any string.
      const base = (path.length ? sample(node) : { version: "1" }) as Record<string, unknown>;
      add("type", base, true);
      for (const name of (node.required ?? []) as string[]) {
        const { [name]: _dropped, ...without } = base;
        add("required", without, false);
      }
      for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, SchemaNode>)) {
        walk(child, [...path, name], `${at}/properties/${name}`, (value) => embed({ ...base, [name]: value }));
      }
      if (node.additionalProperties && typeof node.additionalProperties === "object") {
        const map = node.additionalProperties as SchemaNode;
        walk(map, [...path, "some-key"], `${at}/additionalProperties`, (value) => embed({ ...base, "some-key": value }));
      }
    }
    if (node.type === "array" && node.items) {
      add("items", [], true);
      walk(node.items as SchemaNode, [...path, 0], `${at}/items`, (value) => embed([value]));
    }
  }

  walk(referenceSchema as SchemaNode, [], "#", (value) => value);
  return { cases, unknownKeywords: [...unknownKeywords] };
}

const { cases, unknownKeywords } = collectCases();
const reference = new Ajv({ strict: false, allErrors: true }).compile(referenceSchema);
const dotted = (path: JsonPath) =>
  path.reduce<string>((text, step) => (typeof step === "number" ? `${text}[${step}]` : text ? `${text}.${step}` : step), "");
const describeCase = (c: Case) => `${c.at} ${c.keyword} ${JSON.stringify(c.value)} at ${dotted(c.path) || "(root)"}`;

describe("the manifest validator covers the reference schema", () => {
  it("knows every keyword the reference schema uses", () => {
    expect(unknownKeywords).toEqual([]);
    // Every validation keyword of the reference is exercised somewhere.
    const exercised = new Set(cases.map((c) => c.keyword));
    for (const keyword of ["type", "required", "items", "anyOf", "$ref", "enum", "minimum", "maximum", "default"]) {
      expect(exercised, keyword).toContain(keyword);
    }
    // Each definition of the reference is reached.
    const reached = new Set(cases.map((c) => c.at.match(/^\$defs\/(\w+)/)?.[1]).filter(Boolean));
    expect([...reached].sort()).toEqual(Object.keys(defs).sort());
    expect(cases.length).toBeGreaterThan(150);
  });

  it("builds cases the reference schema judges as the walk says", () => {
    const misjudged = cases.filter((c) => reference(c.manifest) !== c.valid).map(describeCase);
    expect(misjudged).toEqual([]);
  });

  it("refuses what the reference refuses, with an error at that place", () => {
    const missed: string[] = [];
    for (const c of cases.filter((c) => !c.valid)) {
      const report = checkManifest(c.manifest);
      const where = c.path.length ? `manifest.${dotted(c.path)}` : "manifest";
      const atPlace = report.errors.some((e) => e.path === where || e.path.startsWith(`${where}.`) || e.path.startsWith(`${where}[`));
      if (report.valid || !atPlace) missed.push(`${describeCase(c)} → ${JSON.stringify(report.errors)}`);
    }
    expect(missed).toEqual([]);
  });

  it("takes what the reference takes, but where CONTRACT §7 is stricter", () => {
    const refused: string[] = [];
    for (const c of cases.filter((c) => c.valid)) {
      if (STRICTER.some((rule) => rule.path.test(dotted(c.path)))) continue;
      const report = checkManifest(c.manifest);
      if (!report.valid) refused.push(`${describeCase(c)} → ${JSON.stringify(report.errors)}`);
    }
    expect(refused).toEqual([]);
  });

  it("holds the stricter places to CONTRACT §7 and nothing more", () => {
    expect(checkManifest({ version: "2" }).valid).toBe(false);
    for (const mode of ["concise", "verbose", "custom", "verbatim", "chunks"]) {
      expect(checkManifest({ version: "1", bank: { retain_extraction_mode: mode } }).valid, mode).toBe(true);
    }
    expect(checkManifest({ version: "1", bank: { retain_extraction_mode: "x" } }).valid).toBe(false);
    expect(checkManifest({ version: "1", bank: { retain_extraction_mode: "custom", retain_custom_instructions: "x" } }).valid).toBe(true);
    expect(checkManifest({ version: "1", bank: { retain_extraction_mode: "concise", retain_custom_instructions: "x" } }).valid).toBe(false);
  });
});
