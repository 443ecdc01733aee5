import type { z } from "zod";
import type { BankSummary } from "@/lib/contracts/banks/schemas";

/** The newest version of the template a bank was last applied from: what a rollout would apply now. */
export type NewestVersion = NonNullable<z.output<typeof BankSummary>["newest_version"]>;

/**
 * A rollback is a newer version number holding older content: rolling it out takes banks back.
 * Every place that says a bank is behind, or offers a rollout, names it as such (issue 33).
 */
export const isRollback = (newest: NewestVersion | null | undefined): boolean => newest?.action === "rollback";

/** "version 4 restores version 1"; "version 4 is a rollback" when the rollback was recorded before it kept which version it restored. */
const restoresLabel = (newest: NewestVersion) =>
  newest.restored_version === null
    ? `version ${newest.version} is a rollback`
    : `version ${newest.version} restores version ${newest.restored_version}`;

/** What the banks go back to: "version 1's content", or "an earlier version's content". */
const restoredContent = (newest: NewestVersion) =>
  newest.restored_version === null ? "an earlier version's content" : `version ${newest.restored_version}'s content`;

/** The colour of a behind badge: a rollback stands apart from an ordinary newer version. */
export const behindColor = (newest: NewestVersion | null | undefined) => (isRollback(newest) ? "grape" : "orange");

/**
 * A bank page's behind badge: "Behind: version 2 available", or "Behind: rollback" (short enough
 * for a phone; the warning beside it says which version it restores).
 */
export function behindLabel(newest: NewestVersion | null | undefined): string {
  if (!newest) return "Behind: a newer version is available";
  return isRollback(newest) ? ROLLBACK_BADGE : `Behind: version ${newest.version} available`;
}

/** The badge of a bank behind a rollback, in lists and on its page. */
export const ROLLBACK_BADGE = "Behind: rollback";

/** Why a bank is behind, after its template's ref: "personal/notes has a newer version", or what its rollback would do. */
export function behindReason(template: string, newest: NewestVersion | null | undefined): string {
  if (!newest || !isRollback(newest)) return `${template} has a newer version`;
  return `${template} ${restoresLabel(newest)}: rolling it out takes this bank back to ${restoredContent(newest)}`;
}

/**
 * The warning beside a rollout of a rollback, for one bank or several: "Version 4 restores
 * version 1: rolling it out takes these banks back to version 1's content." Null for any other version.
 */
export function rollbackWarning(newest: NewestVersion | null | undefined, banks: "this bank" | "these banks"): string | null {
  if (!newest || !isRollback(newest)) return null;
  const label = restoresLabel(newest);
  return `${label[0]!.toUpperCase()}${label.slice(1)}: rolling it out takes ${banks} back to ${restoredContent(newest)}.`;
}
