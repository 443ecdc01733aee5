import type { RestoreChanges } from "@/lib/contracts/banks/schemas";
import { sameJson } from "@/lib/shared/same-json";
import type { BankContents, StoredShape } from "./changes";

/*
 * A bank put back as it was right after one entry of its history (CONTRACT §21), the part both stores
 * share: the content to put back, replayed from what the history keeps, and what putting it back
 * changes. Pure: the history is read and the bank written by the store (lib/services/banks/history.ts).
 */

type Entry = Record<string, unknown>;

const LISTS = [
  { list: "mental_models", field: "mentalModels", key: "id" },
  { list: "directives", field: "directives", key: "name" },
] as const;

/** `entries` with the one of key `key` replaced in its place, added last, or (null) removed: as an edit leaves them. */
function withEntry(entries: Entry[], key: "id" | "name", value: string, entry: Entry | null): Entry[] {
  const index = entries.findIndex((held) => held[key] === value);
  if (entry === null) return entries.filter((_, i) => i !== index);
  return index < 0 ? [...entries, entry] : entries.map((held, i) => (i === index ? entry : held));
}

/**
 * The bank's content after `edits` (their history entries' `after`: what each touched, as it left it;
 * lib/services/banks/edits.ts), oldest first, made on `content`. A config field null there has no value
 * of the bank's own; a mental model or directive null there was removed. The name is no content.
 */
export function replayEdits(content: BankContents, edits: ReadonlyArray<{ after: Entry }>): BankContents {
  let replayed = content;
  for (const { after } of edits) {
    let config = replayed.config;
    if (config !== null && after.config) {
      config = { ...config };
      for (const [field, value] of Object.entries(after.config as Entry)) {
        if (value === null) delete config[field];
        else config[field] = value;
      }
    }
    const next: BankContents = { ...replayed, config };
    for (const { list, field, key } of LISTS) {
      for (const [value, entry] of Object.entries((after[list] ?? {}) as Record<string, Entry | null>)) {
        next[field] = withEntry(next[field], key, value, entry);
      }
    }
    replayed = next;
  }
  return replayed;
}

type EntryChange = { key: string; change: "create" | "update" | "delete"; before: Entry | null; after: Entry | null };

/** Entries created, changed (in the store's shape) or removed from `before` to `after`: those of `after` in its order, then those removed. */
function entryChanges(before: Entry[], after: Entry[], key: "id" | "name", shape: (entry: Entry) => Entry): EntryChange[] {
  const held = new Map(before.map((entry) => [String(entry[key]), shape(entry)]));
  const kept = new Set(after.map((entry) => String(entry[key])));
  const changed = after.flatMap((entry): EntryChange[] => {
    const name = String(entry[key]);
    const now = shape(entry);
    const was = held.get(name);
    if (was === undefined) return [{ key: name, change: "create", before: null, after: now }];
    return sameJson(was, now) ? [] : [{ key: name, change: "update", before: was, after: now }];
  });
  const removed = [...held]
    .filter(([name]) => !kept.has(name))
    .map(([name, was]): EntryChange => ({ key: name, change: "delete", before: was, after: null }));
  return [...changed, ...removed];
}

/**
 * What putting back `after` changes in a bank holding `before` (RestoreChanges): config fields whose
 * value differs (an absent field is null: the server's default), entries created, changed or removed.
 * A config either side could not read lists no field and says so (the restore then leaves it alone).
 */
export function restoreChanges(before: BankContents, after: BankContents, shape: StoredShape): RestoreChanges {
  const unreadable = before.config === null || after.config === null;
  const [was, now] = [before.config ?? {}, after.config ?? {}];
  const fields = unreadable ? [] : [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return {
    config: fields
      .map((field) => ({ field, before: was[field] ?? null, after: now[field] ?? null }))
      .filter((change) => !sameJson(change.before, change.after)),
    ...(unreadable ? { config_unreadable: true as const } : {}),
    mental_models: entryChanges(before.mentalModels, after.mentalModels, "id", shape.mentalModel).map(({ key, ...c }) => ({
      id: key,
      ...c,
    })),
    directives: entryChanges(before.directives, after.directives, "name", shape.directive).map(({ key, ...c }) => ({ name: key, ...c })),
  };
}
