import type { CallResult } from "@/lib/client/api";
import type { endpoints } from "@/lib/client/endpoints";

/** One entry of a bank's history (CONTRACT §16): an import or a change of its policy. */
export type HistoryEntry = CallResult<typeof endpoints.banks.history>["entries"][number];
export type PolicyChange = Extract<HistoryEntry, { kind: "policy" }>;

export type PolicyChangeKind = "created" | "changed" | "deleted" | "restored";

/** A policy change in a word: a restore (whatever it did), else what the PUT or DELETE did. */
export function policyChangeKind(change: Pick<PolicyChange, "before" | "after" | "restored_from">): PolicyChangeKind {
  if (change.restored_from !== null) return "restored";
  if (change.after === null) return "deleted";
  return change.before === null ? "created" : "changed";
}

const toTheSecond = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** When a change was made, to the second: a policy is often changed, and restored, within one minute. */
export function formatChangeTime(iso: string): string {
  return toTheSecond.format(new Date(iso));
}

/**
 * The policy as a change left it, in words: "the version of 28 Nov 2026, 09:40:12 by nadia"
 * (what a restore put back, named by the change that made it).
 */
export const versionLeftBy = (change: Pick<PolicyChange, "at" | "actor">): string =>
  `the version of ${formatChangeTime(change.at)} by ${change.actor}`;
