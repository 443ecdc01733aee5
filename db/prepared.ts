import type { Database } from "@/db/client";

/*
 * The hot reads (GET one template, a page of the list, a bank's policy) are prepared once per
 * database and key: building a query with drizzle on every request cost more CPU than
 * PostgreSQL spent answering it. Placeholders carry the values; the SQL is what it was.
 */
const preparedByDatabase = new WeakMap<Database, Map<string, unknown>>();

/** The query `build` makes, built once per database under `key`. */
export function prepared<T>(db: Database, key: string, build: () => T): T {
  let byKey = preparedByDatabase.get(db);
  if (!byKey) {
    byKey = new Map();
    preparedByDatabase.set(db, byKey);
  }
  let query = byKey.get(key) as T | undefined;
  if (!query) {
    query = build();
    byKey.set(key, query);
  }
  return query;
}
