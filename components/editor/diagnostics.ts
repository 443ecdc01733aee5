import { locateJsonPath, pathSegments, syntaxErrorSpan } from "@/components/templates/json-text";
import type { JsonDiagnostic } from "./JsonEditor";

interface PathIssue {
  /** Where, as the API names it: `manifest.mental_models[1].id`. */
  path: string;
  message: string;
}

/**
 * The editor's markers: where the text stops being JSON (`syntaxMessage`), or else where each
 * issue sits, from the start of the named member (or array item) to the end of that line, so
 * the marker is on the line that reads `"name": ""`. A path that goes deeper than the text (a
 * missing field) marks the deepest part that is there; one not found at all is not marked.
 * `root` is the path's first segment, which stands for the whole text (pathSegments);
 * `source` names the path in the marker's message.
 */
export function jsonDiagnostics(
  text: string,
  syntaxMessage: string | null,
  { errors, warnings = [] }: { errors: readonly PathIssue[]; warnings?: readonly PathIssue[] },
  { root, source = (path) => path }: { root?: string; source?: (path: string) => string } = {},
): JsonDiagnostic[] {
  if (syntaxMessage !== null) {
    const span = syntaxErrorSpan(text, syntaxMessage);
    return span ? [{ from: span.start, to: Math.min(span.start + 1, text.length), severity: "error", message: syntaxMessage }] : [];
  }
  const located = (issue: PathIssue, severity: JsonDiagnostic["severity"]): JsonDiagnostic[] => {
    const span = locateJsonPath(text, pathSegments(issue.path, root));
    if (!span) return [];
    const lineEnd = text.indexOf("\n", span.start);
    const to = Math.min(span.end, lineEnd === -1 ? text.length : lineEnd);
    return [{ from: span.start, to: Math.max(to, span.start + 1), severity, message: issue.message, source: source(issue.path) }];
  };
  return [...errors.flatMap((e) => located(e, "error")), ...warnings.flatMap((w) => located(w, "warning"))];
}
