import type { BankRolloutOutcome } from "@/lib/client/hooks/banks";
import type { ImportChanges, ImportResult } from "@/lib/contracts/banks/schemas";
import { plural } from "@/lib/shared/plural";

/** Banks whose preview came out the same: the same changes, or the same failure. */
export interface PreviewGroup {
  /** The group's banks, in the order they were previewed. */
  bankIds: string[];
  /** What each of them would get; null when they would fail (then `reason`). */
  preview: { result: ImportResult; changes: ImportChanges } | null;
  /** Why they would fail; null when they would not. */
  reason: string | null;
}

/** How many things a bank would see change: config fields, mental models and directives. */
const changeCount = (changes: ImportChanges) => changes.config.length + changes.mental_models.length + changes.directives.length;

/**
 * A rollout's dry run, banks grouped by what would happen to them (issue 33: 200 banks getting the
 * same three changes read as one group, not 200 copies): failures by their reason first, as they
 * need a look, then changes, the largest group first. The changes are compared as the server wrote
 * them, one import computing every bank's alike.
 */
export function groupPreviews(outcomes: readonly BankRolloutOutcome[]): PreviewGroup[] {
  const groups = new Map<string, PreviewGroup>();
  for (const outcome of outcomes) {
    const found = outcome.result?.import_result && outcome.result.changes;
    const preview = found ? { result: outcome.result!.import_result!, changes: outcome.result!.changes! } : null;
    const key = preview
      ? `changes:${JSON.stringify([preview.result.config_applied, preview.changes])}`
      : `failure:${outcome.reason ?? "unknown"}`;
    const group = groups.get(key);
    if (group) group.bankIds.push(outcome.bankId);
    else groups.set(key, { bankIds: [outcome.bankId], preview, reason: preview ? null : (outcome.reason ?? "No reason was given.") });
  }
  const all = [...groups.values()];
  const bySize = (a: PreviewGroup, b: PreviewGroup) => b.bankIds.length - a.bankIds.length;
  return [...all.filter((g) => g.preview === null).sort(bySize), ...all.filter((g) => g.preview !== null).sort(bySize)];
}

/** "3 banks get the same 2 changes", "notes-1 gets 1 change", "2 banks would fail for the same reason". */
export function groupHeading({ bankIds, preview }: PreviewGroup): string {
  const one = bankIds.length === 1;
  const who = one ? bankIds[0]! : plural(bankIds.length, "bank");
  if (!preview) return one ? `${who} would fail` : `${who} would fail for the same reason`;
  const count = changeCount(preview.changes);
  if (count === 0) return `${who}: nothing changes`;
  return one ? `${who} gets ${plural(count, "change")}` : `${who} get the same ${plural(count, "change")}`;
}
