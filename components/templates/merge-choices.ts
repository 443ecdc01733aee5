import { CONTENT_FIELDS, type ContentKey, type TemplateContent } from "@/lib/contracts/templates/content-fields";
import { KEYED_MANIFEST_LISTS, type MergeConflict, type MergeResolutions } from "@/lib/contracts/templates/merge";
import { formatJson, pathSegments } from "./json-text";

// What a person chooses for each conflict of a merge on the update review page, and the
// resolutions (CONTRACT §21) those choices send: a side, or a value of their own, edited as text.

/** One conflict's choice: mine, upstream's, or an edited value (as the text being typed). */
export type MergeChoice = { take: "local" | "upstream" } | { take: "value"; text: string };

type Side = "local" | "upstream";

/** The side an edited value starts from: mine, or upstream's where mine deleted the path. */
const startSide = (conflict: MergeConflict): Side => (conflict.missing.includes("local") ? "upstream" : "local");

/** The sides that hold the path. */
const present = (conflict: MergeConflict): Side[] => (["local", "upstream"] as const).filter((side) => !conflict.missing.includes(side));

/** Whether the conflict's value is text (each side holding the path holds a string): edited as plain text, compared word by word. */
export const isTextConflict = (conflict: MergeConflict) => present(conflict).every((side) => typeof conflict[side] === "string");

/** A side's value as the editor shows it: text as it is, anything else as JSON. */
export const editableText = (conflict: MergeConflict, side: Side): string =>
  isTextConflict(conflict) ? String(conflict[side] ?? "") : formatJson(conflict[side]);

/** The choice "an edited value", starting from mine (or upstream's, where mine is deleted). */
export const editedChoice = (conflict: MergeConflict): MergeChoice => ({
  take: "value",
  text: editableText(conflict, startSide(conflict)),
});

const isStrings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");

/** Why a template detail cannot hold `value` (a name is text, a list is texts, …); null when it can. The API checks the rest. */
function detailProblem(key: ContentKey, value: unknown): string | null {
  switch (CONTENT_FIELDS[key].kind) {
    case "text":
      return typeof value === "string" && value.trim() ? null : "must be text, and not blank";
    case "text?":
      return typeof value === "string" || value === null ? null : "must be text";
    case "list":
      return isStrings(value) ? null : 'must be a list of texts, such as ["a", "b"]';
    case "manifest":
      return null;
  }
}

/** The value an edited choice gives, or why it cannot be taken (not JSON, or not what its field holds). */
export function editedValue(conflict: MergeConflict, text: string): { value: unknown } | { problem: string } {
  let value: unknown = text;
  if (!isTextConflict(conflict)) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { problem: `is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const key = conflict.path as ContentKey;
  const problem = Object.hasOwn(CONTENT_FIELDS, key) ? detailProblem(key, value) : null;
  return problem ? { problem } : { value };
}

/**
 * The resolutions the choices make, by path; null while a conflict has no choice or an edited
 * value that cannot be taken.
 */
export function resolutionsOf(
  conflicts: readonly MergeConflict[],
  choices: Readonly<Record<string, MergeChoice>>,
): MergeResolutions | null {
  const resolutions: Record<string, MergeResolutions[string]> = {};
  for (const conflict of conflicts) {
    const choice = choices[conflict.path];
    if (!choice) return null;
    if (choice.take !== "value") {
      resolutions[conflict.path] = { take: choice.take };
      continue;
    }
    const edited = editedValue(conflict, choice.text);
    if ("problem" in edited) return null;
    resolutions[conflict.path] = { take: "value", value: edited.value };
  }
  return resolutions;
}

const LISTS: Record<string, { label: string; key: string }> = {
  mental_models: { label: "Mental model", key: KEYED_MANIFEST_LISTS.mental_models },
  directives: { label: "Directive", key: KEYED_MANIFEST_LISTS.directives },
};

/** What names the entries a conflict's path points into: a template's content, or a bank's as a manifest. */
type HasManifest = Pick<TemplateContent, "manifest"> | { manifest: Record<string, unknown> };

/**
 * A conflict's path in words: "Name", "Directive “Be kind”: content", "Bank setting
 * retain_mission". An entry's index is in my manifest, or in upstream's when mine lacks it.
 */
export function conflictTitle(conflict: MergeConflict, local: HasManifest, upstream: HasManifest): string {
  const [first, ...rest] = pathSegments(conflict.path, "");
  if (first !== "manifest") return Object.hasOwn(CONTENT_FIELDS, String(first)) ? CONTENT_FIELDS[first as ContentKey].label : conflict.path;
  const [part, index, ...within] = rest;
  const list = typeof part === "string" && Object.hasOwn(LISTS, part) ? LISTS[part]! : null;
  if (list && typeof index === "number") {
    const entryOf = (content: HasManifest) => (content.manifest[part as string] as Record<string, unknown>[] | undefined)?.[index];
    const entry = (within.length === 0 && conflict.missing.includes("local") ? undefined : entryOf(local)) ?? entryOf(upstream);
    const name = entry?.name ?? entry?.[list.key];
    const title = typeof name === "string" ? `${list.label} “${name}”` : `${list.label} ${index + 1}`;
    return within.length ? `${title}: ${within.join(".")}` : title;
  }
  if (part === "bank" && index !== undefined) return `Bank setting ${[index, ...within].join(".")}`;
  return `Manifest ${rest.join(".")}`;
}
