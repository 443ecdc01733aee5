import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import type { SourceRef } from "@/lib/client/hooks/sources";

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

/** The words of a search, as typed (for highlighting) and split on white space. */
export const searchWords = (search: string) => search.split(/\s+/).filter(Boolean);

/** Everything a search looks at: name, description, id, tags and integrations. */
const searchedText = (entry: CatalogEntryData) =>
  [entry.name, entry.description ?? "", entry.id, ...entry.tags, ...entry.integrations].join("\n").toLowerCase();

/** Whether an entry passes the filters: every search word somewhere in it, and each chosen facet. */
export function matchesFilters(entry: CatalogEntryData, filters: CatalogFilters): boolean {
  const text = searchedText(entry);
  return (
    searchWords(filters.search.toLowerCase()).every((word) => text.includes(word)) &&
    (filters.category === null || entry.category === filters.category) &&
    (filters.integration === null || entry.integrations.includes(filters.integration)) &&
    filters.tags.every((tag) => entry.tags.includes(tag))
  );
}

/** The distinct values of a facet over the entries, sorted for a picker. */
export function facetValues(items: SourcedEntry[], values: (entry: CatalogEntryData) => string[]): string[] {
  return [...new Set(items.flatMap((item) => values(item.entry)))].sort((a, b) => a.localeCompare(b));
}
