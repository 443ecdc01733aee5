import { replaceEqualDeep } from "@tanstack/react-query";

// The version (CONTRACT §19's ETag) of each answer the console read or wrote, kept beside the
// answer rather than in it, so hooks and components keep the contract's types: a form takes the
// tag of what it shows and sends it as If-Match when it saves.

const tags = new WeakMap<object, string>();

/** The ETag the server answered with this answer (as api.call returned it or the cache holds it); undefined when none is known. */
export function entityTagOf(answer: unknown): string | undefined {
  return typeof answer === "object" && answer !== null ? tags.get(answer) : undefined;
}

/** Records `answer`'s ETag (api.call, for every answer that has one). */
export function keepEntityTag(answer: unknown, tag: string | null | undefined): void {
  if (tag && typeof answer === "object" && answer !== null) tags.set(answer, tag);
}

/**
 * TanStack Query's structural sharing, keeping the tag: a fresh answer that differs from the
 * cached one in part is a new object made of the old one's unchanged parts, which the WeakMap
 * does not know, and one equal to it is the old object, whose tag may be an older digest of
 * the same JSON. Either way the object the cache keeps gets the fresh answer's tag.
 */
export function shareKeepingTag(previous: unknown, next: unknown): unknown {
  const shared = replaceEqualDeep(previous, next);
  const tag = entityTagOf(next);
  if (tag !== undefined) keepEntityTag(shared, tag);
  return shared;
}
