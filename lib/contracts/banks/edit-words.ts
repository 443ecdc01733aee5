import type { z } from "zod";
import type { BankEdit, BankRestore } from "./schemas";

type EditState = z.input<typeof BankEdit>["before"];

/** One touched list's entries in words: "mental model facts created", "directive Be brief removed". */
function entryWords(what: string, before: EditState[keyof EditState], after: EditState[keyof EditState]): string[] {
  const was = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  return Object.keys(now).map((key) => {
    const change = was[key] == null ? "created" : now[key] == null ? "removed" : "replaced";
    return `${what} ${key} ${change}`;
  });
}

/**
 * What an edit of a bank in place did (CONTRACT §21), in a line for its history entry: "renamed;
 * config: retain_mission, disposition_empathy", "mental model facts replaced". The console's history
 * and the CLI's say it alike.
 */
export function editDid({ before, after }: Pick<z.input<typeof BankEdit>, "before" | "after">): string {
  const parts = [
    after.name !== undefined ? `renamed to ${after.name}` : "",
    after.config !== undefined ? `config: ${Object.keys(after.config).join(", ") || "nothing"}` : "",
    ...entryWords("mental model", before.mental_models, after.mental_models),
    ...entryWords("directive", before.directives, after.directives),
  ].filter(Boolean);
  return parts.length ? parts.join("; ") : "nothing";
}

/** What a restore of a bank did, in a line for its history entry; the console's history and the CLI's say it alike. */
export const restoredWhat = ({ restored_from }: Pick<z.input<typeof BankRestore>, "restored_from">) =>
  `content put back as it was right after entry ${restored_from}`;
