/** The words of a search as typed, split on white space (also what a list highlights). */
export const searchWords = (search: string) => search.split(/\s+/).filter(Boolean);

/** Whether every word of the search is in one of the texts (case-insensitive): the console's one list search. */
export function matchesSearch(search: string, ...texts: (string | null | undefined)[]): boolean {
  const haystack = texts.filter(Boolean).join("\n").toLowerCase();
  return searchWords(search.toLowerCase()).every((word) => haystack.includes(word));
}
