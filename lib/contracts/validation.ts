import { z } from "zod";
import { plural } from "@/lib/shared/plural";
import { type FieldError, unprocessable } from "./errors";

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

const FORMAT_NAMES: Record<string, string> = {
  email: "an email address",
  url: "a URL",
  uuid: "a UUID",
  datetime: "an ISO 8601 date and time such as 2026-11-22T10:15:30.123Z",
  date: "an ISO 8601 date such as 2026-11-22",
  time: "an ISO 8601 time",
  duration: "an ISO 8601 duration",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
  base64: "base64 text",
  base64url: "base64url text",
  json_string: "JSON text",
};

const TYPE_NAMES: Record<string, string> = {
  object: "an object",
  record: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  date: "a date",
  null: "null",
};

const UNITS: Record<string, [string, string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
  map: ["entry", "entries"],
  file: ["byte", "bytes"],
};

const quoted = (value: unknown) => (typeof value === "string" ? `"${value}"` : String(value));

/** "3 characters", "1 item"; a bare number for numbers and dates. */
function amount(origin: string, n: number | bigint): string {
  const unit = UNITS[origin];
  if (!unit) return String(n);
  return plural(n, ...unit);
}

function tooSmall(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall>): string {
  const { origin, minimum, inclusive, exact } = issue;
  if (origin === "string" && Number(minimum) === 1 && inclusive !== false) return "must not be empty";
  if ((origin === "array" || origin === "set") && Number(minimum) === 1 && inclusive !== false) {
    return "must list at least one item";
  }
  const sized = Object.hasOwn(UNITS, origin);
  if (exact) return sized ? `must be exactly ${amount(origin, minimum)}` : `must be ${minimum}`;
  if (!sized && Number(minimum) === 0) return inclusive === false ? "must be greater than 0" : "must not be negative";
  return inclusive === false ? `must be more than ${amount(origin, minimum)}` : `must be at least ${amount(origin, minimum)}`;
}

function tooBig(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig>): string {
  const { origin, maximum, inclusive, exact } = issue;
  const sized = Object.hasOwn(UNITS, origin);
  if (exact) return sized ? `must be exactly ${amount(origin, maximum)}` : `must be ${maximum}`;
  return inclusive === false ? `must be less than ${amount(origin, maximum)}` : `must be at most ${amount(origin, maximum)}`;
}

function badFormat(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidStringFormat>): string {
  const format = issue.format;
  if (format === "starts_with" && "prefix" in issue) return `must start with "${issue.prefix}"`;
  if (format === "ends_with" && "suffix" in issue) return `must end with "${issue.suffix}"`;
  if (format === "includes" && "includes" in issue) return `must contain "${issue.includes}"`;
  // A pattern without a schema-given message: the regex itself means nothing to a reader.
  if (format === "regex") return "is not in the required format";
  return `must be ${FORMAT_NAMES[format] ?? `a valid ${format.replaceAll("_", " ")}`}`;
}

/**
 * Plain-language messages for every issue zod would otherwise word for programmers ("Too small:
 * expected string to have >=1 characters"). Messages a schema sets itself win over these.
 * Each reads after the field's path: `name must not be empty`.
 */
export const errorMap: z.core.$ZodErrorMap = (issue) => {
  const missing = issue.input === undefined && (issue.code === "invalid_type" || issue.code === "invalid_value");
  if (missing) return "is required";
  switch (issue.code) {
    case "invalid_type": {
      const expected = String(issue.expected);
      // z.number() also refuses NaN (what z.coerce makes of "abc") and Infinity.
      if (expected === "number" && typeof issue.input === "number") {
        return Number.isNaN(issue.input) ? "must be a number" : "must be a finite number";
      }
      return `must be ${TYPE_NAMES[expected] ?? `a ${expected}`}`;
    }
    case "invalid_value": {
      const values = issue.values.map(quoted);
      if (values.length === 1) return `must be ${values[0]}`;
      return `must be one of ${issue.values.map(String).join(", ")}`;
    }
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_format":
      return badFormat(issue);
    case "not_multiple_of":
      return Number(issue.divisor) === 1 ? "must be a whole number" : `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return issue.keys.length === 1 ? `has an unknown field: ${issue.keys[0]}` : `has unknown fields: ${issue.keys.join(", ")}`;
    case "invalid_key":
      return "has a key that is not allowed";
    case "invalid_element":
      return "has a value that is not allowed";
    case "invalid_union":
      return "is not any of the accepted forms";
    default:
      return "is not valid";
  }
};

function describeErrors(what: string, errors: FieldError[]): string {
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
