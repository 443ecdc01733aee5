import fc from "fast-check";
import { deepValue, hostileKey, hostileNumber, hostileString, hostileValue } from "./hostile";

/** The slice of JSON Schema (as zod-openapi writes it) the generator understands. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  [other: string]: unknown;
}

/**
 * Known-good values by property or parameter name (ids of seeded resources, source names,
 * manifests that pass every rule), so generated requests reach the domain code instead of
 * stopping at validation or 404.
 */
export type ValuePools = Record<string, () => unknown[]>;

export interface SchemaContext {
  /** components.schemas of the OpenAPI document, for `$ref`. */
  components: Record<string, JsonSchema>;
  pools: ValuePools;
}

// Recursive schemas (tag groups) and big arrays stay small: deep input is the hostile side's job.
const MAX_VALID_DEPTH = 5;
const MAX_VALID_ITEMS = 3;
const MAX_VALID_STRING = 24;

export function resolveRef(schema: JsonSchema, ctx: SchemaContext): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 16; hops++) {
    const name = current.$ref.replace("#/components/schemas/", "");
    const target = ctx.components[name];
    if (!target) throw new Error(`Unknown $ref ${current.$ref}`);
    current = { ...target, ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== "$ref")) };
  }
  return current;
}

function withPool(name: string | undefined, ctx: SchemaContext, generated: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const pool = name ? ctx.pools[name] : undefined;
  if (!pool) return generated;
  // The pool is read when a value is drawn, so resources created after start-up count too.
  const fromPool = fc.nat().map((i) => {
    const values = pool();
    return values.length ? values[i % values.length] : undefined;
  });
  // Query parameters are few and mostly enum-like (`dry_run`, `force`): the pool is nearly all that makes sense.
  const poolWeight = name!.startsWith("query.") ? 6 : 3;
  return fc.oneof({ weight: poolWeight, arbitrary: fromPool.filter((v) => v !== undefined) }, { weight: 1, arbitrary: generated });
}

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_VALID_STRING, MAX_VALID_STRING));
  const fitsLength = (s: string) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity);
  if (schema.format === "email" && !schema.pattern) return fc.emailAddress().filter(fitsLength);
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    const matching = fc.stringMatching(pattern).filter((s) => fitsLength(s) && s.length <= 200);
    if (schema.pattern.startsWith("^")) return matching;
    // An unanchored pattern (`\S`) matches almost any string: keep values readable rather than regex-shaped.
    const free = fc.string({ minLength: Math.max(1, minLength), maxLength }).filter((s) => pattern.test(s));
    return fc.oneof(matching, free);
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: "grapheme" }) },
    // Exactly at the length limits.
    { weight: 1, arbitrary: fc.constant("m".repeat(Math.max(minLength, 1))).filter(fitsLength) },
    ...(schema.maxLength ? [{ weight: 1, arbitrary: fc.constant("M".repeat(schema.maxLength)) }] : []),
  );
}

function integerArb(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(
    schema.minimum ?? -1_000_000,
    schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -Infinity,
    Number.MIN_SAFE_INTEGER,
  );
  const max = Math.min(
    schema.maximum ?? 1_000_000,
    schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Infinity,
    Number.MAX_SAFE_INTEGER,
  );
  const small = fc.integer({ min: Math.max(min, -1000), max: Math.max(Math.max(min, -1000), Math.min(max, 10_000)) });
  return fc.oneof(
    { weight: 4, arbitrary: small },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
    { weight: 1, arbitrary: fc.integer({ min, max }) },
  );
}

function numberArb(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  return fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(0, 0.5, 1));
}

/**
 * Values that satisfy `schema` (within reason: cross-field rules and uniqueness are left to
 * chance, so some still get a 422). `name` is the property or parameter the value is for.
 */
export function validArbitrary(schema: JsonSchema, ctx: SchemaContext, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolveRef(schema, ctx);
  return withPool(name, ctx, generatedValid(resolved, ctx, name, depth));
}

function generatedValid(schema: JsonSchema, ctx: SchemaContext, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    // Past the depth limit take the first (non-recursive) alternative, so generation ends.
    const usable = depth >= MAX_VALID_DEPTH ? alternatives.slice(0, 1) : alternatives;
    // Prefer real values over null: null is interesting, but only as one case among several.
    return fc.oneof(
      ...usable.map((alt) => ({
        weight: resolveRef(alt, ctx).type === "null" ? 1 : 3,
        arbitrary: validArbitrary(alt, ctx, undefined, depth + 1),
      })),
    );
  }
  if (schema.allOf?.length) return validArbitrary(schema.allOf[0]!, ctx, name, depth + 1);
  if (Array.isArray(schema.type)) {
    return fc.oneof(
      ...schema.type.map((type) => ({ weight: type === "null" ? 1 : 3, arbitrary: generatedValid({ ...schema, type }, ctx, name, depth) })),
    );
  }
  switch (schema.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "string":
      return stringArb(schema);
    case "integer":
      return integerArb(schema);
    case "number":
      return numberArb(schema);
    case "array": {
      if (depth >= MAX_VALID_DEPTH) return fc.constant([]);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_VALID_ITEMS, MAX_VALID_ITEMS));
      return fc.array(validArbitrary(schema.items ?? {}, ctx, undefined, depth + 1), { minLength, maxLength });
    }
    case "object":
      return objectArb(schema, ctx, depth);
    default:
      if (schema.properties) return objectArb(schema, ctx, depth);
      // `{}`: any JSON value.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    // A map (`propertyNames` + `additionalProperties`), or a free-form object.
    if (depth >= MAX_VALID_DEPTH) return fc.constant({});
    const valueSchema = typeof schema.additionalProperties === "object" ? schema.additionalProperties : {};
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), validArbitrary(valueSchema, ctx, undefined, depth + 1), {
      maxKeys: 3,
    });
  }
  const shape = Object.fromEntries(names.map((key) => [key, validArbitrary(properties[key]!, ctx, key, depth + 1)]));
  return fc.record(shape, { requiredKeys: schema.required ?? [] });
}

