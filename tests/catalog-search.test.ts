// The Marketplace's orders: relevance while searching, by name, or the marketplace's own.
import { describe, expect, it } from "vitest";
import { effectiveSort, relevance, type SourcedEntry, sortEntries } from "@/components/marketplace/catalog-search";
import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import type { SourceData } from "@/lib/client/hooks/sources";

const entry = (id: string, name: string, more: Partial<CatalogEntryData> = {}): CatalogEntryData => ({
  id,
  name,
  description: null,
  category: null,
  integrations: [],
  tags: [],
  homepage_url: null,
  manifest: { version: "1" },
  revision: "0123456789abcdef",
  problem: null,
  installed_as: [],
  installed_as_server: [],
  ...more,
});
const source = { name: "acme", scope: "personal" } as SourceData;
const items = (...entries: CatalogEntryData[]): SourcedEntry[] => entries.map((e) => ({ entry: e, source }));
const ids = (list: SourcedEntry[]) => list.map((i) => i.entry.id);

describe("effectiveSort", () => {
  it("defaults to relevance while searching and to the marketplace's order otherwise", () => {
    expect(effectiveSort({ search: "", sort: null })).toBe("catalog");
    expect(effectiveSort({ search: "  slack ", sort: null })).toBe("relevance");
  });

  it("keeps the order chosen; relevance without a search is the marketplace's order", () => {
    expect(effectiveSort({ search: "slack", sort: "name" })).toBe("name");
    expect(effectiveSort({ search: "", sort: "relevance" })).toBe("catalog");
    expect(effectiveSort({ search: "slack", sort: "catalog" })).toBe("catalog");
  });
});

describe("relevance", () => {
  it("weighs the name over the id, the labels and the description, and the start of a word over its middle", () => {
    const inName = entry("a", "Slack notes");
    const inId = entry("slack-b", "Notes");
    const inTag = entry("c", "Notes", { integrations: ["slack"] });
    const inDescription = entry("d", "Notes", { description: "Reads slack threads." });
    const inMiddle = entry("e", "Backslacker");
    const scores = [inName, inId, inTag, inDescription].map((e) => relevance(e, "slack"));
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect(new Set(scores).size).toBe(4);
    expect(relevance(inMiddle, "slack")).toBeLessThan(relevance(inName, "slack"));
    expect(relevance(inName, "")).toBe(0);
  });

  it("adds up every word of the search", () => {
    const both = entry("a", "Slack notes");
    const one = entry("b", "Slack digest");
    expect(relevance(both, "slack notes")).toBeGreaterThan(relevance(one, "slack notes"));
  });
});

describe("sortEntries", () => {
  const list = items(
    entry("z-first", "Zebra", { description: "slack" }),
    entry("b-second", "apple"),
    entry("a-third", "Slack bot"),
    entry("m-fourth", "Apple"),
  );

  it("keeps the marketplace's order", () => {
    expect(ids(sortEntries(list, "catalog", ""))).toEqual(["z-first", "b-second", "a-third", "m-fourth"]);
  });

  it("sorts by name, whatever the case, then by id", () => {
    expect(ids(sortEntries(list, "name", ""))).toEqual(["b-second", "m-fourth", "a-third", "z-first"]);
  });

  it("puts the best matches first, ties in the marketplace's order", () => {
    expect(ids(sortEntries(list, "relevance", "slack"))).toEqual(["a-third", "z-first", "b-second", "m-fourth"]);
  });
});
