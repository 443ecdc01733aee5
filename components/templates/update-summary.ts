import type { TemplateContent } from "@/lib/contracts/templates/content-fields";
import { KEYED_MANIFEST_LISTS } from "@/lib/contracts/templates/merge";
import { plural } from "@/lib/shared/plural";
import { sameJson } from "@/lib/shared/same-json";
import { DETAIL_KEYS, detailLabel } from "./details-form";

/** The manifest lists and the key their entries are matched by (as an import matches them, CONTRACT §9). */
const KEYED_LISTS = [
  { key: "mental_models", by: KEYED_MANIFEST_LISTS.mental_models, one: "mental model", many: "mental models" },
  { key: "directives", by: KEYED_MANIFEST_LISTS.directives, one: "directive", many: "directives" },
] as const;

// Key order aside, as the merge compares: a reordered object is no change.
const same = sameJson;

/** The entries of a manifest list by their key; anything that is not such a list counts as empty. */
function entriesBy(list: unknown, by: string): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  if (!Array.isArray(list)) return entries;
  for (const entry of list) {
    const key = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>)[by] : undefined;
    entries.set(typeof key === "string" ? key : JSON.stringify(entry), entry);
  }
  return entries;
}

/** "2 mental models changed, 1 added" for one keyed list; null when it is the same. */
function listChange(before: unknown, after: unknown, { by, one, many }: (typeof KEYED_LISTS)[number]): string | null {
  const [old, now] = [entriesBy(before, by), entriesBy(after, by)];
  const added = [...now.keys()].filter((k) => !old.has(k)).length;
  const removed = [...old.keys()].filter((k) => !now.has(k)).length;
  const changed = [...now.keys()].filter((k) => old.has(k) && !same(old.get(k), now.get(k))).length;
  const parts = [
    changed && `${plural(changed, one, many)} changed`,
    added && `${changed ? added : plural(added, one, many)} added`,
    removed && `${changed || added ? removed : plural(removed, one, many)} removed`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/**
 * What an update would change, in a few words per part: "description changed; 2 mental models
 * changed; bank settings changed". Empty when the contents are the same.
 */
export function describeUpdate(current: TemplateContent, latest: TemplateContent): string[] {
  const changes: string[] = DETAIL_KEYS.filter((f) => !same(current[f], latest[f])).map((f) => `${detailLabel(f).toLowerCase()} changed`);
  const [before, after] = [current.manifest, latest.manifest];
  if (!same(before.bank, after.bank)) changes.push("bank settings changed");
  for (const list of KEYED_LISTS) {
    const change = listChange(before[list.key], after[list.key], list);
    if (change) changes.push(change);
  }
  const otherKeys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of ["bank", ...KEYED_LISTS.map((l) => l.key)]) otherKeys.delete(key);
  for (const key of [...otherKeys].sort()) if (!same(before[key], after[key])) changes.push(`${key} changed`);
  return changes;
}
