import type { FieldError } from "@/lib/contracts/problem-schema";
import type { ProblemType } from "@/lib/contracts/problem-types";
import { formatPath } from "@/lib/contracts/validation";

/**
 * CONTRACT §10's rules for JSON, one implementation for what clients send (request bodies,
 * queries, paths) and for what upstream servers send (catalogs, manifests, Hindsight's
 * answers): no string or object key holding U+0000 or an unpaired UTF-16 surrogate, and no
 * nesting deeper than 64 levels. Nothing here recurses, so no input is deep enough to
 * overflow the stack.
 */

/** Arrays and objects may nest this many levels (the outermost one is level 1). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isOpening = (c: number) => c === 0x5b || c === 0x7b; // [ {
const isClosing = (c: number) => c === 0x5d || c === 0x7d; // ] }

/**
 * Index of the first `[` or `{` from `from` on that opens a level deeper than `max`, the scan
 * starting at nesting `depth` outside any string; -1 when there is none.
 */
function firstTooDeep(text: string, max: number, from = 0, depth = 0): number {
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH)
        i++; // skip the escaped character
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (isOpening(c)) {
      if (++depth > max) return i;
    } else if (isClosing(c)) depth--;
  }
  return -1;
}

/** Index of the bracket that closes the array or object opened at `open` (the last index for unbalanced text). */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (isOpening(c)) depth++;
    else if (isClosing(c) && --depth === 0) return i;
  }
  return text.length - 1;
}

/** Whether JSON text nests arrays and objects deeper than `max` levels, found by one scan of the text. */
export function jsonTextNestsDeeperThan(text: string, max: number): boolean {
  return firstTooDeep(text, max) !== -1;
}

/**
 * The text with every array or object that opens below level `max` replaced by `[]`, so
 * the parser never meets more than `max + 1` levels while the places cut still nest
 * `max + 1` levels and `jsonFlaws` finds them at their paths. Text nesting no deeper
 * comes back as it is.
 */
export function cutJsonBelow(text: string, max: number): string {
  let at = firstTooDeep(text, max);
  if (at === -1) return text;
  const parts: string[] = [];
  let kept = 0;
  while (at !== -1) {
    const end = closingBracket(text, at);
    parts.push(text.slice(kept, at), "[]");
    kept = end + 1;
    // The cut container was at level max + 1, so the scan goes on inside its parent, at level max.
    at = firstTooDeep(text, max, kept, max);
  }
  parts.push(text.slice(kept));
  return parts.join("");
}

/** PostgreSQL cannot store U+0000 in text, nor an unpaired UTF-16 surrogate in any encoding. */
function isStorableString(value: string): boolean {
  return !value.includes("\u0000") && (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/** The string with U+FFFD in place of each U+0000 and unpaired surrogate, for echoing upstream text in a message. */
export function displayable(value: string): string {
  return (value.replaceAll("\u0000", "\uFFFD") as string & { toWellFormed(): string }).toWellFormed();
}

export const UNSTORABLE = "contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored";
export const tooDeep = (max: number) => `nests more than ${max} levels`;

interface FlawOptions {
  /** Containers below this level are flaws and are not looked into. */
  maxDepth?: number;
  /** Where `value` sits in its document, prefixed to every path. */
  at?: PropertyKey[];
  /** Stop after this many flaws. */
  limit?: number;
}

/** One value still to look at: how it was reached (paths are only built for flaws), and its level. */
interface Pending {
  value: unknown;
  key: PropertyKey | null;
  /** Whether `key` is an object's key (checked like a string) rather than an array index. */
  isObjectKey: boolean;
  parent: Pending | null;
  /** Level of the container `value` would be; the top value is level 1. */
  depth: number;
}

function pathOf(item: Pending, at: PropertyKey[]): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let p: Pending | null = item; p && p.key !== null; p = p.parent) path.push(p.key);
  return [...at, ...path.reverse()];
}

