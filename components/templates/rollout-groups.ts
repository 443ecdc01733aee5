import type { BankRolloutOutcome } from "@/lib/client/hooks/banks";
import type { ImportChanges, ImportResult } from "@/lib/contracts/banks/schemas";
import type { MergeConflict } from "@/lib/contracts/problem-schema";
import { plural } from "@/lib/shared/plural";
import { sameJson } from "@/lib/shared/same-json";

/** What a merged rollout keeps of a bank's own edits: what applying without merge would overwrite and the merge leaves (whole or in part). */
export interface KeptEdits {
  config: string[];
  mentalModels: string[];
  directives: string[];
}

/** What the preview of a merged rollout knows of one bank besides its dry run. */
export interface MergeFacts {
  /** The bank's `locally_modified`; null when it could not be read. */
  editedHere: boolean | null;
  /** Null when the apply without merge could not be previewed. */
  kept: KeptEdits | null;
}

/** Banks whose preview came out the same: the same changes, or the same failure. */
export interface PreviewGroup {
  /** The group's banks, in the order they were previewed. */
  bankIds: string[];
  /** What each of them would get; null when they would fail (then `reason`). */
  preview: { result: ImportResult; changes: ImportChanges } | null;
  /** Why they would fail; null when they would not. */
  reason: string | null;
  /** With merge: the bank's edits and what the merge keeps of them (alike for the whole group). */
  merge: MergeFacts | null;
  /** A merge's conflicts, the group's only bank's own (a 409 merge-conflict); null when there are none. */
  conflicts: MergeConflict[] | null;
}

/** How many things a bank would see change: config fields, mental models and directives. */
const changeCount = (changes: ImportChanges) => changes.config.length + changes.mental_models.length + changes.directives.length;

/**
 * The edits a merge keeps (CONTRACT §21): each config field, mental model and directive that the apply
 * without merge (`plain`) would set and the merge (`merged`) sets otherwise or leaves alone. Both are
 * dry runs of the same bank, so what differs is the bank's own.
 */
export function keptByMerge(plain: ImportChanges, merged: ImportChanges): KeptEdits {
  const kept = <C extends { after: unknown }>(plainOnes: C[], mergedOnes: C[], key: (change: C) => string) => {
    const writes = new Map(mergedOnes.map((change) => [key(change), change.after]));
    return plainOnes.filter((change) => !writes.has(key(change)) || !sameJson(writes.get(key(change)), change.after)).map(key);
  };
  return {
    config: kept(plain.config, merged.config, (change) => change.field),
    mentalModels: kept(plain.mental_models, merged.mental_models, (change) => change.id),
    directives: kept(plain.directives, merged.directives, (change) => change.name),
  };
}

/** How many edits the merge keeps. */
export const keptCount = (kept: KeptEdits) => kept.config.length + kept.mentalModels.length + kept.directives.length;

/**
 * A rollout's dry run, banks grouped by what would happen to them (issue 33: 200 banks getting the
 * same three changes read as one group, not 200 copies): failures by their reason first, as they
 * need a look, then changes, the largest group first. The changes are compared as the server wrote
 * them, one import computing every bank's alike. With merge (`facts`, by bank), what the merge keeps
 * and whether the bank was edited here are part of what a group shares, and a bank with conflicts is
 * a group of its own: its choices are its own.
 */
export function groupPreviews(outcomes: readonly BankRolloutOutcome[], facts?: ReadonlyMap<string, MergeFacts>): PreviewGroup[] {
  const groups = new Map<string, PreviewGroup>();
  for (const outcome of outcomes) {
    const found = outcome.result?.import_result && outcome.result.changes;
    const preview = found ? { result: outcome.result!.import_result!, changes: outcome.result!.changes! } : null;
    const conflicts = outcome.result?.problem?.conflicts?.length ? outcome.result.problem.conflicts : null;
    const merge = facts?.get(outcome.bankId) ?? null;
    const key = conflicts
      ? `conflicts:${outcome.bankId}`
      : preview
        ? `changes:${JSON.stringify([preview.result.config_applied, preview.changes, merge])}`
        : `failure:${outcome.reason ?? "unknown"}`;
    const group = groups.get(key);
    if (group) group.bankIds.push(outcome.bankId);
    else {
      const reason = preview ? null : (outcome.reason ?? "No reason was given.");
      groups.set(key, { bankIds: [outcome.bankId], preview, reason, merge, conflicts });
    }
  }
  const all = [...groups.values()];
  const bySize = (a: PreviewGroup, b: PreviewGroup) => b.bankIds.length - a.bankIds.length;
  return [...all.filter((g) => g.preview === null).sort(bySize), ...all.filter((g) => g.preview !== null).sort(bySize)];
}

/** "3 banks get the same 2 changes", "notes-1 gets 1 change", "2 banks would fail for the same reason". */
export function groupHeading({ bankIds, preview, conflicts }: PreviewGroup): string {
  const one = bankIds.length === 1;
  const who = one ? bankIds[0]! : plural(bankIds.length, "bank");
  if (conflicts) return `${who}: ${plural(conflicts.length, "conflict")} to choose`;
  if (!preview) return one ? `${who} would fail` : `${who} would fail for the same reason`;
  const count = changeCount(preview.changes);
  if (count === 0) return `${who}: nothing changes`;
  return one ? `${who} gets ${plural(count, "change")}` : `${who} get the same ${plural(count, "change")}`;
}
