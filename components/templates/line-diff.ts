import { diffLines } from "diff";

export type DiffLine =
  | { kind: "same"; oldNo: number; newNo: number; text: string }
  | { kind: "removed"; oldNo: number; text: string }
  | { kind: "added"; newNo: number; text: string };

/** Two texts compared line by line, with each line's number on its side. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const change of diffLines(before.endsWith("\n") ? before : `${before}\n`, after.endsWith("\n") ? after : `${after}\n`)) {
    const texts = change.value.replace(/\n$/, "").split("\n");
    for (const text of texts) {
      if (change.added) lines.push({ kind: "added", newNo: ++newNo, text });
      else if (change.removed) lines.push({ kind: "removed", oldNo: ++oldNo, text });
      else lines.push({ kind: "same", oldNo: ++oldNo, newNo: ++newNo, text });
    }
  }
  return lines;
}

/** `start`: the index of a gap's first folded line in the lines folded. */
export type Shown<T> = { kind: "lines"; lines: T[] } | { kind: "gap"; start: number; count: number };

/** The changed lines with `context` unchanged lines around them; longer runs of unchanged lines fold into gaps. */
export function foldUnchanged(lines: DiffLine[], context = 3): Shown<DiffLine>[] {
  const keep = lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.kind === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const out: Shown<DiffLine>[] = [];
  lines.forEach((line, i) => {
    const last = out[out.length - 1];
    if (keep[i]) {
      if (last?.kind === "lines") last.lines.push(line);
      else out.push({ kind: "lines", lines: [line] });
    } else if (last?.kind === "gap") last.count++;
    else out.push({ kind: "gap", start: i, count: 1 });
  });
  return out;
}

export interface SideBySideRow {
  left: { no: number; text: string; kind: "same" | "removed" } | null;
  right: { no: number; text: string; kind: "same" | "added" } | null;
}

/** Lines paired for two columns: a run of removed lines faces the run of added lines after it. */
export function sideBySide(lines: DiffLine[]): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.kind === "same") {
      rows.push({ left: { no: line.oldNo, text: line.text, kind: "same" }, right: { no: line.newNo, text: line.text, kind: "same" } });
      i++;
      continue;
    }
    const removed: Extract<DiffLine, { kind: "removed" }>[] = [];
    const added: Extract<DiffLine, { kind: "added" }>[] = [];
    while (i < lines.length && lines[i]!.kind === "removed") removed.push(lines[i++] as (typeof removed)[number]);
    while (i < lines.length && lines[i]!.kind === "added") added.push(lines[i++] as (typeof added)[number]);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const r = removed[k];
      const a = added[k];
      rows.push({
        left: r ? { no: r.oldNo, text: r.text, kind: "removed" } : null,
        right: a ? { no: a.newNo, text: a.text, kind: "added" } : null,
      });
    }
  }
  return rows;
}
