import { parseAsArrayOf, parseAsString } from "nuqs";
import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import type { SourceRef } from "@/lib/client/hooks/sources";
import { matchesSearch } from "@/lib/client/search";

/** A catalog entry with the source it comes from: "All sources" lists entries of many. */
export interface SourcedEntry {
  entry: CatalogEntryData;
  source: SourceRef;
}

/** What the user narrowed the catalog to. */
export interface CatalogFilters {
  search: string;
  category: string | null;
  integration: string | null;
  tags: string[];
}

export const NO_FILTERS: CatalogFilters = { search: "", category: null, integration: null, tags: [] };

/**
 * The filters as URL query parameters (`?q=&category=&integration=&tag=a,b`): a reload shows the same
 * matches, and a link to a search can be shared. Defaults stay out of the URL.
 */
export const catalogFilterParams = {
  search: parseAsString.withDefault(""),
  category: parseAsString,
  integration: parseAsString,
  tags: parseAsArrayOf(parseAsString).withDefault([]),
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
