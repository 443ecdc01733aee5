"use client";
import { Group } from "@mantine/core";
import { parseAsString, useQueryState } from "nuqs";
import { SearchInput } from "./SearchInput";

// Apart from ResourceTable: pages whose tables have no search (a bank's history) need not load
// the URL state code or the search box.

/**
 * A list page's search, kept in the URL as `?q=` so a reload shows the same rows. Typing replaces
 * the current history entry instead of adding one per letter.
 */
export function useListSearch() {
  return useQueryState("q", parseAsString.withDefault("").withOptions({ history: "replace" }));
}

/** The search box above a resource table. */
export function ListSearch({
  label,
  placeholder,
  value,
  onChange,
}: {
  /** What is searched, for the accessible name of the search region: "users". */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string | null) => void;
}) {
  return (
    <Group role="search" aria-label={`Search ${label}`} mb="md">
      <SearchInput label="Search" placeholder={placeholder} value={value} onChange={(text) => onChange(text || null)} w={300} />
    </Group>
  );
}
