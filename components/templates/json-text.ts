// Helpers for JSON shown and edited as text: formatting, where a syntax error is, and where
// a validation path such as `manifest.mental_models[1].id` sits in the text.

/** The one way the console prints JSON: two-space indents, like the manifests people write. */
export const formatJson = (value: unknown) => JSON.stringify(value, null, 2);

export interface TextSpan {
  /** Offsets into the text, for selecting the span in a textarea. */
  start: number;
  end: number;
  /** 1-based, for people. */
  line: number;
  column: number;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

function spanAt(text: string, start: number, end = start): TextSpan {
  return { start, end, ...lineAndColumn(text, start) };
}

/** Where JSON.parse stopped, from its message ("… at position 25"), if it says. */
export function syntaxErrorSpan(text: string, message: string): TextSpan | null {
  const position = /at position (\d+)/.exec(message);
  if (position) return spanAt(text, Math.min(Number(position[1]), text.length));
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (!lineColumn) return null;
  const lines = text.split("\n");
  const line = Math.min(Number(lineColumn[1]), lines.length);
  const offset = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + Number(lineColumn[2]) - 1;
  return spanAt(text, Math.min(offset, text.length));
}

/** `manifest.mental_models[1].id` as segments below `root`: ["mental_models", 1, "id"]. */
export function pathSegments(path: string, root = "manifest"): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    segments.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  }
  if (segments[0] === root) segments.shift();
  return segments;
}

const WHITESPACE = new Set([" ", "\n", "\r", "\t"]);

/** A minimal scanner over text that is known to be valid JSON. */
class Scanner {
  constructor(private readonly text: string) {}

  skipSpace(i: number): number {
    while (i < this.text.length && WHITESPACE.has(this.text[i]!)) i++;
    return i;
  }

  /** The end of the string starting at `i` (a `"`). */
  stringEnd(i: number): number {
    i++;
    while (i < this.text.length) {
      const c = this.text[i];
      if (c === "\\") i += 2;
      else if (c === '"') return i + 1;
      else i++;
    }
    return i;
  }

  /** The end of the value starting at `i`. */
  valueEnd(i: number): number {
    const c = this.text[i];
    if (c === '"') return this.stringEnd(i);
    if (c === "{" || c === "[") {
      let depth = 0;
      while (i < this.text.length) {
        const d = this.text[i];
        if (d === '"') {
          i = this.stringEnd(i);
          continue;
        }
        if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") {
          depth--;
          if (depth === 0) return i + 1;
        }
        i++;
      }
      return i;
    }
    while (i < this.text.length && !WHITESPACE.has(this.text[i]!) && !",}]".includes(this.text[i]!)) i++;
    return i;
  }

  /** The members of the object at `i`: key span and value start. */
  *members(i: number): Generator<{ key: string; keyStart: number; valueStart: number; valueEnd: number }> {
    let j = this.skipSpace(i + 1);
    while (j < this.text.length && this.text[j] === '"') {
      const keyStart = j;
      const keyEnd = this.stringEnd(j);
      const key = JSON.parse(this.text.slice(keyStart, keyEnd)) as string;
      const valueStart = this.skipSpace(this.skipSpace(keyEnd) + 1);
      const valueEnd = this.valueEnd(valueStart);
      yield { key, keyStart, valueStart, valueEnd };
      j = this.skipSpace(valueEnd);
      if (this.text[j] === ",") j = this.skipSpace(j + 1);
    }
  }

  /** The items of the array at `i`. */
  *items(i: number): Generator<{ valueStart: number; valueEnd: number }> {
    let j = this.skipSpace(i + 1);
    while (j < this.text.length && this.text[j] !== "]") {
      const valueEnd = this.valueEnd(j);
      yield { valueStart: j, valueEnd };
      j = this.skipSpace(valueEnd);
      if (this.text[j] === ",") j = this.skipSpace(j + 1);
    }
  }
}

/**
 * Where a path points in JSON text: an object member's key (so the line reads `"id": …`) or
 * an array item. When the path goes deeper than the text (a missing field), the deepest
 * part that exists, with `exact: false`. Null when the text is not JSON.
 */
export function locateJsonPath(text: string, segments: (string | number)[]): (TextSpan & { exact: boolean }) | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  const scan = new Scanner(text);
  const rootStart = scan.skipSpace(0);
  let span = { start: rootStart, end: scan.valueEnd(rootStart), valueStart: rootStart };
  for (const segment of segments) {
    const opener = text[span.valueStart];
    let found: typeof span | null = null;
    if (typeof segment === "string" && opener === "{") {
      for (const member of scan.members(span.valueStart)) {
        if (member.key === segment) {
          found = { start: member.keyStart, end: member.valueEnd, valueStart: member.valueStart };
          break;
        }
      }
    } else if (typeof segment === "number" && opener === "[") {
      let index = 0;
      for (const item of scan.items(span.valueStart)) {
        if (index++ === segment) {
          found = { start: item.valueStart, end: item.valueEnd, valueStart: item.valueStart };
          break;
        }
      }
    }
    if (!found) return { ...spanAt(text, span.start, span.end), exact: false };
    span = found;
  }
  return { ...spanAt(text, span.start, span.end), exact: true };
}
