import { z } from "zod";
import { unprocessable, type FieldError } from "./errors";

/** `["manifest", "mental_models", 1, "id"]` → `manifest.mental_models[1].id` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Flattens zod issues into CONTRACT §4 field errors: unknown keys at their own path. */
export function issuesToFieldErrors(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const at = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors.push({ path: formatPath([...at, key]), message: "is not a known field" });
    } else {
      errors.push({ path: formatPath(at) || "(body)", message: issue.message });
    }
  }
  return errors;
}

// Plain-language messages for the cases zod words for programmers.
export const errorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "invalid_type" && issue.input === undefined) return "is required";
  if (issue.code === "invalid_type") return `must be ${issue.expected === "object" ? "an object" : `a ${issue.expected}`}`;
  return undefined;
};

export function describeErrors(what: string, errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return `The ${what} is invalid.`;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  return `The ${what} is invalid: ${first.path} ${first.message}${more}.`;
}

/**
 * CONTRACT §10: whether a `null` for this top-level field of a POST or PUT body counts as
 * leaving it out: the field may be missing but refuses null. A field that gives null a
 * meaning of its own (a nullable policy field) keeps it.
 */
export const nullMeansAbsent = (field: z.ZodType) => field.safeParse(undefined).success && !field.safeParse(null).success;

/**
 * CONTRACT §10: in POST and PUT bodies `null` for an optional field means the field is
 * absent. Drops top-level nulls the schema would refuse but accepts as missing; nulls a
 * field gives meaning to (a nullable policy field) stay.
 */
export function dropNullOptionals(schema: z.ZodType, value: Record<string, unknown>): Record<string, unknown> {
  if (!(schema instanceof z.ZodObject)) return value;
  const shape = schema.shape as Record<string, z.ZodType>;
  let out: Record<string, unknown> | null = null;
  for (const [key, v] of Object.entries(value)) {
    // Own keys only: `constructor` or `toString` in a body must not find Object.prototype's.
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (v !== null || !field) continue;
    if (nullMeansAbsent(field)) {
      out ??= { ...value };
      delete out[key];
    }
  }
  return out ?? value;
}

/** Parses or throws a 422 listing every failed field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value, { error: errorMap });
  if (result.success) return result.data;
  const errors = issuesToFieldErrors(result.error.issues);
  throw unprocessable(describeErrors(what, errors), errors);
}
