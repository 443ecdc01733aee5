import type { CatalogEntryData } from "@/lib/client/hooks/catalog";
import type { ScopeKind } from "@/lib/contracts/scope";

/** A template installed from a catalog entry, as a card links it. */
interface InstalledPlace {
  scope: ScopeKind;
  id: string;
}

/**
 * Where an entry is installed: under the ids of the scope the console installs `into`, then,
 * installing as oneself, under the server's (its catalog's `installed_as_server`; under /admin
 * that list is `installed_as` again, so it is not repeated).
 */
export function installedPlaces(entry: CatalogEntryData, into: ScopeKind): InstalledPlace[] {
  const own = entry.installed_as.map((id) => ({ scope: into, id }));
  if (into === "server") return own;
  return [...own, ...entry.installed_as_server.map((id) => ({ scope: "server" as const, id }))];
}

/** Whether an entry is installed anywhere the caller's catalog names: installing it once more is "again". */
export const isInstalledAnywhere = (entry: CatalogEntryData) => entry.installed_as.length > 0 || entry.installed_as_server.length > 0;