// ---------------------------------------------------------------------------------------------
// Mutations: take a valid value and break it in one or more places.

type Path = (string | number)[];

// Places deeper than this are not worth breaking (bodies past 64 levels are refused whole), and a
// value made 1,400 levels deep by an earlier mutation must not overflow the stack here.
const MAX_PLACE_DEPTH = 80;

/** Every place in a JSON value down to MAX_PLACE_DEPTH, root first (depth-first, in order), found without recursion. */
function placesIn(value: unknown): { path: Path; value: unknown }[] {
  const out: { path: Path; value: unknown }[] = [];
  const pending: { path: Path; value: unknown }[] = [{ path: [], value }];
  while (pending.length > 0) {
    const place = pending.pop()!;
    out.push(place);
    if (place.path.length >= MAX_PLACE_DEPTH) continue;
    const children: { path: Path; value: unknown }[] = Array.isArray(place.value)
      ? place.value.map((item, i) => ({ path: [...place.path, i], value: item }))
      : place.value !== null && typeof place.value === "object"
        ? Object.entries(place.value).map(([k, v]) => ({ path: [...place.path, k], value: v }))
        : [];
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return out;
}

/** A copy of `value` with the node at `path` replaced by `replace(old)`. Keys are set as own properties, `__proto__` included. */
function updateAt(value: unknown, path: Path, replace: (old: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = updateAt(copy[head as number], rest, replace);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) defineOwn(copy, k, k === head ? updateAt(v, rest, replace) : v);
  return copy;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function nullEverywhere(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullEverywhere);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) defineOwn(out, k, v !== null && typeof v === "object" ? nullEverywhere(v) : null);
    return out;
  }
  return null;
}

export type Mutation =
  | { kind: "replace"; at: number; with: unknown }
  | { kind: "taint-string"; at: number; with: string }
  | { kind: "add-key"; at: number; key: string; with: unknown }
  | { kind: "drop-key"; at: number }
  | { kind: "nest"; at: number; with: unknown }
  | { kind: "number"; at: number; with: number }
  | { kind: "null-top-level" }
  | { kind: "null-everywhere" };

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), with: hostileValue }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("taint-string" as const), at: fc.nat(), with: hostileString }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("add-key" as const),
      at: fc.nat(),
      key: hostileKey,
      with: fc.oneof(fc.constant<unknown>(1), hostileValue),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop-key" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("nest" as const), at: fc.nat(), with: deepValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("number" as const), at: fc.nat(), with: hostileNumber }) },
  { weight: 1, arbitrary: fc.constant({ kind: "null-top-level" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "null-everywhere" as const }) },
);

/** Applies one mutation; `at` picks a place (modulo the number of fitting places). */
export function applyMutation(value: unknown, mutation: Mutation): unknown {
  const places = placesIn(value);
  const pick = (fits: (v: unknown) => boolean, at: number) => {
    const fitting = places.filter((p) => fits(p.value));
    return fitting.length ? fitting[at % fitting.length]! : undefined;
  };
  const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  switch (mutation.kind) {
    case "replace": {
      // The root stays an object here: non-object bodies are the raw generator's job.
      const place = pick(() => true, mutation.at);
      if (!place || place.path.length === 0) return value;
      return updateAt(value, place.path, () => mutation.with);
    }
    case "taint-string": {
      const place = pick((v) => typeof v === "string", mutation.at) ?? pick(() => true, mutation.at);
      if (!place || place.path.length === 0) return value;
      return updateAt(value, place.path, (old) => (typeof old === "string" ? old + mutation.with : mutation.with));
    }
    case "add-key": {
      const place = pick(isObject, mutation.at);
      if (!place) return value;
      return updateAt(value, place.path, (old) => {
        const copy: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(old as Record<string, unknown>)) defineOwn(copy, k, v);
        defineOwn(copy, mutation.key, mutation.with);
        return copy;
      });
    }
    case "drop-key": {
      const place = pick(isObject, mutation.at);
      if (!place) return value;
      return updateAt(value, place.path, (old) => {
        const entries = Object.entries(old as Record<string, unknown>);
        const dropped = entries.length ? entries[mutation.at % entries.length]![0] : undefined;
        const copy: Record<string, unknown> = {};
        for (const [k, v] of entries) if (k !== dropped) defineOwn(copy, k, v);
        return copy;
      });
    }
    case "nest": {
      const place = pick(() => true, mutation.at);
      if (!place || place.path.length === 0) return value;
      return updateAt(value, place.path, () => mutation.with);
    }
    case "number": {
      const place = pick((v) => typeof v === "number", mutation.at) ?? pick(() => true, mutation.at);
      if (!place || place.path.length === 0) return value;
      return updateAt(value, place.path, () => mutation.with);
    }
    case "null-top-level": {
      if (!isObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value as object)) defineOwn(out, k, null);
      return out;
    }
    case "null-everywhere":
      return nullEverywhere(value);
  }
}
