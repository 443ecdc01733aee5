import { badRequest, type FieldError, unprocessable } from "./errors";
import { hasValidPathEncoding } from "./path-encoding";
import { formatPath } from "./validation";

/** Bodies nesting deeper than this are refused before they are parsed (CONTRACT §10). */
const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found by one scan of the
 * text (no recursion, so no stack to overflow however deep the input goes).
 */
function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Refuses a body nested deeper than MAX_JSON_DEPTH with 400. */
export function assertJsonDepth(text: string): void {
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw badRequest(`The request body nests more than ${MAX_JSON_DEPTH} levels deep.`, "body-too-deep");
  }
}

/** PostgreSQL cannot store U+0000 in text, nor an unpaired UTF-16 surrogate in any encoding. */
function isStorableString(value: string): boolean {
  return !value.includes("\u0000") && (value as string & { isWellFormed(): boolean }).isWellFormed();
}

const UNSTORABLE = "contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored";

/** Every string (object keys included) in a parsed JSON value that cannot be stored, by path. */
function unstorableStrings(value: unknown, prefix: PropertyKey[] = []): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (v: unknown, path: PropertyKey[]) => {
    if (typeof v === "string") {
      if (!isStorableString(v)) errors.push({ path: formatPath(path) || "(body)", message: UNSTORABLE });
    } else if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) visit(item, [...path, i]);
    } else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        if (!isStorableString(key)) errors.push({ path: formatPath([...path, key]), message: `is a key that ${UNSTORABLE}` });
        visit(item, [...path, key]);
      }
    }
  };
  visit(value, prefix);
  return errors;
}

/** 422 naming every unstorable string of a request part (`what`: "request body", "query", "path"). */
export function assertStorable(value: unknown, what: string): void {
  const errors = unstorableStrings(value);
  if (errors.length) {
    throw unprocessable(`The ${what} has a string that ${UNSTORABLE}: ${errors[0]!.path}.`, errors, "invalid-characters");
  }
}

/** 400 for a URL path whose percent-encoding is invalid (`/ext/svc/me/templates/%ff`). */
export function assertPathEncoding(pathname: string): void {
  if (!hasValidPathEncoding(pathname)) {
    throw badRequest("The URL path has invalid percent-encoding.", "invalid-path-encoding");
  }
}
