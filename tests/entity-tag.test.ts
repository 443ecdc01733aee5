import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { entityTagOf, keepEntityTag, shareKeepingTag } from "@/lib/client/entity-tag";

// The console keeps each answer's ETag beside it (lib/client/entity-tag.ts); the query cache's
// structural sharing replaces answers with objects made of the old one's parts, which must keep
// the fresh answer's tag, or a form would send an old version as its If-Match.

const tagged = <T extends object>(answer: T, tag: string) => {
  keepEntityTag(answer, tag);
  return answer;
};

describe("an answer's ETag in the query cache", () => {
  const client = () => new QueryClient({ defaultOptions: { queries: { structuralSharing: shareKeepingTag } } });
  const key = ["policy"];

  it("is the tag of the answer the cache holds, after a partly changed answer replaced it", () => {
    const queries = client();
    queries.setQueryData(key, tagged({ document: { a: 1, b: { c: 2 } } }, '"v1"'));
    const first = queries.getQueryData<object>(key);
    expect(entityTagOf(first)).toBe('"v1"');

    queries.setQueryData(key, tagged({ document: { a: 2, b: { c: 2 } } }, '"v2"'));
    const second = queries.getQueryData<{ document: { b: object } }>(key)!;
    expect(entityTagOf(second)).toBe('"v2"');
    // Structural sharing kept the unchanged part: the tag still followed the whole answer.
    expect(second.document.b).toBe((first as { document: { b: object } }).document.b);
  });

  it("follows an equal answer with a new tag, though the cache keeps the old object", () => {
    const queries = client();
    queries.setQueryData(key, tagged({ document: { a: 1 } }, '"v1"'));
    const first = queries.getQueryData<object>(key);
    queries.setQueryData(key, tagged({ document: { a: 1 } }, '"v1b"'));
    expect(queries.getQueryData(key)).toBe(first);
    expect(entityTagOf(first)).toBe('"v1b"');
  });

  it("is unknown for what no answer carried", () => {
    expect(entityTagOf({})).toBeUndefined();
    expect(entityTagOf(undefined)).toBeUndefined();
    expect(entityTagOf("text")).toBeUndefined();
  });
});
