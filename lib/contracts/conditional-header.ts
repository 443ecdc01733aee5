// No zod: the console's client (lib/client/api.ts) reads and sends these headers too.

/** The request headers of conditional requests (CONTRACT §19, RFC 9110 §13) and the answer's tag. */
export const IF_MATCH_HEADER = "If-Match";
export const IF_NONE_MATCH_HEADER = "If-None-Match";
export const ETAG_HEADER = "ETag";

/** What a conditional header asks: any current version (`*`), or one of these entity tags. */
export type EntityTagCondition = "*" | readonly string[];

const ENTITY_TAG = /^\s*(W\/)?("[^"]*")\s*(?:,|$)/;

/**
 * The entity tags of an `If-Match` or `If-None-Match` value, or `*`; null when the header is
 * absent or empty. Weak tags (`W/"…"`) are kept with their mark: they never match strongly.
 * A value that is not a list of quoted tags (a program that sent the bare hash) is read as one
 * tag, quoted, so it is compared rather than ignored.
 */
export function parseEntityTags(value: string | null): EntityTagCondition | null {
  if (value === null || value.trim() === "") return null;
  if (value.trim() === "*") return "*";
  const tags: string[] = [];
  let rest = value;
  while (rest.trim() !== "") {
    const match = ENTITY_TAG.exec(rest);
    if (!match) return [...tags, `"${rest.trim()}"`];
    tags.push(`${match[1] ?? ""}${match[2]}`);
    rest = rest.slice(match[0].length);
  }
  return tags;
}

/** If-Match's strong comparison: the current tag is one of the condition's, none of them weak. */
export const matchesStrongly = (condition: EntityTagCondition, current: string) => condition === "*" || condition.includes(current);

/** If-None-Match's weak comparison: the current tag is one of the condition's, `W/` or not. */
export const matchesWeakly = (condition: EntityTagCondition, current: string) =>
  condition === "*" || condition.some((tag) => tag.replace(/^W\//, "") === current);
