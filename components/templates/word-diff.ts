import { diffWords } from "diff";

/** A run of text of one side, and whether the other side has it too. */
export interface WordRun {
  text: string;
  /** `own`: only on this side; `shared`: on both. */
  kind: "own" | "shared";
}

/**
 * Two texts compared word by word (jsdiff's diffWords, the library of the line diff): each side's
 * text as runs, marking the words the other side does not have. Whitespace alone is no change.
 */
export function wordDiff(mine: string, theirs: string): { mine: WordRun[]; theirs: WordRun[] } {
  const out: { mine: WordRun[]; theirs: WordRun[] } = { mine: [], theirs: [] };
  for (const change of diffWords(mine, theirs)) {
    if (change.removed) out.mine.push({ text: change.value, kind: "own" });
    else if (change.added) out.theirs.push({ text: change.value, kind: "own" });
    else {
      out.mine.push({ text: change.value, kind: "shared" });
      out.theirs.push({ text: change.value, kind: "shared" });
    }
  }
  return out;
}