/**
 * Every string (object keys included) in a parsed JSON value that cannot be stored, and every
 * array or object nesting deeper than `maxDepth`, by path in document order. Walks with an
 * explicit stack, so any depth is safe.
 */
export function jsonFlaws(
  value: unknown,
  { maxDepth = Number.POSITIVE_INFINITY, at = [], limit = Number.POSITIVE_INFINITY }: FlawOptions = {},
): FieldError[] {
  const flaws: FieldError[] = [];
  const flaw = (item: Pending, message: string) => flaws.push({ path: formatPath(pathOf(item, at)) || "(body)", message });
  const stack: Pending[] = [{ value, key: null, isObjectKey: false, parent: null, depth: 1 }];
  while (stack.length && flaws.length < limit) {
    const item = stack.pop()!;
    if (item.isObjectKey && !isStorableString(item.key as string)) flaw(item, `is a key that ${UNSTORABLE}`);
    const v = item.value;
    if (typeof v === "string") {
      if (!isStorableString(v)) flaw(item, UNSTORABLE);
    } else if (v !== null && typeof v === "object") {
      if (item.depth > maxDepth) {
        flaw(item, tooDeep(maxDepth));
        continue;
      }
      // Pushed last first, so they are looked at in document order, without interim arrays (every
      // request body and catalog passes through here), and only what can hold a flaw: a number,
      // boolean or null under a storable key cannot.
      const depth = item.depth + 1;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) {
          const child: unknown = v[i];
          if (typeof child === "string" || (typeof child === "object" && child !== null)) {
            stack.push({ value: child, key: i, isObjectKey: false, parent: item, depth });
          }
        }
      } else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i]!;
          const child: unknown = (v as Record<string, unknown>)[key];
          if (typeof child === "string" || (typeof child === "object" && child !== null) || !isStorableString(key)) {
            stack.push({ value: child, key, isObjectKey: true, parent: item, depth });
          }
        }
      }
    }
  }
  // A key and its value may both be flaws, one past the limit.
  return flaws.slice(0, limit);
}

/** JSON text an upstream server sent, parsed, or why it is refused (`problem` completes "the answer …") and the problem type to say so. */
export type UpstreamJson =
  | { value: unknown; problem?: undefined }
  | { value?: undefined; problem: string; type: ProblemType; errors?: FieldError[] };

/** How many flaws a problem about upstream content lists. */
export const LISTED_FLAWS = 20;

/** One flaw's words for a message about upstream content: its path in displayable form. */
export function describeFlaw(flaw: FieldError): string {
  return `${displayable(flaw.path)} ${flaw.message}`;
}

/** Upstream flaws as `errors` members: paths in displayable form. */
export const displayableFlaws = (flaws: FieldError[]): FieldError[] =>
  flaws.map((flaw) => ({ path: displayable(flaw.path), message: flaw.message }));

/**
 * Parses what an upstream server sent (a manifest file, Hindsight's answer) under §10: text
 * nesting deeper than 64 levels is refused before it is parsed, a parsed value holding an
 * unstorable string is refused with the paths. A leading BOM, legal in a UTF-8 file but not
 * in JSON, is dropped.
 */
export function parseUpstreamJson(text: string): UpstreamJson {
  const json = text.replace(/^\uFEFF/, "");
  if (jsonTextNestsDeeperThan(json, MAX_JSON_DEPTH)) return { problem: tooDeep(MAX_JSON_DEPTH), type: "unusable-upstream-content" };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    // The parser's message quotes the body, which is not ours to echo.
    return { problem: "is not JSON", type: "bad-gateway" };
  }
  const flaws = jsonFlaws(value, { limit: LISTED_FLAWS });
  if (!flaws.length) return { value };
  return { problem: `is unusable: ${describeFlaw(flaws[0]!)}`, type: "unusable-upstream-content", errors: displayableFlaws(flaws) };
}
