import { parseAsArrayOf, parseAsString, parseAsStringLiteral } from "nuqs";
import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import type { SourceData } from "@/lib/client/hooks/sources";
import { matchesSearch, searchWords } from "@/lib/client/search";

/** A catalog entry with the source it comes from: "All sources" lists entries of many. */
export interface SourcedEntry {
  entry: CatalogEntryData;
  source: SourceData;
}

/**
 * The orders a catalog can be listed in: the marketplace's own, by name, or by how well an
 * entry matches the search (only while searching). A marketplace's catalog carries no dates
 * (CONTRACT §6), so there is no "last updated" order to offer.
 */
const CATALOG_SORTS = ["catalog", "name", "relevance"] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

/** What the user narrowed the catalog to, and the order they asked for (null: the default for the search). */
export interface CatalogFilters {
  search: string;
  category: string | null;
  integration: string | null;
  tags: string[];
  sort: CatalogSort | null;
}

export const NO_FILTERS: CatalogFilters = { search: "", category: null, integration: null, tags: [], sort: null };

/**
 * The filters and the order as URL query parameters (`?q=&category=&integration=&tag=a,b&sort=name`):
 * a reload shows the same matches in the same order, and a link to a search can be shared.
 * Defaults stay out of the URL.
 */
export const catalogFilterParams = {
  search: parseAsString.withDefault(""),
  category: parseAsString,
  integration: parseAsString,
  tags: parseAsArrayOf(parseAsString).withDefault([]),
  sort: parseAsStringLiteral(CATALOG_SORTS),
};
export const catalogFilterUrlKeys = { search: "q", tags: "tag" } as const;

/** Whether an entry passes the filters: every search word somewhere in it, and each chosen facet. */
export function matchesFilters(entry: CatalogEntryData, filters: CatalogFilters): boolean {
  // A search looks at the name, description, id, tags and integrations.
  return (
    matchesSearch(filters.search, entry.name, entry.description, entry.id, ...entry.tags, ...entry.integrations) &&
    (filters.category === null || entry.category === filters.category) &&
    (filters.integration === null || entry.integrations.includes(filters.integration)) &&
    filters.tags.every((tag) => entry.tags.includes(tag))
  );
}

/** The distinct values of a facet over the entries, sorted for a picker. */
export function facetValues(items: SourcedEntry[], values: (entry: CatalogEntryData) => string[]): string[] {
  return [...new Set(items.flatMap((item) => values(item.entry)))].sort((a, b) => a.localeCompare(b));
}

/**
 * The order the catalog is listed in: the one chosen, else by relevance while searching and the
 * marketplace's own otherwise. Relevance without a search is the marketplace's order.
 */
export function effectiveSort(filters: Pick<CatalogFilters, "search" | "sort">): CatalogSort {
  const searching = searchWords(filters.search).length > 0;
  if (filters.sort === "relevance" && !searching) return "catalog";
  return filters.sort ?? (searching ? "relevance" : "catalog");
}

// How much a search word found in each part of an entry counts: its name says most of what it is.
const WEIGHTS = { name: 8, id: 4, labels: 2, description: 1 } as const;

/**
 * How well an entry matches the search: for each word, the weight of each part of the entry it
 * is in (name, id, tags and integrations, description), doubled where a whole word of that part
 * starts with it. Higher is better; 0 for no search.
 */
export function relevance(entry: CatalogEntryData, search: string): number {
  const parts: [string, number][] = [
    [entry.name, WEIGHTS.name],
    [entry.id, WEIGHTS.id],
    [[...entry.tags, ...entry.integrations].join(" "), WEIGHTS.labels],
    [entry.description ?? "", WEIGHTS.description],
  ];
  let score = 0;
  for (const word of searchWords(search.toLowerCase())) {
    for (const [text, weight] of parts) {
      const lower = text.toLowerCase();
      if (lower.includes(word)) score += startsAWord(lower, word) ? weight * 2 : weight;
    }
  }
  return score;
}

/** Whether `word` occurs in `text` at the start of one of its words (after a character that is no letter or digit). */
function startsAWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1]!)) return true;
  }
  return false;
}

const byName = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/**
 * The entries in `sort`'s order; ties (and the marketplace's order) keep the order given, so
 * "All sources" lists its sources' catalogs one after the other.
 */
export function sortEntries(items: SourcedEntry[], sort: CatalogSort, search: string): SourcedEntry[] {
  if (sort === "catalog") return items;
  if (sort === "name")
    return items.toSorted((a, b) => byName.compare(a.entry.name, b.entry.name) || byName.compare(a.entry.id, b.entry.id));
  const scores = new Map(items.map((item) => [item, relevance(item.entry, search)]));
  return items.toSorted((a, b) => scores.get(b)! - scores.get(a)!);
}
