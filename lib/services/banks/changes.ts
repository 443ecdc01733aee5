import "server-only";
import { isDeepStrictEqual } from "node:util";
import type { ImportChanges } from "@/lib/contracts/banks/schemas";
import type { ImportPlan } from "./import-plan";

type Entry = Record<string, unknown>;

/** What a bank holds before an import: its config overrides and its entries as the store reports them. */
export interface BankContents {
  /** Null when the store would not show them (a Hindsight bank whose `/config` answers 404, CONTRACT §19). */
  config: Entry | null;
  mentalModels: Entry[];
  directives: Entry[];
}

export const EMPTY_BANK: BankContents = { config: {}, mentalModels: [], directives: [] };

/**
 * How a store reports a manifest entry once it holds it. The embedded store keeps entries as
 * applied (the identity); Hindsight fills in its defaults, so comparing its reports with the
 * raw manifest entry would call every entry changed. Applied to both sides of a comparison.
 */
export interface StoredShape {
  mentalModel: (entry: Entry) => Entry;
  directive: (entry: Entry) => Entry;
}

/** The embedded store's shape: entries as applied. */
export const AS_APPLIED: StoredShape = { mentalModel: (entry) => entry, directive: (entry) => entry };

/**
 * The field-by-field and entry-by-entry changes an import plan makes to a bank (CONTRACT §14):
 * config fields whose value differs (an absent field counts as null; the plan holds no nulls, §15), entries created, and
 * entries whose content differs (deep equality, key order ignored). Computed from the bank as
 * read before the import, so a dry run and the real import it previews answer alike. A config that
 * could not be read lists no field (none is known to change, none to be new) and says so.
 */
export function importChanges(plan: ImportPlan, before: BankContents, shape: StoredShape = AS_APPLIED): ImportChanges {
  const known = before.config;
  const config = Object.entries(plan.config).flatMap(([field, after]) => {
    if (known === null) return [];
    const previous = Object.hasOwn(known, field) ? known[field] : null;
    return isDeepStrictEqual(previous, after) ? [] : [{ field, before: previous, after }];
  });
  return {
    config,
    ...(known === null ? { config_unreadable: true as const } : {}),
    mental_models: entryChanges(plan.mentalModels, before.mentalModels, "id", shape.mentalModel).map(({ key, ...c }) => ({
      id: key,
      ...c,
    })),
    directives: entryChanges(plan.directives, before.directives, "name", shape.directive).map(({ key, ...c }) => ({ name: key, ...c })),
  };
}

interface EntryChange {
  key: string;
  change: "create" | "update";
  before: Entry | null;
  after: Entry;
}

function entryChanges(planned: Entry[], existing: Entry[], key: "id" | "name", stored: (entry: Entry) => Entry): EntryChange[] {
  const byKey = new Map(existing.map((entry) => [String(entry[key]), entry]));
  return planned.flatMap((entry): EntryChange[] => {
    const after = stored(entry);
    const existingEntry = byKey.get(String(entry[key]));
    if (existingEntry === undefined) return [{ key: String(entry[key]), change: "create", before: null, after }];
    // Both sides in the store's shape: what it reported may omit what its defaults make equal.
    const previous = stored(existingEntry);
    return isDeepStrictEqual(previous, after) ? [] : [{ key: String(entry[key]), change: "update", before: previous, after }];
  });
}

/** `entries` with each planned entry of the same key replaced in its place, then the planned new ones in the plan's order. */
function withPlanned(entries: Entry[], planned: Entry[], key: "id" | "name"): Entry[] {
  const byKey = new Map(planned.map((entry) => [String(entry[key]), entry]));
  const known = new Set(entries.map((entry) => String(entry[key])));
  return [...entries.map((entry) => byKey.get(String(entry[key])) ?? entry), ...planned.filter((entry) => !known.has(String(entry[key])))];
}

/**
 * The content an import plan leaves in a bank that held `before`: config fields merged in, each
 * matched mental model and directive replaced in its place, new ones after the others. A config that
 * could not be read stays unknown.
 */
export function importedContents(before: BankContents, plan: ImportPlan): BankContents {
  return {
    config: before.config === null ? null : { ...before.config, ...plan.config },
    mentalModels: withPlanned(before.mentalModels, plan.mentalModels, "id"),
    directives: withPlanned(before.directives, plan.directives, "name"),
  };
}
